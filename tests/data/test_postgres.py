"""What only the PostgreSQL store has to show: migrations shared by several processes,
commits that survive a lost connection without being written twice, and a server that
hangs costing a bounded time."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import asyncpg
import pytest

from data.errors import GameNotActive, MigrationError, SchemaTooNew, StoreUnavailable
from data.migration import Migration
from data.models import Commit, OutboxPost
from data.postgres import PostgresStore
from data.postgres.schema import LATEST_VERSION, MIGRATIONS, apply_migrations, schema_version

from .backends import all_rows, raw
from .helpers import TickingClock, game_result, start_game

TWO_HUMANS = [(1, 10), (2, 20)]


@pytest.fixture
async def empty_url(postgres_cluster) -> str:
    return await postgres_cluster.empty_database()


@pytest.fixture
async def pg(postgres_cluster):
    store = await PostgresStore.open(await postgres_cluster.fresh_database(), pool_size=3, clock=TickingClock())
    store.retry_delays = (0.01, 0.02, 0.05)
    yield store
    await store.close()


async def version_of(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await schema_version(conn)
    finally:
        await conn.close()


async def test_processes_starting_at_once_migrate_once(empty_url):
    stores = await asyncio.gather(*(PostgresStore.open(empty_url, pool_size=1) for _ in range(6)))
    try:
        assert await version_of(empty_url) == LATEST_VERSION
        game = await start_game(stores[0], TWO_HUMANS)
        await stores[0].commit(game, Commit({"n": 1}, {}))
        assert (await stores[5].load_table(game)).checkpoint.state == {"n": 1}
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_upgrade_from_every_earlier_version_keeps_the_data(postgres_cluster):
    for old in range(1, LATEST_VERSION):
        url = await postgres_cluster.empty_database()
        conn = await asyncpg.connect(url)
        try:
            await apply_migrations(conn, MIGRATIONS[:old])
            await conn.execute("INSERT INTO guilds (guild_id, updated_at) VALUES (1, 0)")
            await conn.execute(
                "INSERT INTO games (guild_id, channel_id, variant, status, created_at, updated_at) "
                "VALUES (1, 2, 'classic', 'lobby', 0, 0)"
            )
        finally:
            await conn.close()
        async with await PostgresStore.open(url) as store:
            assert [t.game.game_id for t in await store.load_unfinished()] == [1]
        assert await version_of(url) == LATEST_VERSION


async def test_a_newer_database_is_refused_unchanged(pg):
    await start_game(pg, TWO_HUMANS)
    await raw(pg, "UPDATE schema_version SET version = ?", LATEST_VERSION + 2)
    before = await all_rows(pg)
    with pytest.raises(SchemaTooNew, match=f"{LATEST_VERSION + 2}.*{LATEST_VERSION}"):
        await PostgresStore.open(pg.url)
    assert await all_rows(pg) == before


async def test_a_failed_migration_leaves_the_version_and_tables_as_they_were(empty_url):
    broken = Migration(LATEST_VERSION + 1, "half-valid", ("CREATE TABLE added (x INTEGER)", "NOT SQL AT ALL"))
    conn = await asyncpg.connect(empty_url)
    try:
        await apply_migrations(conn)
        with pytest.raises(MigrationError, match=f"version {LATEST_VERSION + 1}"):
            await apply_migrations(conn, (*MIGRATIONS, broken))
        assert await conn.fetchval("SELECT to_regclass('added')") is None
    finally:
        await conn.close()
    assert await version_of(empty_url) == LATEST_VERSION


async def test_a_checkpoint_survives_a_server_side_disconnect(pg, postgres_cluster):
    game = await start_game(pg, TWO_HUMANS)
    assert await pg.commit(game, Commit({"n": 1}, {}, [{"card": 1}])) == 1
    admin = await asyncpg.connect(postgres_cluster.admin_url)
    try:  # what a server restart does to every connection of the pool
        killed = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1", pg.url.rsplit("/", 1)[1]
        )
    finally:
        await admin.close()
    assert killed >= 1
    assert await pg.commit(game, Commit({"n": 2}, {}, [{"card": 2}])) == 2
    assert [a.seq for a in (await pg.game_log(game)).actions] == [1, 2]


async def test_a_retry_after_a_commit_whose_answer_was_lost_writes_nothing_twice(pg, monkeypatch):
    game = await start_game(pg, TWO_HUMANS)
    real = PostgresStore._attempt
    lost = []

    async def commit_then_lose_the_answer(self, *args):
        value = await real(self, *args)
        if not lost:  # committed on the server; the client never hears so
            lost.append(True)
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")
        return value

    monkeypatch.setattr(PostgresStore, "_attempt", commit_then_lose_the_answer)
    assert await pg.commit(game, Commit({"n": 1}, {"m": 1}, [{"card": 1}, {"card": 2}])) == 2
    assert lost == [True]
    assert await raw(pg, "SELECT seq, action FROM actions ORDER BY seq") == [(1, '{"card":1}'), (2, '{"card":2}')]
    assert await pg.commit(game, Commit({"n": 2}, {}, [{"card": 3}])) == 3


async def test_a_retried_finishing_commit_whose_answer_was_lost_is_applied_once(pg, monkeypatch):
    """No action to recognise it by: the result, the status change and the posts are written once,
    and the caller hears what the first try did."""
    specs = [(1, 5), (2, 20)]
    games = [await start_game(pg, specs) for _ in range(2)]
    real = PostgresStore._attempt
    lost = []

    async def commit_then_lose_the_answer(self, *args):
        value = await real(self, *args)
        if not lost:
            lost.append(True)
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")
        return value

    monkeypatch.setattr(PostgresStore, "_attempt", commit_then_lose_the_answer)
    outcomes = await asyncio.gather(
        pg.commit(
            games[0],
            Commit(
                {"end": 1},
                {},
                [{"card": 7}],
                result=game_result(games[0], specs),
                posts=[OutboxPost(seq=1, payload={"k": 1})],
            ),
        ),
        pg.commit(games[1], Commit({"end": 2}, {}, [{"card": 8}], status="cancelled")),
        pg.commit(games[1], Commit({}, {}, [{"card": 9}])),
        return_exceptions=True,
    )
    assert lost == [True]
    # A second run would find both games ended and refuse their last moves: the retry knew better.
    assert outcomes[:2] == [1, 1] and isinstance(outcomes[2], GameNotActive)
    assert await raw(pg, "SELECT game_id, seq FROM actions ORDER BY game_id") == [(games[0], 1), (games[1], 1)]
    ratings = await raw(pg, "SELECT games FROM ratings")
    assert [r[0] for r in ratings] == [1] * 4, "rated once"
    assert await raw(pg, "SELECT count(*) FROM results") == [(2,)]
    assert await raw(pg, "SELECT game_id, status FROM games ORDER BY game_id") == [
        (games[0], "finished"),
        (games[1], "cancelled"),
    ]


async def test_a_database_that_stays_away_is_a_clear_error_and_nothing_changes(pg, monkeypatch):
    game = await start_game(pg, TWO_HUMANS)
    before = await all_rows(pg)

    async def refused(self, *args):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(PostgresStore, "_attempt", refused)
    with pytest.raises(StoreUnavailable, match="cannot be reached.*try again"):
        await pg.commit(game, Commit({"n": 1}, {}, [{"card": 1}]))
    with pytest.raises(StoreUnavailable):
        await pg.leaderboard(None)
    monkeypatch.undo()
    assert await all_rows(pg) == before


async def test_two_games_of_the_same_players_finishing_at_once_both_count_in_their_ratings(pg):
    from .helpers import game_result

    specs = [(1, 5), (2, 20), (3, 12)]
    games = [await start_game(pg, specs) for _ in range(4)]
    assert (
        await asyncio.gather(*(pg.commit(g, Commit({}, {}, result=game_result(g, specs))) for g in games)) == [None] * 4
    )
    ratings = await raw(pg, "SELECT scope_id, user_id, games FROM ratings ORDER BY scope_id, user_id")
    assert [r[2] for r in ratings] == [4] * 6, "every game updated every rating, none was lost to a race"
    assert (await pg.player_stats(1)).rating.games == 4


OLD_META = {
    "host_id": 1,
    "message_id": 4242,
    "post_seq": 7,
    "outbox": [{"seq": 6, "kind": "turn"}, {"seq": 7, "kind": "finished"}],
}


async def version_2_with_outbox_in_meta(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await apply_migrations(conn, MIGRATIONS[:2])
        await conn.execute("INSERT INTO guilds (guild_id, updated_at) VALUES (1, 0)")
        for game_id, status, meta in ((1, "cancelled", json.dumps(OLD_META)), (2, "playing", "{not json")):
            await conn.execute(
                "INSERT INTO games (game_id, guild_id, channel_id, variant, status, created_at, "
                "updated_at) VALUES ($1, 1, 2, 'classic', $2, 0, 0)",
                game_id,
                status,
            )
            await conn.execute(
                "INSERT INTO checkpoints (game_id, last_seq, state, meta, updated_at, unshown) "
                "VALUES ($1, 0, '{}', $2, 5, 1)",
                game_id,
                meta,
            )
    finally:
        await conn.close()


async def test_version_2_moves_outbox_and_message_id_out_of_meta(empty_url):
    await version_2_with_outbox_in_meta(empty_url)
    async with await PostgresStore.open(empty_url) as store:
        [owed] = await store.load_unshown()
        [damaged] = await store.load_unfinished()
    assert await version_of(empty_url) == LATEST_VERSION
    assert owed.message_id == 4242 and [(p.seq, p.payload["kind"]) for p in owed.posts] == [
        (6, "turn"),
        (7, "finished"),
    ]
    assert owed.checkpoint.meta == {"host_id": 1, "post_seq": 7}
    assert "is not valid JSON" in damaged.reason


async def test_a_failing_data_move_leaves_version_2_as_it_was(empty_url):
    await version_2_with_outbox_in_meta(empty_url)

    async def broken(conn):
        await conn.execute("DELETE FROM checkpoints")
        raise RuntimeError("disk on fire")

    conn = await asyncpg.connect(empty_url)
    try:
        with pytest.raises(MigrationError, match="version 3.*disk on fire"):
            await apply_migrations(conn, (*MIGRATIONS[:2], dataclasses.replace(MIGRATIONS[2], after=broken)))
        assert await conn.fetchval("SELECT to_regclass('outbox')") is None
        assert json.loads(await conn.fetchval("SELECT meta FROM checkpoints WHERE game_id = 1")) == OLD_META
        assert await conn.fetchval("SELECT count(*) FROM checkpoints WHERE unshown = 1") == 2
    finally:
        await conn.close()
    assert await version_of(empty_url) == 2
