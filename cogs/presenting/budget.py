"""One request budget for the whole process: every request made with the bot token waits its turn.

Discord allows a bot token 50 requests a second in all (interaction callbacks and
the interaction's webhook follow-ups are exempt, and pass here uncounted), and 10,000
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
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)


class Priority(enum.IntEnum):
    """Who waits for a request; the lower goes first when the budget is short."""

    PLAYERS = 0  # a reveal, a prompt to choose a row, the final standings, a reminder
    NORMAL = 1  # everything else: a thread, commands, what a restart redraws
    COSMETIC = 2  # who has joined, a summary: merged into the newest state, never ahead of the rest


#: How much later than its start the bot's request may reach Discord when its loop is busy.
REACH = 0.1

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


def current_priority() -> Priority:
    """The priority of the requests the running task makes."""
    return _priority.get()


class RequestBudget:
    """At most ``rate`` request starts in any one second; those that must wait go by priority,
    then in the order they came.

    ``reach``: how much later than its start a request may reach Discord (a busy loop, a
    connection being opened). A start counts for ``1 + reach`` seconds, so what Discord receives
    in any one second stays within ``rate`` when requests arrive up to ``reach`` late.
    ``clock`` and ``sleep`` are the loop's by default; tests give a fake clock.
    """

    WINDOW = 1.0

    def __init__(
        self,
        rate: float,
        *,
        reach: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("a request budget needs a rate above 0")
        self.limit = max(1, int(rate * self.WINDOW))  # starts allowed in any one window
        self.span = self.WINDOW + reach  # how long a start counts
        self.clock = clock
        self.sleep = sleep
        self._starts: deque[float] = deque()  # when the starts of the last window were granted
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # (priority, order, future)
        self._order = itertools.count()
        self._serving: asyncio.Task[None] | None = None
        self.granted = 0  # requests let through so far
        self.waited = 0  # of those, how many had to wait

    def _expire(self, now: float) -> None:
        while self._starts and self._starts[0] <= now - self.span:
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
        return max(oldest + self.span - now, 0.01)

    async def acquire(self, priority: Priority | None = None) -> None:
        """Wait until one more request may start (``priority``: the running task's by default)."""
        priority = current_priority() if priority is None else priority
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
                await self.sleep(self._starts[0] + self.span - now)

    def close(self) -> None:
        """The process stops: whatever still waits goes now (nothing is left to keep in pace)."""
        if self._serving is not None:
            self._serving.cancel()
        for _, _, future in self._waiting:
            if not future.done():
                future.set_result(None)
        self._waiting.clear()


def counts_against_the_limit(path: str) -> bool:
    """Whether a request to ``path`` is one of the bot token's REST calls: the API's, except the
    interaction endpoints (callbacks, and the interaction's webhook), which Discord exempts; the
    gateway's connection and files are no REST calls."""
    return path.startswith("/api/") and "/interactions/" not in path and "/webhooks/" not in path


def request_trace(budget: RequestBudget) -> aiohttp.TraceConfig:
    """An aiohttp trace that holds each request to the API until the budget lets it start."""

    async def on_request_start(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        if counts_against_the_limit(params.url.path):
            await budget.acquire()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.freeze()
    return trace


def install(http: discord.http.HTTPClient, budget: RequestBudget) -> Callable[[], None]:
    """Make every request of ``http`` (the bot token's client, logged in) wait for ``budget``, each
    attempt as it starts: after discord.py waited on its route's bucket, and again for each of its
    own retries, so what Discord receives keeps to the budget. Returns the undo.

    The hook is an aiohttp trace on the client's session, which discord.py creates at login (before
    the cogs load) and which its webhooks reach the same way; a trace's ``on_request_start`` is
    awaited before the request is sent."""
    session = http._HTTPClient__session  # type: ignore[attr-defined]  # discord.py keeps it private
    if not isinstance(session, aiohttp.ClientSession):
        # Not logged in (cogs loaded to read the command tree): no request can be made to hold.
        return lambda: None
    trace = request_trace(budget)
    session.trace_configs.append(trace)

    def undo() -> None:
        if trace in session.trace_configs:
            session.trace_configs.remove(trace)

    return undo
