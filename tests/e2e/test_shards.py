"""Two shard processes share one database: each serves and restores only its own guilds' tables."""

from __future__ import annotations

import contextlib

import discord

from bot.app import ShardedSixNimmtBot, make_bot
from bot.config import Settings
from tests.bot.conftest import FakeClock
from tests.standin import DiscordStandin


async def test_each_shard_serves_and_restores_only_its_guilds(tmp_path):
    async with DiscordStandin() as standin:
        guilds = []
        while len({(g.id >> 22) % 2 for g in guilds}) < 2:  # a guild on each of two shards
            guilds.append(standin.add_guild(f"g{len(guilds)}"))
        by_shard = {(g.id >> 22) % 2: g for g in guilds}
        channels = {shard: standin.add_text_channel(g, "games") for shard, g in by_shard.items()}
        hosts = {shard: standin.add_member(g, f"host{shard}") for shard, g in by_shard.items()}
        clock = FakeClock()

        @contextlib.asynccontextmanager
        async def shard_process(shard: int):
            settings = Settings(
                discord_token=standin.token,
                database_path=tmp_path / "shared.sqlite3",
                shard_count=2,
                shard_ids=[shard],
                threads=False,
            )
            bot = make_bot(settings, clock=clock)
            assert isinstance(bot, ShardedSixNimmtBot)
            async with standin.running(bot):
                await bot.tree.sync()
                await standin.wait_for_commands("6nimmt")
                assert {g.id for g in bot.guilds} == {g.id for g in guilds if (g.id >> 22) % 2 == shard}
                yield bot

        for shard in (0, 1):
            async with shard_process(shard) as bot:
                lobby = await (await standin.slash(hosts[shard], channels[shard], "6nimmt start", rounds=1)).reply(
                    timeout=10
                )
                assert lobby.button("Join")
                assert [t.guild_id for t in bot.service.tables.values()] == [by_shard[shard].id]

        for shard in (0, 1):  # both lobbies are in the shared database; each process takes its own back
            async with shard_process(shard) as bot:
                assert [t.channel_id for t in bot.service.tables.values()] == [channels[shard].id]
                assert isinstance(bot.get_guild(by_shard[shard].id), discord.Guild)
        standin.assert_no_errors()
