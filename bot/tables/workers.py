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
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

log = logging.getLogger(__name__)

PARENT_CHECK_SECONDS = 1.0

T = TypeVar("T")


def exit_with_parent(parent_pid: int) -> None:
    """Pool initializer: watch ``parent_pid`` and end this process once it is gone."""

    def watch() -> None:
        while os.getppid() == parent_pid:  # an orphan is adopted by another process
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class WorkerPool:
    """One worker process (spawned: no copy of the bot's event loop or sockets) that ends with us.

    The bot runs one, for all its CPU-heavy work (the searching AI, pictures, a game's files):
    each interpreter costs some 30 MB, and on a small host a second worker would only fight the
    first and the bot for the same cores.

    ``start()`` spawns it at once and runs ``warm`` in it (imports, caches), so the first
    real job does not pay for a process start; without ``start()`` the pool starts on first
    use, unwarmed (the job imports what it needs). A worker that dies (the OOM killer, a crash
    in a C library) breaks a ``ProcessPoolExecutor`` for good: a started pool notices within
    ``WATCH_SECONDS`` and starts (and warms) a new worker before anyone needs it, and a job
    that meets the broken pool starts one and runs once more.
    """

    WATCH_SECONDS = 0.5

    def __init__(self, warm: Callable[[], object] | None = None) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self._warm = warm
        self._warming: concurrent.futures.Future[object] | None = None
        self._keep_warm = False  # set by start(): every worker it starts is warmed
        self._watcher: asyncio.Task[None] | None = None
        self.restarts = 0  # workers replaced after a death

    def _start(self) -> ProcessPoolExecutor:
        self._executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,
            initargs=(os.getpid(),),
        )
        if self._warm is not None and self._keep_warm:
            self._warming = self._executor.submit(self._warm)
        return self._executor

    def start(self) -> None:
        """Spawn and warm the worker now and replace it whenever it dies (needs a running loop)."""
        self._keep_warm = True
        if self._executor is None:
            self._start()
        if self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch(), name="worker-watch")

    async def ready(self) -> object:
        """Wait until the worker has finished warming up; what ``warm`` returned (None without it)."""
        if self._warming is None:
            return None
        return await asyncio.wrap_future(self._warming)

    def _broken(self, executor: ProcessPoolExecutor) -> bool:
        # ``_broken`` is how the executor itself marks a pool whose worker died.
        return bool(getattr(executor, "_broken", False))

    def _replace(self, executor: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """Start a new worker in place of ``executor``'s dead one (only the first to notice);
        the pool that runs jobs now."""
        if self._executor is executor:
            log.warning("a worker process died; starting a new one")
            self.restarts += 1
            executor.shutdown(wait=False, cancel_futures=True)
            return self._start()
        return self._executor if self._executor is not None else self._start()

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.WATCH_SECONDS)
            executor = self._executor
            if executor is not None and self._broken(executor):
                self._replace(executor)

    @property
    def started(self) -> bool:
        return self._executor is not None

    @property
    def alive(self) -> bool:
        """A worker is up (or starting) and not known to be dead."""
        return self._executor is not None and not self._broken(self._executor)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        executor = self._executor or self._start()
        if self._broken(executor):  # died since the watcher last looked
            executor = self._replace(executor)
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            # Every call in flight learns of the death at once: only the first replaces
            # the pool, so the others' retries do not cancel each other's.
            return await loop.run_in_executor(self._replace(executor), fn, *args)

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        self._warming = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
