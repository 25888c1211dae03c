"""The stand-in's rate limits (tests/standin/ratelimits.py), as Discord documents them, driven
through a real discord.py client (the tiny bot of test_standin.py) and, for the exact shape of
an answer, through plain HTTP. The limits run on real time (discord.py sleeps real seconds), so
these tests shrink them where they would otherwise wait for seconds, and move the limits' clock
on (``RateLimits.advance``) where they only wait for a window to pass."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import discord
import pytest

from tests.standin import DiscordStandin
from tests.standin.ratelimits import GLOBAL_PER_SECOND, INTERACTION_ROUTES, RateLimits, RouteLimit
from tests.test_standin import TinyBot

MESSAGES = "/channels/{channel}/messages"
CREATE = f"POST {MESSAGES}"


@pytest.fixture
async def limited():
    """A stand-in with Discord's rate limits on, one guild, six channels and a player."""
    async with DiscordStandin(rate_limits=True) as standin:
        guild = standin.add_guild("Limited")
        channels = [standin.add_text_channel(guild, f"games-{i}") for i in range(6)]
        alice = standin.add_member(guild, "alice")
        yield standin, guild, channels, alice


def bot_headers(standin: DiscordStandin) -> dict[str, str]:
    return {"Authorization": f"Bot {standin.token}", "Content-Type": "application/json"}


def arrivals(standin: DiscordStandin, method: str, path_start: str, status: int = 200) -> list[float]:
    return [
        r.at for r in standin.requests if r.method == method and r.path.startswith(path_start) and r.status == status
    ]


def most_in_any(times: list[float], seconds: float) -> int:
    """The most of these times that fall in any window of `seconds`."""
    ordered, best, first = sorted(times), 0, 0
    for last, at in enumerate(ordered):
        while ordered[first] <= at - seconds:
            first += 1
        best = max(best, last - first + 1)
    return best


async def test_every_answer_carries_the_documented_headers_and_a_429_changes_nothing(limited: Any) -> None:
    standin, _, (games, other, *_), _ = limited
    url = f"{standin.api_base}/channels/{games.id}/messages"
    async with aiohttp.ClientSession(headers=bot_headers(standin)) as http:
        answers = []
        for i in range(6):
            async with http.post(url, json={"content": f"post {i}"}) as answer:
                answers.append((answer.status, dict(answer.headers), await answer.json()))
        async with http.post(
            f"{standin.api_base}/channels/{other.id}/messages", json={"content": "elsewhere"}
        ) as answer:
            elsewhere = (answer.status, dict(answer.headers))
    sent_at = time.time()

    # Five per five seconds per channel (ratelimits.ROUTE_LIMITS): the sixth is refused.
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert [h["X-RateLimit-Remaining"] for _, h, _ in answers] == ["4", "3", "2", "1", "0", "0"]
    for _, headers, _ in answers:
        assert headers["X-RateLimit-Limit"] == "5"
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
        assert abs(float(headers["X-RateLimit-Reset"]) - (sent_at + float(headers["X-RateLimit-Reset-After"]))) < 1.0
        assert headers["Via"]  # what discord.py checks to tell Discord's 429 from a Cloudflare ban
    status, headers, body = answers[-1]
    assert set(body) == {"message", "retry_after", "global"} and body["global"] is False
    assert 0 < body["retry_after"] <= 5.0
    assert headers["Retry-After"] == str(int(-(-body["retry_after"] // 1)))  # whole seconds, rounded up
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert [m.content for m in standin.channel_messages(games)] == [f"post {i}" for i in range(5)]

    # Another channel is another bucket of the same kind: the same X-RateLimit-Bucket, a full count.
    assert elsewhere[0] == 200 and elsewhere[1]["X-RateLimit-Remaining"] == "4"
    assert elsewhere[1]["X-RateLimit-Bucket"] == answers[0][1]["X-RateLimit-Bucket"]
    figures = standin.rate_limits.figures()
    assert figures.too_many == {"user": 1} and figures.invalid == 1 and figures.bot_requests == 7


async def test_the_global_limit_spares_interaction_endpoints(limited: Any) -> None:
    standin, _, channels, alice = limited
    standin.set_rate_limits(True, global_per_second=3)
    async with standin.running(TinyBot(channels[0].guild.id)):
        await standin.wait_for_commands("6nimmt")
        standin.rate_limits.advance(1.0)  # the bot's log-in and sync leave the global window
        standin.rate_limits.reset_figures()
        async with aiohttp.ClientSession(headers=bot_headers(standin)) as http:
            statuses, bodies, headers = [], [], []
            for channel in channels[:4]:
                async with http.post(
                    f"{standin.api_base}/channels/{channel.id}/messages", json={"content": "hi"}
                ) as answer:
                    statuses.append(answer.status)
                    bodies.append(await answer.json())
                    headers.append(dict(answer.headers))
            # The global window is full now, and still a slash command is answered in time.
            reply = await (await standin.slash(alice, channels[0], "6nimmt start", variant="classic")).reply()
    assert statuses == [200, 200, 200, 429]
    assert bodies[-1]["global"] is True and 0 < bodies[-1]["retry_after"] <= 1.0
    assert headers[-1]["X-RateLimit-Global"] == "true" and headers[-1]["X-RateLimit-Scope"] == "global"
    assert "Lobby: classic" in reply.content
    callbacks = [r for r in standin.requests if r.path.startswith("/api/v10/interactions/")]
    assert len(callbacks) == 1 and callbacks[0].status < 300
    assert [m.content for m in standin.channel_messages(channels[3]) if m.content == "hi"] == []
    assert standin.rate_limits.figures().too_many == {"global": 1}


async def test_discord_py_is_paced_by_the_headers_and_never_refused(limited: Any) -> None:
    standin, guild, (games, other, *_), _ = limited
    standin.set_rate_limits(True, routes={CREATE: RouteLimit(3, 1.0, "msg-create")})
    async with standin.running(TinyBot(guild.id)) as bot:
        target, elsewhere = bot.get_channel(games.id), bot.get_channel(other.id)
        started = time.monotonic()
        await asyncio.gather(*(target.send(f"turn {i}") for i in range(9)), elsewhere.send("meanwhile"))
        elapsed = time.monotonic() - started
    posts = arrivals(standin, "POST", f"/api/v10/channels/{games.id}/")
    assert sorted(m.content for m in standin.channel_messages(games)) == [f"turn {i}" for i in range(9)]
    assert len(posts) == 9, "every post went through on its first try"
    posts.sort()
    assert posts[3] - posts[0] >= 1.0 and posts[6] - posts[3] >= 1.0 and elapsed >= 2.0, (
        "three windows of three, as the headers said"
    )
    assert [m.content for m in standin.channel_messages(other)] == ["meanwhile"]
    assert standin.rate_limits.figures().too_many == {}


@pytest.mark.parametrize(("status", "failures", "limit"), [(429, 2, 3), (502, 1, 1)])
async def test_an_injected_failure_that_changed_nothing_takes_no_room_in_the_routes_bucket(
    limited: Any, status: int, failures: int, limit: int
) -> None:
    """discord.py counts a request against its bucket once, however often a 429 or a 5xx makes it
    try again (a 5xx without waiting for the bucket); a failure that changed nothing takes no room
    in the bucket either (a 429 is a refusal). The failures, then the bucket's posts: none is
    refused by the limit itself."""
    standin, guild, (games, *_), _ = limited
    standin.set_rate_limits(True, routes={CREATE: RouteLimit(limit, 5.0, "msg-create")})
    async with standin.running(TinyBot(guild.id)) as bot:
        target = bot.get_channel(games.id)
        standin.fail_next("POST", MESSAGES, status=status, times=failures)
        for turn in range(limit):
            await target.send(f"turn {turn}")
    assert [m.content for m in standin.channel_messages(games)] == [f"turn {i}" for i in range(limit)]
    refused = standin.rate_limits.figures().too_many
    assert refused == ({"user": failures} if status == 429 else {}), "the injected failures, and no 429 of the limit"


async def test_a_global_429_is_waited_out_and_retried_and_nothing_is_lost(limited: Any) -> None:
    standin, guild, channels, _ = limited
    more = [standin.add_text_channel(guild, f"more-{i}") for i in range(6)]
    standin.set_rate_limits(True, global_per_second=4)
    async with standin.running(TinyBot(guild.id)) as bot:
        await standin.wait_for_commands("6nimmt")
        standin.rate_limits.advance(1.0)  # the bot's log-in and sync leave the global window
        standin.rate_limits.reset_figures()
        await asyncio.gather(*(bot.get_channel(c.id).send(f"news for {c.name}") for c in channels + more))
    for channel in channels + more:
        assert [m.content for m in standin.channel_messages(channel)] == [f"news for {channel.name}"]
    posts = arrivals(standin, "POST", "/api/v10/channels/")
    assert len(posts) == 12 and most_in_any(posts, 1.0) <= 4
    figures = standin.rate_limits.figures()
    assert figures.too_many.get("global", 0) >= 1 and set(figures.too_many) == {"global"}
    assert figures.invalid == figures.too_many["global"], "a global 429 counts as an invalid request"
    standin.assert_no_errors()


async def test_interaction_answers_are_exempt_while_the_bot_is_held_back(limited: Any) -> None:
    standin, guild, channels, alice = limited
    standin.set_rate_limits(True, global_per_second=2)
    async with standin.running(TinyBot(guild.id)) as bot:
        await standin.wait_for_commands("leaderboard")
        standin.rate_limits.advance(1.0)  # the bot's log-in and sync leave the global window
        standin.rate_limits.reset_figures()
        flood = asyncio.gather(*(bot.get_channel(c.id).send("flood") for c in channels))
        # The flood meets the global limit: discord.py holds its bot-token calls.
        await standin.world.wait_until(
            lambda: standin.rate_limits.figures().too_many.get("global", 0) >= 1, 5, "the flood never met the limit"
        )
        board = await standin.slash(alice, channels[0], "leaderboard")
        await board.followup(1)  # a deferral and two follow-ups through the interaction's webhook
        assert not flood.done(), "the follow-ups did not wait for the bot-token calls"
        await flood
    exempt = [
        r for r in standin.requests if any(r.path.startswith(f"/api/v10{p.split('{')[0]}") for p in INTERACTION_ROUTES)
    ]
    assert exempt and all(r.status != 429 for r in exempt)
    assert [len(standin.channel_messages(c)) for c in channels] == [1 + (c is channels[0]) for c in channels]


async def test_a_shared_limit_is_waited_out_and_not_counted_as_invalid(limited: Any) -> None:
    standin, guild, (games, *_), _ = limited
    async with standin.running(TinyBot(guild.id)) as bot:
        standin.rate_limits.limit_resource(games.id, 0.4)
        started = time.monotonic()
        await bot.get_channel(games.id).send("after the wait")
        assert time.monotonic() - started >= 0.4
    assert [m.content for m in standin.channel_messages(games)] == ["after the wait"]
    figures = standin.rate_limits.figures()
    assert figures.too_many == {"shared": 1} and figures.invalid == 0


async def test_401_403_and_429_are_counted_as_invalid_over_any_10_minutes(limited: Any) -> None:
    standin, guild, (games, closed, *_), _ = limited
    standin.deny_bot_permissions(closed, discord.Permissions(send_messages=True))
    async with standin.running(TinyBot(guild.id)) as bot:
        with pytest.raises(discord.Forbidden):
            await bot.get_channel(closed.id).send("not allowed")
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{standin.api_base}/users/@me", headers={"Authorization": "Bot wrong"}) as answer,
    ):
        assert answer.status == 401
    figures = standin.rate_limits.figures()
    assert figures.invalid == 2 and figures.invalid_max_10min == 2
    standin.errors.clear()

    # The 10-minute window slides, on a test clock.
    now = [1000.0]
    limits = RateLimits(clock=lambda: now[0])
    for at, status in ((0, 401), (1, 403), (2, 429), (400, 403), (401, 429), (650, 401), (700, 200)):
        now[0] = 1000.0 + at
        limits.count("/channels/{channel}/messages", status)
    counted = limits.figures()
    assert counted.invalid == 6 and counted.invalid_max_10min == 5  # 0..401 s; at 650 s the first three are over
    assert counted.too_many == {"user": 2} and counted.bot_requests == 7
    assert len(counted.per_second) == 701 and counted.percentile(0.5) == 0 and max(counted.per_second) == 1


async def test_off_by_default_and_counted_all_the_same() -> None:
    async with DiscordStandin() as standin:
        guild = standin.add_guild("Free")
        games = standin.add_text_channel(guild, "games")
        async with aiohttp.ClientSession(headers=bot_headers(standin)) as http:
            statuses = []
            for i in range(GLOBAL_PER_SECOND + 5):
                async with http.post(f"{standin.api_base}/channels/{games.id}/messages", json={"content": str(i)}) as a:
                    statuses.append(a.status)
                    assert "X-RateLimit-Limit" not in a.headers
    assert set(statuses) == {200}
    assert standin.rate_limits.figures().bot_requests == GLOBAL_PER_SECOND + 5
