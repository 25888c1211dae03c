"""Benchmark of a restart: how long ``TableService.start()`` takes to restore unfinished tables.

    python benchmarks/restart.py [--tables 1000] [--repeat 3]

Fills a fresh SQLite file through the real table service: every table is a
lobby opened, started with 1-9 AI seats beside its human host (mixed classic
and Pro), and played a few turns in, so its checkpoint is a real mid-game
engine state. Then, for each repeat, a NEW store and service are opened on the
file and ``start()`` is timed: reading every table, validating it, rebuilding
the engine game and arming its timer. ``load_unfinished()`` alone is timed too.

Target: 1,000 tables restored in < 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.tables.service import TableService  # noqa: E402
from bot.tables.table import TableOptions  # noqa: E402
from data import open_store  # noqa: E402
from engine import Variant  # noqa: E402


async def fill(path: Path, tables: int, rng: random.Random) -> None:
    store = await open_store(path)
    service = TableService(store)
    try:
        for i in range(tables):
            pro = i % 4 == 3
            ai = rng.randint(1, 5 if pro else 9)
            options = TableOptions(variant=Variant.PRO if pro else Variant.CLASSIC, ai_seats=ai, ai_level="easy")
            host = 10_000 + i
            table = await service.open_lobby(1 + i % 20, 100_000 + i, host, f"player{i}", options)
            await service.begin(table.id, host)
            for _ in range(rng.randint(0, 4)):  # a few turns in (the AI plays its seats at once)
                game = table.game
                if game.phase.value == "draft" and game.drafter == 0:
                    await service.draft(table.id, host, game.draft_pool[0])
                elif game.phase.value == "pick":
                    await service.pick(table.id, host, game.hands[0][0])
                elif game.phase.value == "choose_row" and game.chooser == 0:
                    await service.choose_row(table.id, host, 0)
                else:
                    break
    finally:
        await service.close()
        await store.close()


async def time_restart(path: Path) -> tuple[float, float, int]:
    store = await open_store(path)
    try:
        started = time.perf_counter()
        rows = await store.load_unfinished()
        load = time.perf_counter() - started
    finally:
        await store.close()
    store = await open_store(path)
    service = TableService(store)
    try:
        started = time.perf_counter()
        corrupt = await service.start()
        elapsed = time.perf_counter() - started
        assert not corrupt and len(service.tables) == len(rows), (corrupt, len(service.tables), len(rows))
        return load, elapsed, len(service.tables)
    finally:
        await service.close()
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "restart.sqlite3"
        started = time.perf_counter()
        await fill(path, args.tables, random.Random(1))
        print(
            f"filled {args.tables} unfinished tables in {time.perf_counter() - started:.1f} s "
            f"({path.stat().st_size / 1e6:.1f} MB)"
        )
        for attempt in range(args.repeat):
            load, elapsed, restored = await time_restart(path)
            print(
                f"  restart {attempt + 1}: load_unfinished {load * 1000:.0f} ms, "
                f"TableService.start() {elapsed * 1000:.0f} ms for {restored} tables "
                f"({'OK' if elapsed < 2 else 'OVER'} the 2 s target)"
            )


if __name__ == "__main__":
    asyncio.run(main())
