"""Milliseconds per table image (render + PNG encode) on one core.

Prints the first (cold-cache) render, then the mean and worst of warm renders,
for a typical four-row table and a crowded Anniversary table (five rows, a
7 nimmt! row, badges, highlights), plus the PNG size.
Run: ``python benchmarks/images.py [--renders N] [--out /tmp/table.png]``.
Target: at most 30 ms per warm render at scale 1, at most ~150 KB.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cogs.render import images  # noqa: E402
from cogs.render.images import render_table  # noqa: E402


def random_table(rng: random.Random, rows: int) -> list[list[int]]:
    deck = rng.sample(range(1, 105), 30)
    return [sorted(deck[i * 6 : i * 6 + rng.randint(1, 5)]) for i in range(rows)]


def measure(label: str, tables, kwargs, renders: int, scale: int) -> bytes:
    images._card_tile.cache_clear()
    started = time.perf_counter()
    png = render_table(tables[0], scale=scale, **kwargs)
    cold = (time.perf_counter() - started) * 1000
    for t in tables:  # warm every tile the runs below will use
        render_table(t, scale=scale, **kwargs)
    times = []
    for i in range(renders):
        t0 = time.perf_counter()
        render_table(tables[i % len(tables)], scale=scale, **kwargs)
        times.append((time.perf_counter() - t0) * 1000)
    mean = sum(times) / len(times)
    print(
        f"{label:<34} scale {scale}: cold {cold:6.1f} ms   warm mean {mean:5.1f} ms"
        f"   worst {max(times):5.1f} ms   {len(png) / 1024:5.1f} KB"
    )
    return png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=100)
    parser.add_argument("--out", default=None, help="write the crowded table PNG here")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    rng = random.Random(6)
    four = [random_table(rng, 4) for _ in range(20)]
    crowded = [[3, 12, 25, 55, 60], [44, 77], [8, 10, 22, 31, 40, 41], [90], [100, 101, 102, 103, 104]]
    crowded_kwargs = {
        "markers": [["stop"], [], ["seven"], ["stop"], ["fifth"]],
        "capacities": [5, 5, 6, 5, 5],
        "highlight": {55, 90, 104},
    }

    measure("four rows, random", four, {"highlight": set(t[0] for t in four[0])}, args.renders, 1)
    png = measure("five rows, 7 nimmt!, badges", [crowded], crowded_kwargs, args.renders, 1)
    measure("five rows, 7 nimmt!, badges", [crowded], crowded_kwargs, max(args.renders // 4, 1), 2)
    if args.out:
        with open(args.out, "wb") as f:
            f.write(png)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
