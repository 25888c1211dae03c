"""Load: the real bot (in its own process) against the Discord stand-in, many tables at once.

Every table has two scripted players and three AI seats and plays one-round games (or games to
``--target``): start, join, begin, then each turn both players open their hand and pick a card
(the chooser of a low card takes row 1). Everything is measured from the stand-in's side (load_players.py):
acknowledgement latency (INTERACTION_CREATE -> callback) and turn resolution (the click that
completed a turn -> the first message version showing its outcome). The bot reports its live
asyncio tasks, tracked objects and memory through its SIGUSR1 probe (tests/e2e/bot_process.py).

Modes (each prints its figures and how long it ran):

``human`` (default, about nine minutes)
    300 tables open over a minute, players think 5-20 s per click, one game each. Ack and
    turn resolution p50/p99, CPU, RSS and live task count at the end.
    ``--think 1 4 --ramp 20`` is a two-minute stress run, ``--think 0 0`` floods the bot.
    ``--hard-tables 30`` seats hard AI players at 30 of the tables and prints how long their
    decisions took as the bot timed them (wall ms through its worker, queueing included):
    issue 19's p95 <= 50 ms while the bot serves 300 tables.
``soak`` (``--games 2000 --tables 100``, players think 0.2-1 s, about eight minutes)
    every table plays one game (the warm-up), then games go on in two legs until ``--games``
    have ended, every table idle between the legs; live tasks, tracked objects and RSS at the
    start, after the warm-up, halfway and at the end, each with no game running and after a
    full collection, the growth over each leg (a cache filling to its bound grows in the first
    leg only, a leak in both alike), and where the growth is: Python's
    allocated blocks, C malloc in use and free-but-held, SQLite's page caches. The bot runs
    without the timing instruments (their samples grow with every click). ``--trace FRAMES``
    traces its allocations (slow) and prints where the growth after the warm-up was allocated.
``max-rate``
    300 tables play games non-stop while the players' think time shrinks by ``--factor`` (0.7)
    every ``--step`` (30) seconds, until two steps in a row have ack p99 >= 100 ms; per step the
    click rate reached and its ack p50/p99; reports the highest rate with ack p99 < 100 ms.
``speed``
    the same workload twice, the bot with and without discord.py[speed]'s orjson and zstandard
    (the second run blocks their import): the bot's CPU milliseconds per interaction each way.
    ``--without uvloop`` compares uvloop's event loop with asyncio's own instead.

``--threads`` (any mode; measured for human)
    the bot runs with THREADS=true: each table's ``/6nimmt start`` posts its lobby in the channel
    and starts a public thread on it (the thread's id is the lobby message's), and the players
    find their table and play in that thread. Several games share a channel, as the feature
    allows: ``--per-channel`` (10) tables to a channel, so 300 tables are played in threads of
    30 channels. Acknowledgement and turn resolution are measured exactly as in channels (the
    outcome's message version is now the one received in the thread).

``--limits`` (any mode)
    the stand-in holds the bot to Discord's rate limits (``tests/standin/ratelimits.py``): 50
    bot-token requests a second (interaction answers exempt), per-route buckets with their
    X-RateLimit-* headers, and 429s as Discord sends them, which discord.py waits out and retries.
    With it or without, every mode but speed prints what the bot asked of Discord with its token:
    requests per resolved turn, requests a second (p50, p99, max), 429s by scope and the invalid
    requests (401, 403, 429) in any 10 minutes (Discord bans an address at 10,000).
``--target SCORE`` (any mode)
    games are played to this score (``--target 66``, the rulebook's) instead of one round; the
    requests per resolved turn are printed for the kind of game played.

    python benchmarks/load.py [--mode human|soak|max-rate|speed] [--tables N] [--think MIN MAX]
                              [--threads [--per-channel N]] [--limits] [--target SCORE]

Targets (issue 15): ack p99 < 50 ms and turn resolution p99 < 150 ms at 300 tables at a
human pace; after 2,000 games no more live tasks than at the start and RSS growth < 10 MB.
Issue 25: the same ack and turn resolution figures with 300 tables in threads (``--threads``).
Issue 30 (``--limits``): at 1,000 tables no 429, at most 45 bot-token requests in any second,
<= 1.5 requests per resolved turn in games to 66 and <= 2 in one-round games.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.load_players import (  # noqa: E402
    BotProcess,
    BotProcesses,
    Pace,
    Tally,
    cpu_seconds,
    describe_ai,
    describe_probe,
    pin_bot,
    play_game,
    rss_parts,
)
from bot.app import run_loop  # noqa: E402
from tests.e2e.looplag import GCPauses, LoopLag, percentile  # noqa: E402
from tests.standin import DiscordStandin  # noqa: E402
from tests.standin.model import GROUP_DM  # noqa: E402
from tests.standin.ratelimits import GLOBAL_PER_SECOND, INVALID_LIMIT  # noqa: E402

KINDS = {"6n:h": "Play a card", "6n:p": "card picks", "6n:r": "row choices", "6n:l": "lobby buttons"}


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.1f} ms"


def machine_speed() -> float:
    """Milliseconds this machine takes for a fixed piece of pure-Python work (best of five).

    The shared machines these figures come from run the same code at speeds that differ up to
    fourfold from one day to the next; a run's figures are comparable with another's only at a
    like speed, or back to back."""
    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.perf_counter() - began)
    return 1000 * best


def acks_between(standin, start: float, end: float = float("inf")) -> list[float]:
    return [
        i.ack_latency
        for i in standin.world.interactions.values()
        if i.ack_latency is not None and start <= i.dispatched_at < end
    ]


async def freeze_periodically(every: float = 2.0) -> None:
    """The stand-in keeps every message and interaction; a full collection walking all of
    them stalls its loop for hundreds of ms, which would show as the bot's latency.
    Real Discord does not pause for our collector, so the stand-in's survivors are frozen."""
    while True:
        await asyncio.sleep(every)
        gc.freeze()


class Setup:
    """A stand-in with `tables` channels (`tables / per_channel` with threads), two members a
    table, and the bot process on it."""

    def __init__(
        self,
        standin,
        tables: int,
        shards: int = 1,
        threads: bool = False,
        per_channel: int = 10,
        group_dms: float = 0.0,
    ) -> None:
        guilds: dict[int, object] = {}
        while len(guilds) < shards:  # a server on each shard (a table belongs to its server's shard)
            guild = standin.add_guild(f"Load {len(guilds)}")
            guilds.setdefault((guild.id >> 22) % shards, guild)
        self.standin = standin
        self.seats = []
        self.threads = threads
        # In threads, `per_channel` games share a channel: table i in channel i % channels, so the
        # tables opening over the ramp take the channels in turn.
        channels = max(1, -(-tables // per_channel)) if threads else tables
        shared: dict[int, object] = {}
        for i in range(tables):
            guild = guilds[i % shards]
            host, guest = standin.add_member(guild, f"host{i}"), standin.add_member(guild, f"guest{i}")
            if (i * group_dms) % 1 + group_dms >= 1:  # a share `group_dms` of the tables, spread evenly
                # A group DM, where the bot is not a member: the host installed the app to their account.
                standin.user_install(host)
                self.seats.append((standin.group_dm(host, guest, name=f"table-{i}"), host, guest))
                continue
            key = i % channels
            if key not in shared or not threads:
                shared[key] = standin.add_text_channel(guild, f"table-{key}" if threads else f"table-{i}")
            self.seats.append((shared[key], host, guest))
        self.driver_lag = LoopLag()
        self.driver_gc = GCPauses()
        self._freezer = None

    def start_measuring(self) -> None:
        self.driver_lag.start()
        self._freezer = asyncio.create_task(freeze_periodically())
        self.driver_gc.install()

    def stop_measuring(self) -> None:
        self.driver_lag.stop()
        self._freezer.cancel()

    def print_driver(self) -> None:
        print(f"  stand-in's event loop lag: {self.driver_lag.summary()}")
        print(f"  stand-in's collector: {self.driver_gc.summary()}")


def acks_by_kind(standin, start: float, end: float = float("inf")) -> tuple[dict[str, list[float]], int]:
    """The acknowledgement latencies of the interactions dispatched in [start, end), by kind of
    click, and how many of them were never answered."""
    by_kind: dict[str, list[float]] = {}
    unanswered = 0
    for i in standin.world.interactions.values():
        if not start <= i.dispatched_at < end:
            continue
        if i.ack_latency is None:  # never answered in time: Discord shows the user a failure
            unanswered += 1
            continue
        kind = KINDS.get(str(i.data.get("custom_id", ""))[:4], "slash commands")
        by_kind.setdefault(kind, []).append(i.ack_latency)
    return by_kind, unanswered


def print_acks(standin, started: float, ramp_end: float) -> None:
    acks = acks_between(standin, started)
    print(f"  acknowledgement latency: p50 {ms(acks, 0.5)}, p99 {ms(acks, 0.99)}, max {max(acks or [0]) * 1000:.1f} ms")
    by_kind, unanswered = acks_by_kind(standin, started)
    if unanswered:
        print(f"    never answered: {unanswered} interactions")
    for label, part in (
        ("while tables open", acks_between(standin, started, ramp_end)),
        ("after the ramp", acks_between(standin, ramp_end)),
        *sorted(by_kind.items()),
    ):
        if part:
            print(f"    {label}: n={len(part)} p50 {ms(part, 0.5)}, p99 {ms(part, 0.99)}")


def print_resolutions(tally: Tally) -> None:
    seconds = [s for _, s in tally.resolutions]
    print(
        f"  turn resolution (the click completing a turn -> its outcome's message received): n={len(seconds)} "
        f"p50 {ms(seconds, 0.5)}, p99 {ms(seconds, 0.99)}, max {max(seconds or [0]) * 1000:.0f} ms"
    )


def print_discord(standin, tally: Tally, args, until: float) -> None:
    """What the bot asked of Discord with its token since the measuring began (counted with the
    limits modelled or not), and what Discord answered or would have answered."""
    figures = standin.rate_limits.figures(until)
    kind = f"games to {args.target}" if args.target else "one-round games"
    modelled = "rate limits modelled" if args.limits else "no rate limits modelled, counted all the same"
    per_turn = f"{figures.bot_requests / tally.turns:.2f}" if tally.turns else "-"
    seconds = figures.per_second
    over = sum(1 for n in seconds if n > GLOBAL_PER_SECOND)
    print(
        f"  Discord ({modelled}): {figures.bot_requests} bot-token requests (interaction answers excluded) "
        f"for {tally.turns} turns revealed: {per_turn} per resolved turn ({kind})"
    )
    print(
        f"    bot-token requests a second: p50 {figures.percentile(0.5)}, p99 {figures.percentile(0.99)}, "
        f"max {max(seconds, default=0)} over {len(seconds)} s; above {GLOBAL_PER_SECOND} in {over} s "
        f"({100 * over / max(1, len(seconds)):.0f} %)"
    )
    edits = pick_progress_edits(standin, until)
    per = (lambda n: f"{n / tally.turns:.2f}") if tally.turns else (lambda n: "-")
    through_clicks, with_token = (
        sum(n for (_, webhook), n in edits.items() if webhook),
        sum(n for (_, webhook), n in edits.items() if not webhook),
    )
    print(
        f"    pick-progress edits (who has picked, on a turn's table message): {through_clicks} through "
        f"interaction webhooks ({per(through_clicks)} a turn, not counted), {with_token} with the bot token "
        f"({per(with_token)} a turn, counted above)"
    )
    places = sorted({place for place, _ in edits})
    if len(places) > 1:
        print(
            "      by place: "
            + "; ".join(
                f"{place} {edits.get((place, True), 0)} through webhooks, {edits.get((place, False), 0)} with the token"
                for place in places
            )
        )
    direct = sum(1 for r in standin.requests if r.at <= until and any(str(c) in r.path for c in _group_dm_ids(standin)))
    if _group_dm_ids(standin):
        print(f"    bot-token requests to group DMs: {direct} (Discord refuses every one)")
    scopes = ", ".join(f"{scope} {figures.too_many.get(scope, 0)}" for scope in ("global", "user", "shared"))
    print(
        f"    429s by scope: {scopes}; invalid requests (401, 403, 429 but shared): {figures.invalid}, "
        f"at most {figures.invalid_max_10min} in any 10 minutes (Discord bans at {INVALID_LIMIT:,})"
    )


def _group_dm_ids(standin) -> set[int]:
    return {c.id for c in standin.world.channels.values() if c.type == GROUP_DM}


def pick_progress_edits(standin, until: float) -> dict[tuple[str, bool], int]:
    """The edits of a game's table message (the one with "Play a card") Discord accepted by
    ``until``, by (place, through an interaction's webhook: free; else with the bot token). During a
    turn the only edit of that message is who has picked. A place is "servers" or "group DMs"."""
    counted: dict[tuple[str, bool], int] = {}
    for request in standin.requests:
        if request.at > until or request.method != "PATCH" or "/messages/" not in request.path:
            continue
        if not 200 <= request.status < 300:
            continue
        target = request.path.rsplit("/", 1)[-1]  # a message id, or @original (an answer's own)
        message = standin.world.messages.get(int(target)) if target.isdigit() else None
        if message is None or not any(cid.startswith("6n:h:") for cid in message.custom_ids):
            continue
        place = "group DMs" if message.channel.type == GROUP_DM else "servers"
        key = (place, "/webhooks/" in request.path)
        counted[key] = counted.get(key, 0) + 1
    return counted


def failures_of(results) -> list[BaseException]:
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures:
        print(f"  {len(failures)} tables stopped on a failure; the first ones:")
    for failure in failures[:3]:
        print(f"  failure: {failure}")
    return failures


# --- modes -----------------------------------------------------------------------------------


def one_game_each(standin, setup: Setup, args, tally: Tally, pace: Pace, rng: random.Random):
    """Every table plays one game, the tables opening over the ramp, as an evening fills up."""

    async def table(i, channel, host, guest):
        await asyncio.sleep(args.ramp * i / len(setup.seats))
        hard = (i * args.hard_tables) % len(setup.seats) < args.hard_tables  # spread over the ramp
        await play_game(
            standin,
            channel,
            host,
            guest,
            tally,
            random.Random(rng.random()),
            pace,
            "hard" if hard else None,
            threads=setup.threads,
            target=args.target,
        )

    return asyncio.gather(*(table(i, *seat) for i, seat in enumerate(setup.seats)), return_exceptions=True)


async def human(standin, setup: Setup, bot: BotProcess, args) -> None:
    tally, pace, rng = Tally(), Pace(*args.think), random.Random(2026)
    start_probe = await bot.probe(settle=0)
    setup.start_measuring()
    started = time.monotonic()
    standin.rate_limits.reset_figures()

    results = await one_game_each(standin, setup, args, tally, pace, rng)
    ended = time.monotonic()
    elapsed = ended - started
    setup.stop_measuring()
    end_probe = await bot.probe()
    acks = acks_between(standin, started)
    where = (
        os.environ.get("DATABASE_URL", "sqlite").split(":")[0]
        + f", {args.processes} bot process"
        + ("es (one shard each)" if args.processes > 1 else "")
        + (
            f", a thread per game, {len({c.id for c, _, _ in setup.seats})} channels"
            if setup.threads
            else ", in the channels, one table each"
        )
    )
    level = f" ({args.hard_tables} of them hard, the rest the default level)" if args.hard_tables else ""
    length = f"to {args.target}" if args.target else "one round"
    print(
        f"load benchmark (human, {where}{', Discord rate limits modelled' if args.limits else ''}): "
        f"{args.tables} concurrent tables, 2 players + 3 AI each{level}, {length}; "
        f"players think {args.think[0]:g}-{args.think[1]:g} s per click, tables open over {args.ramp:g} s"
    )
    print(
        f"  games finished: {tally.games}/{args.tables} in {elapsed:.1f} s; {len(acks)} interactions acknowledged "
        f"({len(acks) / elapsed:.0f}/s); stand-in errors: {len(standin.errors)}"
    )
    print_acks(standin, started, started + args.ramp)
    print_resolutions(tally)
    print_discord(standin, tally, args, ended)
    cpu = end_probe["cpu_s"] - start_probe["cpu_s"]
    print(
        f"  CPU: bot process {cpu:.1f} s ({1000 * cpu / max(1, len(acks)):.1f} ms per interaction), "
        f"stand-in and players {time.process_time():.1f} s, over {elapsed:.0f} s on {os.cpu_count()} cores"
    )
    print(f"  bot at the start: {describe_probe(start_probe)}")
    print(f"  bot at the end:   {describe_probe(end_probe)}; peak {end_probe['peak_mb_all']:.0f} MB (sum of peaks)")
    print(f"  AI: {describe_ai(end_probe)}")
    setup.print_driver()
    failures_of(results)


def print_allocation_growth(before: str, after: str, top: int) -> None:
    """Where the memory that is still allocated at the end, and was not after the warm-up, was
    allocated (``--trace``): the largest differences by traceback, innermost frame last."""
    import tracemalloc

    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap*>"),
    ]
    old = tracemalloc.Snapshot.load(before).filter_traces(ignore)
    new = tracemalloc.Snapshot.load(after).filter_traces(ignore)
    stats = new.compare_to(old, "traceback")
    total = sum(s.size_diff for s in stats)
    print(
        f"  traced allocations from the warm-up to the end: {total / 1024:+.0f} KiB "
        f"({sum(s.count_diff for s in stats):+,d} blocks); the largest {top}:"
    )
    for stat in stats[:top]:
        print(f"    {stat.size_diff / 1024:+.1f} KiB, {stat.count_diff:+d} blocks")
        for line in stat.traceback.format(most_recent_first=True)[: 2 * 6]:
            print(f"      {line}")


async def soak(standin, setup: Setup, bot: BotProcess, args) -> None:
    tally, pace, rng = Tally(), Pace(*args.think), random.Random(2026)
    idle = await bot.probe(settle=0)
    setup.start_measuring()
    started = time.monotonic()
    standin.rate_limits.reset_figures()
    warm = await one_game_each(standin, setup, args, tally, pace, rng)
    warmed = await bot.probe(settle=2.0)
    warm_games = tally.games
    remaining = [0]

    async def keep_playing(channel, host, guest, table_rng):
        while remaining[0] > 0:
            remaining[0] -= 1
            try:
                await play_game(
                    standin, channel, host, guest, tally, table_rng, pace, threads=setup.threads, target=args.target
                )
            except Exception:
                remaining[0] += 1  # another table plays it; this one stops (its table may still be open)
                raise

    # Two legs, with every table idle between them: growth that flattens (caches filling to their
    # bounds) shows as a second leg that grows far less than the first; a leak grows in both alike.
    table_rngs = [random.Random(rng.random()) for _ in setup.seats]
    rest: list = []
    probes = []
    for goal in (warm_games + (args.games - warm_games) // 2, args.games):
        remaining[0] = goal - tally.games
        players = zip(setup.seats, table_rngs, strict=True)
        rest += await asyncio.gather(*(keep_playing(c, h, g, r) for (c, h, g), r in players), return_exceptions=True)
        probes.append((tally.games, await bot.probe(settle=2.0)))
    ended = time.monotonic()
    elapsed = ended - started
    setup.stop_measuring()
    (half_games, half), (_, end) = probes
    acks = acks_between(standin, started)
    played = f"to {args.target}" if args.target else "one round"
    print(
        f"load benchmark (soak): {tally.games} games played to the end on {args.tables} tables at once "
        f"({played}, 2 players + 3 AI), players think {args.think[0]:g}-{args.think[1]:g} s, in {elapsed:.0f} s"
    )
    print(
        f"  {len(acks)} interactions, ack p50 {ms(acks, 0.5)}, p99 {ms(acks, 0.99)}; "
        f"stand-in errors: {len(standin.errors)}"
    )
    print_resolutions(tally)
    print_discord(standin, tally, args, ended)
    print(f"  at the start (no game yet):        {describe_probe(idle)}")
    print(f"  after the warm-up ({warm_games} games, none running): {describe_probe(warmed)}")
    print(f"  halfway ({half_games} games, none running):   {describe_probe(half)}")
    print(f"  at the end ({tally.games} games, none running):   {describe_probe(end)}")
    for label, a, b, games in (
        ("the warm-up to halfway", warmed, half, half_games - warm_games),
        ("halfway to the end", half, end, tally.games - half_games),
        ("the warm-up to the end", warmed, end, tally.games - warm_games),
    ):
        print(
            f"  growth from {label}, over {games} games: {b['tasks'] - a['tasks']:+d} live tasks, "
            f"{b['gc_objects'] - a['gc_objects']:+d} tracked objects, bot RSS "
            f"{(b['rss_kb'] - a['rss_kb']) / 1024:+.1f} MB{rss_parts(b, a)} "
            f"(with workers {b['rss_mb_all'] - a['rss_mb_all']:+.1f} MB)"
        )
    print(
        f"  from the start (before the first game) to the end: {end['tasks'] - idle['tasks']:+d} live tasks, "
        f"bot RSS {(end['rss_kb'] - idle['rss_kb']) / 1024:+.1f} MB{rss_parts(end, idle)}"
    )
    print(
        f"  where, from the warm-up to the end: Python's allocated blocks "
        f"{end.get('allocated_blocks', 0) - warmed.get('allocated_blocks', 0):+,d}; "
        + ", ".join(
            f"{label} {(end.get(key, 0) - warmed.get(key, 0)) / 1024:+.1f} MB"
            for label, key in (
                ("C malloc in use", "malloc_in_use_kb"),
                ("C malloc free but held", "malloc_free_kb"),
                ("SQLite", "sqlite_kb"),
            )
        )
    )
    if warmed.get("snapshot"):
        print_allocation_growth(warmed["snapshot"], end["snapshot"], args.trace_top)
    setup.print_driver()
    failures_of(warm + rest)


async def max_rate(standin, setup: Setup, bot: BotProcess, args) -> None:
    pace, rng, tally = Pace(*args.think), random.Random(2026), Tally()
    stop = asyncio.Event()

    async def keep_playing(i, channel, host, guest):
        await asyncio.sleep(args.ramp * i / len(setup.seats))
        table_rng = random.Random(rng.random())
        while not stop.is_set():
            await play_game(
                standin, channel, host, guest, tally, table_rng, pace, threads=setup.threads, target=args.target
            )

    setup.start_measuring()
    started = time.monotonic()
    standin.rate_limits.reset_figures()
    players = asyncio.gather(*(keep_playing(i, *seat) for i, seat in enumerate(setup.seats)), return_exceptions=True)
    await asyncio.sleep(args.ramp)
    steps, cpu_before = [], cpu_seconds(bot.pid)
    while True:
        window_start, ticks = time.monotonic(), len(setup.driver_lag.lags)
        await asyncio.sleep(args.step)
        window_end = time.monotonic()
        acks = acks_between(standin, window_start, window_end)
        cpu_after = cpu_seconds(bot.pid)
        steps.append((pace.high, len(acks) / (window_end - window_start), acks, (cpu_after - cpu_before) / args.step))
        cpu_before = cpu_after
        print(
            f"  think up to {pace.high:.3f} s: {steps[-1][1]:.0f} clicks/s, ack p50 {ms(acks, 0.5)}, "
            f"p99 {ms(acks, 0.99)}, bot CPU {100 * steps[-1][3]:.0f} %, stand-in loop lag p99 "
            f"{ms(setup.driver_lag.lags[ticks:], 0.99)}",
            flush=True,
        )
        if percentile(acks, 0.99) >= 0.1:  # which clicks were slow: a burst of one kind, or all alike
            by_kind, _ = acks_by_kind(standin, window_start, window_end)
            print(
                "    "
                + "; ".join(f"{kind}: n={len(part)} p99 {ms(part, 0.99)}" for kind, part in sorted(by_kind.items())),
                flush=True,
            )
        over = [percentile(step[2], 0.99) >= 0.1 for step in steps[-2:]]
        if (len(over) == 2 and all(over)) or pace.high < 0.01 or len(steps) >= args.max_steps:
            break  # two steps in a row over 100 ms: one alone may be the shared machine's noise
        pace.low, pace.high = pace.low * args.factor, pace.high * args.factor
    stop.set()
    results = await players
    ended = time.monotonic()
    elapsed = ended - started
    setup.stop_measuring()
    print(
        f"load benchmark (max-rate): {args.tables} tables playing non-stop, think time x{args.factor:g} every "
        f"{args.step:g} s from {args.think[0]:g}-{args.think[1]:g} s; {elapsed:.0f} s in all, {tally.games} games"
    )
    print_highest([(rate, acks) for _, rate, acks, _ in steps])
    if steps and percentile(steps[-1][2], 0.99) < 0.1:
        print("  (the players' pace ran out before the bot did: more --tables would push further)")
    print_resolutions(tally)
    print_discord(standin, tally, args, ended)
    setup.print_driver()
    failures_of([r for r in results if not isinstance(r, asyncio.CancelledError)])


def print_highest(steps: list[tuple[float, list[float]]]) -> None:
    """A ladder's verdict: the highest click rate of the steps (rate, ack latencies) whose ack
    p99 stayed under 100 ms."""
    good = [(rate, acks) for rate, acks in steps if percentile(acks, 0.99) < 0.1]
    if not good:
        print("  no step kept ack p99 under 100 ms")
        return
    rate, acks = max(good, key=lambda g: g[0])
    print(
        f"  highest click rate with ack p99 < 100 ms: {rate:.0f} clicks/s (p50 {ms(acks, 0.5)}, p99 {ms(acks, 0.99)})"
    )


async def speed_run(standin, setup: Setup, bot: BotProcess, args) -> tuple[int, float, bool, str]:
    tally, pace, rng = Tally(), Pace(*args.think), random.Random(2026)
    before = cpu_seconds(bot.pid)
    started = time.monotonic()
    results = await asyncio.gather(
        *(
            play_game(
                standin, c, h, g, tally, random.Random(rng.random()), pace, threads=setup.threads, target=args.target
            )
            for c, h, g in setup.seats
        ),
        return_exceptions=True,
    )
    failures_of(results)
    cpu = cpu_seconds(bot.pid) - before
    probe = await bot.probe(settle=0)
    return len(acks_between(standin, started)), cpu, probe["orjson"], probe["loop"]


# --- running ---------------------------------------------------------------------------------


async def run_mode(args, without: str = "") -> object:
    # The soak is about memory and tasks: a click answered late on an overloaded machine must
    # not end a table's games there (its acknowledgement times are printed all the same).
    async with DiscordStandin(ack_deadline=10.0 if args.mode == "soak" else 3.0, rate_limits=args.limits) as standin:
        setup = Setup(standin, args.tables, args.processes, args.threads, args.per_channel, args.group_dms)
        with tempfile.TemporaryDirectory() as tmp:
            if args.processes == 1:
                bot = BotProcess(standin, tmp, without=without, profile=args.profile, timed=args.mode != "soak")
            else:  # shards of one bot on one database, which DATABASE_URL names
                bot = BotProcesses(
                    [
                        BotProcess(standin, tmp, without=without, shard=(i, args.processes))
                        for i in range(args.processes)
                    ]
                )
            try:
                await bot.ready()
                if args.pin:
                    print(f"  {pin_bot(bot.pid)}", flush=True)
                mode = {"human": human, "soak": soak, "max-rate": max_rate, "speed": speed_run}[args.mode]
                return await mode(standin, setup, bot, args), standin.gateway_compression
            finally:
                bot.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("human", "soak", "max-rate", "speed"), default="human")
    parser.add_argument("--tables", type=int, help="tables at once (human, max-rate 300; soak, speed 100)")
    parser.add_argument("--games", type=int, default=2000, help="soak: games played to the end in all")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        metavar=("MIN", "MAX"),
        help="seconds a player thinks before a click (human 5 20, soak 0.2 1, max-rate 4 8, speed 0.5 1.5)",
    )
    parser.add_argument(
        "--ramp", type=float, default=None, help="seconds over which the tables open (human 60, soak 10, max-rate 20)"
    )
    parser.add_argument("--step", type=float, default=30.0, help="max-rate: seconds per step")
    parser.add_argument("--max-steps", type=int, default=10, help="max-rate: at most this many steps")
    parser.add_argument("--factor", type=float, default=0.7, help="max-rate: think time shrinks by this each step")
    parser.add_argument("--repeat", type=int, default=2, help="speed: runs each way, alternating")
    parser.add_argument(
        "--without",
        default="orjson,zstandard",
        help="speed: the optional modules the bot runs without, the second way (discord.py[speed]'s by default; "
        "uvloop: asyncio's own event loop)",
    )
    parser.add_argument(
        "--trace",
        type=int,
        default=0,
        metavar="FRAMES",
        help="soak: trace the bot's allocations (this many frames) and print where growth was allocated",
    )
    parser.add_argument("--trace-top", type=int, default=25, help="soak --trace: how many tracebacks to print")
    parser.add_argument("--profile", help="write a py-spy profile of the bot process here")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the bot on a core of its own; its workers, the stand-in and the players on the others",
    )
    parser.add_argument(
        "--standin-loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the event loop of the stand-in and its players, which share the machine's cores with the bot "
        "(Discord's own servers would not): uvloop's takes less of them",
    )
    parser.add_argument(
        "--hard-tables",
        type=int,
        default=0,
        help="human: this many of the tables seat hard AI players (their decisions are timed)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="human: bot processes, one shard each, sharing the database DATABASE_URL names",
    )
    parser.add_argument(
        "--threads",
        action="store_true",
        help="the bot runs each game in a thread of its own (THREADS=true), several to a channel",
    )
    parser.add_argument("--per-channel", type=int, default=10, help="--threads: tables sharing one channel")
    parser.add_argument(
        "--group-dms",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="this share of the tables (0 to 1) plays in group DMs, where only players' clicks reach the bot",
    )
    parser.add_argument(
        "--limits",
        action="store_true",
        help="the stand-in holds the bot to Discord's rate limits (tests/standin/ratelimits.py)",
    )
    parser.add_argument(
        "--target",
        type=int,
        default=None,
        metavar="SCORE",
        help="games are played to this score (e.g. 66, the rulebook's) instead of one round",
    )
    args = parser.parse_args()
    if args.pin and args.processes > 1:
        parser.error("--pin gives one bot process a core of its own; it takes no --processes")
    # The bot process inherits it (tests/e2e/bot_process.py plays in the channel unless it is set).
    os.environ["THREADS"] = "true" if args.threads else "false"
    if args.processes > 1 and (args.mode != "human" or not os.environ.get("DATABASE_URL", "").startswith("postgres")):
        parser.error("--processes needs --mode human and DATABASE_URL=postgresql://… (one database for all)")
    defaults = {
        "human": (300, (5.0, 20.0), 60.0),
        "soak": (100, (0.2, 1.0), 20.0),
        "max-rate": (300, (4.0, 8.0), 20.0),
        "speed": (100, (0.5, 1.5), 0.0),
    }[args.mode]
    args.tables = args.tables or defaults[0]
    args.think = tuple(args.think or defaults[1])
    args.ramp = defaults[2] if args.ramp is None else args.ramp
    if args.trace:
        os.environ["SIXNIMMT_TRACEMALLOC"] = str(args.trace)  # the bot process inherits it
    began = time.monotonic()
    run = asyncio.run if args.standin_loop == "asyncio" else run_loop
    print(
        f"the stand-in and its players run on {args.standin_loop}'s event loop; this machine took "
        f"{machine_speed():.0f} ms for a million additions in a Python loop",
        flush=True,
    )
    if args.mode != "speed":
        run(run_mode(args))
    else:
        figures: dict[str, list] = {}
        for _ in range(args.repeat):  # alternating, so a change in the machine's load hits both alike
            for label, without in ((f"with {args.without}", ""), ("without", args.without)):
                (count, cpu, orjson, loop), compression = run(run_mode(args, without))
                used = f"gateway {compression}, discord.py parsing with {'orjson' if orjson else 'json'}, {loop}"
                figures.setdefault(label, []).append((count, cpu, used))
        print(
            f"load benchmark (speed): {args.tables} tables, one game each, players think "
            f"{args.think[0]:g}-{args.think[1]:g} s; the bot's own CPU while they played, "
            f"{args.repeat} runs each way"
        )
        for label, runs in figures.items():
            per = ", ".join(f"{1000 * cpu / max(1, count):.2f}" for count, cpu, _ in runs)
            count, cpu = sum(r[0] for r in runs), sum(r[1] for r in runs)
            print(
                f"  {label} ({runs[0][2]}): {count} interactions, {cpu:.2f} s CPU, "
                f"{1000 * cpu / max(1, count):.2f} ms per interaction (runs: {per})"
            )
    print(
        f"  ran {time.monotonic() - began:.0f} s (wall clock, bot start-up included); "
        f"a million additions now took {machine_speed():.0f} ms"
    )


if __name__ == "__main__":
    main()
