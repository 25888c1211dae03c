"""How the table service asks an AI for a decision: one interface for every level.

The AI itself lives in ``engine.ai`` (pure and synchronous); ``AISeats`` is
the only place the service calls it. The heuristic levels answer in
microseconds and decide inline. The searching level thinks for tens of
milliseconds per decision: in the event loop that would hold up every other
table's clicks (a table of hard seats, hundreds of milliseconds a turn), so it
thinks in a worker process, on another core, while the bot goes on.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from engine import Game, action_from_dict, action_to_dict
from engine.ai import choose_action

from .workers import WorkerPool

log = logging.getLogger(__name__)

#: (game, seat, level, rng) -> an engine action that is legal for that seat now.
AIDecider = Callable[[Game, int, str, random.Random], object]

#: Levels that search (and so think in the worker process).
SEARCHING_LEVELS = frozenset({"hard"})


def default_decider(game: Game, seat: int, level: str, rng: random.Random):
    return choose_action(game, seat, level, rng)


def decide_from_state(state: dict, seat: int, level: str, seed: str) -> dict:
    """The worker's side: rebuild the game, decide, send the action back as a dict."""
    return action_to_dict(default_decider(Game.from_dict(state), seat, level, random.Random(seed)))


class AISeats:
    """Decisions for AI seats (and for absent players) without blocking the event loop.

    ``seed`` makes each decision's randomness reproducible: the same table,
    step and seat give the same ``random.Random`` wherever the AI thinks.
    A ``decider`` given by a test replaces the AI and is always called inline.
    """

    def __init__(self, decider: AIDecider | None = None) -> None:
        self._decider = decider
        self.pool = WorkerPool()  # its process starts with the first searching decision

    async def decide(self, game: Game, seat: int, level: str, seed: str):
        if self._decider is not None:
            return self._decider(game, seat, level, random.Random(seed))
        if level not in SEARCHING_LEVELS:
            return default_decider(game, seat, level, random.Random(seed))
        try:
            return action_from_dict(await self.pool.run(decide_from_state, game.to_dict(), seat, level, seed))
        except Exception:
            # The player's own move is already applied: a table must not stall on its AI seat.
            log.warning("the searching AI failed; seat %s plays the medium heuristic this once", seat,
                        exc_info=True)
            return default_decider(game, seat, "medium", random.Random(seed))

    def close(self) -> None:
        self.pool.close()
