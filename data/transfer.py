"""Moving a bot's SQLite database into an empty PostgreSQL database, whole.

Every table is copied (COPY, fast) in one PostgreSQL transaction, the copy's
row count is checked against the source's per table, and only then is it
committed: a failure leaves the target as empty as it was. The source is
opened by the SQLite store first, so it is at the latest schema (upgraded if
an older bot wrote it) and both sides have the same columns.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from . import sqlite_path
from .errors import StoreError
from .models import Transferred
from .postgres import PostgresStore
from .postgres.schema import TABLES
from .sqlite import SQLiteStore


class TransferError(StoreError):
    """The database cannot be moved; nothing was written to the target."""


async def copy_sqlite_to_postgres(source: str, target: str) -> Transferred:
    path = sqlite_path(source)
    if path is None or sqlite_path(target) is not None:
        raise TransferError("copy from an SQLite database (sqlite:///path) to a PostgreSQL one (postgresql://…)")
    if not Path(path).is_file():
        raise TransferError(f"{path}: no such database file")
    await (await SQLiteStore.open(path)).close()  # refuses a newer file, upgrades an older one
    destination = await PostgresStore.open(target, pool_size=1)  # migrated, so the tables exist
    await destination.close()
    source_conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        conn = await asyncpg.connect(target)
        try:
            async with conn.transaction():
                return await _copy(source_conn, conn)
        finally:
            await conn.close()
    finally:
        source_conn.close()


async def _copy(source: sqlite3.Connection, target: asyncpg.Connection) -> Transferred:
    filled = [t for t in TABLES if await target.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t})")]
    if filled:
        raise TransferError(
            f"the target database is not empty ({', '.join(filled)} have rows); migrate into a new, empty database"
        )
    tables = {row[0] for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    unknown = sorted(tables - set(TABLES) - {"sqlite_sequence"})
    if unknown:  # a table added to one backend and not to this copy: refuse rather than lose it
        raise TransferError(f"the source has tables this version cannot copy: {', '.join(unknown)}")
    copied: dict[str, int] = {}
    for table in TABLES:  # parents before children, so every foreign key finds its row
        columns = [row[1] for row in source.execute(f"PRAGMA table_info({table})")]
        rows = source.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
        try:
            await target.copy_records_to_table(table, records=rows, columns=columns)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, TypeError) as exc:  # bad source rows
            raise TransferError(f"copying {table} failed: {exc}") from None
        stored = await target.fetchval(f"SELECT count(*) FROM {table}")
        if stored != len(rows):
            raise TransferError(f"{table}: {len(rows)} rows in the source but {stored} copied")
        copied[table] = stored
    # New games continue after the copied ids.
    await target.execute(
        "SELECT setval(pg_get_serial_sequence('games', 'game_id'), coalesce(max(game_id), 0) + 1, false) FROM games"
    )
    return Transferred(copied)
