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
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
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


#: Seconds above a clock's rounding: a wait for a start to leave the window outlasts it.
EPSILON = 1e-9
#: How often a budget whose every start is still being written looks again (they are, within milliseconds).
IN_FLIGHT_POLL = 0.01
#: How long a request let through may take to be written before it counts from then anyway (one whose
#: write is never reported must not hold its start for ever).
IN_FLIGHT_MOST = 5.0
#: How many requests may go back to back when the budget has been quiet; beyond them, requests go
#: one every ``span / limit`` seconds. A whole second's worth let through at once reaches Discord as a
#: queue whose tail it reads late (a second's worth may then land with the next one).
BURST = 5
#: How long a route's bucket may remember the requests of the process before this one. Discord's
#: message routes allow a few requests a channel over a few seconds (5 in 5 s), and a process started
#: after a crash cannot know what its predecessor spent of them: the restored tables' channels are
#: left alone until this long after the process started (``RequestBudget.hold_channel``).
ROUTE_WINDOW = 5.0
#: A request about one channel (its messages, its thread, the channel itself).
CHANNEL_PATH = re.compile(r"^/api/v\d+/channels/(\d+)")
_IMPORTED = time.monotonic()


def process_started() -> float:
    """When this process started, on the monotonic clock (where the system does not say: when this
    module was imported, a little later)."""
    try:
        with open("/proc/self/stat") as stat:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return _IMPORTED
    return min(time.monotonic() - max(age, 0.0), _IMPORTED)


#: The requests of the login (the bot's user, its application), made before the budget is installed,
#: which the catch-up of a start may follow within the same second.
BEFORE_INSTALL = 4


class Start:
    """One request the budget let through: counted from ``at``, or from the moment it is ``sent``
    (None until then: it counts all the while it waits to be written, ``IN_FLIGHT_MOST`` at most)."""

    __slots__ = ("at", "granted", "_clock")

    def __init__(self, at: float | None, clock: Callable[[], float], granted: float) -> None:
        self.at = at
        self.granted = granted
        self._clock = clock

    def sent(self) -> None:
        """Its request is written (or given up): it counts for a window from now."""
        if self.at is None:
            self.at = self._clock()

    def counted_from(self, now: float) -> float | None:
        """When it counts from, as ``now`` sees it; None while it is still being written."""
        if self.at is None and now - self.granted >= IN_FLIGHT_MOST:
            self.at = self.granted + IN_FLIGHT_MOST
        return self.at


class RequestBudget:
    """At most ``rate`` requests in any one second; those that must wait go by priority, then in
    the order they came.

    A request asked for ``until_sent`` counts from the moment it is written, and all the while it
    waits to be: a busy loop (a restart's catch-up of hundreds of tables) may delay the write of a
    request let through long after it was let through, and what Discord receives in any sliding
    second must stay within the rate. ``reach``: how much later than that a request may still
    reach Discord (the network); a start counts for ``1 + reach`` seconds. ``burst``: at most that
    many go back to back, the rest evenly spaced (None: the whole window's worth at once).
    ``clock`` and ``sleep`` are the loop's by default; tests give a fake clock.
    """

    WINDOW = 1.0

    def __init__(
        self,
        rate: float,
        *,
        reach: float = 0.0,
        burst: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("a request budget needs a rate above 0")
        self.limit = max(1, int(rate * self.WINDOW))  # starts allowed in any one window
        self.span = self.WINDOW + reach  # how long a start counts
        # Paced: a start is due ``pace`` after the one before; ``ahead`` is how far before that it may go.
        self.pace = self.span / self.limit if burst is not None else 0.0
        self.ahead = (max(1, burst) - 1) * self.pace if burst is not None else 0.0
        self._due = float("-inf")  # when the next start is due, at the pace
        self._held: dict[int, float] = {}  # channel -> until when its requests wait (``hold_channel``)
        self.clock = clock
        self.sleep = sleep
        self._starts: list[Start] = []  # the starts of the last window, and those still being written
        # (priority, order, the start it is given, whether it counts from its write)
        self._waiting: list[tuple[int, int, asyncio.Future[Start], bool]] = []
        self._order = itertools.count()
        self._serving: asyncio.Task[None] | None = None
        self.granted = 0  # requests let through so far
        self.waited = 0  # of those, how many had to wait

    def _expire(self, now: float) -> None:
        gone = now - self.span
        if any((at := start.counted_from(now)) is not None and at <= gone for start in self._starts):
            self._starts = [start for start in self._starts if (at := start.counted_from(now)) is None or at > gone]

    def _start(self, now: float, until_sent: bool) -> Start:
        start = Start(None if until_sent else now, self.clock, now)
        self._starts.append(start)
        self._due = max(self._due, now) + self.pace
        return start

    def _free(self, now: float) -> bool:
        """Whether one more start may go at ``now``: room in the window, and not ahead of the pace."""
        return len(self._starts) < self.limit and now + EPSILON >= self._due - self.ahead

    def seed(self, count: int) -> None:
        """``count`` requests made just now, before the budget could see them, count in its window."""
        now = self.clock()
        for _ in range(count):
            self._start(now, until_sent=False)

    def hold_channel(self, channel_id: int, until: float) -> None:
        """Requests about ``channel_id`` wait until ``until`` (on ``clock``) before their turn: the
        process before this one may have spent the channel's route buckets just before it died."""
        if until > self.clock():
            self._held[channel_id] = max(until, self._held.get(channel_id, until))

    async def held(self, path: str) -> None:
        """Wait while ``path``'s channel is held (``hold_channel``)."""
        if not self._held:
            return
        found = CHANNEL_PATH.match(path)
        if found is None:
            return
        channel_id = int(found[1])
        until = self._held.get(channel_id)
        if until is None:
            return
        wait = until - self.clock()
        if wait <= 0:
            del self._held[channel_id]
            return
        await self.sleep(wait)

    def room_for(self, priority: Priority) -> bool:
        """Whether a request of ``priority`` would go at once: a free start, and nobody waiting."""
        self._expire(self.clock())
        return self._free(self.clock()) and not any(
            entry[0] <= priority and not entry[2].done() for entry in self._waiting
        )

    def seconds_to_room(self) -> float:
        """How long until the oldest start of the window leaves it (0: there is room now)."""
        now = self.clock()
        self._expire(now)
        if self._free(now) and not self._waiting:
            return 0.0
        return max(self._next_free(now) - now, 0.01)

    def _next_free(self, now: float) -> float:
        """When the next start may go: the pace's time, once the oldest start of a full window
        leaves it (soon, if every one is still being written)."""
        paced = self._due - self.ahead + EPSILON
        if len(self._starts) < self.limit:
            return max(paced, now)
        counted = [at for start in self._starts if (at := start.counted_from(now)) is not None]
        return max(paced, min(counted) + self.span + EPSILON if counted else now + IN_FLIGHT_POLL)

    async def acquire(self, priority: Priority | None = None, *, until_sent: bool = False) -> Start:
        """Wait until one more request may start (``priority``: the running task's by default).
        ``until_sent``: it counts from when the returned start is ``sent``, not from now."""
        priority = current_priority() if priority is None else priority
        now = self.clock()
        self._expire(now)
        self.granted += 1
        if not self._waiting and self._free(now):
            return self._start(now, until_sent)
        self.waited += 1
        future: asyncio.Future[Start] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future, until_sent))
        if self._serving is None or self._serving.done():
            self._serving = asyncio.create_task(self._serve(), name="request-budget")
        return await future  # a cancelled wait is skipped when its turn comes

    async def _serve(self) -> None:
        """Let the waiting requests go as the window frees starts, the most urgent first."""
        while self._waiting:
            now = self.clock()
            self._expire(now)
            while self._waiting and self._free(now):
                _, _, future, until_sent = heapq.heappop(self._waiting)
                if not future.done():
                    future.set_result(self._start(now, until_sent))
            if self._waiting:
                await self.sleep(self._next_free(now) - now)

    def close(self) -> None:
        """The process stops: whatever still waits goes now (nothing is left to keep in pace)."""
        if self._serving is not None:
            self._serving.cancel()
        for _, _, future, _ in self._waiting:
            if not future.done():
                future.set_result(Start(self.clock(), self.clock, self.clock()))
        self._waiting.clear()


def counts_against_the_limit(path: str) -> bool:
    """Whether a request to ``path`` is one of the bot token's REST calls: the API's, except the
    interaction endpoints (callbacks, and the interaction's webhook), which Discord exempts; the
    gateway's connection and files are no REST calls."""
    return path.startswith("/api/") and "/interactions/" not in path and "/webhooks/" not in path


def request_trace(budget: RequestBudget) -> aiohttp.TraceConfig:
    """An aiohttp trace that holds each request to the API until the budget lets it start, and
    counts it from when its headers are written (or it failed)."""

    async def on_request_start(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        if counts_against_the_limit(params.url.path):
            await budget.held(params.url.path)
            context.budget_start = await budget.acquire(until_sent=True)

    async def on_request_sent(session: aiohttp.ClientSession, context: SimpleNamespace, params: Any) -> None:
        start: Start | None = getattr(context, "budget_start", None)
        if start is not None:
            start.sent()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_headers_sent.append(on_request_sent)
    trace.on_request_exception.append(on_request_sent)  # never written: it counts from its failure
    trace.on_request_end.append(on_request_sent)
    trace.freeze()
    return trace


class OneAtATime:
    """At most one request of a route in each channel in flight at a time: discord.py counts a
    bucket's room from the headers of each answer, and an answer to a request sent beside another
    still in flight counts that one as not yet made: two requests may then take the last room of
    the bucket, and one is answered 429 (seen in the chaos benchmark on a channel's message edits).
    One at a time, each answer tells the room there really is. A channel's requests are a few a
    second at most, each a round trip, so none waits long."""

    def __init__(self) -> None:
        self._turns: dict[tuple[str, int], asyncio.Lock] = {}
        self._waiting: dict[tuple[str, int], int] = {}  # requests holding or awaiting each lock

    @contextlib.asynccontextmanager
    async def turn(self, route: Any) -> AsyncIterator[None]:
        channel_id = getattr(route, "channel_id", None)
        if channel_id is None:
            yield
            return
        key = (route.key, int(channel_id))
        lock = self._turns.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:  # nobody else: the channel's lock goes (no map grows for ever)
                del self._waiting[key], self._turns[key]


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
    had_own = "request" in vars(http)
    original = http.request
    turns = OneAtATime()

    async def request(route: Any, **kwargs: Any) -> Any:
        async with turns.turn(route):
            return await original(route, **kwargs)

    http.request = request  # type: ignore[method-assign]

    def undo() -> None:
        if trace in session.trace_configs:
            session.trace_configs.remove(trace)
        if vars(http).get("request") is request:
            if had_own:
                http.request = original  # type: ignore[method-assign]
            else:
                del http.request  # the class's own again

    return undo
