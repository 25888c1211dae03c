"""Group commit for checkpoints, the store's hot write path.

Every move of every table writes a checkpoint. With one shared connection a
transaction per call would serialise hundreds of tables behind each other's
BEGIN/INSERT/UPDATE/COMMIT round trips to the SQLite thread, so a burst of
300 moves would wait ~300 commits for the last one. Instead callers enqueue
their checkpoint and await a future; a single flusher task takes everything
queued so far and writes it in ONE transaction, handed to the SQLite thread
as one call (see ``tx.run_transaction``).

Each checkpoint is still atomic (its action and its state land together or
not at all), and sequence numbers stay gap-free because they are computed
under SQLite's write lock from the stored ``last_seq``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

import aiosqlite

from ..errors import GameNotActive, GameNotFound, StoreError
from ..models import UNFINISHED_STATUSES
from .tx import run_transaction

MAX_BATCH = 64  # bounds one transaction's duration, so early callers return sooner

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


@dataclass
class _Pending:
    game_id: int
    state: str
    meta: str
    actions: list[str]  # log entries, in order; all land with the state or none do
    unshown: bool  # the table has news its channel has not been shown yet
    future: asyncio.Future[int | None] = field(repr=False)


class CheckpointWriter:
    """Queues checkpoints and writes them in batched transactions."""

    def __init__(
        self, conn: aiosqlite.Connection, clock: Callable[[], float]
    ) -> None:
        self._conn = conn
        self._clock = clock
        self._queue: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False

    async def write(
        self, game_id: int, state: str, meta: str, actions: list[str], unshown: bool = False
    ) -> int | None:
        """Queue one checkpoint (payloads already JSON) and wait until it is committed.

        Returns the sequence number of the last action, or None without actions.
        """
        if self._closed:
            raise StoreError("the store is closed")
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(game_id, state, meta, list(actions), unshown, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_loop(), name="checkpoint-flusher")
        return await future

    async def close(self) -> None:
        """Refuse new checkpoints and wait for the queued ones to be written."""
        self._closed = True
        if self._flusher is not None:
            await self._flusher

    async def _flush_loop(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                outcomes = await self._write_batch(batch)
            except BaseException as exc:
                # An error rolled the whole batch back: every caller learns why. A cancellation
                # (shutdown) cannot stop the call already in the writer's thread, which may
                # still commit: its callers learn that the outcome is unknown.
                for pending in batch:
                    if not pending.future.done():
                        pending.future.set_exception(exc if isinstance(exc, Exception) else StoreError(
                            "checkpoint interrupted: it may or may not have been written"))
                if not isinstance(exc, Exception):
                    raise
                continue
            for pending, outcome in zip(batch, outcomes):
                if pending.future.done():  # caller was cancelled; the write stands
                    continue
                if isinstance(outcome, Exception):
                    pending.future.set_exception(outcome)
                else:
                    pending.future.set_result(outcome)

    async def _write_batch(self, batch: list[_Pending]) -> list[int | None | Exception]:
        """Write one batch in a single transaction; per-item problems become outcomes."""
        now = self._clock()
        return await run_transaction(self._conn, lambda conn: _write_batch(conn, batch, now))


def _write_batch(conn: sqlite3.Connection, batch: list[_Pending], now: float) -> list[int | None | Exception]:
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
    status = {row[0]: row[1] for row in rows}
    last_seq = {row[0]: row[2] for row in rows}
    outcomes: list[int | None | Exception] = []
    actions: list[tuple[int, int, str, float]] = []
    latest: dict[int, _Pending] = {}
    for pending in batch:
        gid = pending.game_id
        if gid not in status:
            outcomes.append(GameNotFound(gid))
            continue
        if pending.actions and status[gid] not in UNFINISHED_STATUSES:
            # The log of an ended game is its replay record: keep it closed.
            outcomes.append(GameNotActive(f"game {gid} is {status[gid]}; "
                                          "its action log is closed"))
            continue
        seq = None
        for action in pending.actions:
            seq = last_seq[gid] = last_seq[gid] + 1
            actions.append((gid, seq, action, now))
        latest[gid] = pending  # later checkpoints of a game replace earlier ones
        outcomes.append(seq)
    if actions:
        _insert_rows(conn, _INSERT_ACTIONS, actions)
    if latest:
        _insert_rows(conn, _UPSERT_CHECKPOINTS,
                     [(g, last_seq[g], p.state, p.meta, now, int(p.unshown)) for g, p in latest.items()])
    return outcomes
