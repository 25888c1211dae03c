"""The players and the paired tables of the AI benchmark (``benchmarks/ai.py``).

A *seat spec* names how a seat plays:

* ``random`` — the **standard random player** every published 6 nimmt! agent is
  measured against: a uniformly random card; when its card is lower than every
  row, it takes the cheapest row (fewest bullheads, the lowest index on a tie).
  It drafts a uniformly random card and declines every special card and swap.
* ``heuristic`` — the **standard heuristic** player (what published agents call the
  closest-gap heuristic; ``engine.ai.heuristics.standard_pick``): among the cards that land
  on a row holding fewer than five cards, the one with the smallest gap to that row's end;
  if every card takes a row, the cheapest immediate take; ties: the lower card. It takes the
  cheapest row when its card is too low, drafts at random and declines special cards and swaps.
* ``easy`` / ``medium`` / ``hard`` — ``engine.ai.choose_action`` at that level;
  ``hard-list`` is hard searching with the list kernel only (as before issue 26: no array
  kernel); ``hard-old`` and ``hard-cards`` are earlier Anniversary AIs (``ai_reference``);
  a ``+randdraft`` suffix makes the seat draft a uniformly random card in the Pro variant,
  ``+randrow`` take a uniformly random row for a low card, ``+randspecial`` answer an
  Anniversary special-card pause uniformly at random (declining is one of the answers),
  ``+randswap`` a swap offer likewise; the seat plays by its level otherwise.

``play(job)`` plays one paired deal: deal ``seed`` with the focal seat at
``focal`` and the four others by one spec. Every configuration replays the same
deals with the same focal seats, so differences between configurations are
paired.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from engine import Game, GameConfig, Phase
from engine.actions import ChooseRow, Draft, Pick
from engine.ai import choose_action
from engine.ai.heuristics import standard_pick

PLAYERS = 5


def standard_random(game, seat: int, rng: random.Random):
    phase = game.phase
    if phase is Phase.PICK:
        return Pick(seat, rng.choice(game.hands[seat]))
    if phase is Phase.CHOOSE_ROW:
        return ChooseRow(seat, game.cheapest_row())
    if phase is Phase.DRAFT:
        return Draft(seat, rng.choice(game.draft_pool))
    return game.legal_actions(seat)[-1]  # Anniversary: decline the special card / the swap


def standard_heuristic(game, seat: int, rng: random.Random):
    if game.phase is Phase.PICK:
        rows = game.rows
        return Pick(seat, standard_pick(rows, [game.row_bullheads(i) for i in range(len(rows))], game.hands[seat]))
    return standard_random(game, seat, rng)


#: The suffixes of a seat spec: at that phase the seat answers uniformly at random among the
#: legal actions, and plays by its level everywhere else.
RANDOM_AT = {
    "randdraft": Phase.DRAFT,
    "randrow": Phase.CHOOSE_ROW,
    "randspecial": Phase.SPECIAL,
    "randswap": Phase.SWAP,
}


def policy(spec: str, hard_ms: float | None, hard_sims: int | None):
    """``decide(game, seat, rng) -> action`` for a seat spec (see module doc)."""
    level, _, suffix = spec.partition("+")
    if level == "random":
        base = standard_random
    elif level == "heuristic":
        base = standard_heuristic
    elif level == "hard-list":
        from engine.ai import search

        def base(game, seat, rng):
            search.USE_BATCH = False
            try:
                return choose_action(game, seat, "hard", rng, budget_ms=hard_ms, budget_sims=hard_sims)
            finally:
                search.USE_BATCH = True
    elif level in ("hard-old", "hard-cards"):
        from ai_reference import reference_decide

        def base(game, seat, rng):
            return reference_decide(level, game, seat, rng, hard_ms, hard_sims)
    else:
        budget = {"budget_ms": hard_ms, "budget_sims": hard_sims} if level == "hard" else {}

        def base(game, seat, rng):
            return choose_action(game, seat, level, rng, **budget)

    phase = RANDOM_AT.get(suffix)
    if phase is None:
        return base

    def randomly_at_phase(game, seat, rng):
        if game.phase is phase:
            return rng.choice(game.legal_actions(seat))
        return base(game, seat, rng)

    return randomly_at_phase


@dataclass(frozen=True)
class Job:
    focal_spec: str
    opp_spec: str
    seed: int
    focal: int
    variant: str = "classic"
    target: int | None = None  # None: one round (Anniversary: its two)
    first_round: bool = False  # only the first round of the game to ``target`` is played
    hard_ms: float | None = 45.0
    hard_sims: int | None = None
    cpu_clock: bool = True  # hard's ms budget counts this process's CPU time, not the wall clock


def config_for(job: Job) -> GameConfig:
    if job.variant == "anniversary":
        return GameConfig(PLAYERS, "anniversary")
    if job.target is None:
        return GameConfig(PLAYERS, job.variant, target=None, rounds=1)
    return GameConfig(PLAYERS, job.variant, target=job.target)


def play(job: Job) -> tuple[float, int, float, int]:
    """(focal seat's points per round, rounds, focal CPU seconds, focal decisions)."""
    from engine.ai import search

    search.CLOCK = time.process_time if job.cpu_clock else time.perf_counter
    game = Game.new(config_for(job), seed=job.seed)
    focal = policy(job.focal_spec, job.hard_ms, job.hard_sims)
    other = policy(job.opp_spec, job.hard_ms, job.hard_sims)
    rngs = [random.Random(job.seed * 31 + p) for p in range(PLAYERS)]
    cpu = 0.0
    decisions = 0
    while not game.is_over and not (job.first_round and game.history):
        seat = game.waiting_for[0]
        if seat == job.focal:
            t = time.process_time()
            action = focal(game, seat, rngs[seat])
            cpu += time.process_time() - t
            decisions += 1
        else:
            action = other(game, seat, rngs[seat])
        game.apply(action)
    rounds = len(game.history)
    return game.totals[job.focal] / rounds, rounds, cpu, decisions


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
    return m, 1.96 * se


def paired(a: list, b: list) -> tuple[float, float]:
    return mean_ci([x[0] - y[0] for x, y in zip(a, b, strict=True)])
