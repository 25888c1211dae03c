"""The load benchmark's parts: the bot in its own process (with its probe), and scripted players.

Everything is measured from the stand-in's side, so it holds whatever the presenter does:
an acknowledgement is the time from INTERACTION_CREATE to the callback; a turn's resolution
is the time from the last click of the turn (the pick, or row choice, that completed it) to the
first public message version the stand-in received that shows the outcome: a table whose rows
changed, a row-choice prompt, or the final message with its Rematch button.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

from tests.standin import InteractionRejected

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE_BUTTONS = ("6n:h:", "6n:r:")


# --- the bot process ----------------------------------------------------------------------


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def bot_processes(pid: int) -> list[int]:
    """The bot process and its worker processes (table images, the searching AI)."""
    found = [pid]
    for proc in os.listdir("/proc"):
        if proc.isdigit():
            try:
                with open(f"/proc/{proc}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(proc))
            except OSError:
                continue
    return found


def _pin_process(pid: int, cpus: set[int]) -> None:
    for thread in os.listdir(f"/proc/{pid}/task"):  # the affinity is each thread's own
        os.sched_setaffinity(int(thread), cpus)


def pin_bot(pid: int) -> str:
    """Give the bot process (every thread of it) the first core alone, and its workers, the
    stand-in and the players the others: on a real deployment Discord does not run on the bot's
    cores, and the bot gets a core a Python process can use whole. Returns a line saying what it did.

    The bot spawns its worker at start-up, before this runs; a worker started later (one that
    replaces a dead one) inherits the bot's core."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return "not pinned: one core"
    bot, rest = {cpus[0]}, set(cpus[1:])
    _pin_process(pid, bot)
    for worker in bot_processes(pid)[1:]:
        _pin_process(worker, rest)
    _pin_process(os.getpid(), rest)
    return f"the bot pinned to core {cpus[0]}; its workers, the stand-in and the players to {sorted(rest)}"


def rss_mb(pid: int) -> tuple[float, float, int]:
    """(current, peak) resident memory in MB of the bot with its workers, and how many processes."""
    pids = bot_processes(pid)
    return (
        sum(_status_kb(p, "VmRSS") for p in pids) / 1024,
        sum(_status_kb(p, "VmHWM") for p in pids) / 1024,
        len(pids),
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` itself, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class BotProcess:
    """``tests/e2e/bot_process.py`` against the stand-in, with the SIGUSR1 probe switched on.

    ``without``: modules the bot must run without (``orjson,zstandard`` = no discord.py[speed])."""

    def __init__(
        self,
        standin,
        tmp: str,
        *,
        without: str = "",
        profile: str | None = None,
        shard: tuple[int, int] | None = None,
        timed: bool = True,
    ) -> None:
        """``shard``: (this process's shard, shard count), for several processes on one database.
        ``timed=False``: the process keeps no loop-lag, interaction or store timings, whose samples
        grow with every click: a soak measures the bot's memory, not its instruments'."""
        self.standin = standin
        self.shard = shard
        self.probe_path = os.path.join(tmp, f"probe{shard[0] if shard else ''}.jsonl")
        env = dict(
            os.environ,
            **standin.env,
            DATABASE_PATH=os.path.join(tmp, "load.sqlite3"),
            LOG_LEVEL="WARNING",
            SIXNIMMT_SYNC="1",
            SIXNIMMT_LOOP_LAG="1" if timed else "",
            SIXNIMMT_PROBE=self.probe_path,
            SIXNIMMT_WITHOUT=without,
        )
        if shard is not None:
            env.update(
                SHARD_IDS=str(shard[0]),
                SHARD_COUNT=str(shard[1]),
                HEALTH_FILE=os.path.join(tmp, f"shard{shard[0]}.health"),
            )
        command = [sys.executable, "-m", "tests.e2e.bot_process"]
        if profile:  # sample the bot process with py-spy (pip install py-spy)
            command = ["py-spy", "record", "--gil", "-o", profile, "-f", "raw", "--"] + command
        self.profile = profile
        self.proc = subprocess.Popen(command, env=env, cwd=ROOT)
        self.pid = self.proc.pid

    async def ready(self) -> None:
        if self.shard is not None:  # this process's own gateway session
            gateway = self.standin.server.gateway
            await self.standin.world.wait_until(
                lambda: any(s.shard and s.shard[0] == self.shard[0] for s in gateway.live_sessions),
                60,
                f"shard {self.shard[0]} did not connect",
            )
        await self.standin.wait_until_connected(timeout=60)
        await self.standin.wait_for_commands("6nimmt", timeout=60)
        if self.profile:  # py-spy's child is the bot
            self.pid = next(p for p in bot_processes(self.proc.pid) if p != self.proc.pid)

    async def probe(self, settle: float = 1.0) -> dict:
        """The bot's live task count, tracked objects and RSS after a full collection, plus the
        RSS of its workers; waits `settle` seconds first so in-flight work can finish."""
        await asyncio.sleep(settle)
        before = _lines(self.probe_path)
        os.kill(self.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 30
        while _lines(self.probe_path) == before:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not answer its probe")
            await asyncio.sleep(0.05)
        with open(self.probe_path) as lines:
            data = json.loads(lines.readlines()[-1])
        data["rss_mb_all"], data["peak_mb_all"], data["processes"] = rss_mb(self.pid)
        data["cpu_s"] = cpu_seconds(self.pid)
        return data

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT if self.profile else signal.SIGTERM)  # py-spy writes on SIGINT
        self.proc.wait(60)


def _lines(path: str) -> int:
    try:
        with open(path) as lines:
            return sum(1 for _ in lines)
    except FileNotFoundError:
        return 0


def describe_ai(data: dict) -> str:
    """The hard seats' decisions as the bot timed them (wall ms from asking its worker to the answer)."""
    ai = data.get("ai") or {}
    timing = ai.get("ai_decision_ms")
    if not timing:
        return f"no hard decisions; AI fallbacks {ai.get('ai_fallbacks', 0)}"
    return (
        f"{ai['ai_decisions']} hard decisions, wall ms through the worker (last {timing['of']}): "
        f"p50 {timing['p50']:g}, p95 {timing['p95']:g}, max {timing['max']:g}; "
        f"AI fallbacks {ai['ai_fallbacks']}, worker restarts {ai['ai_worker_restarts']}"
    )


def describe_probe(data: dict) -> str:
    kinds = ", ".join(f"{n} {k}" for k, n in data["task_kinds"][:5])
    objects = ", ".join(f"{n} {k}" for k, n in data.get("object_kinds", [])[:5])
    return (
        f"{data['tasks']} live tasks ({kinds}), {data['gc_objects']} unfrozen tracked objects ({objects}), "
        f"{data.get('allocated_blocks', 0):,} allocated blocks, "
        f"RSS {data['rss_kb'] / 1024:.1f} MB{rss_parts(data)} "
        f"(with its {data['processes'] - 1} workers {data['rss_mb_all']:.1f} MB)" + _native(data)
    )


def rss_parts(data: dict, base: dict | None = None) -> str:
    """RSS split into anonymous memory (heaps, arenas, stacks: what a leak grows) and file-backed
    pages (the interpreter's and libraries' code, touched once as new code paths run); with
    ``base``, the growth of each since that probe."""
    parts = data.get("rss_parts_kb", {})
    if "RssAnon" not in parts:
        return ""
    old = (base or {}).get("rss_parts_kb", {})
    sign = "+" if base else ""
    anon = (parts["RssAnon"] - old.get("RssAnon", 0)) / 1024
    files = (parts["RssFile"] - old.get("RssFile", 0)) / 1024
    return f" [anonymous {anon:{sign}.1f}, file-backed {files:{sign}.1f}]"


def _native(data: dict) -> str:
    """Where the bot's memory outside Python objects is (the probe's glibc and SQLite figures)."""
    if "malloc_in_use_kb" not in data:
        return ""
    return (
        f"; C malloc {data['malloc_in_use_kb'] / 1024:.1f} MB in use + {data['malloc_free_kb'] / 1024:.1f} MB "
        f"free but held, SQLite {data.get('sqlite_kb', 0) / 1024:.1f} MB"
    )


# --- what the stand-in shows ---------------------------------------------------------------


def table_message(standin, channel):
    for message in reversed(standin.channel_messages(channel)):
        if any(cid.startswith(TABLE_BUTTONS) for cid in message.custom_ids):
            return message
    return None


def _rows(version) -> str | None:
    """The rows as the table message's text shows them (its first embed's description)."""
    if not any(cid.startswith("6n:h:") for cid in version.custom_ids):
        return None
    return (version.embeds[0] if version.embeds else {}).get("description")


def _shows_outcome(version, rows_before: str | None) -> bool:
    ids = version.custom_ids
    if any(cid.startswith(("6n:m:", "6n:r:")) for cid in ids):
        return True
    rows = _rows(version)
    return rows is not None and rows != rows_before


def outcome_shown_at(standin, channel, since: float, rows_before: str | None) -> float | None:
    """When the stand-in received the first message version (create or edit) after `since`
    that shows the turn's outcome; None while none has arrived."""
    times = [
        v.written_at
        for m in standin.channel_messages(channel)
        if m.written_at >= since
        for v in m.versions()
        if v.written_at >= since and _shows_outcome(v, rows_before)
    ]
    return min(times, default=None)


def game_over(standin, channel, since: float) -> bool:
    return any(
        m.written_at >= since and any(cid.startswith("6n:m:") for cid in m.custom_ids)
        for m in standin.channel_messages(channel)
    )


# --- players -------------------------------------------------------------------------------


@dataclass
class Pace:
    """Seconds a player thinks before a click; the max-rate mode changes it while games run."""

    low: float
    high: float

    async def think(self, rng, share: float = 1.0) -> None:
        if self.high > 0:
            await asyncio.sleep(rng.uniform(self.low, self.high) * share)


@dataclass
class Tally:
    resolutions: list[tuple[float, float]] = field(default_factory=list)  # (click time, seconds)
    games: int = 0
    turns: int = 0  # turns revealed: every player's card picked and the outcome shown


async def wait_until(check, timeout=60.0, every=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        await asyncio.sleep(every)
    raise TimeoutError("the bot did not show the expected message in time")


def channel_story(standin, channel) -> str:
    """The channel's messages with their edits, oldest first: what a failed table saw."""
    lines = []
    for message in standin.channel_messages(channel)[-6:]:
        shown = [f"{(v.embeds[0] if v.embeds else {}).get('title', '')!r} {v.custom_ids}" for v in message.versions()]
        lines.append(
            f"    {message.id} (interaction {message.interaction_id}) {message.content[:40]!r}: " + " -> ".join(shown)
        )
    return "\n".join(lines)


async def play_game(
    standin,
    channel,
    host,
    guest,
    tally: Tally,
    rng,
    pace: Pace,
    ai_level: str | None = None,
    threads: bool = False,
    target: int | None = None,
) -> None:
    """``threads``: the bot runs each game in a thread of its own (THREADS=true); the lobby is
    posted in ``channel`` and the game played in the thread started on it. ``target``: the game
    is played to this score (``/6nimmt start target:66``), else it is one round."""
    where = [channel]  # the channel the game is played in: the thread, once it is known
    try:
        await _play_game(standin, channel, host, guest, tally, rng, pace, ai_level, where if threads else None, target)
    except Exception as exc:
        raise RuntimeError(f"{channel.name}: {exc!r}\n{channel_story(standin, where[-1])}") from exc


async def _play_game(
    standin,
    channel,
    host,
    guest,
    tally: Tally,
    rng,
    pace: Pace,
    ai_level: str | None,
    thread_out: list | None = None,
    target: int | None = None,
) -> None:
    """One game, of one round or to ``target``: two players and three AI seats (at ``ai_level``,
    else the server's default); the chooser of a low card takes row 1. With ``thread_out``, the
    game is looked for in the thread started on the lobby (its id is the lobby message's),
    appended to the list."""
    opened = time.monotonic()
    options = {"ai_level": ai_level} if ai_level else {}
    options |= {"target": target} if target else {"rounds": 1}
    lobby = await (await standin.slash(host, channel, "6nimmt start", ai_players=3, timer=600, **options)).reply(
        timeout=30
    )
    if thread_out is not None:
        channel = await wait_until(lambda: standin.world.channels.get(lobby.id), 30)
        thread_out.append(channel)
    for user, label in ((guest, "Join"), (host, "Start")):
        click = await standin.click(user, lobby, lobby.button(label)["custom_id"])
        if await click.ack(30) != 6:  # a lobby button that worked defers; a refusal explains itself
            raise RuntimeError(f"{label} was refused: {(await click.reply(30)).content!r}")
    current = await wait_until(lambda: (m := table_message(standin, channel)) and m.written_at >= opened and m)
    while True:
        rows_before = _rows(current)
        last_click, picked = None, 0
        prompt = any(cid.startswith("6n:r:") for cid in current.custom_ids)
        if prompt:
            await pace.think(rng)
            for user in (host, guest):
                click = await click_table(standin, channel, user, "6n:r:", must=False)
                if click is None:
                    break  # the prompt is gone: an AI seat chose, or a click before this one did
                if await click.ack(30) == 6:
                    last_click = click  # a deferred update: the choice was accepted
                    break
        else:
            for user in (host, guest):
                await pace.think(rng)
                hand = await (await click_table(standin, channel, user, "6n:h:")).reply(timeout=30)
                cards = [cid for cid in hand.custom_ids if cid.startswith("6n:p:")]
                if not cards:
                    break
                await pace.think(rng, 0.5)
                last_click = await standin.click(user, hand, cards[0])
                await last_click.ack(30)
                picked += 1
        # No accepted click of ours: an AI seat made the row choice, so no player's click to time from.
        since = last_click.dispatched_at if last_click is not None else current.written_at
        shown = await wait_until(
            lambda since=since, rows_before=rows_before: outcome_shown_at(standin, channel, since, rows_before)
        )
        if last_click is not None:
            tally.resolutions.append((since, shown - since))
        if not prompt and picked == 2:
            tally.turns += 1  # both players' cards went down: the turn is revealed (or asks for a row)
        if game_over(standin, channel, since):
            tally.games += 1
            return
        current = await wait_until(
            lambda since=since, rows_before=rows_before: (
                (m := table_message(standin, channel)) and _fresh(m, since, rows_before)
            )
        )


async def click_table(standin, channel, user, prefix: str, must: bool = True):
    """Click the first `prefix` button of the newest table message. A presenter may show the next
    turn on the old message a moment before it moves the table to a new one, and an overloaded
    bot may be reconnecting, so a click that could not be made is tried again, as a person
    would; `must=False` gives up after a second (None) instead of failing after fifteen: a row
    prompt vanishes when the AI seat it waited for chooses."""
    for _attempt in range(300 if must else 20):
        message = table_message(standin, channel)
        custom_id = next((c for c in message.custom_ids if c.startswith(prefix)), None) if message else None
        if custom_id is not None:
            try:
                return await standin.click(user, message, custom_id)
            except InteractionRejected:
                pass
        await asyncio.sleep(0.05)
    if not must:
        return None
    raise RuntimeError(f"no {prefix} button to click on the table")


def _fresh(message, since: float, rows_before: str | None):
    """The table message once it offers the next decision (not the one the click completed)."""
    if message.written_at < since:
        return None
    return message if any(c.startswith("6n:r:") for c in message.custom_ids) or _rows(message) != rows_before else None


class BotProcesses:
    """Several bot processes, one shard each, on one database: probed and stopped together."""

    def __init__(self, bots: list[BotProcess]) -> None:
        self.bots = bots
        self.pid = bots[0].pid

    async def ready(self) -> None:
        for bot in self.bots:
            await bot.ready()

    async def probe(self, settle: float = 1.0) -> dict:
        """The processes' figures added up (task kinds merged)."""
        probes = await asyncio.gather(*(bot.probe(settle) for bot in self.bots))
        total = dict(probes[0])
        for key in ("tasks", "gc_objects", "rss_kb", "rss_mb_all", "peak_mb_all", "processes", "cpu_s"):
            total[key] = sum(p[key] for p in probes)
        kinds: dict[str, int] = {}
        for p in probes:
            for kind, count in p["task_kinds"]:
                kinds[kind] = kinds.get(kind, 0) + count
        total["task_kinds"] = sorted(kinds.items(), key=lambda k: -k[1])
        return total

    def stop(self) -> None:
        for bot in self.bots:
            bot.stop()
