"""The process's request budget on a fake clock: never more starts in a second than its rate, the
most urgent first when it is short, and every request of the bot token through it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from discord.http import Route

from cogs.presenting.budget import (
    IN_FLIGHT_MOST,
    OneAtATime,
    Priority,
    RequestBudget,
    Start,
    current_priority,
    install,
    requests_for,
)


class FakeTime:
    """A clock that moves only when the budget sleeps (instantly)."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        for _ in range(3):  # what was let through runs first, at the time it was let through
            await asyncio.sleep(0)
        self.now += max(seconds, 0.0)


def budget_on(time: FakeTime, rate: float) -> RequestBudget:
    return RequestBudget(rate, clock=time.clock, sleep=time.sleep)


async def granted_times(budget: RequestBudget, time: FakeTime, priorities: list[Priority]) -> list[tuple[float, int]]:
    """Start one request per priority, at once and in order; (grant time, index) as each is let through."""
    grants: list[tuple[float, int]] = []

    async def one(index: int, priority: Priority) -> None:
        await budget.acquire(priority)
        grants.append((time.now, index))

    await asyncio.gather(*(one(index, priority) for index, priority in enumerate(priorities)))
    return grants


def most_in_any_second(times: list[float]) -> int:
    return max(sum(1 for other in times if start - 1.0 < other <= start) for start in times)


async def test_no_second_holds_more_starts_than_the_rate():
    time = FakeTime()
    budget = budget_on(time, 5)
    grants = await granted_times(budget, time, [Priority.PLAYERS] * 23)
    times = [at for at, _ in grants]
    assert len(times) == 23, "every request went, in the end"
    assert most_in_any_second(times) == 5
    assert times[:5] == [0.0] * 5, "what fits the budget goes at once"
    assert max(times) == pytest.approx(4.0), "the rest as soon as the window frees a start"
    assert [index for _, index in grants] == list(range(23)), "the same priority in the order it came"
    assert budget.granted == 23 and budget.waited == 18


async def test_a_short_budget_lets_players_requests_go_first():
    time = FakeTime()
    budget = budget_on(time, 2)
    order = [
        Priority.NORMAL,
        Priority.NORMAL,  # these two use the first second
        Priority.COSMETIC,
        Priority.COSMETIC,
        Priority.NORMAL,
        Priority.PLAYERS,
        Priority.COSMETIC,
        Priority.PLAYERS,
        Priority.NORMAL,
    ]
    grants = await granted_times(budget, time, order)
    served = [order[index] for _, index in grants]
    assert served == [
        Priority.NORMAL,
        Priority.NORMAL,
        Priority.PLAYERS,
        Priority.PLAYERS,
        Priority.NORMAL,
        Priority.NORMAL,
        Priority.COSMETIC,
        Priority.COSMETIC,
        Priority.COSMETIC,
    ]
    assert most_in_any_second([at for at, _ in grants]) == 2


async def test_room_for_a_cosmetic_edit_only_when_nothing_waits():
    time = FakeTime()
    budget = budget_on(time, 2)
    assert budget.room_for(Priority.COSMETIC) and budget.seconds_to_room() == 0.0
    await budget.acquire(Priority.PLAYERS)
    time.now = 0.25
    await budget.acquire(Priority.PLAYERS)
    assert not budget.room_for(Priority.COSMETIC) and not budget.room_for(Priority.PLAYERS)
    assert budget.seconds_to_room() == pytest.approx(0.75), "until the first start leaves the window"
    time.now = 1.0
    assert budget.room_for(Priority.COSMETIC)
    waiting = asyncio.create_task(budget.acquire(Priority.NORMAL))
    await budget.acquire(Priority.PLAYERS)  # takes the free start
    await asyncio.sleep(0)
    assert not waiting.done()
    assert not budget.room_for(Priority.COSMETIC), "a request is waiting: a cosmetic edit waits too"
    assert not budget.room_for(Priority.NORMAL)
    await waiting
    assert time.now == pytest.approx(1.25)


async def test_a_request_given_up_while_waiting_takes_no_start():
    time = FakeTime()
    budget = budget_on(time, 1)
    await budget.acquire()
    given_up = asyncio.create_task(budget.acquire(Priority.PLAYERS))
    kept = asyncio.create_task(budget.acquire(Priority.NORMAL))
    await asyncio.sleep(0)
    given_up.cancel()
    await kept
    assert time.now == pytest.approx(1.0), "the next start went to the request still waiting"
    assert given_up.cancelled()


async def test_every_request_to_the_api_waits_for_the_budget_with_its_priority():
    """Through the session discord.py made at login: each request waits as it starts, as the
    task's priority; interaction endpoints and the gateway do not count."""
    time = FakeTime()

    class Recorded(RequestBudget):
        asked: list[Priority] = []

        async def acquire(self, priority: Priority | None = None, *, until_sent: bool = False) -> Start:
            self.asked.append(current_priority() if priority is None else priority)
            assert until_sent, "a request through the session counts from its write"
            return await super().acquire(priority, until_sent=until_sent)

    budget = Recorded(1, clock=time.clock, sleep=time.sleep)
    arrived: list[tuple[str, float]] = []

    async def handler(request: web.Request) -> web.Response:
        arrived.append((request.path, time.now))
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    server = TestServer(app)
    await server.start_server()
    session = aiohttp.ClientSession()
    try:

        async def discord_request(route, **kwargs):  # discord.py's HTTPClient.request
            return route

        # discord.py's HTTPClient, logged in
        http = SimpleNamespace(_HTTPClient__session=session, request=discord_request)
        undo = install(http, budget)
        assert http.request is not discord_request and await http.request("route") == "route"

        async def get(path: str) -> None:
            async with session.get(server.make_url(path)) as response:
                await response.read()

        await get("/api/v10/channels/1/messages")
        await get("/api/v10/interactions/4/token/callback")  # exempt: goes at once
        await get("/api/v10/webhooks/5/token/messages/@original")  # the interaction's webhook: exempt
        await get("/gateway")
        with requests_for(Priority.PLAYERS):
            await get("/api/v10/channels/3/messages")
        assert arrived == [
            ("/api/v10/channels/1/messages", 0.0),
            ("/api/v10/interactions/4/token/callback", 0.0),
            ("/api/v10/webhooks/5/token/messages/@original", 0.0),
            ("/gateway", 0.0),
            ("/api/v10/channels/3/messages", pytest.approx(1.0)),
        ]
        assert budget.asked == [Priority.NORMAL, Priority.PLAYERS]
        undo()
        assert http.request is discord_request
        await get("/api/v10/after")
        assert arrived[-1] == ("/api/v10/after", pytest.approx(1.0)) and budget.granted == 2, "undone: no more waiting"
    finally:
        await session.close()
        await server.close()


def test_a_budget_needs_a_rate():
    with pytest.raises(ValueError):
        RequestBudget(0)


def test_a_client_not_logged_in_has_no_session_to_hold():
    """The catalog builds the command tree without logging in: nothing to install, nothing undone."""
    http = SimpleNamespace(_HTTPClient__session=discord.utils.MISSING)  # discord.py's, before the log-in
    install(http, RequestBudget(1))()
    assert vars(http) == {"_HTTPClient__session": discord.utils.MISSING}


async def test_a_closed_budget_lets_whatever_waits_go():
    time = FakeTime()
    budget = budget_on(time, 1)
    await budget.acquire()
    waiting = asyncio.create_task(budget.acquire())
    await asyncio.sleep(0)
    assert not waiting.done()
    budget.close()
    await asyncio.wait_for(waiting, 1)
    assert time.now == 0.0, "let go at the stop, not a second later"


async def test_a_start_counts_a_little_longer_so_late_arrivals_keep_to_the_rate():
    """Requests may reach Discord up to ``reach`` after they start: every one of them still falls
    within ``rate`` in any second, counted as they arrive ``reach`` late or on time."""

    async def starts_with(reach: float) -> list[float]:
        time = FakeTime()
        budget = RequestBudget(3, reach=reach, clock=time.clock, sleep=time.sleep)
        starts = []
        for _ in range(9):
            await budget.acquire()
            starts.append(time.now)
        return starts

    starts = await starts_with(0.1)
    assert starts[3] == pytest.approx(1.1) and starts[6] == pytest.approx(2.2)
    late = [start + (0.09 if i < 3 else 0.0) for i, start in enumerate(starts)]  # the first three 90 ms late
    assert most_in_any_second(starts) <= 3 and most_in_any_second(late) <= 3
    counted_at_start = await starts_with(0.0)
    late = [start + (0.09 if i < 3 else 0.0) for i, start in enumerate(counted_at_start)]
    assert most_in_any_second(late) == 6  # what a budget without reach lets Discord receive


async def test_a_request_counts_from_its_write_so_a_busy_loop_keeps_every_sliding_second_within_the_rate():
    """A restart's catch-up keeps the loop busy: requests let through may be written much later.
    Each counts from its write, and all the while it waits to be written, so what Discord receives
    in any sliding second stays within the rate (counted from the grant, six would land in one)."""

    async def written_times(until_sent: bool) -> list[float]:
        time = FakeTime()
        budget = RequestBudget(3, clock=time.clock, sleep=time.sleep)
        late = [await budget.acquire(until_sent=until_sent) for _ in range(3)]  # let through at 0
        fourth = asyncio.ensure_future(budget.acquire(until_sent=until_sent))
        for _ in range(30):
            await asyncio.sleep(0)
        held = not fourth.done()
        time.now = max(time.now, 0.9)  # the busy loop writes the first three only now
        for start in late:
            start.sent()
        written = [0.9] * 3
        starts = [await fourth] + [await budget.acquire(until_sent=until_sent) for _ in range(2)]
        for start in starts:
            written.append(time.now)
            start.sent()
        assert held == until_sent, "three requests still being written fill the second"
        return written

    assert most_in_any_second(await written_times(until_sent=True)) == 3
    assert most_in_any_second(await written_times(until_sent=False)) == 6  # counted from the grant


async def test_a_request_whose_write_is_never_reported_frees_its_start_in_the_end():
    time = FakeTime()
    budget = RequestBudget(1, clock=time.clock, sleep=time.sleep)
    await budget.acquire(until_sent=True)  # its write never reported (a request cut off unseen)
    await budget.acquire(until_sent=True)
    assert time.now == pytest.approx(IN_FLIGHT_MOST + 1.0, abs=0.02), "counted from the most it may take"


def most_within(times: list[float], seconds: float) -> int:
    return max(sum(1 for other in times if start - seconds < other <= start + 1e-9) for start in times)


async def test_a_paced_budget_lets_a_few_go_at_once_and_spaces_the_rest_evenly():
    """A restart's catch-up asks for hundreds of requests at once. Let through a second's worth at a
    time, they reach Discord as one queue it reads over a while, and a second's worth read late may
    land within a second of the next: paced, no more than ``burst`` ever go together."""
    time = FakeTime()
    budget = RequestBudget(10, burst=3, clock=time.clock, sleep=time.sleep)
    grants = await granted_times(budget, time, [Priority.NORMAL] * 40)
    times = [at for at, _ in grants]
    assert times[:3] == [0.0] * 3, "a quiet budget lets the first few go at once"
    assert times[3:6] == pytest.approx([0.1, 0.2, 0.3]), "the rest one every second / rate"
    assert most_in_any_second(times) == 10, "and never more than the rate in any second"
    assert most_within(times, 0.1) <= 3
    assert max(times) == pytest.approx(3.7), "40 at 10 a second"
    other = FakeTime()
    unpaced = [at for at, _ in await granted_times(budget_on(other, 10), other, [Priority.NORMAL] * 40)]
    assert most_within(unpaced, 0.1) == 10, "what an unpaced budget lets go together"


async def test_a_paced_budget_that_was_quiet_lets_a_few_go_at_once_again():
    time = FakeTime()
    budget = RequestBudget(10, burst=3, clock=time.clock, sleep=time.sleep)
    await granted_times(budget, time, [Priority.NORMAL] * 12)
    time.now += 5.0
    assert budget.room_for(Priority.COSMETIC) and budget.seconds_to_room() == 0.0
    assert [at for at, _ in await granted_times(budget, time, [Priority.PLAYERS] * 3)] == [time.now] * 3
    assert not budget.room_for(Priority.PLAYERS), "a fourth would be ahead of the pace"
    assert budget.seconds_to_room() == pytest.approx(0.1)


async def test_a_restored_tables_channel_is_left_alone_until_its_buckets_may_have_reset():
    """A process killed just before this one may have spent a channel's route buckets (5 messages in
    5 s): requests about a held channel wait until the hold ends, others go at once."""
    time = FakeTime()
    budget = RequestBudget(45, burst=5, clock=time.clock, sleep=time.sleep)
    budget.hold_channel(7, until=5.0)
    budget.hold_channel(8, until=-1.0)  # the window already passed: nothing to hold
    await budget.held("/api/v10/channels/8/messages")
    await budget.held("/api/v10/interactions/7/token/callback")
    await budget.held("/api/v10/users/@me")
    assert time.now == 0.0, "other channels and other routes go at once"
    await budget.held("/api/v10/channels/7/messages/9/threads")
    assert time.now == pytest.approx(5.0), "the held channel's request waited for the hold to end"
    await budget.held("/api/v10/channels/7/messages")
    assert time.now == pytest.approx(5.0), "and once it has, nothing waits"


async def test_a_channels_requests_of_one_route_go_one_at_a_time():
    """discord.py counts a bucket's room from each answer's headers, and an answer to a request sent
    beside another still in flight counts that one as not made: one request of a route in each
    channel in flight at a time, others side by side; nothing of a channel is kept once it is quiet."""
    turns = OneAtATime()
    in_flight: dict[str, int] = {}
    most: dict[str, int] = {}

    async def send(route: Route, name: str) -> None:
        async with turns.turn(route):
            in_flight[name] = in_flight.get(name, 0) + 1
            most[name] = max(most.get(name, 0), in_flight[name])
            await asyncio.sleep(0.01)
            in_flight[name] -= 1

    edit = "/channels/{channel_id}/messages/{message_id}"
    await asyncio.gather(
        *(send(Route("PATCH", edit, channel_id=1, message_id=m), "edits in 1") for m in range(4)),
        *(send(Route("PATCH", edit, channel_id=2, message_id=m), "edits in 2") for m in range(2)),
        *(send(Route("POST", "/channels/{channel_id}/messages", channel_id=1), "posts in 1") for _ in range(2)),
        *(send(Route("GET", "/users/@me"), "no channel") for _ in range(3)),
    )
    assert most == {"edits in 1": 1, "edits in 2": 1, "posts in 1": 1, "no channel": 3}
    assert not turns._turns and not turns._waiting, "a quiet channel leaves nothing behind"
