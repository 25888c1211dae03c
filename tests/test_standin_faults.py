"""The stand-in's gateway compression, injected Discord failures and enforce_nonce, each driven
through a real discord.py client (the tiny bot of test_standin.py)."""

from __future__ import annotations

import json
import zlib
from typing import Any

import aiohttp
import discord
import pytest
import zstandard

from tests.standin import DiscordStandin, Fault
from tests.standin.faults import Faults
from tests.test_standin import TinyBot, table  # noqa: F401  (the fixture)

MESSAGES = "/channels/{channel}/messages"
MESSAGE = "/channels/{channel}/messages/{message}"


# --- compression --------------------------------------------------------------------------


def _decoder(compress: str | None):
    if compress == "zstd-stream":
        stream = zstandard.ZstdDecompressor().decompressobj()
        return lambda data: stream.decompress(data)
    if compress == "zlib-stream":
        stream = zlib.decompressobj()

        def inflate(data: bytes) -> bytes:
            assert data.endswith(b"\x00\x00\xff\xff"), "each zlib-stream frame ends with Z_SYNC_FLUSH"
            return stream.decompress(data)

        return inflate
    return lambda data: data


@pytest.mark.parametrize("compress", [None, "zlib-stream", "zstd-stream"])
async def test_gateway_frames_decompress_one_payload_each(compress: str | None) -> None:
    async with DiscordStandin() as standin:
        guild = standin.add_guild("Compressed")
        query = "?v=10&encoding=json" + (f"&compress={compress}" if compress else "")
        decode = _decoder(compress)
        async with aiohttp.ClientSession() as http, http.ws_connect(standin.gateway_url + query) as ws:
            hello = await ws.receive()
            assert hello.type == (aiohttp.WSMsgType.TEXT if compress is None else aiohttp.WSMsgType.BINARY)
            assert json.loads(decode(hello.data if compress else hello.data.encode()))["op"] == 10
            await ws.send_str(json.dumps({"op": 2, "d": {"token": standin.token, "intents": 0}}))
            frames = [
                json.loads(decode((await ws.receive()).data if compress else (await ws.receive()).data.encode()))
                for _ in range(2)
            ]  # the stream carries on across frames
        assert [f["t"] for f in frames] == ["READY", "GUILD_CREATE"]
        assert frames[1]["d"]["id"] == str(guild.id)
        assert standin.server.gateway.compressions == [compress]
        standin.assert_no_errors()


async def test_discord_py_negotiates_zstd_when_zstandard_is_installed_and_survives_a_cut(table: Any) -> None:
    standin, guild, channel, alice, bob = table
    async with standin.running(TinyBot(guild.id)):
        # discord.py[speed] brings zstandard; discord.py then asks for zstd-stream.
        assert standin.gateway_compression == "zstd-stream"
        await standin.wait_for_commands("6nimmt")
        lobby = await (await standin.slash(alice, channel, "6nimmt start", variant="classic")).reply()
        assert standin.drop_gateway() == 1
        await standin.world.wait_until(lambda: standin.server.gateway.resume_count == 1, 10, "bot did not RESUME")
        assert standin.server.gateway.compressions == ["zstd-stream", "zstd-stream"]
        join = await (await standin.click(bob, lobby, "lobby:join")).reply()
        assert join.content == "Players: bob"
    standin.assert_no_errors()


# --- injected failures --------------------------------------------------------------------


async def test_a_failed_call_changes_nothing_and_only_the_chosen_calls_fail(table: Any) -> None:
    standin, guild, channel, _, _ = table
    async with standin.running(TinyBot(guild.id)) as bot:
        target = bot.get_channel(channel.id)
        posted = await target.send("before")
        rule = standin.fail_next("PATCH", MESSAGE, channel=channel.id)
        other = standin.add_text_channel(guild, "other")
        await standin.world.wait_until(lambda: bot.get_channel(other.id), 3, "bot did not see #other")
        elsewhere = await bot.get_channel(other.id).send("elsewhere")
        await elsewhere.edit(content="edited elsewhere")  # another channel: not this rule's
        with pytest.raises(discord.DiscordServerError) as failed:
            await posted.edit(content="after")  # a 503 is not retried by discord.py
        assert failed.value.status == 503
        assert rule.spent and rule.hits == 1
        assert standin.message(posted.id).content == "before" and standin.message(posted.id).history == []
        await posted.edit(content="after")  # the rule was for the next call only
        assert standin.message(posted.id).content == "after"
        assert [(f.method, f.status, f.applied) for f in standin.injected_faults] == [("PATCH", 503, False)]
    standin.assert_no_errors()


async def test_a_500_is_retried_by_discord_py_and_a_random_share_fails_reproducibly(table: Any) -> None:
    standin, guild, channel, _, _ = table
    async with standin.running(TinyBot(guild.id)) as bot:
        target = bot.get_channel(channel.id)
        standin.fail_next("POST", MESSAGES, status=500)
        retried = await target.send("retried")  # discord.py sleeps 1 s and tries again
        assert [m.content for m in standin.channel_messages(channel)] == ["retried"]
        assert retried.id == standin.channel_messages(channel)[0].id

        async def sixteen_posts(seed: int) -> list[bool]:
            standin.clear_faults()
            standin.fail_requests(0.5, status=503, methods=["POST"], routes=[MESSAGES], seed=seed)
            results = []
            for i in range(16):
                try:
                    await target.send(f"{seed}:{i}")
                    results.append(True)
                except discord.DiscordServerError:
                    results.append(False)
            return results

        runs = [await sixteen_posts(seed) for seed in (7, 7, 8)]
        standin.clear_faults()
        assert runs[0] == runs[1], "the same seed fails the same calls"
        assert runs[0] != runs[2]
        assert 2 <= runs[0].count(False) <= 14
        # a failed post left nothing behind
        assert len(standin.channel_messages(channel)) == 1 + sum(sum(r) for r in runs)
    standin.assert_no_errors()


async def test_applied_but_answered_503_and_a_dropped_connection(table: Any) -> None:
    standin, guild, channel, _, _ = table
    async with standin.running(TinyBot(guild.id)) as bot:
        target = bot.get_channel(channel.id)
        standin.fail_next("POST", MESSAGES, channel=channel.id, applied=True)
        with pytest.raises(discord.DiscordServerError):
            await target.send("standings", nonce="game-1-final")
        assert [m.content for m in standin.channel_messages(channel)] == ["standings"]  # it was posted
        again = await target.send("standings", nonce="game-1-final")  # the idempotent re-send
        assert [m.id for m in standin.channel_messages(channel)] == [again.id]

        standin.fail_next("POST", MESSAGES, drop=True)
        with pytest.raises(aiohttp.ClientConnectionError):
            await target.send("cut off")
        assert len(standin.channel_messages(channel)) == 1
        assert [f.status for f in standin.injected_faults] == [503, 0]
        assert (await target.send("after the cut")).content == "after the cut"
    standin.assert_no_errors()


def test_which_calls_a_rule_matches() -> None:
    anywhere = Fault(fraction=1.0)
    assert anywhere.matches("PATCH", MESSAGE, 1)
    assert not anywhere.matches("GET", "/users/@me", None)  # log-in is spared unless named
    assert Fault(routes=frozenset(["/users/@me"])).matches("GET", "/users/@me", None)
    posts_here = Fault(methods=frozenset(["POST"]), routes=frozenset([MESSAGES]), channel=5, times=2)
    assert not posts_here.matches("PATCH", MESSAGES, 5) and not posts_here.matches("POST", MESSAGES, 6)
    faults = Faults()
    faults.add(posts_here)
    assert [faults.pick("POST", MESSAGES, 5) is posts_here for _ in range(3)] == [True, True, False]
    assert posts_here.spent and posts_here.hits == 2


def test_fault_rules_are_checked() -> None:
    standin = DiscordStandin()
    with pytest.raises(ValueError):
        standin.fail_next("PATCH", MESSAGE, status=404)
    with pytest.raises(ValueError):
        standin.fail_requests(0.0)
    with pytest.raises(ValueError):
        standin.fail_next("PATCH", "channels/{channel}")
    with pytest.raises(ValueError):
        standin.fail_next("PATCH", MESSAGE, times=0)
    assert standin.world.faults.rules == []


# --- enforce_nonce ------------------------------------------------------------------------


async def test_enforced_nonce_returns_the_first_message(table: Any) -> None:
    standin, guild, channel, _, _ = table
    other = standin.add_text_channel(guild, "other")
    async with standin.running(TinyBot(guild.id)) as bot:
        target = bot.get_channel(channel.id)
        first = await target.send("Final standings", nonce="g42-final")
        second = await target.send("Final standings (again)", nonce="g42-final")
        assert second.id == first.id and second.content == "Final standings" and second.nonce == "g42-final"
        assert [m.content for m in standin.channel_messages(channel)] == ["Final standings"]
        unrelated = await target.send("Final standings", nonce="g43-final")  # another nonce: another message
        assert unrelated.id != first.id

        standin.advance_time(standin.world.nonce_window + 1)  # a few minutes later the nonce is free again
        later = await target.send("Final standings", nonce="g42-final")
        assert later.id != first.id

        await later.delete()
        with pytest.raises(discord.NotFound):  # discord.py documents this for a deleted first message
            await target.send("Final standings", nonce="g42-final")
        assert [(e.status, e.body["code"]) for e in standin.errors] == [(404, 10008)]
        standin.errors.clear()

        here = await target.send("Final standings", nonce="g44-final")
        reused = await bot.get_channel(other.id).send("elsewhere", nonce="g44-final")
        assert reused.id == here.id  # Discord's check is per author: the stand-in flags it
        assert "reused across channels" in standin.errors[-1].body["message"]
        assert standin.channel_messages(other) == []
        with pytest.raises(discord.HTTPException) as too_long:
            await target.send("x", nonce="n" * 26)
        assert too_long.value.status == 400
