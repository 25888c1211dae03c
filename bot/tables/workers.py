"""The worker process for CPU-heavy work (the searching AI, pictures, a game's files).

The worker is a plain child process that reads jobs from its standard input and writes
the answers to its standard output, each a length-prefixed pickle. ``multiprocessing``
would add a process of its own for every bot (its resource tracker, some 13 MB, there to
unlink the named semaphores its queues need) and re-import the bot's main module in the
worker. A pipe needs neither, and it ends the worker with the bot by itself: once the bot is
gone (a clean stop, ``kill -9``, a crash), the worker reads the end of its input and exits.

This module imports nothing heavy, so the worker loads only what its jobs need.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any, TypeVar, cast

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Each message on the pipes: its job's id and length, then a pickle of (function, args) one
#: way and of (ok, result or exception) the other.
HEADER = struct.Struct("!QI")

#: How long closing waits for the killed worker to be gone.
CLOSE_SECONDS = 5.0

#: The worker's command: the bot's import path, then ``serve``.
BOOT = "import sys; sys.path[:0] = {path!r}; from bot.tables.workers import serve; serve()"


class WorkerGone(BrokenExecutor):
    """The worker process ended (killed, crashed) before it answered."""


def serve() -> None:
    """The worker's side: answer jobs one at a time until the input ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is the bot's to handle
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a job's print goes to the log, not into the answers
    sys.stdout = sys.stderr
    jobs = sys.stdin.buffer
    while True:
        header = jobs.read(HEADER.size)
        if len(header) < HEADER.size:
            return  # the bot closed the pipe, or is gone
        job, size = HEADER.unpack(header)
        message = jobs.read(size)
        if len(message) < size:
            return
        try:
            fn, args = pickle.loads(message)
            answer = (True, fn(*args))
        except BaseException as exc:  # the caller's to handle, as if it had run in the bot
            answer = (False, exc)
        try:
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer that cannot travel: say why instead
            data = pickle.dumps((False, RuntimeError(f"the worker's answer cannot be sent: {exc!r}")))
        answers.write(HEADER.pack(job, len(data)) + data)
        answers.flush()


class _Worker:
    """One child process and the jobs it owes answers to."""

    def __init__(self, on_death: Callable[[_Worker], None]) -> None:
        self._on_death = on_death
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count()
        self._closed = False
        self.dead = False
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._spawned = asyncio.get_running_loop().create_task(self._spawn(), name="worker-spawn")

    async def _spawn(self) -> asyncio.subprocess.Process:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            BOOT.format(path=list(sys.path)),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        self._process = process
        self._reader = asyncio.get_running_loop().create_task(self._read(process), name="worker-answers")
        if self._closed:  # closed while it started
            self._stop(process)
        return process

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def call(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        try:
            process = await asyncio.shield(self._spawned)
        except OSError as exc:  # it could not start: the next job tries a new one
            self.dead = True
            raise WorkerGone(f"the worker process could not start: {exc}") from exc
        if self.dead or self._closed:
            raise WorkerGone("the worker process has ended")
        stdin = cast(asyncio.StreamWriter, process.stdin)
        job = next(self._ids)
        data = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending[job] = answer
        try:
            stdin.write(HEADER.pack(job, len(data)) + data)
            await stdin.drain()
            return await answer
        except ConnectionError as exc:  # the pipe broke under us: the worker is gone
            raise WorkerGone("the worker process has ended") from exc
        finally:
            self._pending.pop(job, None)

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        stdout = cast(asyncio.StreamReader, process.stdout)
        try:
            while True:
                job, size = HEADER.unpack(await stdout.readexactly(HEADER.size))
                message = await stdout.readexactly(size)
                answer = self._pending.pop(job, None)
                if answer is None or answer.done():  # its caller gave up waiting
                    continue
                try:
                    ok, value = pickle.loads(message)
                except Exception as exc:  # e.g. an exception class this process cannot import
                    ok, value = False, RuntimeError(f"the worker's answer cannot be read: {exc!r}")
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the worker ended
        self.dead = True
        cast(asyncio.StreamWriter, process.stdin).close()  # the pipes closed, asyncio lets the process go
        for answer in self._pending.values():
            if not answer.done():
                answer.set_exception(WorkerGone("the worker process ended before it answered"))
        self._pending.clear()
        with contextlib.suppress(ProcessLookupError):
            await process.wait()  # reaped
        if not self._closed:
            self._on_death(self)

    @staticmethod
    def _stop(process: asyncio.subprocess.Process) -> None:
        if process.stdin is not None:
            process.stdin.close()  # the end of its input: it exits after the job it is on
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()  # and at once: nothing is waiting for that job any more

    async def close(self) -> None:
        """End the worker now (a job under way is dropped) and wait until it is gone."""
        self._closed = True
        for answer in self._pending.values():
            if not answer.done():
                answer.set_exception(WorkerGone("the worker was closed"))
        if self._process is not None:
            self._stop(self._process)
        with contextlib.suppress(Exception):
            await self._spawned  # a worker still starting is stopped once it has
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._reader), CLOSE_SECONDS)


class WorkerPool:
    """One worker process that ends with us: ``run(fn, *args)`` runs ``fn`` there.

    The bot runs one, for all its CPU-heavy work (the searching AI, pictures, a game's files):
    each interpreter costs some 30 MB, and on a small host a second worker would only fight the
    first and the bot for the same cores. Jobs run one at a time, in the order they were asked.

    ``start()`` spawns it at once and runs ``warm`` in it (imports, caches), so the first
    real job does not pay for a process start; without ``start()`` the pool starts on first
    use, unwarmed (the job imports what it needs). A worker that dies (the OOM killer, a crash
    in a C library) is replaced: a started pool starts (and warms) a new one at once, before
    anyone needs it, and the jobs it owed answers to run once more on the new one.
    """

    def __init__(self, warm: Callable[[], object] | None = None) -> None:
        self._warm = warm
        self._keep_warm = False  # set by start(): every worker it starts is warmed
        self._worker: _Worker | None = None
        self._warming: asyncio.Future[object] | None = None
        self.restarts = 0  # workers replaced after a death

    def _start(self) -> _Worker:
        worker = self._worker = _Worker(self._died)
        if self._warm is not None and self._keep_warm:
            self._warming = asyncio.ensure_future(worker.call(self._warm, ()))
            self._warming.add_done_callback(_retrieve)  # a failed warm-up is the next job's news
        return worker

    def _died(self, worker: _Worker) -> None:
        if worker is self._worker:
            log.warning("the worker process %s died; starting a new one", worker.pid)
            self.restarts += 1
            self._worker = None
            if self._keep_warm:
                self._start()

    def _current(self) -> _Worker:
        worker = self._worker
        if worker is None or worker.dead:
            if worker is not None:  # died before anyone noticed
                self.restarts += 1
            worker = self._start()
        return worker

    def start(self) -> None:
        """Spawn and warm the worker now and replace it whenever it dies (needs a running loop)."""
        self._keep_warm = True
        if self._worker is None:
            self._start()

    async def ready(self) -> object:
        """Wait until the worker has finished warming up; what ``warm`` returned (None without it)."""
        if self._warming is None:
            return None
        return await self._warming

    @property
    def started(self) -> bool:
        return self._worker is not None

    @property
    def alive(self) -> bool:
        """A worker is up (or starting) and not known to be dead."""
        return self._worker is not None and not self._worker.dead

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        worker = self._current()
        try:
            return await worker.call(fn, args)
        except WorkerGone:
            if worker.closed:
                raise  # the pool was closed meanwhile
            # Died under this job: once more on the worker that replaces it.
            return await self._current().call(fn, args)

    async def close(self) -> None:
        """End the worker (jobs under way fail with ``WorkerGone``); ``run`` would start a new one."""
        self._keep_warm = False
        self._warming = None
        worker, self._worker = self._worker, None
        if worker is not None:
            await worker.close()


def _retrieve(future: asyncio.Future[object]) -> None:
    if not future.cancelled():
        future.exception()
