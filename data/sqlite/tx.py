"""Explicit SQLite transactions on an autocommit aiosqlite connection.

All connections are opened with ``isolation_level=None`` so Python's sqlite3
module never starts or commits transactions behind our back; this module is
the single place that issues BEGIN/COMMIT/ROLLBACK.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Literal, Protocol, TypeVar

import aiosqlite

from ..errors import StoreUnavailable

T = TypeVar("T")
Mode = Literal["DEFERRED", "IMMEDIATE"]


class _OwnThread(Protocol):
    """aiosqlite's ``Connection._execute`` (untyped there): runs ``fn(*args)`` in the
    connection's thread and gives its result."""

    async def _execute(self, fn: Callable[..., T], *args: Any) -> T: ...


@asynccontextmanager
async def transaction(
    conn: aiosqlite.Connection,
    lock: asyncio.Lock | None = None,
    mode: Mode = "IMMEDIATE",
) -> AsyncIterator[aiosqlite.Connection]:
    """Run the body in one transaction; commit on success, roll back on any error.

    ``lock`` serialises coroutines sharing ``conn``: statements of two
    coroutines must never interleave inside one transaction. IMMEDIATE takes
    SQLite's write lock up front, so a writer never fails half-way with
    SQLITE_BUSY after having read (busy_timeout then applies to BEGIN only).
    """
    async with AsyncExitStack() as stack:
        if lock is not None:
            await stack.enter_async_context(lock)
        await conn.execute(f"BEGIN {mode}")
        try:
            yield conn
            await conn.execute("COMMIT")
        except BaseException:
            # Some errors (e.g. SQLITE_FULL) already rolled back inside SQLite.
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise


async def run_transaction(
    conn: aiosqlite.Connection,
    body: Callable[[sqlite3.Connection], T],
    mode: Mode = "IMMEDIATE",
) -> T:
    """Run ``body`` (plain sqlite3 calls) as one transaction in the connection's own thread.

    Every awaited statement is a hand-over to aiosqlite's thread and back, and
    under a busy event loop each hand-over waits for the GIL and for the loop:
    a transaction of five awaited statements held the write lock, and every
    table's checkpoint behind it, for tens of milliseconds. Here the whole
    transaction is one call. The thread runs its calls one at a time, in
    order, so transactions made this way never interleave and need no lock:
    they follow each other without waiting for the event loop in between.
    (A connection used this way must not run ``transaction()`` meanwhile; the
    migrations run it on the writer before anything else can write.)

    Uses aiosqlite's ``_execute`` (run a function in the connection's thread),
    which is why pyproject pins aiosqlite's minor version.
    """
    own_thread: _OwnThread = conn
    return await own_thread._execute(_in_transaction, conn, body, mode)


def busy(exc: sqlite3.OperationalError) -> StoreUnavailable | None:
    """StoreUnavailable for a lock another process held beyond the busy timeout (nothing was
    written), so callers see one error for "the database is away"; None for other errors."""
    text = str(exc)
    if "database is locked" in text or "database is busy" in text:
        return StoreUnavailable(f"the database file is locked by another process ({text}); try again")
    return None


def _in_transaction(conn: aiosqlite.Connection, body: Callable[[sqlite3.Connection], T], mode: Mode) -> T:
    raw = conn._conn
    try:
        return _run_body(raw, body, mode)
    except sqlite3.OperationalError as exc:
        unavailable = busy(exc)
        if unavailable is None:
            raise
        raise unavailable from None


def _run_body(raw: sqlite3.Connection, body: Callable[[sqlite3.Connection], T], mode: Mode) -> T:
    raw.execute(f"BEGIN {mode}")
    try:
        result = body(raw)
        raw.execute("COMMIT")
        return result
    except BaseException:
        if raw.in_transaction:  # some errors (e.g. SQLITE_FULL) already rolled back inside SQLite
            raw.execute("ROLLBACK")
        raise
