"""Benchmark of the persistence layer's hot paths (prints figures; not a test).

    python -m benchmarks.store [--tables 300] [--seconds 8] [--restore 1000]

1. steady load: N active tables, each writing a checkpoint (3-6 KB JSON state
   + action) after a random 50-500 ms "think time" (--think-ms) -- far busier
   than real play, where a table moves every few seconds;
2. burst: all N tables checkpoint at the same instant (every table resolving
   a turn together), repeated;
3. restore: time for load_unfinished() over M unfinished tables in a file,
   from a freshly opened store.

Targets: checkpoint p99 < 10 ms; 1,000 tables restored < 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data.models import RestoredTable, SeatInfo  # noqa: E402
from data.sqlite.store import SQLiteStore  # noqa: E402


def engine_like_state(rng: random.Random, players: int) -> dict:
    """A checkpoint shaped like a 6 nimmt! engine state, 3-6 KB as JSON (6-9 players)."""
    deck = rng.sample(range(1, 105), 104)
    return {
        "variant": "classic",
        "round": rng.randint(1, 5),
        "turn": rng.randint(0, 9),
        "rows": [deck[i * 5:i * 5 + rng.randint(1, 5)] for i in range(4)],
        "hands": {str(s): sorted(deck[20 + s * 10:30 + s * 10]) for s in range(players)},
        "penalty_piles": {str(s): rng.sample(range(1, 105), rng.randint(0, 12))
                          for s in range(players)},
        "scores": {str(s): [rng.randint(0, 30) for _ in range(3)] for s in range(players)},
        "turns": [[{"seat": s, "card": rng.randint(1, 104), "row": rng.randint(0, 3),
                    "took": rng.sample(range(1, 105), rng.choice((0, 0, 3, 5)))}
                   for s in range(players)] for _ in range(rng.randint(9, 10))],
        "seen": rng.sample(range(1, 105), rng.randint(40, 104)),
        "names": {str(s): f"player-{s}-{rng.getrandbits(32):x}" for s in range(players)},
    }


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))]


def report(label: str, samples_ms: list[float]) -> None:
    print(f"  {label}: n={len(samples_ms)}  p50={percentile(samples_ms, 50):.2f} ms  "
          f"p99={percentile(samples_ms, 99):.2f} ms  max={max(samples_ms):.2f} ms  "
          f"mean={statistics.fmean(samples_ms):.2f} ms")


async def open_tables(store: SQLiteStore, count: int, rng: random.Random) -> list[int]:
    ids = []
    for t in range(count):
        players = rng.randint(2, 10)
        seats = [SeatInfo(seat=s, user_id=10_000 + t * 10 + s, display_name=f"p{t}-{s}")
                 for s in range(players)]
        gid = await store.create_game(guild_id=1 + t % 20, channel_id=5000 + t, host_id=seats[0].user_id,
                                      variant="classic", options={"rounds": 5}, seats=seats,
                                      seed=rng.getrandbits(63), message_ids={"table": 9000 + t})
        await store.update_game(gid, status="playing")
        ids.append(gid)
    return ids


async def steady_load(store: SQLiteStore, games: list[int], seconds: float,
                      think: tuple[float, float]) -> list[float]:
    rng = random.Random(1)
    states = {gid: engine_like_state(rng, rng.randint(6, 9)) for gid in games}
    sizes = sorted(len(json.dumps(s, separators=(',', ':'))) for s in states.values())
    print(f"  state payload {sizes[0] / 1000:.1f}-{sizes[-1] / 1000:.1f} KB JSON "
          f"(median {sizes[len(sizes) // 2] / 1000:.1f} KB)")
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def table(gid: int) -> None:
        local = random.Random(gid)
        state = states[gid]
        while time.perf_counter() < stop_at:
            await asyncio.sleep(local.uniform(*think))
            state["turn"] += 1
            start = time.perf_counter()
            await store.checkpoint(gid, state, {"deadline": time.time() + 60},
                                   {"seat": state["turn"] % 4, "card": local.randint(1, 104)})
            latencies.append((time.perf_counter() - start) * 1000)

    await asyncio.gather(*(table(g) for g in games))
    return latencies


async def bursts(store: SQLiteStore, games: list[int], repeats: int) -> list[float]:
    rng = random.Random(2)
    states = {gid: engine_like_state(rng, 7) for gid in games}
    latencies: list[float] = []

    async def one(gid: int) -> None:
        start = time.perf_counter()
        await store.checkpoint(gid, states[gid], {"deadline": 0}, {"card": 1})
        latencies.append((time.perf_counter() - start) * 1000)

    for _ in range(repeats):
        await asyncio.gather(*(one(g) for g in games))
        await asyncio.sleep(0.05)
    return latencies


async def restore(path: Path, count: int) -> None:
    rng = random.Random(3)
    async with await SQLiteStore.open(path) as store:
        games = await open_tables(store, count, rng)
        await asyncio.gather(*(store.checkpoint(g, engine_like_state(rng, 7), {"deadline": 0},
                                                {"card": 1}) for g in games))
    async with await SQLiteStore.open(path) as store:
        start = time.perf_counter()
        tables = await store.load_unfinished()
        elapsed = time.perf_counter() - start
    restored = sum(isinstance(t, RestoredTable) for t in tables)
    print(f"  load_unfinished(): {restored}/{len(tables)} tables restored in "
          f"{elapsed * 1000:.0f} ms (file {path.stat().st_size / 1e6:.1f} MB)")


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print(f"checkpoint latency, {args.tables} active tables writing concurrently")
        async with await SQLiteStore.open(Path(tmp) / "load.db") as store:
            games = await open_tables(store, args.tables, random.Random(0))
            think = (args.think_ms[0] / 1000, args.think_ms[1] / 1000)
            samples = await steady_load(store, games, args.seconds, think)
            report(f"steady ({args.think_ms[0]:g}-{args.think_ms[1]:g} ms think time, "
                   f"{len(samples) / args.seconds:.0f} writes/s)", samples)
            report("burst (all tables at once)", await bursts(store, games, 20))
        print(f"restore of {args.restore} unfinished tables")
        await restore(Path(tmp) / "restore.db", args.restore)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--restore", type=int, default=1000)
    parser.add_argument("--think-ms", type=float, nargs=2, default=(50, 500),
                        metavar=("MIN", "MAX"), help="pause of each table between moves")
    asyncio.run(main(parser.parse_args()))
