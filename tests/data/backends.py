"""What the store tests need to look under a store: every row of every table."""

from __future__ import annotations

import sqlite3
from typing import Any

from data.sqlite.store import SQLiteStore


async def all_rows(store: Any) -> dict[str, list[tuple]]:
    """Each table's rows, read past the store's own queries."""
    if isinstance(store, SQLiteStore):
        with sqlite3.connect(store.path) as conn:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return {t: [tuple(row) for row in conn.execute(f'SELECT * FROM "{t}"')] for t in tables}
    raise TypeError(f"no raw reader for {type(store).__name__}")
