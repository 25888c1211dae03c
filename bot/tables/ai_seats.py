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
import os
import random
import time
from collections import deque
from collections.abc import Callable

from engine import Game, GameConfig, Variant, action_from_dict, action_to_dict
from engine.ai import choose_action
from engine.ai.coach import NoHint, hint
from engine.anniversary import SpecialOutlook, special_outlook

from .workers import WorkerPool

log = logging.getLogger(__name__)

#: (game, seat, level, rng) -> an engine action that is legal for that seat now.
AIDecider = Callable[[Game, int, str, random.Random], object]

#: Levels that search (and so think in the worker process).
SEARCHING_LEVELS = frozenset({"hard"})

#: Searching decisions whose wall time the health check summarises (the most recent ones).
TIMED_DECISIONS = 2048


def default_decider(game: Game, seat: int, level: str, rng: random.Random):
    return choose_action(game, seat, level, rng)


def decide_from_state(state: dict, seat: int, level: str, seed: str) -> dict:
    """The worker's side: rebuild the game, decide, send the action back as a dict."""
    return action_to_dict(default_decider(Game.from_dict(state), seat, level, random.Random(seed)))


def hint_from_state(state: dict, seat: int, seed: str):
    """The worker's side of a coach's hint: an ``engine.ai.coach.Hint`` (raises ``NoHint``)."""
    return hint(Game.from_dict(state), seat, random.Random(seed))


def outlook_from_state(state: dict) -> SpecialOutlook:
    """The worker's side of a special-card outlook: every legal play of the pause, played out."""
    return special_outlook(Game.from_dict(state))


def warm_up() -> int:
    """The worker's first job: import the AI and fill its caches with one small search, so a
    table's first hard decision costs what every later one does. Returns the worker's pid."""
    for players in range(2, 11):
        game = Game.new(GameConfig(players, rounds=1, target=None), seed=players)
        choose_action(game, 0, "hard", random.Random(0), budget_sims=8)
    game = Game.new(GameConfig(5, Variant.ANNIVERSARY), seed=0)  # its search has a kernel of its own
    choose_action(game, 0, "hard", random.Random(0), budget_sims=8)
    return os.getpid()


class AISeats:
    """Decisions for AI seats (and for absent players) without blocking the event loop.

    ``seed`` makes each decision's randomness reproducible: the same table,
    step and seat give the same ``random.Random`` wherever the AI thinks.
    A ``decider`` given by a test replaces the AI and is always called inline.
    """

    def __init__(self, decider: AIDecider | None = None) -> None:
        self._decider = decider
        self.pool = WorkerPool(warm_up)
        self.fallbacks = 0  # searching decisions the worker failed and medium made instead
        self._warned: set[str] = set()  # tables whose fallback was logged as a warning
        self.decisions = 0  # searching decisions asked of the worker since start
        # What a player waits for a hard seat: wall ms from asking to the answer, queue included.
        self.decision_ms: deque[float] = deque(maxlen=TIMED_DECISIONS)

    def start(self) -> None:
        """Spawn and warm the worker now (the bot's start-up), not at the first hard decision;
        from then on a dead worker is replaced at once. Needs a running event loop."""
        if self._decider is None:
            self.pool.start()

    def searches(self, level: str | None) -> bool:
        """Whether ``level``'s decisions are thought out in the worker (tens of milliseconds)."""
        return self._decider is None and level in SEARCHING_LEVELS

    async def decide(self, game: Game, seat: int, level: str, seed: str):
        if self._decider is not None:
            return self._decider(game, seat, level, random.Random(seed))
        if level not in SEARCHING_LEVELS:
            return default_decider(game, seat, level, random.Random(seed))
        started = time.perf_counter()
        try:
            action = action_from_dict(await self.pool.run(decide_from_state, game.to_dict(), seat, level, seed))
            self.decisions += 1
            self.decision_ms.append(1000 * (time.perf_counter() - started))
            return action
        except Exception:
            # The player's own move is already applied: a table must not stall on its AI seat.
            # Counted and shown by the health check; a warning once per table, not per turn.
            self.fallbacks += 1
            table = seed.split(":", 1)[0]  # the table's seed: "table seed:step:seat"
            first = table not in self._warned
            self._warned.add(table)
            log.log(logging.WARNING if first else logging.DEBUG,
                    "the searching AI failed; seat %s plays the medium heuristic instead "
                    "(%d fallback(s) since start)", seat, self.fallbacks, exc_info=first)
            return default_decider(game, seat, "medium", random.Random(seed))

    async def hint(self, game: Game, seat: int, seed: str):
        """The coach's hint for ``seat`` (``engine.ai.coach``), thought out in the worker like a
        hard decision; raises ``NoHint`` when there is nothing to hint, and what the worker raised
        if it failed (a hint is not worth a fallback)."""
        if seat not in game.waiting_for:  # answered here: no trip to the worker for a no
            raise NoHint(f"the game is not waiting for seat {seat}")
        if self._decider is not None:  # tests that replace the AI think inline
            return hint(game, seat, random.Random(seed))
        return await self.pool.run(hint_from_state, game.to_dict(), seat, seed)

    async def outlook(self, game: Game) -> SpecialOutlook:
        """Where each answer to the game's special-card pause leads (``special_outlook``). A few
        dozen plays, each on a copy of the game: up to 100 ms at a table of eight, so it is worked
        out in the worker whenever that runs, never on the event loop that answers clicks."""
        if self._decider is not None or not self.pool.started:
            return special_outlook(game)  # tests that replace the AI, and --sync, think inline
        try:
            return await self.pool.run(outlook_from_state, game.to_dict())
        except Exception:  # the worker died or is being replaced: the answer is needed now
            log.warning("the worker could not work out a special-card outlook; worked out here", exc_info=True)
            return special_outlook(game)

    def close(self) -> None:
        self.pool.close()
