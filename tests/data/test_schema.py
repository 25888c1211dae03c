"""Schema versioning: fresh files, upgrades from every version, refusals, rollback."""

from __future__ import annotations

import dataclasses
import json
import sqlite3

import aiosqlite
import pytest

from data.errors import MigrationError, NotADatabase, SchemaTooNew
from data.models import Commit, SeatInfo
from data.sqlite.schema import LATEST_VERSION, MIGRATIONS, Migration, apply_migrations
from data.sqlite.store import SQLiteStore


def user_version(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


async def build_old_db(path, version: int) -> None:
    """A database as an older release would have left it: first N migrations only."""
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await apply_migrations(conn, MIGRATIONS[:version])
        if version >= 1:  # some data that must survive the upgrade
            await conn.execute("INSERT INTO guilds (guild_id, name, updated_at) VALUES (1, 'g', 0)")
            await conn.execute(
                "INSERT INTO games (guild_id, channel_id, variant, status, created_at, "
                "updated_at) VALUES (1, 2, 'classic', 'lobby', 0, 0)"
            )


def test_migrations_are_numbered_consecutively():
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))
    assert LATEST_VERSION >= 2


async def test_fresh_file_gets_latest_schema_and_pragmas(db_path):
    async with await SQLiteStore.open(db_path) as store:
        assert await store.load_unfinished() == []
    assert user_version(db_path) == LATEST_VERSION
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("old_version", range(LATEST_VERSION))
async def test_upgrade_from_every_earlier_version(db_path, old_version):
    await build_old_db(db_path, old_version)
    assert user_version(db_path) == old_version
    async with await SQLiteStore.open(db_path) as store:
        tables = await store.load_unfinished()
        await store.create_game(  # the upgraded schema is usable
            guild_id=1,
            channel_id=3,
            host_id=7,
            variant="classic",
            commit=Commit({}, {}, seats=[SeatInfo(seat=0, user_id=7, display_name="seven")]),
        )
    assert user_version(db_path) == LATEST_VERSION
    assert len(tables) == (1 if old_version >= 1 else 0)


async def test_reopening_latest_is_a_no_op(db_path):
    for _ in range(2):
        async with await SQLiteStore.open(db_path):
            pass
    assert user_version(db_path) == LATEST_VERSION


async def test_newer_schema_is_refused_with_both_versions(db_path):
    await build_old_db(db_path, LATEST_VERSION)
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 5}")
    with pytest.raises(SchemaTooNew) as caught:
        await SQLiteStore.open(db_path)
    assert str(LATEST_VERSION + 5) in str(caught.value)
    assert str(LATEST_VERSION) in str(caught.value)
    assert user_version(db_path) == LATEST_VERSION + 5


async def test_a_newer_rollback_journal_file_is_refused_without_a_byte_changed(db_path):
    """Not even switched to WAL: the version is read before anything can write."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("CREATE TABLE from_the_future (x INTEGER)")
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(SchemaTooNew):
        await SQLiteStore.open(db_path)
    assert db_path.read_bytes() == before
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name], "no -wal or -shm either"


async def test_a_file_that_is_no_database_is_refused_unchanged(db_path):
    db_path.write_bytes(b"not a database " * 100)
    with pytest.raises(NotADatabase, match="is not an SQLite database file"):
        await SQLiteStore.open(db_path)
    assert db_path.read_bytes() == b"not a database " * 100


async def test_failed_migration_rolls_back_to_previous_version(db_path):
    broken = Migration(2, "half-valid", ("CREATE TABLE added_by_v2 (x INTEGER)", "NOT SQL AT ALL"))
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        await apply_migrations(conn, MIGRATIONS[:1])
        with pytest.raises(MigrationError, match="version 2"):
            await apply_migrations(conn, (*MIGRATIONS[:1], broken))
        assert not conn.in_transaction
    assert user_version(db_path) == 1
    with sqlite3.connect(db_path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "added_by_v2" not in tables
    assert "games" in tables  # v1 untouched
    async with await SQLiteStore.open(db_path):  # the real v2 still applies afterwards
        pass
    assert user_version(db_path) == LATEST_VERSION


async def test_user_version_is_transactional(db_path):
    """The property the migration runner relies on."""
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("PRAGMA user_version = 9")
        await conn.execute("ROLLBACK")
    assert user_version(db_path) == 0


OLD_META = {
    "host_id": 1,
    "message_id": 4242,
    "post_seq": 7,
    "outbox": [{"seq": 6, "kind": "turn", "events": []}, {"seq": 7, "kind": "finished"}, "junk"],
}


async def build_v3_with_outbox_in_meta(path) -> None:
    """Version 3 as the service left it: the outbox and the message id in checkpoint meta."""
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await apply_migrations(conn, MIGRATIONS[:3])
        await conn.execute("INSERT INTO guilds (guild_id, updated_at) VALUES (1, 0)")
        for game_id, status, meta in (
            (1, "finished", json.dumps(OLD_META)),
            (2, "playing", '{"post_seq": 2}'),
            (3, "playing", "{not json"),
        ):
            await conn.execute(
                "INSERT INTO games (game_id, guild_id, channel_id, message_ids, variant, status, "
                "created_at, updated_at) VALUES (?, 1, 2, '{}', 'classic', ?, 0, 0)",
                (game_id, status),
            )
            await conn.execute(
                "INSERT INTO checkpoints (game_id, last_seq, state, meta, updated_at, unshown) "
                "VALUES (?, 0, '{}', ?, 5, ?)",
                (game_id, meta, int(game_id == 1)),
            )


async def test_version_3_moves_outbox_and_message_id_out_of_meta(db_path):
    await build_v3_with_outbox_in_meta(db_path)
    async with await SQLiteStore.open(db_path) as store:
        [owed] = await store.load_unshown()
        unfinished = await store.load_unfinished()
    assert user_version(db_path) == LATEST_VERSION
    assert owed.game.game_id == 1 and owed.message_id == 4242
    assert [(p.seq, p.payload["kind"]) for p in owed.posts] == [(6, "turn"), (7, "finished")]
    assert owed.checkpoint.meta == {"host_id": 1, "post_seq": 7}
    assert unfinished[0].checkpoint.meta == {"post_seq": 2} and unfinished[0].posts == []
    assert "is not valid JSON" in unfinished[1].reason, "a damaged meta is left to be reported"
    with sqlite3.connect(db_path) as conn:
        columns = {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")] for t in ("games", "checkpoints")}
    assert "message_ids" not in columns["games"] and "unshown" not in columns["checkpoints"]


async def test_a_failing_data_move_leaves_version_3_as_it_was(db_path):
    await build_v3_with_outbox_in_meta(db_path)

    async def broken(conn):
        await conn.execute("DELETE FROM checkpoints")
        raise RuntimeError("disk on fire")

    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        with pytest.raises(MigrationError, match="version 4.*disk on fire"):
            await apply_migrations(conn, (*MIGRATIONS[:3], dataclasses.replace(MIGRATIONS[3], after=broken)))
    assert user_version(db_path) == 3
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM checkpoints WHERE unshown = 1").fetchone() == (1,)
        assert "outbox" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert json.loads(conn.execute("SELECT meta FROM checkpoints WHERE game_id = 1").fetchone()[0]) == OLD_META
