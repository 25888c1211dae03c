"""The hard level: determinized Monte Carlo search over the rest of the round.

For a decision (the card to pick, or the row to take on a low card) the search
repeatedly

1. samples a *determinization*: the opponents' hands drawn from the cards the
   player has not seen (classic), consistent with everything it observed — its
   own hand, the rows, every card revealed this round; in the Pro variant every
   hand is known and only the opponents' choices are uncertain;
2. lets the opponents choose this turn's face-down cards as sensible players:
   in the classic game exactly as the medium level would with that hand
   (``medium_model``: the same expected-bullhead keys, computed fast), a random
   card with chance ``EPS_FIRST`` (tables range from careful to careless); in
   the Pro variant by the danger table of ``kernel`` mixed with a random card
   (``EPS_PRO``), and
3. plays every remaining candidate against that same determinization and the
   same random numbers (common random numbers — one list of floats per
   determinization, ``kernel.Floats``: the comparison between two candidates
   is paired), finishing the round in the fast kernel with every
   seat playing the danger table (a close, cheap stand-in for medium: they
   agree on about 95% of picks), the opponents a random card with chance
   ``EPS_CLASSIC``.

In the classic game both chances rise towards 1 as the rows show a careless
table (``carelessness``: wide gaps between neighbouring cards), so against
random players the search expects random cards, and against careful ones
careful cards.

Only the ``TOPK`` candidates the medium heuristic rates best are searched (a
decision gets a few hundred simulated rounds: spread over ten cards they are
noise), and the search leaves medium's own choice only when its best is ahead
by ``DEFER`` standard errors. The player's own later turns are simulated
without random cards (it knows it plays sensibly). Candidates whose paired
mean is clearly worse than the best one's are dropped as evidence
accumulates, so the simulations go to the close calls. The score
of a simulation is the player's bullheads this round, minus a share of the
opponents' mean in the last round of a game (where the ranking is what counts).

The same simulations, every option rated and none dropped, give the coach's
estimates (``estimates``; see ``coach``).

A classic pick runs its simulations as arrays when numpy is installed
(``batch``; ``batched_search``): a batch of determinizations at a time, every
candidate on each of them with the same random numbers, the batches sized from
the first one's pace to fill the budget — several times the simulated rounds
of the list kernel in the same time. The same rules decide (pruning, ``DEFER``).
On half of its determinizations (``STD_SHARE``) the opponents play the field's
standard heuristic instead (``heuristics.standard_pick``: the smallest gap on a
row with room), which plays the risky fifth card that medium shuns: measured on
paired deals, a bullhead and more a round fewer against such tables, a few
tenths more against medium ones.
Without numpy, and for Pro picks and row choices, the list kernel runs as before.

Budgets: ``sims`` (simulated rounds; deterministic for a fixed seed) and/or
``ms`` (of ``CLOCK``: the wall clock via ``time.perf_counter``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from itertools import pairwise
from typing import TypeAlias, TypeVar

from ..cards import BULLHEADS
from . import batch, heuristics, kernel
from .info import InfoSet
from .medium_model import MediumModel

BH = BULLHEADS
EPS_CLASSIC = 0.5  # chance a simulated opponent plays a random card (robust vs weak and strong tables)
EPS_PRO = 0.3  # the same when every hand is known
CHECK_EVERY = 6  # determinizations between two pruning checks
MIN_SAMPLES = 12  # determinizations before a candidate may be dropped
Z = 2.2  # how many standard errors worse a candidate must be to go
TOPK = 4  # candidates searched: the best by the medium heuristic's prior (focus the few simulations)
DEFER = 1.0  # standard errors by which the search's best must beat the prior's choice
EPS_SELF = 0.0  # the player plays its own later turns sensibly in the simulations
EPS_FIRST = 0.15  # classic: chance a simulated opponent's card this turn is random, not medium's
LAST_ROUND_WEIGHT = 0.3  # share of the opponents' mean subtracted in a game's last round
MIN_GAPS = 3  # gaps in the rows before the table's carelessness is judged
TOPK_BATCH = 4  # the same when the simulations run as arrays (``batch``): many more of them
STD_SHARE = 0.5  # classic picks as arrays: share of determinizations whose opponents play the standard heuristic
EPS_STD, EPS_STD_FIRST = 0.2, 0.05  # their chances of a random card (play-out, this turn)
USE_BATCH = True  # classic picks: the array kernel when numpy is there (``batch.AVAILABLE``)
FIRST_BATCH = 24  # determinizations of the first batch (its pace sizes the next ones)
MIN_BATCH = 8  # a batch smaller than this is not worth its fixed cost: the search stops
MAX_BATCH = 200  # determinizations per batch at most
FILL = 0.6  # a batch is sized to a share of the time left: a busy machine's slower batch still ends in time
CAREFUL_GAP, CAREFUL_GAP_PER_TURN, RANDOM_GAP = 2.0, 0.5, 11.5  # mean gaps (see ``carelessness``)


C = TypeVar("C", bound=Hashable)  # a candidate: a card, a row, an option's number
D = TypeVar("D")  # a determinization: what the player cannot see, drawn once for every candidate
#: ``simulate(candidate, determinization, noise)`` -> the candidate's score there (lower is better)
Simulate: TypeAlias = Callable[[C, D, list[float]], float]
#: A classic determinization: every seat's hand (the player's own left empty: it is ``info.hand``).
Hands: TypeAlias = list[list[int]]
#: ``run(candidates, d)`` -> ``d`` paired scores per candidate (see ``batched_search``)
BatchRun: TypeAlias = Callable[[list[int], int], list[list[float]]]


#: The clock of the ``ms`` budget: the wall clock, which is what a player waits on. A benchmark
#: on a crowded machine may set ``time.process_time`` to measure play as on a core of its own.
CLOCK = time.perf_counter


class Budget:
    """Stops after ``sims`` simulated rounds or ``ms`` milliseconds (of ``CLOCK``), whichever first."""

    __slots__ = ("sims", "deadline", "used", "clock")

    def __init__(self, sims: int | None, ms: float | None) -> None:
        if sims is None and ms is None:
            ms = 32.0  # engine.ai.DEFAULT_BUDGET_MS
        self.sims = sims
        self.clock = CLOCK
        self.deadline = self.clock() + ms / 1000.0 if ms is not None else None
        self.used = 0

    def left(self) -> bool:
        if self.sims is not None and self.used >= self.sims:
            return False
        return self.deadline is None or self.clock() < self.deadline


def _weight(info: InfoSet) -> float:
    return LAST_ROUND_WEIGHT if info.last_round else 0.0


def _sampler(info: InfoSet, rng: random.Random) -> Callable[[], Hands]:
    """A function returning fresh opponents' hands (list per seat; the player's own is empty)."""
    n, me = info.players, info.player
    if info.known_hands is not None:
        known = info.known_hands

        def fixed() -> Hands:
            return [[] if p == me else list(known[p]) for p in range(n)]

        return fixed
    unseen = info.unseen
    sizes = info.hand_sizes
    total = sum(sizes[p] for p in range(n) if p != me)
    sample = rng.sample

    def draw() -> Hands:
        cards = sample(unseen, total)
        out: Hands = []
        k = 0
        for p in range(n):
            if p == me:
                out.append([])
            else:
                s = sizes[p]
                h = cards[k : k + s]
                h.sort()
                out.append(h)
                k += s
        return out

    return draw


def _search(
    info: InfoSet,
    rng: random.Random,
    candidates: list[int],
    simulate: Simulate[int, Hands],
    budget: Budget,
) -> int:
    """Paired Monte Carlo over ``candidates`` on the opponents' hands ``info`` allows."""
    floats = 2 * info.players * (len(info.hand) + 1)  # enough for every simulated turn
    return paired_search(candidates, simulate, budget, _sampler(info, rng), floats, rng)


def paired_search(
    candidates: list[C],
    simulate: Simulate[C, D],
    budget: Budget,
    draw: Callable[[], D],
    floats: int,
    rng: random.Random,
) -> C:
    """Paired Monte Carlo over ``candidates``, the first of them the prior's choice:
    ``simulate(cand, det, noise)`` -> score, where ``det = draw()`` is a determinization and
    ``noise`` a list of ``floats`` uniform floats, both shared by every candidate."""
    if len(candidates) == 1:
        return candidates[0]
    alive = list(candidates)
    scores: dict[C, list[float]] = {c: [] for c in candidates}
    rounds = 0
    rand = rng.random
    while budget.left():
        det = draw()
        noise = [rand() for _ in range(floats)]  # the same for every candidate: paired
        for c in alive:
            scores[c].append(simulate(c, det, noise))
        budget.used += len(alive)
        rounds += 1
        if rounds % CHECK_EVERY == 0 and rounds >= MIN_SAMPLES:
            alive = _prune(alive, scores, rounds)
            if len(alive) == 1:
                break
    return _decide(candidates, alive, scores, rounds)


def _decide(candidates: list[C], alive: list[C], scores: dict[C, list[float]], rounds: int) -> C:
    """The best surviving candidate by its mean score, or the prior's choice (``candidates[0]``)
    unless the best beats it by ``DEFER`` standard errors."""
    # ties go to the earliest candidate (a stable, deterministic order)
    best = min(alive, key=lambda c: (sum(scores[c][:rounds]) / max(1, rounds), candidates.index(c)))
    prior = candidates[0]
    if best != prior and prior in alive and rounds > 1:
        # leave the prior's choice only on evidence: the search's noise costs more than it finds
        mean, se = _paired(scores[best], scores[prior])
        if mean > -DEFER * se:
            return prior
    return best


def batched_search(candidates: list[int], run: BatchRun, budget: Budget) -> int:
    """``paired_search`` a batch of determinizations at a time: ``run(alive, d)`` -> a list of ``d``
    paired scores per alive candidate. The first batch has ``FIRST_BATCH`` determinizations; the
    next ones are sized from the last one's pace to fill a share ``FILL`` of the time left (at
    most ``MAX_BATCH``)."""
    if len(candidates) == 1:
        return candidates[0]
    alive = list(candidates)
    scores: dict[int, list[float]] = {c: [] for c in candidates}
    rounds = 0
    d = FIRST_BATCH
    clock = budget.clock
    while True:
        if budget.sims is not None:
            d = min(d, (budget.sims - budget.used) // len(alive))
        if d < 1 or not budget.left():
            break
        started = clock()
        for c, got in zip(alive, run(alive, d), strict=True):
            scores[c].extend(got)
        budget.used += len(alive) * d
        rounds += d
        if rounds >= MIN_SAMPLES:
            alive = _prune(alive, scores, rounds)
            if len(alive) == 1:
                break
        if budget.deadline is not None:
            pace = (clock() - started) / d  # seconds per determinization (all candidates then alive)
            d = int(FILL * (budget.deadline - clock()) / max(pace, 1e-6))
            if d < MIN_BATCH:
                break
        d = min(d, MAX_BATCH)
    return _decide(candidates, alive, scores, rounds)


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of the paired differences a − b."""
    k = len(a)
    d = [a[i] - b[i] for i in range(k)]
    mean = sum(d) / k
    var = sum((x - mean) ** 2 for x in d) / max(1, k - 1)
    return mean, math.sqrt(var / k)


def _prune(alive: list[C], scores: dict[C, list[float]], rounds: int) -> list[C]:
    means = {c: sum(scores[c]) / len(scores[c]) for c in alive}
    best = min(alive, key=means.__getitem__)
    b = scores[best]
    keep = []
    for c in alive:
        if c == best:
            keep.append(c)
            continue
        mean, se = _paired(scores[c], b)
        if mean <= Z * se + 0.02:
            keep.append(c)
    return keep


def carelessness(info: InfoSet) -> float:
    """How careless the table plays, 0 (as medium) … 1 (random cards), read from the rows.

    A careful player lays a card just above a row's end; a random card lands
    anywhere. At a table of five the mean gap between neighbouring cards in the
    rows is ~2.4 at turn 2, growing to ~7 at turn 10, when medium players play,
    and ~11–12 throughout with random players. Fewer than ``MIN_GAPS`` gaps say
    nothing (0: the careful model, as before)."""
    gaps = [b - a for r in info.rows for a, b in pairwise(r)]
    if len(gaps) < MIN_GAPS:
        return 0.0
    careful = CAREFUL_GAP + CAREFUL_GAP_PER_TURN * info.turn
    mean = sum(gaps) / len(gaps)
    return min(1.0, max(0.0, (mean - careful) / max(1.0, RANDOM_GAP - careful)))


def hard_pick(info: InfoSet, rng: random.Random, budget: Budget) -> int:
    w = _weight(info)
    if USE_BATCH and batch.PickBatch.fits(info):
        run, ranked = pick_batch(info, w, rng)
        return batched_search(ranked[: max(1, int(TOPK_BATCH))], run, budget)
    simulate, ranked = pick_simulation(info, w)
    return _search(info, rng, ranked[: max(1, int(TOPK))], simulate, budget)


def _eps(info: InfoSet) -> tuple[float, float]:
    """(the opponents' chance of a random card in the play-out, and this turn's), by the table's
    ``carelessness``."""
    if info.known_hands is not None:
        return EPS_PRO, EPS_PRO
    care = carelessness(info)
    return EPS_CLASSIC + care * (1.0 - EPS_CLASSIC), EPS_FIRST + care * (1.0 - EPS_FIRST)


def pick_batch(info: InfoSet, w: float, rng: random.Random) -> tuple[BatchRun, list[int]]:
    """(``run(cands, d)`` of ``batch.PickBatch``, the hand ranked by medium's prior) for a classic
    pick: the simulations of ``pick_simulation``, a batch of determinizations at a time."""
    n, me = info.players, info.player
    eps, eps_first = _eps(info)
    model = MediumModel(info.rows, info.row_points, sorted(info.unseen + info.hand), n - 1, info.deck_size)
    seat_eps = [EPS_SELF if p == me else eps for p in range(n)]
    care = carelessness(info)
    std_eps = (EPS_STD + care * (1.0 - EPS_STD), EPS_STD_FIRST + care * (1.0 - EPS_STD_FIRST))
    sims = batch.PickBatch(info, model, seat_eps, eps_first, w, rng.getrandbits(63), STD_SHARE, std_eps)
    keys = heuristics.pick_keys(info)
    return sims.run, sorted(info.hand, key=lambda c: (keys[c], c))


def pick_simulation(info: InfoSet, w: float) -> tuple[Simulate[int, Hands], list[int]]:
    """(``simulate(card, det, noise)`` -> score, the hand ranked by medium's prior) for a pick;
    ``w`` is the share of the opponents' mean bullheads subtracted from a score."""
    hand = info.hand
    n, me = info.players, info.player
    ptab = kernel.cost_table(max(1, n - 1))
    eps, eps_first = _eps(info)
    seat_eps = [EPS_SELF if p == me else eps for p in range(n)]
    rows0, pts0 = info.rows, info.row_points
    cache: dict[int, tuple[Hands, list[tuple[int, int]]]] = {}  # id(det) -> (det, its picks)
    model = None
    if info.known_hands is None:  # classic: opponents choose this turn's card as medium does
        model = MediumModel(rows0, pts0, sorted(info.unseen + hand), n - 1, info.deck_size)

    first = 2 * n  # noise[:first] is this turn's, the rest the play-out's

    def opp_picks(det: Hands, noise: list[float]) -> list[tuple[int, int]]:
        key = id(det)
        got = cache.get(key)
        if got is not None and got[0] is det:
            return got[1]
        if model is None:
            k = kernel.danger_table(rows0, pts0, ptab).__getitem__
        picks = []
        for p in range(n):
            if p == me:
                continue
            h = det[p]
            if noise[2 * p] < eps_first:
                c = h[int(noise[2 * p + 1] * len(h))]
            else:
                c = model.pick(h) if model is not None else min(h, key=k)
            picks.append((c, p))
        cache.clear()
        cache[key] = (det, picks)
        return picks

    def simulate(card: int, det: Hands, noise: list[float]) -> float:
        picks = opp_picks(det, noise)
        rows = [list(r) for r in rows0]
        pts = list(pts0)
        hands = []
        for p in range(n):
            h = list(det[p]) if p != me else [c for c in hand if c != card]
            hands.append(h)
        for c, p in picks:
            hands[p].remove(c)
        order = sorted(picks + [(card, me)])
        pen = [0] * n
        kernel.resolve(rows, pts, order, pen)
        if hands[0]:
            kernel.play_out(rows, pts, hands, pen, ptab, kernel.Floats(noise[first:]), seat_eps)
        return _score(pen, me, w)

    keys = heuristics.pick_keys(info)
    return simulate, sorted(hand, key=lambda c: (keys[c], c))


def hard_row(info: InfoSet, rng: random.Random, budget: Budget) -> int:
    w = _weight(info)
    if not info.hand:  # the last card of the round: nothing left to simulate
        costs = last_row_costs(info, w)
        return costs.index(min(costs))
    simulate, ranked = row_simulation(info, w)
    return _search(info, rng, ranked, simulate, budget)


def last_row_costs(info: InfoSet, w: float) -> list[float]:
    """Each row's score when the low card is the player's last of the round (exact)."""
    return [
        _score(pen, info.player, w) for _, _, pen in (heuristics._after_row(info, r) for r in range(len(info.rows)))
    ]


def row_simulation(info: InfoSet, w: float) -> tuple[Simulate[int, Hands], list[int]]:
    """(``simulate(row, det, noise)`` -> score, the rows ranked by medium's prior) for a low card."""
    n, me = info.players, info.player
    ptab = kernel.cost_table(max(1, n - 1))
    eps, _ = _eps(info)
    seat_eps = [EPS_SELF if p == me else eps for p in range(n)]
    after = [heuristics._after_row(info, r) for r in range(len(info.rows))]

    def simulate(r: int, det: Hands, noise: list[float]) -> float:
        rows0, pts0, pen0 = after[r]
        rows = [list(x) for x in rows0]
        pts = list(pts0)
        pen = list(pen0)
        hands = [list(det[p]) if p != me else list(info.hand) for p in range(n)]
        kernel.play_out(rows, pts, hands, pen, ptab, kernel.Floats(noise), seat_eps)
        return _score(pen, me, w)

    prior = heuristics.row_costs(info)
    return simulate, sorted(range(len(info.rows)), key=lambda r: (prior[r], r))


def estimates(
    info: InfoSet,
    rng: random.Random,
    candidates: list[int],
    simulate: Simulate[int, Hands],
    budget: Budget,
) -> dict[int, float]:
    """Every candidate's mean score on the same determinizations of ``info`` (paired; none is dropped)."""
    floats = 2 * info.players * (len(info.hand) + 1)
    return paired_estimates(candidates, simulate, budget, _sampler(info, rng), floats, rng)


def paired_estimates(
    candidates: list[C],
    simulate: Simulate[C, D],
    budget: Budget,
    draw: Callable[[], D],
    floats: int,
    rng: random.Random,
) -> dict[C, float]:
    """Every candidate's mean score on the same determinizations ``draw()`` (as ``paired_search``)."""
    rand = rng.random
    totals = dict.fromkeys(candidates, 0.0)
    rounds = 0
    while budget.left() or rounds == 0:
        det = draw()
        noise = [rand() for _ in range(floats)]
        for c in candidates:
            totals[c] += simulate(c, det, noise)
        budget.used += len(candidates)
        rounds += 1
    return {c: t / rounds for c, t in totals.items()}


def _score(pen: list[int], me: int, w: float) -> float:
    if not w:
        return pen[me]
    others = [p for i, p in enumerate(pen) if i != me]
    return pen[me] - w * sum(others) / len(others)
