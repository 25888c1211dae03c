"""The table service: live tables, their timers, AI seats and checkpoints. Speaks ids and engine events, never discord."""
