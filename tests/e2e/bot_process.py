"""The real bot in a process of its own, against the Discord stand-in (used by test_crash.py).

    python -m tests.e2e.bot_process

Reads DISCORD_API_BASE / DISCORD_GATEWAY_URL / DISCORD_TOKEN (``standin.env``),
DATABASE_PATH or DATABASE_URL, and optionally SHARD_COUNT / SHARD_IDS, then runs
the bot until it is killed.

Test hooks, set through the environment (nothing here is in the bot itself):

``SIXNIMMT_SYNC=1``
    sync the command tree at start-up (the first process of a test).
``SIXNIMMT_TEST_SEED=<int>``
    every new table is dealt from this seed, so a test knows the cards.
``SIXNIMMT_LOOP_LAG=1``
    print how late the bot's event loop ran, how long it took to answer interactions, its
    collector's pauses and its checkpoint waits (``looplag.py``) when the process stops.
    Every sample is kept until then (a few MB over a long run): a soak runs without it.
``SIXNIMMT_PROBE=<path>``
    on SIGUSR1 the process runs a full collection and appends one JSON line to ``<path>``:
    its live asyncio task count (and the most common task names/coroutines), tracked objects,
    the blocks Python's allocator holds, resident memory, and C malloc's and SQLite's memory. The load benchmark reads it to
    compare the start and the end.
``SIXNIMMT_TRACEMALLOC=<frames>``
    trace allocations (``tracemalloc``, this many frames each) from the start; every probe also
    dumps a snapshot next to the probe file (``<path>.<time>.snap``), for a soak to diff.
``SIXNIMMT_WITHOUT=<module>[,<module>...]``
    the process runs as if these packages were not installed (e.g. ``zstandard,orjson``, the
    ``discord.py[speed]`` extras: discord.py then asks for zlib-stream and parses with json).
``SIXNIMMT_ROUTE_WINDOW=<seconds>``
    how long a restored table's channel is left alone after the start (the tests' restarts
    shorten it; the presenter's ``route_window``).
``SIXNIMMT_NONCE_TRUST=<seconds>``
    how long the presenter trusts Discord to remember a post's nonce (0: every post re-sent
    is first looked for in the channel, as after an outage longer than Discord's window).
``THREADS``
    unless set, ``false``: the tests that run this process play in the channel itself (a game in
    a thread of its own is tested in-process, ``tests/e2e/test_threads.py``); the load benchmark
    sets it to compare.
``SIXNIMMT_TIMING=<path>``
    once the tables are restored at start-up, one JSON line is appended to ``<path>``: how long
    ``TableService.start()`` took (``start_s``, timed around the bot's own call) and the wall-clock
    times (``time.time()``) at which ``main`` began (the interpreter is up), the bot's setup hook
    began (imports done, store open, logged in) and the ``RESTORED`` line was printed; what a
    restart costs, for ``benchmarks/turn_based.py``.
``SIXNIMMT_STALL_DUMP=<seconds>``
    whenever the event loop has not run for that long, every thread's stack is printed to
    stderr (``faulthandler``): what blocked it (the chaos benchmark sets it).
``SIGUSR2``
    the process prints every asyncio task and where it waits to stderr (what holds a table that
    stalled: the chaos benchmark sends it when one does).
``SIXNIMMT_WRITES=<path>``
    the moment each REST request of the bot token is written, a line each (``record_writes``).
``SIXNIMMT_CRASH_AT=<point>``
    the process SIGKILLs itself (as ``kill -9`` would) at a named point:

    ``reveal``      right after the commit of a pick that revealed a turn,
                    before the player is answered and before the reveal is shown;
    ``row-choice``  right after the commit that leaves the game waiting for a row choice;
    ``chose-row``   right after the commit of a row choice, before it is answered;
    ``results``     inside the result's write, after its rows and before they commit;
    ``posted``      once Discord has accepted a post of a turn (its reveal), before the
                    write that records it as shown;
    ``lobby``       right after the commit of a new lobby, before its message is posted;
    ``thread``      as the bot asks Discord to start a game's thread on its lobby (posted and
                    saved), before the request is sent;
    ``thread-started`` once Discord has started that thread, before the bot saves it.

The process prints ``CRASH <point>`` to stderr just before it dies, and
``RESTORED [table ids]`` once it has restored its tables at start-up.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import os
import signal
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

for _name in filter(None, os.environ.get("SIXNIMMT_WITHOUT", "").split(",")):
    sys.modules[_name.strip()] = None  # type: ignore[assignment]  # "import x" now raises ImportError


os.environ.setdefault("THREADS", "false")
CRASH_AT = os.environ.get("SIXNIMMT_CRASH_AT", "")
TIMED = bool(os.environ.get("SIXNIMMT_LOOP_LAG"))


def die(point: str) -> None:
    print(f"CRASH {point}", file=sys.stderr, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)


class CrashingStore:
    """Delegates to the real store; SIGKILLs the process after the commit named by CRASH_AT."""

    def __init__(self, inner) -> None:
        self._inner = inner
        self.timings: dict[str, list[float]] = {}  # for SIXNIMMT_LOOP_LAG's report
        self._last: dict[int, tuple] = {}
        self._owed: dict[int, dict[int, dict]] = {}  # each game's posts not yet marked shown

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def _time(self, name: str, started: float) -> None:
        if TIMED:  # every call's time is kept: a soak, which measures memory, runs without
            self.timings.setdefault(name, []).append(time.perf_counter() - started)

    async def mark_shown(self, game_id, *, upto=None, message_id=None):
        if CRASH_AT == "posted" and upto is not None:  # kept only where it is needed: a soak must not measure it
            owed = self._owed.get(game_id, {})
            shown = [owed.pop(seq) for seq in sorted(owed) if seq <= upto]
            if any(p["kind"] == "turn" and p["events"] for p in shown):
                die(CRASH_AT)  # the reveal is in the channel; the record that it was shown is not written
        started = time.perf_counter()
        result = await self._inner.mark_shown(game_id, upto=upto, message_id=message_id)
        self._time("mark_shown", started)
        return result

    async def create_game(self, **kwargs):
        game_id = await self._inner.create_game(**kwargs)
        if CRASH_AT == "lobby":
            die(CRASH_AT)  # the lobby is committed; its message is neither posted nor the command answered
        return game_id

    async def commit(self, game_id, commit):
        started = time.perf_counter()
        result = await self._inner.commit(game_id, commit)
        self._time("commit", started)
        if CRASH_AT == "posted":
            self._owed.setdefault(game_id, {}).update({p.seq: p.payload for p in commit.posts})
        if CRASH_AT not in ("reveal", "row-choice", "chose-row"):
            return result
        state = commit.state
        kinds = {a.get("kind") for a in commit.actions}
        point = (state.get("round"), state.get("turn"), state.get("phase"))
        before = self._last.get(game_id)
        self._last[game_id] = point  # every game's: kept only where it is needed, like the posts owed
        if CRASH_AT == "row-choice" and state.get("phase") == "choose_row":
            die(CRASH_AT)
        if CRASH_AT == "chose-row" and "choose_row" in kinds:
            die(CRASH_AT)
        if CRASH_AT == "reveal" and "pick" in kinds and before is not None and point[:2] != before[:2]:
            die(CRASH_AT)
        return result


def install_thread_crash() -> None:
    """``thread`` / ``thread-started``: die around Discord's start of a game's thread."""
    from discord.http import HTTPClient

    original = HTTPClient.start_thread_with_message

    async def start_thread_with_message(self, *args, **kwargs):
        if CRASH_AT == "thread":
            die(CRASH_AT)
        data = await original(self, *args, **kwargs)
        die(CRASH_AT)
        return data

    HTTPClient.start_thread_with_message = start_thread_with_message


def record_writes(path: str) -> None:
    """``SIXNIMMT_WRITES``: every REST request of the bot token (not the interaction endpoints) writes
    the moment its headers are written (monotonic seconds) to ``path``, a line each: what Discord
    receives in any sliding second, whatever keeps the stand-in's own loop from reading it at once."""
    import aiohttp

    out = open(path, "a", buffering=1)  # noqa: SIM115  # open for the process's life

    async def written(session, context, params) -> None:
        path = params.url.path
        if path.startswith("/api/") and "/interactions/" not in path and "/webhooks/" not in path:
            out.write(f"{time.monotonic()}\n")

    trace = aiohttp.TraceConfig()
    trace.on_request_headers_sent.append(written)
    trace.freeze()
    original = aiohttp.ClientSession.__init__

    def init(self, *args, trace_configs=None, **kwargs):
        original(self, *args, trace_configs=[*(trace_configs or ()), trace], **kwargs)

    aiohttp.ClientSession.__init__ = init


def install_results_crash() -> None:
    from data import writes

    original = writes.finish

    def finish(*args, **kwargs):  # the step of writing a result, run in the writer's thread
        value = yield from original(*args, **kwargs)  # every row written, the transaction still open
        die("results")
        return value

    writes.finish = finish


#: The running bot, for the probe's view of its AI seats (set by ``main``).
RUNNING: list = []


def watch_the_loop(seconds: float) -> None:
    """``SIXNIMMT_STALL_DUMP``: the loop re-arms a ``faulthandler`` timer ten times a second; if it
    ever stops running for ``seconds``, the timer fires and prints what every thread was doing."""
    import faulthandler

    loop = asyncio.get_running_loop()

    def rearm() -> None:
        faulthandler.dump_traceback_later(seconds, exit=False, file=sys.stderr)
        loop.call_later(0.1, rearm)

    rearm()


def print_tasks() -> None:
    """SIGUSR2: every task of the loop and the frame it waits in, to stderr (runs on the loop)."""
    tasks = asyncio.all_tasks()
    print(f"--- {len(tasks)} tasks at {time.monotonic():.1f}", file=sys.stderr)
    for task in tasks:
        print(f"task {task.get_name()}:", file=sys.stderr)
        task.print_stack(limit=12, file=sys.stderr)
    sys.stderr.flush()


def write_probe(path: str) -> None:
    """Runs on the event loop (a signal handler), so the task list is consistent."""
    import collections
    import gc
    import json

    gc.collect()
    tasks = asyncio.all_tasks()
    kinds = collections.Counter(_task_kind(t) for t in tasks)
    memory = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "RssAnon:", "RssFile:", "RssShmem:")):
                memory[line.split(":")[0]] = int(line.split()[1])
    rss_kb = memory.get("VmRSS", 0)
    import discord.utils

    from bot.health import ai_status

    ai = ai_status(getattr(getattr(RUNNING[0], "service", None), "ai", None)) if RUNNING else {}
    snapshot = None
    if tracemalloc.is_tracing():
        snapshot = f"{path}.{time.monotonic_ns()}.snap"
        tracemalloc.take_snapshot().dump(snapshot)
    with open(path, "a") as out:
        out.write(
            json.dumps(
                {
                    "at": time.monotonic(),
                    "tasks": len(tasks),
                    "task_kinds": kinds.most_common(8),
                    "gc_objects": len(gc.get_objects()),
                    "rss_kb": rss_kb,
                    "allocated_blocks": sys.getallocatedblocks(),
                    "snapshot": snapshot,
                    "rss_parts_kb": memory,
                    **_native_memory(),
                    "object_kinds": collections.Counter(type(o).__name__ for o in gc.get_objects()).most_common(8),
                    "orjson": discord.utils.HAS_ORJSON,
                    "zstd": discord.utils._ZSTD_SOURCE,
                    "loop": type(asyncio.get_running_loop()).__module__.split(".")[0] + " loop",
                    "ai": ai,
                }
            )
            + "\n"
        )


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _native_memory() -> dict:
    """Memory outside Python's object allocator: what C malloc hands out and holds free (over all
    its arenas; big Python objects live there too), and what SQLite's page caches use. Where the
    libraries are not glibc's and the system's SQLite, nothing."""
    found = {}
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
        found.update(malloc_in_use_kb=(info.uordblks + info.hblkhd) // 1024, malloc_free_kb=info.fordblks // 1024)
    except (OSError, AttributeError):
        pass
    try:
        sqlite = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
        sqlite.sqlite3_memory_used.restype = ctypes.c_int64
        found["sqlite_kb"] = sqlite.sqlite3_memory_used() // 1024
    except (OSError, AttributeError):
        pass
    return found


def _task_kind(task: asyncio.Task) -> str:
    coro = task.get_coro()
    return getattr(coro, "__qualname__", type(coro).__name__)


def time_service_start(timing: dict) -> None:
    """``SIXNIMMT_TIMING``: ``TableService.start`` records how long it took in ``timing``."""
    from bot.tables.service import TableService

    original = TableService.start

    async def start(self, *args, **kwargs):
        began = time.perf_counter()
        try:
            return await original(self, *args, **kwargs)
        finally:
            timing["start_s"] = time.perf_counter() - began

    TableService.start = start


async def main() -> None:
    timing = {"main_at": time.time()}
    from bot.app import ShardedSixNimmtBot, SixNimmtBot, serve
    from bot.config import Settings
    from bot.tables.lobby import Lobby
    from data import open_store

    # Imported here, not at the top: the bot's spawned workers import this main module
    # again, and should load no more of the stand-in than the real bot's workers do.
    from tests.standin import apply_env_overrides

    apply_env_overrides()
    if os.environ.get("SIXNIMMT_NONCE_TRUST"):
        import cogs.presenting.outbox

        cogs.presenting.outbox.NONCE_TRUST = float(os.environ["SIXNIMMT_NONCE_TRUST"])
    if os.environ.get("SIXNIMMT_ROUTE_WINDOW"):
        import cogs.presenter

        cogs.presenter.ROUTE_WINDOW = float(os.environ["SIXNIMMT_ROUTE_WINDOW"])
    seed = os.environ.get("SIXNIMMT_TEST_SEED")
    if seed:
        Lobby.new_seed = staticmethod(lambda: int(seed))
    if CRASH_AT == "results":
        install_results_crash()
    if CRASH_AT in ("thread", "thread-started"):
        install_thread_crash()
    if os.environ.get("SIXNIMMT_WRITES"):
        record_writes(os.environ["SIXNIMMT_WRITES"])
    if os.environ.get("SIXNIMMT_TIMING"):
        time_service_start(timing)
    extra = (
        {"shard_count": os.environ["SHARD_COUNT"], "shard_ids": os.environ["SHARD_IDS"]}
        if os.environ.get("SHARD_COUNT")
        else {}
    )
    if os.environ.get("METRICS_PORT"):  # the operators' endpoint, as the bot reads it from the environment
        extra.update(metrics_port=os.environ["METRICS_PORT"], metrics_host=os.environ.get("METRICS_HOST", "0.0.0.0"))
    settings = Settings(
        discord_token=os.environ["DISCORD_TOKEN"],
        database_url=os.environ.get("DATABASE_URL"),
        database_path=os.environ.get("DATABASE_PATH", "bot.sqlite3"),
        log_level="WARNING",
        health_file=os.environ.get("HEALTH_FILE") or None,
        threads=os.environ["THREADS"],
        **extra,
    )
    store = CrashingStore(await open_store(settings.database))

    class Bot(ShardedSixNimmtBot if settings.sharded else SixNimmtBot):
        async def setup_hook(self) -> None:
            timing["setup_hook_at"] = time.time()
            await super().setup_hook()
            print(f"RESTORED {sorted(self.service.tables)}", file=sys.stderr, flush=True)
            if os.environ.get("SIXNIMMT_TIMING"):
                import json

                with open(os.environ["SIXNIMMT_TIMING"], "a") as out:
                    out.write(
                        json.dumps({**timing, "restored_at": time.time(), "restored": len(self.service.tables)}) + "\n"
                    )
            if os.environ.get("SIXNIMMT_SYNC"):
                await self.tree.sync()

    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, print_tasks)
    if os.environ.get("SIXNIMMT_STALL_DUMP"):
        watch_the_loop(float(os.environ["SIXNIMMT_STALL_DUMP"]))
    if os.environ.get("SIXNIMMT_PROBE"):
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, write_probe, os.environ["SIXNIMMT_PROBE"])
    lag = None
    if TIMED:
        from tests.e2e.looplag import GCPauses, InteractionTimer, LoopLag, percentiles

        lag = LoopLag().start()
        timer = InteractionTimer().install()
        pauses = GCPauses().install()
    RUNNING.append(Bot(settings, store=store))
    await serve(RUNNING[0])  # the bot's own run loop, SIGTERM handling included
    if lag is not None:
        print(f"LOOP LAG bot: {lag.summary()}", file=sys.stderr, flush=True)
        print(f"INTERACTIONS bot: {timer.summary()}", file=sys.stderr, flush=True)
        print(f"GC bot: {pauses.summary()}", file=sys.stderr, flush=True)
        print(f"GC bot: {pauses.census()}", file=sys.stderr, flush=True)
        for name, values in store.timings.items():
            print(f"STORE {name}: {percentiles(values)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    if os.environ.get("SIXNIMMT_TRACEMALLOC"):
        tracemalloc.start(int(os.environ["SIXNIMMT_TRACEMALLOC"]))
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    from bot.app import run_loop  # the loop the bot's own command runs on

    run_loop(main())
