"""Benchmark of turn-based games across a restart: what 1,000 open games cost the bot.

    python benchmarks/turn_based.py [--games 1000] [--seed 25]

Builds ``--games`` open turn-based games (pace 24h) through the real ``TableService`` on a fresh
SQLite file, each in a thread of its own as the bot makes them: about a fifth are lobbies still
gathering players, the rest are playing, stopped at varied turns (0-12 decisions in); 2-6 seats,
about a third of the tables with AI seats beside the humans; mostly classic, some Pro and some
Anniversary. The deals come from a seeded ``Lobby.new_seed``, the AI seats play the first legal
move, and a fake clock (a few hours back, a second per action) keeps every deadline and reminder
hours ahead, so no timer fires while the restart is measured. The Discord stand-in holds what
those games showed: 20 servers of 5 channels (10 games a channel), each game's lobby message in
its channel, the thread started on it, its table message in the thread, its players as members;
every post is marked shown, as the presenter would have.

Then the real bot process (``tests/e2e/bot_process.py``, THREADS=true) is started on that
database, and again, the same process and Discord world, on an empty database:

* from the process start to its ``RESTORED`` line, and ``TableService.start()`` alone (the
  process's ``SIXNIMMT_TIMING`` hook), with the part before the setup hook (interpreter,
  imports, store, log-in);
* the bot's RSS once the presenter has settled (no request to Discord for 2 s), through its
  SIGUSR1 probe, after a full collection;
* the requests to Discord the restart made (a restored table's live message is edited once).

The difference between the two runs is what the games cost. Targets (issue 25): 1,000 open
turn-based games cost < 100 MB of bot memory and restore in < 2 s after a restart.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.load_players import BotProcess, rss_parts  # noqa: E402
from bot.tables.lobby import Lobby  # noqa: E402
from bot.tables.service import TableService  # noqa: E402
from bot.tables.table import TableOptions, TableStatus  # noqa: E402
from data import open_store  # noqa: E402
from engine import Phase, Variant  # noqa: E402
from tests.helpers import first_legal  # noqa: E402
from tests.standin import DiscordStandin, Message  # noqa: E402
from tests.standin.model import Channel, iso_at, snowflake  # noqa: E402

GUILDS, CHANNELS, MEMBERS = 20, 5, 100  # per server: channels, members


class FakeClock:
    """Starts hours back and moves on as the builder says (ten seconds a table, one a move): every
    deadline lies a day after its action, so hours after the real time of the restart."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class World:
    """The stand-in's servers, channels and members the games are played in."""

    def __init__(self, standin) -> None:
        self.standin = standin
        self.places = []  # (guild, channel, [members])
        for g in range(GUILDS):
            guild = standin.add_guild(f"Turn-based {g}")
            members = [standin.add_member(guild, f"p{g}-{m}") for m in range(MEMBERS)]
            for c in range(CHANNELS):
                self.places.append((guild, standin.add_text_channel(guild, f"games-{c}"), members))

    def bot_message(self, channel, content: str = "") -> Message:
        return self.standin.world.store(
            Message(
                id=snowflake(),
                channel=channel,
                author=self.standin.bot_user,
                content=content,
                embeds=[{"title": "6 nimmt!"}],
            )
        )

    def thread_on(self, message: Message, name: str):
        world = self.standin.world
        thread = world.add_channel(
            Channel(
                id=message.id,
                name=name,
                type=11,
                guild=message.channel.guild,
                parent=message.channel,
                owner_id=world.bot.id,
                auto_archive_duration=10080,
            )
        )
        thread.members[world.bot.id] = iso_at(world.now())
        message.thread = thread
        return thread


async def next_move(service: TableService, table) -> bool:
    """A human seat the game waits on makes its first legal move; False if none is owed (the game
    waits on an AI seat, or is over)."""
    game = table.game
    if game is None or game.is_over or table.status is not TableStatus.PLAYING:
        return False
    step = table.step
    if game.phase in (Phase.SPECIAL, Phase.SWAP):
        seat = game.decider
        if seat is None or table.seats[seat].is_ai:
            return False
        user = table.seats[seat].user_id
        if game.phase is Phase.SPECIAL:
            await service.decline_special(table.id, user, step)
        else:
            await service.decline_swap(table.id, user, step)
        return True
    for seat in game.waiting_for:
        if table.seats[seat].is_ai:
            continue
        action = game.legal_actions(seat)[0]
        user = table.seats[seat].user_id
        if action.kind == "pick":
            await service.pick(table.id, user, action.card, step)
        elif action.kind == "choose_row":
            await service.choose_row(table.id, user, action.row, step)
        elif action.kind == "draft":
            await service.draft(table.id, user, action.card, step)
        else:
            return False
        return True
    return False


async def settle(service: TableService) -> None:
    """Let the AI seats that think after an answer finish."""
    for _ in range(50):
        if not service.play.thinking:
            return
        await asyncio.gather(*list(service.play.thinking.values()), return_exceptions=True)


async def build(world: World, path: str, games: int, seed: int) -> dict:
    rng = random.Random(seed)
    seeds = random.Random(seed + 1)
    Lobby.new_seed = staticmethod(lambda: seeds.getrandbits(62))  # a fixed, varied deal per table
    store = await open_store(path)
    clock = FakeClock(time.time() - 6 * 3600)
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    mix = collections.Counter()
    decisions = []
    try:
        for i in range(games):
            clock.advance(10)
            guild, channel, members = world.places[i % len(world.places)]
            variant = rng.choices((Variant.CLASSIC, Variant.PRO, Variant.ANNIVERSARY), (70, 15, 15))[0]
            seats = rng.randint(2, 6)
            ai = rng.randint(1, seats - 1) if rng.random() < 0.35 else 0
            humans = rng.sample(members, seats - ai)
            options = TableOptions(variant=variant, pace="24h", ai_seats=ai, ai_level=rng.choice(("easy", "medium")))
            host = humans[0]
            table = await service.open_lobby(guild.id, channel.id, host.id, host.name, options, threaded=True)
            lobby = world.bot_message(channel)
            await service.mark_shown(table.id, upto=table.post_seq, message_id=lobby.id)  # its lobby shown
            thread = world.thread_on(lobby, f"6 nimmt! · {host.name}'s table · #{table.id}")
            await service.set_thread(table.id, thread.id)
            is_lobby = rng.random() < 0.2
            joining = humans[1:] if not is_lobby else humans[1 : rng.randint(1, len(humans))]
            for member in joining:
                await service.join(table.id, member.id, member.name)
            for member in [host, *joining]:
                thread.members[member.id] = iso_at(world.standin.world.now())
            if is_lobby:
                mix["lobby"] += 1
                continue
            await service.begin(table.id, host.id)
            await settle(service)
            moves = 0
            for _ in range(rng.randint(0, 12)):
                if not await next_move(service, table):
                    break
                moves += 1
                clock.advance(1)
                await settle(service)
                if not table.is_open or table.game.is_over:
                    break
            if not table.is_open:
                mix["ended while built (not restored)"] += 1
                continue
            message = world.bot_message(thread)  # the table's live message, in its thread
            upto = max((p.seq for p in table.outbox), default=None)
            await service.mark_shown(table.id, upto=upto, message_id=message.id)
            mix[f"playing {variant.value}"] += 1
            mix[f"{seats} seats"] += 1
            mix["with AI seats"] += bool(ai)
            decisions.append(moves)
    finally:
        await service.close()
        await store.close()
    mix["human decisions made (all tables)"] = sum(decisions)
    return dict(mix)


def request_kinds(requests) -> list[tuple[str, int]]:
    kinds = collections.Counter(f"{r.method} {re.sub(r'/[0-9]{5,}', '/{id}', r.path.split('?')[0])}" for r in requests)
    return kinds.most_common(6)


async def measure(standin, tmp: str, label: str) -> dict:
    """The bot process started on ``tmp``/load.sqlite3: its restart figures once it settled."""
    timing_path = os.path.join(tmp, "timing.jsonl")
    os.environ["SIXNIMMT_TIMING"] = timing_path
    os.environ["THREADS"] = "true"
    first = len(standin.world.requests)
    began = time.time()
    bot = BotProcess(standin, tmp, timed=False)
    try:
        await bot.ready()
        while not os.path.exists(timing_path):
            await asyncio.sleep(0.05)
        with open(timing_path) as lines:
            timing = json.loads(lines.readline())
        # At least 5 s after the restore (the gateway session, the command sync), then 2 s quiet.
        quiet_since, seen = time.monotonic() + 3.0, len(standin.world.requests)
        deadline = time.monotonic() + 300
        while time.monotonic() - quiet_since < 2.0 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            if len(standin.world.requests) != seen:
                quiet_since, seen = time.monotonic(), len(standin.world.requests)
        settled = time.time() - 2.0
        probe = await bot.probe(settle=0.5)
    finally:
        bot.stop()
    requests = standin.world.requests[first:]
    return {
        "label": label,
        "restored": timing["restored"],
        "to_restored": timing["restored_at"] - began,
        "to_main": timing["main_at"] - began,
        "to_setup": timing["setup_hook_at"] - began,
        "start_s": timing["start_s"],
        "settled": settled - began,
        "probe": probe,
        "requests": len(requests),
        "request_kinds": request_kinds(requests),
        "errors": len(standin.errors),
    }


def show(run: dict) -> str:
    p = run["probe"]
    return (
        f"  {run['label']}: {run['restored']} tables restored; process start -> RESTORED "
        f"{run['to_restored'] * 1000:.0f} ms (interpreter up {run['to_main'] * 1000:.0f} ms, setup hook at "
        f"{run['to_setup'] * 1000:.0f} ms), TableService.start() {run['start_s'] * 1000:.0f} ms; presenter settled "
        f"{run['settled']:.1f} s after the start; {run['requests']} requests to Discord "
        f"({', '.join(f'{k} x{n}' for k, n in run['request_kinds'])}); stand-in errors so far {run['errors']}\n"
        f"    bot RSS {p['rss_kb'] / 1024:.1f} MB{rss_parts(p)}, {p['allocated_blocks']:,} allocated blocks, "
        f"{p['gc_objects']:,} tracked objects ({', '.join(f'{n} {k}' for k, n in p['object_kinds'][:5])}), "
        f"{p['tasks']} live tasks; C malloc {p.get('malloc_in_use_kb', 0) / 1024:.1f} MB in use + "
        f"{p.get('malloc_free_kb', 0) / 1024:.1f} MB free, SQLite {p.get('sqlite_kb', 0) / 1024:.1f} MB; "
        f"with its {p['processes'] - 1} workers {p['rss_mb_all']:.1f} MB"
    )


async def run(args) -> None:
    began = time.monotonic()
    with open("/proc/loadavg") as load:
        print(f"load average before: {' '.join(load.read().split()[:3])}")
    async with DiscordStandin() as standin:
        world = World(standin)
        with tempfile.TemporaryDirectory() as tmp:
            full, empty = os.path.join(tmp, "full"), os.path.join(tmp, "empty")
            os.makedirs(full)
            os.makedirs(empty)
            path = os.path.join(full, "load.sqlite3")
            built = time.monotonic()
            mix = await build(world, path, args.games, args.seed)
            size = sum(os.path.getsize(os.path.join(full, f)) for f in os.listdir(full))
            print(
                f"built {args.games} turn-based games (pace 24h, a thread each, {len(world.places)} channels of "
                f"{GUILDS} servers) in {time.monotonic() - built:.1f} s, database {size / 1e6:.1f} MB: "
                + ", ".join(f"{k} {v}" for k, v in sorted(mix.items()))
            )
            runs = [
                await measure(standin, full, f"{args.games} games"),
                await measure(standin, empty, "empty database"),
            ]
    with_games, without = runs
    print("turn-based restart benchmark (the real bot process against the stand-in, THREADS=true, sqlite)")
    for r in runs:
        print(show(r))
    a, b = with_games["probe"], without["probe"]
    cost = (a["rss_kb"] - b["rss_kb"]) / 1024
    restore = with_games["to_restored"] - without["to_restored"]
    start = with_games["start_s"] - without["start_s"]
    print(
        f"  what the {with_games['restored']} games cost: bot RSS {cost:+.1f} MB{rss_parts(a, b)} "
        f"({'met' if cost < 100 else 'MISSED'}: < 100 MB), "
        f"allocated blocks {a['allocated_blocks'] - b['allocated_blocks']:+,}, "
        f"C malloc in use {(a.get('malloc_in_use_kb', 0) - b.get('malloc_in_use_kb', 0)) / 1024:+.1f} MB; "
        f"restore: process start -> RESTORED {with_games['to_restored'] * 1000:.0f} ms "
        f"({restore * 1000:+.0f} ms over an empty database), "
        f"TableService.start() {with_games['start_s'] * 1000:.0f} ms "
        f"({start * 1000:+.0f} ms) ({'met' if with_games['to_restored'] < 2 else 'MISSED'}: < 2 s from the process "
        f"start; {'met' if with_games['start_s'] < 2 else 'MISSED'} for start() alone); "
        f"requests {with_games['requests'] - without['requests']:+d}"
    )
    with open("/proc/loadavg") as load:
        print(f"load average after: {' '.join(load.read().split()[:3])}; ran {time.monotonic() - began:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=25)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
