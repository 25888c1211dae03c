"""SQLite's half of the checkpoint group commit (see ``data/checkpoint_queue.py``).

A batch is one transaction handed to the writer's thread as one call (see
``tx.run_transaction``), its rows written by a few multi-row statements.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import aiosqlite

from ..checkpoint_queue import CheckpointQueue, Outcome, PendingCheckpoint, plan_batch
from .tx import run_transaction

_INSERT_ACTIONS = "INSERT INTO actions (game_id, seq, action, created_at) VALUES {rows}"
_UPSERT_CHECKPOINTS = """
    INSERT INTO checkpoints (game_id, last_seq, state, meta, updated_at, unshown)
    VALUES {rows}
    ON CONFLICT (game_id) DO UPDATE SET
        last_seq = excluded.last_seq, state = excluded.state,
        meta = excluded.meta, updated_at = excluded.updated_at, unshown = excluded.unshown
"""
# Rows per multi-row statement; far below SQLite's 32,766 bound variables.
ROWS_PER_STATEMENT = 200


def _insert_rows(conn: sqlite3.Connection, sql: str, rows: list[tuple]) -> None:
    """Insert ``rows`` with a few multi-row statements instead of ``executemany``.

    sqlite3 releases the GIL around every statement step and must win it back
    afterwards: with the event loop busy that is up to a 5 ms switch interval
    per row, so an executemany of a 64-checkpoint batch kept the writer busy for
    a few hundred ms. One statement of many rows is one step.
    """
    for start in range(0, len(rows), ROWS_PER_STATEMENT):
        chunk = rows[start:start + ROWS_PER_STATEMENT]
        width = len(chunk[0])
        placeholders = ",".join(["(" + ",".join("?" * width) + ")"] * len(chunk))
        conn.execute(sql.format(rows=placeholders), [value for row in chunk for value in row])


class CheckpointWriter(CheckpointQueue):
    """Queues checkpoints and writes them in batched transactions on the writer connection."""

    def __init__(self, conn: aiosqlite.Connection, clock: Callable[[], float]) -> None:
        super().__init__(self._write)
        self._conn = conn
        self._clock = clock

    async def _write(self, batch: list[PendingCheckpoint]) -> list[Outcome]:
        now = self._clock()
        return await run_transaction(self._conn, lambda conn: _write_batch(conn, batch, now))


def _write_batch(conn: sqlite3.Connection, batch: list[PendingCheckpoint], now: float) -> list[Outcome]:
    """The batch's statements, in the writer's thread inside the transaction."""
    game_ids = sorted({p.game_id for p in batch})
    placeholders = ",".join("?" * len(game_ids))
    # One row of JSON rather than a row per game: each row is a statement step (see _insert_rows).
    found = conn.execute(
        "SELECT json_group_array(json_array(g.game_id, g.status, coalesce(c.last_seq, 0))) "
        "FROM games g LEFT JOIN checkpoints c ON c.game_id = g.game_id "
        f"WHERE g.game_id IN ({placeholders})",
        game_ids,
    ).fetchone()[0]
    rows = json.loads(found)
    plan = plan_batch(batch, {r[0]: r[1] for r in rows}, {r[0]: r[2] for r in rows}, now)
    if plan.actions:
        _insert_rows(conn, _INSERT_ACTIONS, plan.actions)
    if plan.checkpoints:
        _insert_rows(conn, _UPSERT_CHECKPOINTS, plan.checkpoints)
    return plan.outcomes
