"""AI tournament: one seat of the level under test against four opponents, paired deals.

Every configuration replays the same seeded deals (round ``i`` is deal
``seed + i``, the tested seat is ``i % 5``), classic 10-card rounds at a table
of five. For each figure it prints the tested seat's mean bullheads per round
with its standard error, its win share (share of rounds where it took the
fewest points, ties shared) and its CPU milliseconds per decision
(``time.process_time``, so the other processes on a shared machine do not
count; the hard level's budget itself is wall-clock). It ends with the paired
difference hard − medium against medium opponents.

Run: ``python benchmarks/ai.py [--rounds 1000] [--procs 2] [--hard-ms 45]``;
``--hard-sims N`` gives hard a fixed number of simulated rounds instead (deterministic,
immune to machine load: for tuning), ``--only hard:medium,medium:medium`` runs some figures.
Targets: hard vs 4 random ≤ 6.0, hard vs 4 medium ≤ 11.0 and ≥ 2.5 better than a
medium seat on the same deals, hard ≤ 50 ms per decision; medium clearly better
than easy, easy clearly better than random.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import Game, GameConfig, Phase  # noqa: E402
from engine.ai import choose_action  # noqa: E402

PLAYERS = 5


def play_round(args):
    """One classic round; returns (tested seat's bullheads, its win share, cpu s, decisions)."""
    level, opponents, deal, index, hard_ms, hard_sims = args
    seat = index % PLAYERS
    levels = [opponents] * PLAYERS
    levels[seat] = level
    game = Game.new(GameConfig(PLAYERS, target=None, rounds=1), seed=deal)
    rngs = [random.Random(deal * 31 + p) for p in range(PLAYERS)]
    cpu = 0.0
    decisions = 0

    def decide(p):
        nonlocal cpu, decisions
        hard = levels[p] == "hard"
        budget = {"budget_ms": hard_ms if hard else None, "budget_sims": hard_sims if hard else None}
        if p == seat:
            t = time.process_time()
            action = choose_action(game, p, levels[p], rngs[p], **budget)
            cpu += time.process_time() - t
            decisions += 1
            return action
        return choose_action(game, p, levels[p], rngs[p], **budget)

    while not game.is_over:
        if game.phase is Phase.PICK:
            game.play_turn([decide(p).card for p in range(PLAYERS)])
        else:
            game.apply(decide(game.chooser))
    points = game.totals
    low = min(points)
    win = 1.0 / points.count(low) if points[seat] == low else 0.0
    return points[seat], win, cpu, decisions


def run(pool, level, opponents, rounds, seed, hard_ms, hard_sims):
    jobs = [(level, opponents, seed + i, i, hard_ms, hard_sims) for i in range(rounds)]
    return pool.map(play_round, jobs, chunksize=max(1, rounds // 40))


def summary(results):
    pts = [r[0] for r in results]
    n = len(pts)
    mean = sum(pts) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in pts) / (n - 1) / n)
    win = sum(r[1] for r in results) / n
    ms = 1000 * sum(r[2] for r in results) / max(1, sum(r[3] for r in results))
    return mean, se, win, ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20260)
    parser.add_argument("--hard-ms", type=float, default=45.0, help="hard's wall-clock budget")
    parser.add_argument("--hard-sims", type=int, default=None,
                        help="hard's budget in simulated rounds instead (deterministic: for tuning)")
    parser.add_argument("--skip-hard", action="store_true")
    parser.add_argument("--only", default=None,
                        help="comma-separated level:opponents figures, e.g. hard:medium,medium:medium")
    args = parser.parse_args()
    hard_ms = None if args.hard_sims is not None else args.hard_ms
    budget = (f"{args.hard_sims} simulated rounds" if args.hard_sims is not None
              else f"{args.hard_ms:g} ms wall")
    print(f"AI tournament, Python {sys.version.split()[0]}, {args.procs} processes, "
          f"{args.rounds} paired classic rounds per figure, table of {PLAYERS}, "
          f"hard budget {budget} per decision")
    print(f"{'seat':>7} {'vs 4':>7} {'bullheads/round':>18} {'win share':>10} {'ms/decision':>12}")
    results = {}
    configs = [(lvl, opp) for opp in ("random", "medium")
               for lvl in ("random", "easy", "medium", "hard")]
    with multiprocessing.Pool(args.procs) as pool:
        for level, opp in configs:
            if level == "hard" and args.skip_hard:
                continue
            if args.only is not None and f"{level}:{opp}" not in args.only.split(","):
                continue
            started = time.perf_counter()
            res = run(pool, level, opp, args.rounds, args.seed, hard_ms, args.hard_sims)
            results[level, opp] = res
            mean, se, win, ms = summary(res)
            print(f"{level:>7} {opp:>7} {mean:>10.2f} ± {se:<5.2f} {win:>10.3f} {ms:>12.2f}"
                  f"   ({time.perf_counter() - started:.0f} s)", flush=True)
    for opp in ("random", "medium"):
        for a, b in (("hard", "medium"), ("medium", "easy"), ("easy", "random")):
            if (a, opp) in results and (b, opp) in results:
                d = [x[0] - y[0] for x, y in zip(results[a, opp], results[b, opp])]
                n = len(d)
                m = sum(d) / n
                se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n)
                print(f"paired {a} − {b} seat vs 4 {opp}: {m:+.2f} ± {se:.2f} bullheads/round")


if __name__ == "__main__":
    main()
