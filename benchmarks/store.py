"""Benchmark of the persistence layer's hot paths, on SQLite and on PostgreSQL (prints figures).

    python -m benchmarks.store [--backend both|sqlite|postgres] [--tables 300] [--seconds 8]
                               [--restore 1000] [--games 100000] [--no-posts]

PostgreSQL is the server BENCH_DATABASE_URL or TEST_DATABASE_URL names (a role that may
create databases), else a throwaway cluster from the PostgreSQL server binaries, which
syncs to disk as a production server does.

1. steady load: N active tables, each writing a commit (3-6 KB JSON state
   + action + the post it owes) after a random 50-500 ms "think time"
   (--think-ms), and marking the post shown -- far busier than real play,
   where a table moves every few seconds;
2. burst: all N tables commit at the same instant (every table resolving
   a turn together), repeated;
3. restore: time for load_unfinished() over M unfinished tables in a file,
   from a freshly opened store.

4. results: the commits that finish games (4 humans and an AI: results,
   round scores, statistics and two rating scopes in one transaction);
5. leaderboards at --games recorded games (bulk-inserted): each metric, for one
   server and for all of them.

Targets: commit p99 < 10 ms; 1,000 tables restored < 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import get_args

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg  # noqa: E402

from data.models import Commit, GameResult, Metric, OutboxPost, RestoredTable, SeatInfo, SeatResult  # noqa: E402
from data.postgres import PostgresStore  # noqa: E402
from data.sqlite.store import SQLiteStore  # noqa: E402
from data.store import Store  # noqa: E402

Opener = Callable[[str], Awaitable[Store]]


def engine_like_state(rng: random.Random, players: int) -> dict:
    """A checkpoint shaped like a 6 nimmt! engine state, 3-6 KB as JSON (6-9 players)."""
    deck = rng.sample(range(1, 105), 104)
    return {
        "variant": "classic",
        "round": rng.randint(1, 5),
        "turn": rng.randint(0, 9),
        "rows": [deck[i * 5 : i * 5 + rng.randint(1, 5)] for i in range(4)],
        "hands": {str(s): sorted(deck[20 + s * 10 : 30 + s * 10]) for s in range(players)},
        "penalty_piles": {str(s): rng.sample(range(1, 105), rng.randint(0, 12)) for s in range(players)},
        "scores": {str(s): [rng.randint(0, 30) for _ in range(3)] for s in range(players)},
        "turns": [
            [
                {
                    "seat": s,
                    "card": rng.randint(1, 104),
                    "row": rng.randint(0, 3),
                    "took": rng.sample(range(1, 105), rng.choice((0, 0, 3, 5))),
                }
                for s in range(players)
            ]
            for _ in range(rng.randint(9, 10))
        ],
        "seen": rng.sample(range(1, 105), rng.randint(40, 104)),
        "names": {str(s): f"player-{s}-{rng.getrandbits(32):x}" for s in range(players)},
    }


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))]


def report(label: str, samples_ms: list[float]) -> None:
    print(
        f"  {label}: n={len(samples_ms)}  p50={percentile(samples_ms, 50):.2f} ms  "
        f"p99={percentile(samples_ms, 99):.2f} ms  max={max(samples_ms):.2f} ms  "
        f"mean={statistics.fmean(samples_ms):.2f} ms"
    )


async def open_tables(store: Store, count: int, rng: random.Random) -> list[int]:
    ids = []
    for t in range(count):
        players = rng.randint(2, 10)
        seats = [SeatInfo(seat=s, user_id=10_000 + t * 10 + s, display_name=f"p{t}-{s}") for s in range(players)]
        gid = await store.create_game(
            guild_id=1 + t % 20,
            channel_id=5000 + t,
            host_id=seats[0].user_id,
            variant="classic",
            options={"rounds": 5},
            seed=rng.getrandbits(63),
            commit=Commit({}, {}, seats=seats),
        )
        await store.mark_shown(gid, message_id=9000 + t)
        await store.commit(gid, Commit({}, {}, status="playing"))
        ids.append(gid)
    return ids


async def steady_load(
    store: Store, games: list[int], seconds: float, think: tuple[float, float], posts: bool = True
) -> tuple[list[float], list[float]]:
    rng = random.Random(1)
    states = {gid: engine_like_state(rng, rng.randint(6, 9)) for gid in games}
    sizes = sorted(len(json.dumps(s, separators=(",", ":"))) for s in states.values())
    print(
        f"  state payload {sizes[0] / 1000:.1f}-{sizes[-1] / 1000:.1f} KB JSON "
        f"(median {sizes[len(sizes) // 2] / 1000:.1f} KB)"
    )
    latencies: list[float] = []
    marks: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def table(gid: int) -> None:
        local = random.Random(gid)
        state = states[gid]
        while time.perf_counter() < stop_at:
            await asyncio.sleep(local.uniform(*think))
            state["turn"] += 1
            post = OutboxPost(seq=state["turn"], payload={"kind": "turn", "events": state["turns"][0]})
            start = time.perf_counter()
            await store.commit(
                gid,
                Commit(
                    state,
                    {"deadline": time.time() + 60, "post_seq": post.seq},
                    [{"seat": state["turn"] % 4, "card": local.randint(1, 104)}],
                    posts=[post] if posts else (),
                ),
            )
            latencies.append((time.perf_counter() - start) * 1000)
            if not posts:
                continue
            start = time.perf_counter()
            await store.mark_shown(gid, upto=post.seq)  # the channel has seen it
            marks.append((time.perf_counter() - start) * 1000)

    await asyncio.gather(*(table(g) for g in games))
    return latencies, marks


async def bursts(store: Store, games: list[int], repeats: int) -> list[float]:
    rng = random.Random(2)
    states = {gid: engine_like_state(rng, 7) for gid in games}
    latencies: list[float] = []

    async def one(gid: int) -> None:
        start = time.perf_counter()
        await store.commit(gid, Commit(states[gid], {"deadline": 0}, [{"card": 1}]))
        latencies.append((time.perf_counter() - start) * 1000)

    for _ in range(repeats):
        await asyncio.gather(*(one(g) for g in games))
        await asyncio.sleep(0.05)
    return latencies


async def restore(open_store: Opener, count: int) -> None:
    rng = random.Random(3)
    async with await open_store("restore") as store:
        games = await open_tables(store, count, rng)
        await asyncio.gather(
            *(store.commit(g, Commit(engine_like_state(rng, 7), {"deadline": 0}, [{"card": 1}])) for g in games)
        )
    async with await open_store("restore") as store:
        start = time.perf_counter()
        tables = await store.load_unfinished()
        elapsed = time.perf_counter() - start
    restored = sum(isinstance(t, RestoredTable) for t in tables)
    print(f"  load_unfinished(): {restored}/{len(tables)} tables restored in {elapsed * 1000:.0f} ms")


async def results(store: Store, count: int) -> list[float]:
    rng = random.Random(4)
    games = await open_tables(store, count, rng)
    latencies = []
    for gid in games:
        seats = []
        for seat in range(5):
            points = [rng.randint(0, 30) for _ in range(3)]
            seats.append(
                SeatResult(
                    seat=seat,
                    user_id=None if seat == 4 else 10_000 + gid * 10 + seat,
                    ai_level="easy" if seat == 4 else None,
                    name=f"p{seat}",
                    points=sum(points),
                    round_points=points,
                    rows_taken=3,
                    row_takes_by_index={0: 1, 2: 2},
                )
            )
        best = min(s.points for s in seats)
        result = GameResult(game_id=gid, seats=seats, winners=[s.seat for s in seats if s.points == best])
        # open_tables seats 2-10 players; the result must name the same seats.
        await store.commit(
            gid,
            Commit(
                {},
                {},
                seats=[
                    SeatInfo(seat=s.seat, user_id=s.user_id, ai_level=s.ai_level, display_name=s.name) for s in seats
                ],
            ),
        )
        start = time.perf_counter()
        await store.commit(gid, Commit({"over": True}, {}, [{"card": 1}], result=result))
        latencies.append((time.perf_counter() - start) * 1000)
    return latencies


PLAYERS, GUILDS, SEATS = 5_000, 50, 4


def recorded_games(count: int) -> dict[str, list[tuple]]:
    """``count`` finished games of four players each, as rows of every table a leaderboard reads."""
    rng = random.Random(5)
    now = 1_700_000_000.0
    rows: dict[str, list[tuple]] = {
        "players": [(u, f"player{u}", now) for u in range(1, PLAYERS + 1)],
        "guilds": [(g, f"guild{g}", now) for g in range(1, GUILDS + 1)],
        "games": [],
        "results": [],
        "ratings": [],
    }
    for gid in range(1, count + 1):
        at = now + gid
        rows["games"].append(
            (gid, 1 + gid % GUILDS, 7, None, None, "classic", "{}", "finished", gid, 5, at, at, at, at)
        )
        users = rng.sample(range(1, PLAYERS + 1), SEATS)
        points = [rng.randint(0, 90) for _ in users]
        for seat, (user, p) in enumerate(zip(users, points, strict=True)):
            rank = 1 + sum(o < p for o in points)
            rows["results"].append((gid, seat, user, f"player{user}", None, p, rank, int(rank == 1)))
    for scope in range(GUILDS + 1):
        rows["ratings"] += [(scope, u, rng.uniform(15, 35), rng.uniform(1, 8), 10, now) for u in range(1, PLAYERS + 1)]
    return rows


COLUMNS = {
    "players": "user_id, display_name, updated_at",
    "guilds": "guild_id, name, updated_at",
    "games": "game_id, guild_id, channel_id, message_id, host_id, variant, options, status, seed, rounds, "
    "created_at, started_at, finished_at, updated_at",
    "results": "game_id, seat, user_id, display_name, ai_level, points, rank, won",
    "ratings": "scope_id, user_id, mu, sigma, games, updated_at",
}


async def bulk_insert(store: Store, rows: dict[str, list[tuple]]) -> None:
    if isinstance(store, SQLiteStore):
        with sqlite3.connect(store.path) as conn:
            for table, table_rows in rows.items():
                marks = ",".join("?" * len(table_rows[0]))
                conn.executemany(f"INSERT INTO {table} ({COLUMNS[table]}) VALUES ({marks})", table_rows)
            conn.execute("ANALYZE")
        return
    conn = await asyncpg.connect(store.url)
    try:
        async with conn.transaction():
            for table, table_rows in rows.items():
                await conn.copy_records_to_table(
                    table, records=table_rows, columns=[c.strip() for c in COLUMNS[table].split(",")]
                )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def leaderboards(open_store: Opener, count: int) -> None:
    async with await open_store("boards") as store:
        rows = recorded_games(count)
        start = time.perf_counter()
        await bulk_insert(store, rows)
        print(f"  {count} games ({len(rows['results'])} result rows) inserted in {time.perf_counter() - start:.1f} s")
        for scope, label in ((7, "one server"), (None, "all servers")):
            for metric in get_args(Metric):
                samples = []
                for _ in range(5):
                    began = time.perf_counter()
                    page = await store.leaderboard(scope, metric, limit=10)
                    samples.append((time.perf_counter() - began) * 1000)
                assert page.entries
                print(
                    f"  leaderboard {metric:>20}, {label:>11}: p50={percentile(samples, 50):.0f} ms  "
                    f"max={max(samples):.0f} ms  ({page.total} players)"
                )


@contextlib.asynccontextmanager
async def backends(names: list[str], tmp: str) -> AsyncIterator[list[tuple[str, Opener]]]:
    openers: list[tuple[str, Opener]] = []
    cluster = None
    if "sqlite" in names:

        async def sqlite(name: str) -> Store:
            return await SQLiteStore.open(Path(tmp) / f"{name}.db")

        openers.append(("SQLite", sqlite))
    if "postgres" in names:
        from tests.postgres import start_cluster

        if os.environ.get("BENCH_DATABASE_URL"):
            os.environ["TEST_DATABASE_URL"] = os.environ["BENCH_DATABASE_URL"]
        cluster = await asyncio.to_thread(start_cluster, durable=True)
        urls: dict[str, str] = {}

        async def postgres(name: str) -> Store:
            if name not in urls:
                urls[name] = await cluster.empty_database()
            return await PostgresStore.open(urls[name], pool_size=20)

        openers.append(("PostgreSQL", postgres))
    try:
        yield openers
    finally:
        if cluster is not None:
            cluster.stop()


async def main(args: argparse.Namespace) -> None:
    names = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    with tempfile.TemporaryDirectory() as tmp:
        async with backends(names, tmp) as openers:
            for label, open_store in openers:
                print(f"=== {label}")
                print(f"commit latency, {args.tables} active tables writing concurrently")
                async with await open_store("load") as store:
                    games = await open_tables(store, args.tables, random.Random(0))
                    think = (args.think_ms[0] / 1000, args.think_ms[1] / 1000)
                    samples, marks = await steady_load(store, games, args.seconds, think, args.posts)
                    report(
                        f"steady commit ({args.think_ms[0]:g}-{args.think_ms[1]:g} ms think time, "
                        f"{len(samples) / args.seconds:.0f} commits/s"
                        f"{', each with a post' if args.posts else ''})",
                        samples,
                    )
                    if marks:
                        report("steady mark_shown (after each commit)", marks)
                    report("burst (all tables at once)", await bursts(store, games, 20))
                    print("results write (5 seats, 4 humans)")
                    report("finishing commit", await results(store, args.results))
                print(f"restore of {args.restore} unfinished tables")
                await restore(open_store, args.restore)
                print(f"leaderboards at {args.games} recorded games")
                await leaderboards(open_store, args.games)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("both", "sqlite", "postgres"), default="both")
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--restore", type=int, default=1000)
    parser.add_argument("--results", type=int, default=300, help="games whose results are recorded")
    parser.add_argument("--games", type=int, default=100_000, help="recorded games behind the leaderboards")
    parser.add_argument(
        "--posts",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="each steady commit owes a post, marked shown after it (--no-posts: neither)",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        nargs=2,
        default=(50, 500),
        metavar=("MIN", "MAX"),
        help="pause of each table between moves",
    )
    asyncio.run(main(parser.parse_args()))
