"""SQLite implementation of the Store interface (aiosqlite).

Connections to one WAL database:

* the *writer*: every write transaction is one call run in its thread, and
  the thread runs one call at a time, so two transactions never interleave
  (``tx.run_transaction``); table commits reach it through the group commit
  (``data/commit_queue.py``), every other write as a transaction of its own;
* the *reader* (query_only), so leaderboards and restores never see a
  writer's uncommitted rows and never queue behind a write transaction;

plus a third, idle most of the time, that checkpoints the WAL (see wal.py).
The methods themselves are the shared ones of ``data/backend.py``.

A lock another process holds beyond ``busy_timeout_ms`` is StoreUnavailable.
The database must be a file (WAL needs one); use pytest's tmp_path in tests.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from os import PathLike
from typing import TypeVar

import aiosqlite

from ..backend import StoreBase
from ..queries import Reader
from ..writes import Outcome, Pending, Step, write_batch
from .schema import apply_migrations, refuse_newer
from .tx import run_transaction, transaction
from .wal import WalCheckpointer
from .writes import drive

T = TypeVar("T")


def _decode_text(raw: bytes) -> str:
    """Never let one invalid UTF-8 value abort a whole restore query."""
    return raw.decode("utf-8", errors="replace")


async def _connect(path: str, busy_timeout_ms: int, *, reader: bool) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await conn.execute("PRAGMA foreign_keys = ON")
        if reader:
            conn.text_factory = _decode_text
            await conn.execute("PRAGMA query_only = ON")
        else:
            # Only effective on a new file: fits a typical 3-6 KB checkpoint
            # into a single page instead of a page plus overflow page.
            await conn.execute("PRAGMA page_size = 8192")
            await conn.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL never corrupts; a power cut may lose only the
            # last few commits, which is the right trade for per-move writes.
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA wal_autocheckpoint = 0")  # see wal.py
    except BaseException:
        await conn.close()
        raise
    return conn


class SQLiteStore(StoreBase):
    """Persistence for tables, logs, results and rankings in one SQLite file."""

    def __init__(
        self,
        path: str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        wal: WalCheckpointer,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._wal = wal
        self._clock = clock
        self._read_lock = asyncio.Lock()
        super().__init__()

    @classmethod
    async def open(
        cls,
        path: str | PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout_ms: int = 5000,
    ) -> SQLiteStore:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises SchemaTooNew if the file was written by newer code, and
        MigrationError if an upgrade fails (the file keeps its old version).
        """
        path = str(path)
        refuse_newer(path)
        writer = await _connect(path, busy_timeout_ms, reader=False)
        try:
            await apply_migrations(writer)
            reader = await _connect(path, busy_timeout_ms, reader=True)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader, await WalCheckpointer.start(path), clock)

    async def close(self) -> None:
        await self._commits.close()
        await self._wal.close()
        await self._reader.close()
        await self._writer.close()  # the last connection out folds the WAL in

    async def __aenter__(self) -> SQLiteStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _transact(self, make_step: Callable[[], Step[T]]) -> Awaitable[T]:
        """One write transaction, in one hand-over to the writer's thread (which runs one at
        a time: see ``run_transaction``)."""
        return run_transaction(self._writer, lambda conn: drive(conn, make_step()))

    async def _write_batch(self, batch: list[Pending]) -> list[Outcome]:
        now = self._clock()
        return await self._transact(lambda: write_batch(batch, now))

    async def _query(self, read: Callable[[Reader], Awaitable[T]]) -> T:
        async with self._read() as conn:
            return await read(conn)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """One consistent snapshot for queries made of several statements."""
        async with transaction(self._reader, self._read_lock, "DEFERRED") as conn:
            yield conn
