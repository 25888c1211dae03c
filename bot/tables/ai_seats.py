"""How the table service asks an AI for a decision: one interface for every level.

The AI itself lives in ``engine.ai`` (pure and synchronous); ``AISeats`` is
the only place the service calls it. The heuristic levels answer in
microseconds and decide inline. The searching level thinks for tens of
milliseconds per decision: in the event loop that would hold up every other
table's clicks (a table of hard seats, hundreds of milliseconds a turn), so it
thinks in a worker process, on another core, while the bot goes on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import random
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any

from engine import Game, GameConfig, Variant, action_from_dict, action_to_dict
from engine.actions import Action
from engine.ai import choose_action
from engine.ai.coach import Hint, NoHint, hint
from engine.anniversary import SpecialOutlook, special_outlook

from .workers import WorkerPool

log = logging.getLogger(__name__)

#: (game, seat, level, rng) -> an engine action that is legal for that seat now.
AIDecider = Callable[[Game, int, str, random.Random], Action]

#: Levels that search (and so think in the worker process).
SEARCHING_LEVELS = frozenset({"hard"})

#: Tables whose AI failure is remembered as logged in full (the most recent ones).
WARNED_TABLES = 1024

#: Searching decisions whose wall time the health check summarises (the most recent ones).
TIMED_DECISIONS = 2048


def default_decider(game: Game, seat: int, level: str, rng: random.Random) -> Action:
    return choose_action(game, seat, level, rng)


def decide_from_state(state: dict[str, Any], seat: int, level: str, seed: str) -> dict[str, Any]:
    """The worker's side: rebuild the game, decide, send the action back as a dict."""
    return action_to_dict(default_decider(Game.from_dict(state), seat, level, random.Random(seed)))


def hint_from_state(state: dict[str, Any], seat: int, seed: str) -> Hint:
    """The worker's side of a coach's hint: an ``engine.ai.coach.Hint`` (raises ``NoHint``)."""
    return hint(Game.from_dict(state), seat, random.Random(seed))


def outlook_from_state(state: dict[str, Any]) -> SpecialOutlook:
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
    ``pool`` is the process's worker (the service's, shared with the pictures); by default
    one of its own.
    """

    def __init__(self, decider: AIDecider | None = None, pool: WorkerPool | None = None) -> None:
        self._decider = decider
        self.pool = pool if pool is not None else WorkerPool(warm_up)
        self.fallbacks = 0  # searching decisions the worker failed and medium made instead
        self.crashes = 0  # failures (of decisions and outlooks) the AI itself raised: a bug, not a worker down
        # Tables whose failure was logged in full, the most recent WARNED_TABLES (a long run meets
        # many tables; one that comes back after it was let go is logged in full once more).
        self._warned: OrderedDict[str, None] = OrderedDict()
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

    async def decide(self, game: Game, seat: int, level: str, seed: str) -> Action:
        if self._decider is not None:
            return self._decider(game, seat, level, random.Random(seed))
        if level not in SEARCHING_LEVELS:
            return default_decider(game, seat, level, random.Random(seed))
        started = time.perf_counter()
        try:
            action = action_from_dict(await self.pool.run(decide_from_state, game.to_dict(), seat, level, seed))
        except Exception as exc:
            # The player's own move is already applied: a table must not stall on its AI seat.
            # Counted and shown by the health check; logged in full once per table, not per turn.
            self.fallbacks += 1
            self._failed(
                exc, f"seat {seat}'s decision", "the medium heuristic makes it", seed.split(":", 1)[0]
            )  # the table's seed
            return default_decider(game, seat, "medium", random.Random(seed))
        self.decisions += 1
        self.decision_ms.append(1000 * (time.perf_counter() - started))
        return action

    def _failed(self, exc: Exception, what: str, instead: str, table: str) -> None:
        """Log a failure of the worker's job ``what`` (at the table with seed ``table``), which
        ``instead`` stands in for: a crash of the AI itself (a bug, with its traceback) apart from a
        worker that is down (it is replaced by itself)."""
        crashed = not self._worker_down(exc)
        if crashed:
            self.crashes += 1
        first = table not in self._warned
        self._warned[table] = None
        self._warned.move_to_end(table)
        while len(self._warned) > WARNED_TABLES:
            self._warned.popitem(last=False)
        if crashed:
            log.log(
                logging.ERROR if first else logging.WARNING,
                "the AI crashed working out %s (%s: %s); %s (%d crash(es), %d fallback(s) since start)",
                what,
                type(exc).__name__,
                exc,
                instead,
                self.crashes,
                self.fallbacks,
                exc_info=first,
            )
        else:
            log.log(
                logging.WARNING if first else logging.DEBUG,
                "the AI's worker is down (%s: %s) for %s; %s (%d fallback(s) since start)",
                type(exc).__name__,
                exc,
                what,
                instead,
                self.fallbacks,
            )

    def _worker_down(self, exc: Exception) -> bool:
        """Whether ``exc`` says the worker could not be reached (dead, being replaced, shut down),
        rather than that the AI raised: the worker re-raises the AI's own errors as they were."""
        return isinstance(exc, (BrokenExecutor, concurrent.futures.CancelledError)) or not self.pool.alive

    async def hint(self, game: Game, seat: int, seed: str) -> Hint:
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
        except Exception as exc:
            # The answer is needed now: worked out in a thread of this process, so the event loop
            # goes on answering clicks (the game is the caller's, under its table's lock, meanwhile).
            self._failed(exc, "a special-card outlook", "a thread of the bot works it out", "outlook")
            return await asyncio.to_thread(special_outlook, game)

    async def close(self) -> None:
        await self.pool.close()
