"""Deadlines for tables: one background task sleeps until the earliest one.

Deadlines are wall-clock epoch seconds, so they survive a restart in a
checkpoint and show in Discord as ``<t:…:R>``. The clock is injectable: tests
move a fake clock forward and call ``wake()``.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

from .transactions import UNREACHABLE

log = logging.getLogger(__name__)

Callback = Callable[[int], Awaitable[None]]

#: The pause before the first retry of a deadline whose handler failed; it doubles, up to RETRY_MOST.
RETRY_FIRST, RETRY_MOST = 1.0, 60.0


def backoff(attempt: int, first: float = RETRY_FIRST, most: float = RETRY_MOST) -> float:
    """The pause before try ``attempt`` + 1 (``attempt`` >= 1 failed so far): doubling, capped."""
    return min(first * 2.0 ** (attempt - 1), most)


class Scheduler:
    """Calls ``callback(key)`` once the clock passes the key's deadline."""

    def __init__(self, callback: Callback, clock: Callable[[], float] = time.time) -> None:
        self._callback = callback
        self.clock = clock
        self._deadlines: dict[int, float] = {}
        self._heap: list[tuple[float, int]] = []
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._failures: dict[int, int] = {}  # key -> failed tries of its handler in a row
        self._stopping = False

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="table-deadlines")

    async def stop(self) -> None:
        self._stopping = True
        self._changed.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)

    def set(self, key: int, deadline: float | None) -> None:
        """Schedule (or with ``None`` cancel) the deadline of ``key``."""
        self._failures.pop(key, None)
        if deadline is None:
            self._deadlines.pop(key, None)
        elif self._deadlines.get(key) != deadline:
            self._deadlines[key] = deadline
            heapq.heappush(self._heap, (deadline, key))
        if len(self._heap) > 2 * len(self._deadlines) + 64:
            self._compact()
        self._changed.set()

    def _compact(self) -> None:
        """Drop the heap's entries of cancelled and moved deadlines.

        They would leave only when their time comes, and a deadline is minutes away: every
        turn of every game in the last half hour would stay in memory (a few MB at load)."""
        self._heap = [(deadline, key) for key, deadline in self._deadlines.items()]
        heapq.heapify(self._heap)

    def deadline(self, key: int) -> float | None:
        return self._deadlines.get(key)

    def wake(self) -> None:
        """Look at the clock again now (after a fake clock moved)."""
        self._changed.set()

    async def _run(self) -> None:
        while not self._stopping:
            self._changed.clear()
            now = self.clock()
            while self._heap:
                deadline, key = self._heap[0]
                if self._deadlines.get(key) != deadline:  # cancelled or moved
                    heapq.heappop(self._heap)
                    continue
                if deadline > now:
                    break
                heapq.heappop(self._heap)
                del self._deadlines[key]
                task = asyncio.create_task(self._fire(key))
                self._running.add(task)
                task.add_done_callback(self._running.discard)
            timeout = self._heap[0][0] - now if self._heap else None
            if self._stopping:
                return
            # asyncio.timeout, not wait_for: 3.11's wait_for can lose a cancellation
            # that races with the event being set, and stop() would hang.
            try:
                async with asyncio.timeout(timeout):
                    await self._changed.wait()
            except TimeoutError:
                pass

    def failures(self, key: int) -> int:
        """How often ``key``'s handler has failed in a row (0 once it went through or was set anew)."""
        return self._failures.get(key, 0)

    async def _fire(self, key: int) -> None:
        try:
            await self._callback(key)
        except Exception as exc:  # a failing table must not stop every other table's timers
            if self._stopping or key in self._deadlines:
                return  # set anew meanwhile (a click went through): that deadline stands
            # Tried again later, with a growing pause: a database that is away for a minute
            # costs a handful of tries and log lines, never a loop.
            attempt = self._failures.get(key, 0) + 1
            pause = backoff(attempt)
            if attempt == 1:
                # A traceback only for what is not the database being away: that is a bug.
                log.warning(
                    "deadline of table %s failed (%s: %s); trying again in %.0f s, then less often",
                    key,
                    type(exc).__name__,
                    exc,
                    pause,
                    exc_info=not isinstance(exc, UNREACHABLE),
                )
            else:
                log.debug("deadline of table %s failed again (try %d); next in %.0f s", key, attempt, pause)
            self.set(key, self.clock() + pause)
            self._failures[key] = attempt
        else:
            if key not in self._deadlines:
                self._failures.pop(key, None)
