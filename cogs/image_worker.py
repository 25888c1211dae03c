"""The image worker process's guard: it ends when the bot process that started it ends.

``ProcessPoolExecutor`` stops its workers only through ``shutdown()``; a bot
killed without running it (``kill -9``, an unhandled SIGTERM, a crash) would
leave its render worker behind, blocked on a pipe nobody writes to any more.
Kept apart from ``cogs.images`` and ``cogs.presenter`` so the worker imports
neither discord nor anything else it does not need to check on its parent.
"""

from __future__ import annotations

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
