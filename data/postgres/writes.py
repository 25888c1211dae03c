"""PostgreSQL's driver of the shared write steps (``data/writes.py``) and its dialect.

Several processes write one database, so where SQLite relies on its single
writer this dialect takes locks: the games' rows (``LockGames``, in id order)
and the players' advisory locks (``LockPlayers``). Bulk operations are one
statement over unnest()ed arrays, whatever the number of rows.
"""

from __future__ import annotations

from typing import Any, TypeVar

import asyncpg

from ..errors import ConstraintViolation
from ..writes import Bulk, LockGames, LockPlayers, Op, Run, RunMany, Step, Stepper
from .sql import Numbered

T = TypeVar("T")

#: What a statement may break that is the write's own fault, not the database's.
_OWN_ERRORS = (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError)

# Games locked in one order, so two batches (two processes) never wait on each other in a
# circle. The last sequence numbers come from the statement's snapshot: the only writer of
# a game's checkpoints is the flusher of the process that serves it, one batch after the
# other, so the snapshot holds its previous batch (and the actions' primary key would
# refuse a stale number rather than log twice).
_LOCK_GAMES = (
    "SELECT g.game_id, g.status, (SELECT c.last_seq FROM checkpoints c WHERE c.game_id = g.game_id) "
    "FROM games g WHERE g.game_id = ANY($1::bigint[]) ORDER BY g.game_id FOR UPDATE OF g"
)


async def drive(conn: Numbered, step: Step[T]) -> T:
    """Run ``step`` on ``conn`` (inside the caller's transaction); its result."""
    stepper = Stepper(step)
    op = stepper.start()
    while op is not None:
        try:
            rows = await _run(conn, op)
        except _OWN_ERRORS as exc:
            op = stepper.throw(ConstraintViolation(str(exc)))
            continue
        op = stepper.send(rows)
    return stepper.value


async def _run(conn: Numbered, op: Op) -> Any:
    if isinstance(op, Run):
        return await conn.execute_fetchall(op.sql, op.params)
    if isinstance(op, RunMany):
        return await conn.executemany(op.sql, op.rows)
    if isinstance(op, Bulk):
        arrays = ", ".join(f"${n}::{kind}[]" for n, kind in enumerate(op.types, start=1))
        return await conn.conn.execute(
            f"WITH v({', '.join(op.columns)}) AS (SELECT * FROM unnest({arrays})) {op.sql}",
            *(list(column) for column in zip(*op.rows)))
    if isinstance(op, LockGames):
        return await conn.conn.fetch(_LOCK_GAMES, list(op.game_ids))
    if isinstance(op, LockPlayers):
        for user_id in op.user_ids:
            await conn.conn.execute("SELECT pg_advisory_xact_lock($1)", user_id)
        return None
    raise TypeError(f"unknown operation {op!r}")
