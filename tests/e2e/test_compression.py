"""The real bot in its own process talks to the gateway with whatever compression discord.py picks:
zstd-stream when ``zstandard`` is installed (``discord.py[speed]``), zlib-stream without it. The
second run also goes without ``orjson`` (the bot's dependency, discord.py's JSON when present):
an installation with neither plays the same."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.driver import open_hand
from tests.e2e.test_crash import BotProcess, wait_for_buttons
from tests.standin import DiscordStandin

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("without", "negotiated"), [("", "zstd-stream"), ("zstandard,orjson", "zlib-stream")])
async def test_bot_plays_over_each_gateway_compression(tmp_path, monkeypatch, without, negotiated):
    monkeypatch.setenv("SIXNIMMT_WITHOUT", without)
    async with DiscordStandin(ack_deadline=10) as standin:
        guild = standin.add_guild("Bullpen")
        channel = standin.add_text_channel(guild, "games")
        alice, bob = standin.add_member(guild, "alice"), standin.add_member(guild, "bob")
        bot = BotProcess(standin, tmp_path, seed=1)
        await bot.start(sync=True)
        try:
            assert standin.gateway_compression == negotiated
            await standin.wait_for_commands("6nimmt", timeout=20)
            lobby = await (await standin.slash(alice, channel, "6nimmt start", rounds=1, ai_players=1)).reply(
                timeout=10
            )
            for user, label in ((bob, "Join"), (alice, "Start")):
                assert await (await standin.click(user, lobby, lobby.button(label)["custom_id"])).ack(10) == 6
            table = await standin.world.wait_until(
                lambda: next(
                    (m for m in standin.channel_messages(channel) if any(c.startswith("6n:h:") for c in m.custom_ids)),
                    None,
                ),
                10,
                "the table message never appeared",
            )
            await wait_for_buttons(standin, table, "6n:h:")
            hand = await open_hand(standin, bob, table, timeout=10)
            assert len(hand.cards) == 10 and hand.message.ephemeral_to.id == bob.id
            standin.assert_no_errors()
        finally:
            bot.proc.terminate()
            await asyncio.wait_for(bot.proc.wait(), 20)
