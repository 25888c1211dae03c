"""PostgreSQL's driver of the shared write steps (``data/writes.py``) and its dialect.

Several processes write one database, so where SQLite relies on its single
writer this dialect takes locks: the games' rows (``LockGames``, in id order)
and the players' advisory locks (``LockPlayers``). A ``Bulk`` is one statement
over unnest()ed arrays, whatever the number of rows and of its parts.
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


def _bulk(op: Bulk) -> list[Any]:
    """``op`` as one statement and its arguments: each part's rows as a table of unnest()ed
    arrays, every part but the last a data-modifying WITH, the last the statement itself."""
    tables: list[str] = []
    arguments: list[Any] = []
    for n, part in enumerate(op.parts):
        arrays = ", ".join(f"${len(arguments) + i}::{kind}[]" for i, kind in enumerate(part.types, start=1))
        arguments += [list(column) for column in zip(*part.rows, strict=True)]
        tables.append(f"v{n}({', '.join(part.columns)}) AS (SELECT * FROM unnest({arrays}))")
        if n < len(op.parts) - 1:
            tables.append(f"w{n} AS ({part.sql.format(v=f'v{n}')})")
    last = op.parts[-1].sql.format(v=f"v{len(op.parts) - 1}")
    return [f"WITH {', '.join(tables)} {last}", *arguments]


async def _run(conn: Numbered, op: Op) -> Any:
    if isinstance(op, Run):
        return await conn.execute_fetchall(op.sql, op.params)
    if isinstance(op, RunMany):
        return await conn.executemany(op.sql, op.rows)
    if isinstance(op, Bulk):
        return await conn.conn.execute(*_bulk(op))
    if isinstance(op, LockGames):
        return await conn.conn.fetch(_LOCK_GAMES, list(op.game_ids))
    if isinstance(op, LockPlayers):
        for user_id in op.user_ids:
            await conn.conn.execute("SELECT pg_advisory_xact_lock($1)", user_id)
        return None
    raise TypeError(f"unknown operation {op!r}")
