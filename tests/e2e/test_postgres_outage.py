"""The real bot on PostgreSQL while the server drops every connection (as a restart does):
the next clicks are saved and answered as if nothing happened. (A connection lost in the
middle of a save, and a server that stays away, are tested on the store: tests/data/test_postgres.py.)"""

from __future__ import annotations

import asyncpg

from bot.config import Settings
from tests.e2e import driver
from tests.e2e.test_table_play import click_ok, open_table


async def drop_connections(cluster, url: str) -> int:
    admin = await asyncpg.connect(cluster.admin_url)
    try:
        return await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1", url.rsplit("/", 1)[1]
        )
    finally:
        await admin.close()


async def pick(world, user) -> str:
    await world.settle()
    return (await driver.pick(world.standin, user, world.table_message())).content


async def test_clicks_after_the_server_dropped_every_connection_are_saved(world, postgres_cluster, postgres_url):
    world.settings = lambda: Settings(
        discord_token=world.standin.token,
        database_url=postgres_url,
        health_file=world.tmp_path / "bot.health",
        threads=False,
    )
    async with world.running_bot() as bot:
        lobby = await open_table(world, rounds=1, ai_players=1, ai_level="easy")
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        assert "face down" in await pick(world, world.alice)
        assert await drop_connections(postgres_cluster, postgres_url) >= 1
        answer = await pick(world, world.bob)  # reveals the turn: saved on a new connection
        assert "You played" in answer or "face down" in answer, answer
        table_id = bot.service.table_in(world.channel.id).id
        log = await bot.service.store.game_log(table_id)
        assert {a.action["kind"] for a in log.actions} >= {"pick"} and len(log.actions) >= 3
        world.standin.assert_no_errors()
