"""Explicit SQLite transactions on an autocommit aiosqlite connection.

All connections are opened with ``isolation_level=None`` so Python's sqlite3
module never starts or commits transactions behind our back; this helper is
the single place that issues BEGIN/COMMIT/ROLLBACK.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Literal

import aiosqlite


@asynccontextmanager
async def transaction(
    conn: aiosqlite.Connection,
    lock: asyncio.Lock | None = None,
    mode: Literal["DEFERRED", "IMMEDIATE"] = "IMMEDIATE",
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
