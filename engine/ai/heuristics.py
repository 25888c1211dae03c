"""The heuristic levels (random, easy, medium) and the pieces the search reuses.

Every function takes an ``InfoSet`` (what the player may know) and a seeded
``random.Random`` and returns a card or a row index.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

from ..cards import BULLHEADS, ROW_LIMIT
from . import kernel
from .info import InfoSet

BH = BULLHEADS


# -- the danger of a card, computed carefully (medium) ------------------------------------


def _opponent_odds(info: InfoSet, lo: int, hi: int) -> list[float]:
    """For each opponent, the chance that the card it plays now lies strictly between lo and hi."""
    if info.known_hands is not None:  # Pro: every hand is public
        out = []
        for p in info.opponents:
            h = info.known_hands[p]
            if h:
                out.append(sum(1 for c in h if lo < c < hi) / len(h))
        return out
    unseen = info.unseen
    if not unseen:
        return []
    k = sum(1 for c in unseen if lo < c < hi)
    q = k / len(unseen)
    return [q] * sum(1 for p in info.opponents if info.hand_sizes[p] > 0)


def _at_least(odds: list[float], need: int) -> float:
    """Chance that at least ``need`` of independent events with ``odds`` happen."""
    dist = [1.0]
    for q in odds:
        new = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            new[k] += v * (1 - q)
            new[k + 1] += v * q
        dist = new
    return sum(dist[need:])


def card_danger(
    info: InfoSet,
    rows: list[list[int]],
    pts: list[int],
    card: int,
    caps: list[int] | None = None,
) -> float:
    """Expected bullheads from playing ``card`` now on ``rows`` (a one-turn estimate);
    ``caps`` gives each row's capacity (Anniversary: six under a 7 nimmt!), else five."""
    r = kernel.row_for(rows, card)
    if r < 0:
        return float(min(pts))
    row = rows[r]
    need = max(0, (caps[r] if caps is not None else ROW_LIMIT) - len(row))
    odds = _opponent_odds(info, row[-1], card)
    if need == 0:  # the sixth card: taken unless someone else gets there first
        return pts[r] * (1.0 - _at_least(odds, 1))
    return _at_least(odds, need) * (pts[r] + need * kernel.AVG_BH)


def medium_pick(
    info: InfoSet,
    rng: random.Random,
    rows: list[list[int]] | None = None,
    pts: list[int] | None = None,
    caps: list[int] | None = None,
) -> int:
    """The card with the fewest expected bullheads now (the smaller gap on a near tie);
    ``rows``/``pts``/``caps`` override the table (Anniversary: only the open rows)."""
    keys = pick_keys(info, rows, pts, caps)
    return min(info.hand, key=keys.__getitem__)


def pick_keys(
    info: InfoSet,
    rows: list[list[int]] | None = None,
    pts: list[int] | None = None,
    caps: list[int] | None = None,
) -> dict[int, float]:
    """Medium's key for every card in hand (lower is better; the search uses it as a prior)."""
    if rows is None:
        rows, pts = info.rows, info.row_points
    elif pts is None:
        raise ValueError("rows replace the table only with their bullheads (pts)")
    keys = {}
    for c in info.hand:
        r = kernel.row_for(rows, c)
        gap = c - rows[r][-1] if r >= 0 else 0
        keys[c] = card_danger(info, rows, pts, c, caps) + 0.002 * gap
    return keys


def _after_row(info: InfoSet, row: int) -> tuple[list[list[int]], list[int], list[int]]:
    """Rows, row points and penalties once ``info.player`` takes ``row`` for the pending low card
    and the other revealed cards of the turn are placed."""
    rows = [list(r) for r in info.rows]
    pts = list(info.row_points)
    pen = [0] * info.players
    pending = list(info.pending)
    card, me = pending.pop()
    pen[me] += pts[row]
    rows[row] = [card]
    pts[row] = BH[card]
    kernel.resolve(rows, pts, reversed(pending), pen)
    return rows, pts, pen


def medium_row(info: InfoSet, rng: random.Random) -> int:
    """Take the row that costs least now plus what it leaves for the cards in my hand."""
    costs = row_costs(info)
    return costs.index(min(costs))  # the first on a tie


def row_costs(info: InfoSet) -> list[float]:
    """Medium's cost of taking each row for the pending low card (the search's prior)."""
    costs: list[float] = []
    for r in range(len(info.rows)):
        rows, pts, pen = _after_row(info, r)
        cost = float(pen[info.player])
        if info.hand:
            dangers = sorted(card_danger(info, rows, pts, c) for c in info.hand)
            half = dangers[: max(1, len(dangers) // 2)]
            cost += 0.5 * sum(half) / len(half)
        costs.append(cost)
    return costs


# -- the field's standard opponents (benchmarks) ---------------------------------------------


def standard_pick(rows: list[list[int]], pts: list[int], hand: Iterable[int]) -> int:
    """The field's **standard heuristic** player's card (what published agents call the
    closest-gap heuristic): among the cards that land on a row holding fewer than five cards,
    the one with the smallest gap to that row's end; if every card takes a row, the card whose
    immediate take is cheapest (a sixth card: that row's bullheads; a card lower than every
    row: the cheapest row's bullheads). Ties: the lower card. ``hand`` need not be sorted."""
    best: tuple[int, int] | None = None  # (gap, card) of a card that takes nothing
    cheapest: tuple[int, int] | None = None  # (bullheads taken, card) when every card takes a row
    for c in hand:
        r = kernel.row_for(rows, c)
        if r >= 0 and len(rows[r]) < ROW_LIMIT:
            key = (c - rows[r][-1], c)
            if best is None or key < best:
                best = key
        elif best is None:
            key = (pts[r] if r >= 0 else min(pts), c)
            if cheapest is None or key < cheapest:
                cheapest = key
    if best is not None:
        return best[1]
    if cheapest is None:
        raise ValueError("the standard heuristic needs a card in hand to play")
    return cheapest[1]


# -- easy: the quick glance of a casual player -------------------------------------------------


def easy_pick(info: InfoSet, rng: random.Random) -> int:
    """Mostly a safe-looking card, sometimes a blunder: a soft choice by each card's danger.

    The danger is a quick glance at the rows, except in the Pro variant, where every hand lies
    open on the table and even a casual player sees which cards the others can play (so a
    sound draft pays off for easy seats too: without it their own draft was no better than a
    random one on paired deals)."""
    hand = info.hand
    if rng.random() < 0.12:  # a blunder
        return rng.choice(hand)
    danger: dict[int, float] | list[float]  # by card
    if info.known_hands is not None:
        danger = pick_keys(info)
    else:
        danger = kernel.danger_table(info.rows, info.row_points, kernel.cost_table(max(1, info.players - 1)))
    weights = [math.exp(-1.5 * danger[c]) for c in hand]
    return rng.choices(hand, weights)[0]


def easy_row(info: InfoSet, rng: random.Random) -> int:
    """The rulebook's hint (the fewest bullheads), choosing at random between equal rows."""
    pts = info.row_points
    low = min(pts)
    return rng.choice([i for i, p in enumerate(pts) if p == low])


# -- Pro draft ---------------------------------------------------------------------------


#: How much an own card at distance 1, 2, 3 counts against a drafted card (a run's price).
RUN_PENALTY = (1.0, 0.5, 0.25)
#: The price of a bullhead on a drafted card (it may end up in a row one takes).
DRAFT_BULLHEAD = 0.15


def draft_score(info: InfoSet, card: int) -> float:
    """How much ``card`` is worth to the drafter (higher is better).

    A run of one's own cards is a trap, not a shelter: its owner fills a row
    alone and takes it with the sixth card, and a crowd of own cards in one
    range keeps landing on the same rows; so each own card nearby counts against
    a card, as do its bullheads. (Measured on paired deals against medium seats:
    scoring adjacency as a *plus* drafted worse than drafting at random.)
    """
    score = 0.0
    for c in info.hand:
        d = abs(c - card)
        if d <= len(RUN_PENALTY):
            score -= RUN_PENALTY[d - 1]
    return score - DRAFT_BULLHEAD * BH[card]


def medium_draft(info: InfoSet, rng: random.Random) -> int:
    pool = info.draft_pool
    return max(pool, key=lambda c: (draft_score(info, c), -c))
