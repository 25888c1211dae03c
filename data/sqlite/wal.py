"""Background WAL checkpointing, off the writer's critical path.

With SQLite's default auto-checkpoint the connection whose COMMIT pushes the
WAL past 1,000 pages copies those pages into the database file and fsyncs,
inline: every few hundred checkpoints one table's move would stall for
milliseconds. The writer therefore runs with ``wal_autocheckpoint = 0`` and
this task, on its own connection (own thread), runs PASSIVE checkpoints
periodically. PASSIVE never blocks the writer or readers; SQLite restarts the
WAL from the beginning once a checkpoint has caught up, so the file stays
bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiosqlite

log = logging.getLogger(__name__)

DEFAULT_INTERVAL = 0.5  # seconds


class WalCheckpointer:
    def __init__(self, conn: aiosqlite.Connection, interval: float = DEFAULT_INTERVAL) -> None:
        self._conn = conn
        self._interval = interval
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, path: str, interval: float = DEFAULT_INTERVAL) -> WalCheckpointer:
        conn = await aiosqlite.connect(path, isolation_level=None)
        checkpointer = cls(conn, interval)
        checkpointer._task = asyncio.create_task(checkpointer._run(), name="wal-checkpointer")
        return checkpointer

    async def checkpoint_now(self) -> None:
        await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            try:
                await self.checkpoint_now()
            except Exception:  # a failed checkpoint only delays WAL reuse
                log.warning("WAL checkpoint failed", exc_info=True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._conn.close()
