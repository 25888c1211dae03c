"""The table service: live tables, their timers, AI seats and checkpoints.

It speaks ids and engine events, never discord.
"""
