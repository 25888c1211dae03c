"""Worker processes for CPU-heavy work (table images, the searching AI) that end with the bot.

``ProcessPoolExecutor`` stops its workers only through ``shutdown()``; a bot
killed without running it (``kill -9``, an unhandled SIGTERM, a crash) would
leave its workers behind, blocked on a pipe nobody writes to any more. Each
worker therefore watches the process that started it. This module imports
nothing heavy, so a worker loads only what its own job needs.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import threading
import time

PARENT_CHECK_SECONDS = 1.0


def exit_with_parent(parent_pid: int) -> None:
    """Pool initializer: watch ``parent_pid`` and end this process once it is gone."""

    def watch() -> None:
        while os.getppid() == parent_pid:  # an orphan is adopted by another process
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_pool() -> concurrent.futures.ProcessPoolExecutor:
    """One worker process (spawned: no copy of the bot's event loop or sockets) that ends with us."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent, initargs=(os.getpid(),))
