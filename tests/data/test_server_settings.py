"""A server's own settings: stored per guild on both backends, a damaged row read as none."""

from __future__ import annotations

import logging

import aiosqlite
import asyncpg
import pytest
from pydantic import ValidationError

from data.errors import SchemaTooNew
from data.models import ServerSettings
from data.postgres import PostgresStore
from data.postgres import schema as pg_schema
from data.sqlite import schema as lite_schema
from data.sqlite.store import SQLiteStore

from .backends import all_rows, raw

GUILD = 4711


async def test_a_round_trip_keeps_every_field(store):
    chosen = ServerSettings(threads=False, pace="8h", turn_seconds=90, ai_level="hard", turn_based=True, language="de")
    await store.save_server_settings(GUILD, chosen)
    assert await store.server_settings(GUILD) == chosen
    partial = ServerSettings(ai_level="easy")
    await store.save_server_settings(GUILD, partial)  # replaced whole, not merged
    assert await store.server_settings(GUILD) == partial
    assert await store.server_settings(GUILD + 1) is None, "another server keeps the bot's defaults"


async def test_every_servers_settings_are_read_at_once(store, caplog):
    assert await store.all_server_settings() == {}
    await store.save_server_settings(GUILD, ServerSettings(language="de"))
    await store.save_server_settings(GUILD + 1, ServerSettings(ai_level="hard"))
    await store.save_server_settings(GUILD + 2, ServerSettings(pace="1h"))
    await raw(store, "UPDATE server_settings SET settings = ? WHERE guild_id = ?", '{"pace": "2h"}', GUILD + 2)
    with caplog.at_level(logging.WARNING):
        assert await store.all_server_settings() == {
            GUILD: ServerSettings(language="de"),
            GUILD + 1: ServerSettings(ai_level="hard"),
        }
    assert f"guild {GUILD + 2} settings" in caplog.text, "a damaged row is logged and left out"


async def test_an_unknown_guild_has_none(store):
    assert await store.server_settings(123) is None


async def test_unset_fields_are_not_stored(store):
    await store.save_server_settings(GUILD, ServerSettings(pace="1h"))
    [(text,)] = await raw(store, "SELECT settings FROM server_settings WHERE guild_id = ?", GUILD)
    assert text == '{"pace":"1h"}'


@pytest.mark.parametrize("text", ['{"pace": "2h"}', "{not json", "[1]", '{"turn_seconds": 5}', '{"colour": "red"}'])
async def test_a_corrupt_row_reads_as_none_and_is_logged(store, text, caplog):
    await store.save_server_settings(GUILD, ServerSettings(pace="1h"))
    await raw(store, "UPDATE server_settings SET settings = ? WHERE guild_id = ?", text, GUILD)
    with caplog.at_level(logging.WARNING):
        assert await store.server_settings(GUILD) is None
    assert f"guild {GUILD} settings" in caplog.text
    await store.save_server_settings(GUILD, ServerSettings(ai_level="medium"))  # and it can be set again
    assert await store.server_settings(GUILD) == ServerSettings(ai_level="medium")


def test_the_model_refuses_what_no_server_may_set():
    for bad in (
        {"pace": "2h"},
        {"turn_seconds": 14},
        {"turn_seconds": 601},
        {"ai_level": "expert"},
        {"colour": "red"},
        {"language": "Deutsch"},
        {"language": ""},
    ):
        with pytest.raises(ValidationError):
            ServerSettings(**bad)
    with pytest.raises(ValidationError):
        ServerSettings().threads = True  # type: ignore[misc]  # frozen


async def test_a_settings_save_touches_nothing_else(store):
    before = await all_rows(store)
    await store.save_server_settings(GUILD, ServerSettings(threads=True))
    after = await all_rows(store)
    assert {t: r for t, r in after.items() if t not in ("server_settings", "guilds")} == {
        t: r for t, r in before.items() if t not in ("server_settings", "guilds")
    }
    assert [r[0] for r in after["guilds"]] == [GUILD]


async def test_sqlite_version_4_upgrades_keeping_its_data(db_path):
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        await lite_schema.apply_migrations(conn, lite_schema.MIGRATIONS[:4])
        await conn.execute("INSERT INTO guilds (guild_id, name, updated_at) VALUES (?, 'g', 0)", (GUILD,))
        await conn.execute(
            "INSERT INTO games (guild_id, channel_id, variant, status, created_at, updated_at) "
            "VALUES (?, 2, 'classic', 'lobby', 0, 0)",
            (GUILD,),
        )
    async with await SQLiteStore.open(db_path) as store:
        assert [t.game.guild_id for t in await store.load_unfinished()] == [GUILD]
        assert await store.server_settings(GUILD) is None
        await store.save_server_settings(GUILD, ServerSettings(pace="24h"))
        rows = await all_rows(store)
    assert rows["guilds"] == [(GUILD, "g", 0.0)], "the guild's row is kept as it was"
    async with await SQLiteStore.open(db_path) as store:
        assert await store.server_settings(GUILD) == ServerSettings(pace="24h")
    assert lite_schema.LATEST_VERSION == 5


async def test_sqlite_newer_than_this_code_is_refused(db_path):
    async with await SQLiteStore.open(db_path) as store:
        await store.save_server_settings(GUILD, ServerSettings(pace="1h"))
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        await conn.execute(f"PRAGMA user_version = {lite_schema.LATEST_VERSION + 1}")
    with pytest.raises(SchemaTooNew):
        await SQLiteStore.open(db_path)


async def test_postgres_version_3_upgrades_keeping_its_data(postgres_cluster):
    url = await postgres_cluster.empty_database()
    conn = await asyncpg.connect(url)
    try:
        await pg_schema.apply_migrations(conn, pg_schema.MIGRATIONS[:3])
        await conn.execute("INSERT INTO guilds (guild_id, name, updated_at) VALUES ($1, 'g', 0)", GUILD)
        await conn.execute(
            "INSERT INTO games (guild_id, channel_id, variant, status, created_at, updated_at) "
            "VALUES ($1, 2, 'classic', 'lobby', 0, 0)",
            GUILD,
        )
    finally:
        await conn.close()
    async with await PostgresStore.open(url) as store:
        assert [t.game.guild_id for t in await store.load_unfinished()] == [GUILD]
        assert await store.server_settings(GUILD) is None
        await store.save_server_settings(GUILD, ServerSettings(turn_based=False))
    async with await PostgresStore.open(url) as store:
        assert await store.server_settings(GUILD) == ServerSettings(turn_based=False)
        assert (await all_rows(store))["schema_version"] == [(4, True)]
    assert pg_schema.LATEST_VERSION == 4


async def test_postgres_newer_than_this_code_is_refused_unchanged(postgres_cluster):
    url = await postgres_cluster.fresh_database()
    async with await PostgresStore.open(url) as store:
        await store.save_server_settings(GUILD, ServerSettings(pace="1h"))
        await raw(store, "UPDATE schema_version SET version = ?", pg_schema.LATEST_VERSION + 1)
        before = await all_rows(store)
    with pytest.raises(SchemaTooNew):
        await PostgresStore.open(url)
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT settings FROM server_settings") == '{"pace":"1h"}'
    finally:
        await conn.close()
    assert before["server_settings"]


async def test_sqlite_save_is_bounded_when_another_process_holds_the_lock(db_path):
    import sqlite3
    import time

    from data.errors import StoreUnavailable

    store = await SQLiteStore.open(db_path, busy_timeout_ms=300)
    try:
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            started = time.monotonic()
            with pytest.raises(StoreUnavailable):
                await store.save_server_settings(GUILD, ServerSettings(pace="1h"))
            assert time.monotonic() - started < 3
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert await store.server_settings(GUILD) is None, "nothing was written"
    finally:
        await store.close()


async def test_postgres_save_is_bounded_when_its_row_is_held(postgres_cluster):
    import time

    from data.errors import StoreUnavailable

    store = await PostgresStore.open(await postgres_cluster.fresh_database(), pool_size=2, timeout=1.0)
    try:
        await store.save_server_settings(GUILD, ServerSettings(pace="1h"))
        blocker = await asyncpg.connect(store.url)
        try:
            async with blocker.transaction():
                await blocker.execute("SELECT 1 FROM server_settings WHERE guild_id = $1 FOR UPDATE", GUILD)
                started = time.monotonic()
                with pytest.raises(StoreUnavailable):
                    await store.save_server_settings(GUILD, ServerSettings(pace="8h"))
                assert time.monotonic() - started < 3
        finally:
            await blocker.close()
        assert await store.server_settings(GUILD) == ServerSettings(pace="1h"), "nothing was written"
    finally:
        await store.close()
