"""Group commit for checkpoints, the store's hot write path (both backends).

Every move of every table writes a checkpoint. A transaction per call would
serialise hundreds of tables behind each other's BEGIN/INSERT/UPDATE/COMMIT
round trips (to SQLite's thread, or to the PostgreSQL server, each commit a
disk sync), so a burst of 300 moves would wait ~300 commits for the last one.
Instead callers enqueue their checkpoint and await a future; a single flusher
task takes everything queued so far and the backend writes it in ONE
transaction (``CheckpointQueue.write_batch``).

Each checkpoint is still atomic (its action and its state land together or
not at all), and sequence numbers stay gap-free because ``plan_batch``
computes them from the ``last_seq`` read inside that transaction, under the
backend's write lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from .errors import GameNotActive, GameNotFound, StoreError
from .models import UNFINISHED_STATUSES

MAX_BATCH = 64  # bounds one transaction's duration, so early callers return sooner

Outcome = int | None | Exception
ActionRow = tuple[int, int, str, float]  # game_id, seq, action, created_at
CheckpointRow = tuple[int, int, str, str, float, int]  # game_id, last_seq, state, meta, updated_at, unshown


@dataclass
class PendingCheckpoint:
    game_id: int
    state: str
    meta: str
    actions: list[str]  # log entries, in order; all land with the state or none do
    unshown: bool  # the table has news its channel has not been shown yet
    future: asyncio.Future[int | None] = field(repr=False)


@dataclass
class BatchPlan:
    """What one batch writes, given each game's status and last logged sequence number."""

    outcomes: list[Outcome]  # per checkpoint, in batch order: its last seq, None, or its error
    actions: list[ActionRow]
    checkpoints: list[CheckpointRow]  # one per game: the batch's latest state of it
    last_seq: dict[int, int]  # each game's last seq once the batch is written


def plan_batch(batch: list[PendingCheckpoint], status: Mapping[int, str], last_seq: Mapping[int, int],
               now: float) -> BatchPlan:
    seqs = dict(last_seq)
    outcomes: list[Outcome] = []
    actions: list[ActionRow] = []
    latest: dict[int, PendingCheckpoint] = {}
    for pending in batch:
        gid = pending.game_id
        if gid not in status:
            outcomes.append(GameNotFound(gid))
            continue
        if pending.actions and status[gid] not in UNFINISHED_STATUSES:
            # The log of an ended game is its replay record: keep it closed.
            outcomes.append(GameNotActive(f"game {gid} is {status[gid]}; its action log is closed"))
            continue
        seq = None
        for action in pending.actions:
            seq = seqs[gid] = seqs.get(gid, 0) + 1
            actions.append((gid, seq, action, now))
        latest[gid] = pending  # later checkpoints of a game replace earlier ones
        outcomes.append(seq)
    checkpoints = [(g, seqs.get(g, 0), p.state, p.meta, now, int(p.unshown)) for g, p in latest.items()]
    return BatchPlan(outcomes, actions, checkpoints, seqs)


class CheckpointQueue:
    """Queues checkpoints and has ``write_batch`` write them in batched transactions.

    ``write_batch(batch)`` writes one batch in one transaction and returns each
    checkpoint's outcome; raising means the whole batch was rolled back.
    """

    def __init__(self, write_batch: Callable[[list[PendingCheckpoint]], Awaitable[list[Outcome]]]) -> None:
        self._write_batch = write_batch
        self._queue: list[PendingCheckpoint] = []
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
        self._queue.append(PendingCheckpoint(game_id, state, meta, list(actions), unshown, future))
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
                # (shutdown) cannot stop a transaction already handed over, which may still
                # commit: its callers learn that the outcome is unknown.
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
