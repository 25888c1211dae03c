"""Every save fails within a bounded time when the database is away or hangs, as
StoreUnavailable (nothing written), instead of hanging the table that waits for it."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import pytest

from data.errors import StoreUnavailable
from data.models import Commit
from data.postgres import PostgresStore
from data.sqlite.store import SQLiteStore

from .backends import all_rows
from .helpers import TickingClock, start_game

TWO_HUMANS = [(1, 10), (2, 20)]


async def test_sqlite_locked_by_another_process_is_unavailable_after_the_busy_timeout(db_path):
    store = await SQLiteStore.open(db_path, clock=TickingClock(), busy_timeout_ms=300)
    try:
        game = await start_game(store, TWO_HUMANS)
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            started = time.monotonic()
            with pytest.raises(StoreUnavailable, match="locked"):
                await store.commit(game, Commit({"n": 1}, {}, [{"card": 1}]))
            with pytest.raises(StoreUnavailable):
                await store.mark_shown(game, message_id=5)
            assert time.monotonic() - started < 3
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert await store.commit(game, Commit({"n": 1}, {}, [{"card": 1}])) == 1, "usable again"
    finally:
        await store.close()


@pytest.fixture
async def pg(postgres_cluster):
    store = await PostgresStore.open(
        await postgres_cluster.fresh_database(), pool_size=3, clock=TickingClock(), timeout=1.0
    )
    yield store
    await store.close()


async def test_postgres_statement_that_hangs_is_unavailable_within_the_timeout(pg):
    game = await start_game(pg, TWO_HUMANS)
    before = await all_rows(pg)
    blocker = await asyncpg.connect(pg.url)
    try:
        blocking = blocker.transaction()
        await blocking.start()
        await blocker.execute("SELECT 1 FROM games WHERE game_id = $1 FOR UPDATE", game)  # the commit waits
        started = time.monotonic()
        with pytest.raises(StoreUnavailable):
            await pg.commit(game, Commit({"n": 1}, {}, [{"card": 1}]))
        assert 0.9 < time.monotonic() - started < 3
        await blocking.rollback()
    finally:
        await blocker.close()
    assert await all_rows(pg) == before, "nothing was written"
    assert await pg.commit(game, Commit({"n": 1}, {}, [{"card": 1}])) == 1, "usable again"


def _parent(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    raise LookupError(pid)


@contextmanager
def frozen(pids: list[int]):
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


async def test_postgres_server_frozen_is_unavailable_within_the_timeout(pg):
    game = await start_game(pg, TWO_HUMANS)
    admin = await asyncpg.connect(pg.url)
    try:
        backends = [
            r[0]
            for r in await admin.fetch(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ]
    finally:
        await admin.close()
    if not backends or not all(Path(f"/proc/{pid}").exists() for pid in backends):
        pytest.skip("the server runs elsewhere: its processes cannot be frozen from here")
    server = _parent(backends[0])
    try:
        os.kill(server, 0)
    except PermissionError:
        pytest.skip("not allowed to signal the server's processes")
    with frozen([server, *backends]):  # the server stops answering, new connections included
        started = time.monotonic()
        results = await asyncio.gather(
            pg.commit(game, Commit({"n": 1}, {}, [{"card": 1}])), pg.load_table(game), return_exceptions=True
        )
        elapsed = time.monotonic() - started
    assert all(isinstance(r, StoreUnavailable) for r in results), results
    assert elapsed < 3
    # Once the server answers again, the store does too (the frozen connections were cut).
    for _ in range(50):
        try:
            assert await pg.commit(game, Commit({"n": 2}, {}, [{"card": 2}])) == 1
            break
        except StoreUnavailable:
            await asyncio.sleep(0.1)
    else:
        pytest.fail("the store did not recover")
    assert [a.seq for a in (await pg.game_log(game)).actions] == [1]
