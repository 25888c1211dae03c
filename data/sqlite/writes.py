"""SQLite's driver of the shared write steps (``data/writes.py``) and its dialect.

A step runs in the writer's thread inside a transaction opened by
``tx.run_transaction``: each operation is a plain sqlite3 call, so a whole
transaction is one hand-over to the thread, and the thread's one-at-a-time
calls are SQLite's single writer (no locks needed).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any, TypeVar

from ..errors import ConstraintViolation
from ..writes import Bulk, LockGames, LockPlayers, Op, Run, RunMany, Step, Stepper

T = TypeVar("T")

# Rows per multi-row statement; far below SQLite's 32,766 bound variables.
ROWS_PER_STATEMENT = 200

#: What a statement may break that is the write's own fault, not the database's.
_OWN_ERRORS = (sqlite3.IntegrityError, OverflowError)


def drive(conn: sqlite3.Connection, step: Step[T]) -> T:
    """Run ``step`` on ``conn`` (inside the caller's transaction); its result."""
    stepper = Stepper(step)
    op = stepper.start()
    while op is not None:
        try:
            rows = _run(conn, op)
        except _OWN_ERRORS as exc:
            op = stepper.throw(ConstraintViolation(str(exc)))
            continue
        op = stepper.send(rows)
    return stepper.value


def _run(conn: sqlite3.Connection, op: Op) -> Any:
    if isinstance(op, Run):
        return conn.execute(op.sql, op.params).fetchall()
    if isinstance(op, RunMany):
        conn.executemany(op.sql, op.rows)
        return None
    if isinstance(op, Bulk):
        _bulk(conn, op)
        return None
    if isinstance(op, LockGames):
        return _games(conn, op.game_ids)
    if isinstance(op, LockPlayers):  # one writer: nobody to wait for
        return None
    raise TypeError(f"unknown operation {op!r}")


def _bulk(conn: sqlite3.Connection, op: Bulk) -> None:
    """Each part in a few multi-row statements instead of ``executemany``.

    sqlite3 releases the GIL around every statement step and must win it back
    afterwards: with the event loop busy that is up to a 5 ms switch interval
    per row, so an executemany of a 64-checkpoint batch kept the writer busy for
    a few hundred ms. One statement of many rows is one step.
    """
    for part in op.parts:
        row = "(" + ",".join("?" * len(part.columns)) + ")"
        for start in range(0, len(part.rows), ROWS_PER_STATEMENT):
            chunk = part.rows[start : start + ROWS_PER_STATEMENT]
            conn.execute(
                f"WITH v({', '.join(part.columns)}) AS (VALUES {','.join([row] * len(chunk))}) "
                + part.sql.format(v="v"),
                [value for values in chunk for value in values],
            )


def _games(conn: sqlite3.Connection, game_ids: Sequence[int]) -> list[tuple[int, str, int | None]]:
    # One row of JSON rather than a row per game: each row is a statement step (see _bulk).
    found = conn.execute(
        "SELECT json_group_array(json_array(g.game_id, g.status, c.last_seq)) "
        "FROM games g LEFT JOIN checkpoints c ON c.game_id = g.game_id "
        f"WHERE g.game_id IN ({','.join('?' * len(game_ids))})",
        list(game_ids),
    ).fetchone()[0]
    return [tuple(row) for row in json.loads(found)]
