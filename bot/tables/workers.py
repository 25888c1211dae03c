"""Worker processes for CPU-heavy work (table images, the searching AI) that end with the bot.

``ProcessPoolExecutor`` stops its workers only through ``shutdown()``; a bot
killed without running it (``kill -9``, an unhandled SIGTERM, a crash) would
leave its workers behind, blocked on a pipe nobody writes to any more. Each
worker therefore watches the process that started it. This module imports
nothing heavy, so a worker loads only what its own job needs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import threading
import time

log = logging.getLogger(__name__)

PARENT_CHECK_SECONDS = 1.0


def exit_with_parent(parent_pid: int) -> None:
    """Pool initializer: watch ``parent_pid`` and end this process once it is gone."""

    def watch() -> None:
        while os.getppid() == parent_pid:  # an orphan is adopted by another process
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class WorkerPool:
    """One worker process (spawned: no copy of the bot's event loop or sockets) that ends with us.

    Started on first use. A worker that dies (the OOM killer, a crash in a C
    library) breaks a ``ProcessPoolExecutor`` for good; the pool then starts a
    new worker and runs the job once more, so one lost process does not stop
    every later image or AI decision.
    """

    def __init__(self) -> None:
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None

    def _start(self) -> concurrent.futures.ProcessPoolExecutor:
        self._executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent, initargs=(os.getpid(),))
        return self._executor

    @property
    def started(self) -> bool:
        return self._executor is not None

    async def run(self, fn, *args):
        loop = asyncio.get_running_loop()
        executor = self._executor or self._start()
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            # Every call in flight learns of the death at once: only the first replaces
            # the pool, so the others' retries do not cancel each other's.
            if self._executor is executor:
                log.warning("a worker process died; starting a new one")
                executor.shutdown(wait=False, cancel_futures=True)
                self._start()
            return await loop.run_in_executor(self._executor, fn, *args)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
