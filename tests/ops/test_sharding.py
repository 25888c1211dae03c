"""Shards: the bot runs as an AutoShardedBot when told, and each process restores only its tables."""

from __future__ import annotations

import discord

from bot.app import ShardedSixNimmtBot, SixNimmtBot, make_bot
from bot.config import Settings
from bot.tables.service import TableService
from bot.tables.table import TableOptions


def settings(tmp_path, **values) -> Settings:
    return Settings(discord_token="x", database_path=tmp_path / "bot.sqlite3", **values)


def guild_on_shard(shard: int, count: int, n: int = 1) -> int:
    return ((n * count + shard) << 22) + 12345  # Discord: shard = (guild_id >> 22) % count


def test_the_bot_is_sharded_only_when_configured(tmp_path):
    plain = make_bot(settings(tmp_path))
    assert type(plain) is SixNimmtBot and not isinstance(plain, discord.AutoShardedClient)
    sharded = make_bot(settings(tmp_path, shard_count=4, shard_ids=[1, 3]))
    assert isinstance(sharded, ShardedSixNimmtBot) and isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
    everything = make_bot(settings(tmp_path, shard_count=2))
    assert isinstance(everything, discord.AutoShardedClient) and everything.shard_ids is None


async def test_a_process_restores_only_the_tables_of_its_shards(store, clock, tmp_path):
    first = TableService(store, clock=clock)
    await first.start()
    mine, theirs = guild_on_shard(1, 2), guild_on_shard(0, 2)
    for host, guild in ((100, mine), (200, theirs)):
        await first.open_lobby(guild, guild + 1, host, f"host{host}", TableOptions())
    await first.close()

    config = settings(tmp_path, shard_count=2, shard_ids=[1])
    assert config.owns_guild(mine) and not config.owns_guild(theirs)
    second = TableService(store, clock=clock)
    await second.start(config.owns_guild)
    assert [t.guild_id for t in second.tables.values()] == [mine]
    await second.close()
    everyone = TableService(store, clock=clock)
    await everyone.start()
    assert sorted(t.guild_id for t in everyone.tables.values()) == sorted([mine, theirs])
    await everyone.close()
