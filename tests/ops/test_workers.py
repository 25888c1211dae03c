"""The bot's worker process stays light and ends with the bot, however the bot ends."""

import asyncio
import os
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from bot.tables.workers import WorkerGone, WorkerPool

ROOT = Path(__file__).resolve().parents[2]

LOADED = "sorted({name.split('.')[0] for name in __import__('sys').modules})"


async def test_the_worker_loads_nothing_of_the_bots_own():
    # discord.py, the settings' pydantic and the stores are the bot process's own: a worker
    # that loaded them would cost each bot some 40 MB more.
    pool = WorkerPool()
    try:
        loaded = set(await pool.run(eval, LOADED))
        assert {"bot", "pickle"} <= loaded  # it answered from the worker...
        assert await pool.run(os.getpid) != os.getpid()  # ...another process
        assert not loaded & {"discord", "pydantic", "aiosqlite", "asyncpg", "data", "numpy", "multiprocessing"}
    finally:
        await pool.close()


def only_in_the_bot() -> int:
    return 1


async def make_coroutine() -> None:
    """Called in the worker, it answers a coroutine, which cannot travel back."""


async def test_a_job_the_worker_cannot_run_is_answered_with_the_error(monkeypatch):
    # A function of a module the worker cannot import (this process made it up).
    made_up = types.ModuleType("made_up_in_the_bot")
    made_up.only_in_the_bot = only_in_the_bot
    only_in_the_bot.__module__ = "made_up_in_the_bot"
    monkeypatch.setitem(sys.modules, "made_up_in_the_bot", made_up)
    pool = WorkerPool()
    try:
        first = await pool.run(os.getpid)
        with pytest.raises(ModuleNotFoundError, match="made_up_in_the_bot"):
            await pool.run(only_in_the_bot)
        with pytest.raises(RuntimeError, match="cannot be sent"):
            await pool.run(make_coroutine)
        assert await pool.run(os.getpid) == first and pool.restarts == 0  # the worker lives on
    finally:
        only_in_the_bot.__module__ = __name__
        await pool.close()


KILLED_BOT = """
import asyncio, os, signal, sys
sys.path[:0] = [{root!r}]
from bot.tables.workers import WorkerPool

async def main():
    pool = WorkerPool()
    print(await pool.run(os.getpid), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # as kill -9 or the OOM killer would: no clean-up runs

asyncio.run(main())
"""


def test_the_worker_ends_when_the_bot_is_killed():
    bot = subprocess.run(
        [sys.executable, "-c", KILLED_BOT.format(root=str(ROOT))], capture_output=True, text=True, timeout=60
    )
    assert bot.returncode == -9, bot.stderr
    worker = int(bot.stdout.split()[0])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and os.path.exists(f"/proc/{worker}") and not _zombie(worker):
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{worker}") or _zombie(worker), "the worker outlived the bot"


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False


async def test_a_started_pool_runs_one_process_and_no_other():
    # No helper process beside the worker (multiprocessing's resource tracker was one, 13 MB).
    before = _children()
    pool = WorkerPool()
    pool.start()
    try:
        worker = await pool.run(os.getpid)
        await asyncio.sleep(0.1)
        assert _children() - before == {worker}
    finally:
        await pool.close()
    assert worker not in _children()


def _children() -> set[int]:
    found = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == os.getpid():
                    found.add(int(pid))
        except OSError:
            continue
    return found


async def test_a_worker_that_cannot_start_is_tried_again_on_the_next_job(monkeypatch):
    pool = WorkerPool()
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")  # as after an upgrade removed it
    try:
        with pytest.raises(WorkerGone, match="could not start"):
            await pool.run(os.getpid)
        monkeypatch.undo()
        assert await pool.run(os.getpid) != os.getpid()
    finally:
        await pool.close()
