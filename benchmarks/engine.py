"""Random-play throughput of the rules engine through its public API.

Prints rounds per second of CPU time (a round is ten turns: every player picks ten
cards, each reveal is resolved, low cards choose a row) for 2, 5 and 10
players. Run on one core: ``python benchmarks/engine.py [--seconds S] [--runs R]``; each
figure is the best of R runs (the CPU time of a shared machine is noisy).
Target (issue 2): at least 14,000 rounds per second at 5 players.
Also prints the cost of one ``Game.cheapest_row`` call (the AI's rollouts call it)
on a mid-round table, best of R timeit runs.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import timeit
from math import floor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import Game, GameConfig, Phase  # noqa: E402


def play_rounds(players: int, seconds: float, seed: int, joint: bool) -> tuple[int, float]:
    """Play whole random games until ``seconds`` pass; return (rounds, elapsed)."""
    rng = random.Random(seed)
    uniform = rng.random  # a random player: any card of its hand, equally likely
    # floor(uniform() * n) is int(uniform() * n) for these non-negative numbers, at a third of int()'s cost
    # rounds=None would end at 66; a long fixed game measures steady-state play.
    config = GameConfig(players, target=None, rounds=100)
    rounds = 0
    started = time.process_time()
    deadline = started + seconds
    while time.process_time() < deadline:
        game = Game.new(config, seed=rng.getrandbits(32))
        hands = game.hands
        pick = game.pick
        play_turn = game.play_turn
        choose_row = game.choose_row
        seats = range(players)
        pick_phase, choose_phase = Phase.PICK, Phase.CHOOSE_ROW
        while True:  # one read of the public ``phase`` per step says what the game waits for
            phase = game.phase
            if phase is pick_phase:
                hands = game.hands  # a new round deals new hands
                if joint:
                    cards = []  # a plain loop: a list comprehension is a function call in 3.11
                    for hand in hands:
                        cards.append(hand[floor(uniform() * len(hand))])
                    play_turn(cards)
                else:
                    for p in seats:
                        hand = hands[p]
                        pick(p, hand[floor(uniform() * len(hand))])
            elif phase is choose_phase:
                choose_row(game.chooser, floor(uniform() * 4))
            else:  # the game is over
                break
        rounds += game.round
    return rounds, time.process_time() - started


def cheapest_row_cost(runs: int) -> float:
    """Microseconds per ``cheapest_row`` call on four rows of 3, 2, 5 and 1 cards."""
    game = Game.new(GameConfig(4), seed=3)
    game.rows = [[3, 5, 7], [22, 23], [40, 41, 42, 44, 45], [90]]
    timer = timeit.Timer(game.cheapest_row)
    number, _ = timer.autorange()
    return min(timer.repeat(runs, number)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per run")
    parser.add_argument("--runs", type=int, default=3, help="runs per player count (the best is shown)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    # The engine is single-threaded: it runs on one core whatever the machine has.
    print(f"engine random-play benchmark, Python {sys.version.split()[0]}, single thread")
    for label, joint in (("play_turn (one joint action per turn)", True), ("pick (one action per player)", False)):
        print(label)
        for players in (2, 5, 10):
            runs = [play_rounds(players, args.seconds, args.seed + i, joint) for i in range(args.runs)]
            rounds, elapsed = max(runs, key=lambda run: run[0] / run[1])
            print(f"  {players:>2} players: {rounds / elapsed:>9,.0f} rounds/s  ({rounds} rounds in {elapsed:.2f} s)")
    print(f"cheapest_row: {cheapest_row_cost(max(args.runs, 5)):.2f} µs per call")


if __name__ == "__main__":
    main()
