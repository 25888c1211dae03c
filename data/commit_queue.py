"""Group commit for table writes, the store's hot write path (both backends).

Every move of every table writes a commit (its checkpoint, its log entries,
the posts it owes), and every post shown marks the outbox. A transaction per
call would serialise hundreds of tables behind each other's BEGIN/INSERT/
UPDATE/COMMIT round trips (to SQLite's thread, or to the PostgreSQL server,
each commit a disk sync), so a burst of 300 moves would wait ~300 commits for
the last one. Instead callers enqueue their write and await a future; a single
flusher task takes everything queued so far and the backend writes it in ONE
transaction (``writes.write_batch``, behind the ``write_batch`` given here).

Each commit is still atomic (its actions, state, posts and game changes land
together or not at all), and sequence numbers stay gap-free because they are
computed from the ``last_seq`` read inside that transaction, under the
backend's write lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from .errors import StoreError
from .writes import Outcome, Pending

MAX_BATCH = 64  # bounds one transaction's duration, so early callers return sooner


class CommitQueue:
    """Queues writes and has ``write_batch`` write them in batched transactions.

    ``write_batch(batch)`` writes one batch in one transaction and returns each
    write's outcome; raising means the whole batch was rolled back (or, for a
    cancellation, that its outcome is unknown).
    """

    def __init__(self, write_batch: Callable[[list[Pending]], Awaitable[list[Outcome]]]) -> None:
        self._write_batch = write_batch
        self._queue: list[tuple[Pending, asyncio.Future[int | None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False

    async def write(self, pending: Pending) -> int | None:
        """Queue one write (payloads already JSON) and wait until it is committed.

        Returns the sequence number of its last action, or None without actions.
        """
        if self._closed:
            raise StoreError("the store is closed")
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._queue.append((pending, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_loop(), name="commit-flusher")
        return await future

    async def close(self) -> None:
        """Refuse new writes and wait for the queued ones to be written."""
        self._closed = True
        if self._flusher is not None:
            await self._flusher

    async def _flush_loop(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                outcomes = await self._write_batch([pending for pending, _ in batch])
            except BaseException as exc:
                # An error rolled the whole batch back: every caller learns why. A cancellation
                # (shutdown) cannot stop a transaction already handed over, which may still
                # commit: its callers learn that the outcome is unknown.
                for _, future in batch:
                    if not future.done():
                        future.set_exception(
                            exc
                            if isinstance(exc, Exception)
                            else StoreError("write interrupted: it may or may not have been committed")
                        )
                if not isinstance(exc, Exception):
                    raise
                continue
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():  # caller was cancelled; the write stands
                    continue
                if isinstance(outcome, Exception):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
