"""What the store tests need to look under a store: every row of every table."""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg

from data.postgres import PostgresStore
from data.postgres.sql import numbered
from data.sqlite.store import SQLiteStore


async def all_rows(store: Any) -> dict[str, list[tuple]]:
    """Each table's rows, read past the store's own queries."""
    if isinstance(store, SQLiteStore):
        with sqlite3.connect(store.path) as conn:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return {t: [tuple(row) for row in conn.execute(f'SELECT * FROM "{t}"')] for t in tables}
    if isinstance(store, PostgresStore):
        conn = await asyncpg.connect(store.url)
        try:
            tables = [
                r[0]
                for r in await conn.fetch(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                )
            ]
            return {t: [tuple(row) for row in await conn.fetch(f'SELECT * FROM "{t}"')] for t in tables}
        finally:
            await conn.close()
    raise TypeError(f"no raw reader for {type(store).__name__}")


async def raw(store: Any, sql: str, *params: Any) -> list[tuple]:
    """Run ``sql`` (``?`` parameters) on the store's database as a foreign writer would."""
    if isinstance(store, SQLiteStore):
        with sqlite3.connect(store.path) as conn:
            conn.execute("PRAGMA ignore_check_constraints = ON")
            return [tuple(row) for row in conn.execute(sql, params).fetchall()]
    conn = await asyncpg.connect(store.url)
    try:
        text, _ = numbered(sql)
        return [tuple(row) for row in await conn.fetch(text, *params)]
    finally:
        await conn.close()
