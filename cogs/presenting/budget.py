"""One request budget for the whole process: every request made with the bot token waits its turn.

Discord allows a bot token 50 requests a second in all (interaction callbacks and
the interaction's webhook follow-ups are exempt, and never pass here: discord.py
sends those through its webhook adapter, not ``HTTPClient.request``), and 10,000
answers of 401, 403 or 429 in ten minutes get the bot banned for a while. So the
process keeps itself under a rate with a margin (``REQUESTS_PER_SECOND``, 45 by
default; a sharded deployment's processes each keep to their share), and never
counts on Discord's 429 to slow it down. Per-route buckets are discord.py's: it
reads their ``X-RateLimit-*`` headers and waits on a bucket's ``Remaining: 0``
before sending.

When the budget is short, the requests players wait for go first (``Priority``);
a cosmetic change asks ``room_for`` before it is drawn and waits for room otherwise,
so it is merged into the newest state instead of queuing behind the news.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any

import discord

log = logging.getLogger(__name__)


class Priority(enum.IntEnum):
    """Who waits for a request; the lower goes first when the budget is short."""

    PLAYERS = 0  # a reveal, a prompt to choose a row, the final standings, a reminder
    NORMAL = 1  # everything else: a thread, commands, what a restart redraws
    COSMETIC = 2  # who has joined, a summary: merged into the newest state, never ahead of the rest


#: The priority of the requests the running task makes (a task started by it inherits it).
_priority: ContextVar[Priority] = ContextVar("request_priority", default=Priority.NORMAL)


@contextlib.contextmanager
def requests_for(priority: Priority) -> Iterator[None]:
    """The requests made inside the block wait their turn as ``priority``."""
    token = _priority.set(priority)
    try:
        yield
    finally:
        _priority.reset(token)


class RequestBudget:
    """At most ``rate`` request starts in any one second; those that must wait go by priority,
    then in the order they came.

    ``clock`` and ``sleep`` are the loop's by default; tests give a fake clock.
    """

    WINDOW = 1.0

    def __init__(
        self,
        rate: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("a request budget needs a rate above 0")
        self.limit = max(1, int(rate * self.WINDOW))  # starts allowed in any one window
        self.clock = clock
        self.sleep = sleep
        self._starts: deque[float] = deque()  # when the starts of the last window were granted
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # (priority, order, future)
        self._order = itertools.count()
        self._serving: asyncio.Task[None] | None = None
        self.granted = 0  # requests let through so far
        self.waited = 0  # of those, how many had to wait

    def _expire(self, now: float) -> None:
        while self._starts and self._starts[0] <= now - self.WINDOW:
            self._starts.popleft()

    def room_for(self, priority: Priority) -> bool:
        """Whether a request of ``priority`` would go at once: a free start, and nobody waiting."""
        self._expire(self.clock())
        return len(self._starts) < self.limit and not any(
            entry[0] <= priority and not entry[2].done() for entry in self._waiting
        )

    def seconds_to_room(self) -> float:
        """How long until the oldest start of the window leaves it (0: there is room now)."""
        now = self.clock()
        self._expire(now)
        if len(self._starts) < self.limit and not self._waiting:
            return 0.0
        oldest = self._starts[0] if self._starts else now
        return max(oldest + self.WINDOW - now, 0.01)

    async def acquire(self, priority: Priority | None = None) -> None:
        """Wait until one more request may start (``priority``: the running task's by default)."""
        priority = _priority.get() if priority is None else priority
        now = self.clock()
        self._expire(now)
        self.granted += 1
        if not self._waiting and len(self._starts) < self.limit:
            self._starts.append(now)
            return
        self.waited += 1
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        if self._serving is None or self._serving.done():
            self._serving = asyncio.create_task(self._serve(), name="request-budget")
        await future  # a cancelled wait is skipped when its turn comes

    async def _serve(self) -> None:
        """Let the waiting requests go as the window frees starts, the most urgent first."""
        while self._waiting:
            now = self.clock()
            self._expire(now)
            while self._waiting and len(self._starts) < self.limit:
                _, _, future = heapq.heappop(self._waiting)
                if not future.done():
                    self._starts.append(now)
                    future.set_result(None)
            if self._waiting:
                await self.sleep(self._starts[0] + self.WINDOW - now)

    def close(self) -> None:
        """The process stops: whatever still waits goes now (nothing is left to keep in pace)."""
        if self._serving is not None:
            self._serving.cancel()
        for _, _, future in self._waiting:
            if not future.done():
                future.set_result(None)
        self._waiting.clear()


def install(http: discord.http.HTTPClient, budget: RequestBudget) -> Callable[[], None]:
    """Make every request of ``http`` (the bot token's) wait for ``budget``; returns the undo."""
    request = http.request

    async def budgeted(route: discord.http.Route, **kwargs: Any) -> Any:
        await budget.acquire()
        return await request(route, **kwargs)

    http.request = budgeted  # type: ignore[method-assign]

    def undo() -> None:
        if http.request is budgeted:
            del http.request  # back to the class's own

    return undo
