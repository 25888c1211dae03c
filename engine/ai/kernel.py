"""A fast simulation kernel for one classic / Pro round, for the AI's searches.

A round is plain lists of ints: ``rows`` (four ascending lists of cards),
``pts`` (the bullheads in each row, kept in step), ``hands`` (one list per
seat) and ``pen`` (bullheads taken this round, per seat). No events, no
objects per card. ``tests/engine/test_ai_kernel.py`` checks on thousands of
random rounds that the kernel and ``engine.Game`` never disagree on a rule.

The heuristic player used inside simulations (and by the medium level) is a
*danger table*: for the current rows, ``danger[c]`` estimates the bullheads a
player expects to take by playing card ``c`` now. A whole table is built with
a few slice operations per turn, so every simulated player's choice is a
C-level ``min(hand, key=danger.__getitem__)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Protocol, TypeAlias

from ..cards import BULLHEADS, ROW_LIMIT

BH = BULLHEADS
LOW = -1  # marker: a low card (fits no row)
AVG_BH = 171 / 104  # mean bullheads of a card

#: Width of the card range over which an opponent's card is spread (the
#: density of unseen cards between two values); 100 is right for classic play.
SPREAD = 100.0

#: ``table[need][points][gap]`` (see ``cost_table``).
CostTable: TypeAlias = tuple[tuple[tuple[float, ...], ...], ...]
#: How a low card's row is chosen in ``resolve``: ``choose(rows, pts, card, seat)`` -> row.
RowChooser: TypeAlias = Callable[[list[list[int]], list[int], int, int], int]


class RandomSource(Protocol):
    """What a simulation draws its uniform floats from: a ``random.Random`` or a ``Floats``."""

    def random(self) -> float: ...


def row_for(rows: list[list[int]], card: int) -> int:
    """The row ``card`` goes to by Rules 1 and 2, or ``LOW`` (-1)."""
    best = LOW
    best_end = 0
    i = 0
    for row in rows:
        end = row[-1]
        if best_end < end < card:
            best = i
            best_end = end
        i += 1  # noqa: SIM113 - a counter: enumerate costs more on this hot path
    return best


def cheapest_row(pts: list[int]) -> int:
    """The row with the fewest bullheads (the lowest index on a tie)."""
    return pts.index(min(pts))


def resolve(
    rows: list[list[int]],
    pts: list[int],
    order: Iterable[tuple[int, int]],
    pen: list[int],
    choose: RowChooser | None = None,
    piles: list[list[int]] | None = None,
) -> None:
    """Place the revealed ``order`` ((card, seat) pairs, lowest first) into ``rows``.

    ``choose(rows, pts, card, seat)`` returns the row a low card takes
    (default: the cheapest row). ``piles``, if given, receives the taken cards.
    """
    ends = [r[-1] for r in rows]
    nrows = len(ends)
    for card, p in order:
        best = LOW
        best_end = 0
        for i in range(nrows):
            e = ends[i]
            if best_end < e < card:
                best = i
                best_end = e
        if best < 0:
            best = choose(rows, pts, card, p) if choose is not None else pts.index(min(pts))
            pen[p] += pts[best]
            if piles is not None:
                piles[p].extend(rows[best])
            rows[best] = [card]
            pts[best] = BH[card]
        else:
            row = rows[best]
            if len(row) < ROW_LIMIT:
                row.append(card)
                pts[best] += BH[card]
            else:
                pen[p] += pts[best]
                if piles is not None:
                    piles[p].extend(row)
                rows[best] = [card]
                pts[best] = BH[card]
        ends[best] = card


# -- the danger table -------------------------------------------------------------


@lru_cache(maxsize=64)
def prob_table(opponents: int, spread: float = SPREAD) -> tuple[tuple[float, ...], ...]:
    """``table[need][gap]``: for ``need`` 0 the chance that no opponent's card lands
    in a gap of ``gap - 1`` values; for ``need`` ≥ 1 the chance that at least
    ``need`` do (each opponent's card lands there with chance ``(gap-1)/spread``)."""
    from math import comb

    m = opponents
    out = []
    for need in range(ROW_LIMIT + 1):
        col: list[float] = []
        for gap in range(106):
            q = min(1.0, max(0, gap - 1) / spread)
            if need == 0:
                col.append((1.0 - q) ** m)
            else:
                col.append(sum(comb(m, k) * q**k * (1 - q) ** (m - k) for k in range(need, m + 1)))
        out.append(tuple(col))
    return tuple(out)


@lru_cache(maxsize=64)
def cost_table(opponents: int, spread: float = SPREAD) -> CostTable:
    """``table[need][points][gap]``: the danger of a card ``gap`` above the end of a row
    that needs ``need`` more cards before the sixth and holds ``points`` bullheads."""
    ptab = prob_table(opponents, spread)
    out = []
    for need in range(ROW_LIMIT + 1):
        col = ptab[need]
        per = []
        for points in range(MAX_ROW_POINTS + 1):
            cost = points + need * AVG_BH
            per.append(tuple(cost * x for x in col))
        out.append(tuple(per))
    return tuple(out)


MAX_ROW_POINTS = 5 * 7  # a row never holds more bullheads than five 55s would


def danger_table(rows: list[list[int]], pts: list[int], ctab: CostTable, low_extra: float = 0.0) -> list[float]:
    """``danger[c]`` for every card value 0…104 on the current rows (see module doc);
    ``ctab`` is a ``cost_table``."""
    order = sorted([(r[-1], len(r), p) for r, p in zip(rows, pts, strict=True)])
    tbl = [min(pts) + low_extra] * (order[0][0] + 1)
    ext = tbl.extend
    e, length, p = order[0]
    for nxt, ln, pp in order[1:]:
        ext(ctab[ROW_LIMIT - length][p][1 : nxt - e + 1])
        e, length, p = nxt, ln, pp
    ext(ctab[ROW_LIMIT - length][p][1 : 105 - e])
    return tbl


def heuristic_picks(rows: list[list[int]], pts: list[int], hands: list[list[int]], ctab: CostTable) -> list[int]:
    """Every seat's card by the danger table (the simulated opponents' policy)."""
    tbl = danger_table(rows, pts, ctab)
    key = tbl.__getitem__
    return [min(h, key=key) for h in hands]


class Floats:
    """A ``random.Random`` stand-in that hands out the given floats in turn: the same
    floats for every candidate of a search are its common random numbers, for the
    price of one list instead of one seeded generator per simulated round."""

    __slots__ = ("random",)

    def __init__(self, floats: list[float]) -> None:
        self.random: Callable[[], float] = iter(floats).__next__


def play_out(
    rows: list[list[int]],
    pts: list[int],
    hands: list[list[int]],
    pen: list[int],
    ctab: CostTable,
    rng: RandomSource | None = None,
    eps: float | Sequence[float] = 0.0,
) -> None:
    """Play the rest of the round: every seat plays by the danger table
    (a random card with chance ``eps``, a number or one per seat), low cards take
    the cheapest row. Mutates ``rows``, ``pts``, ``hands`` and ``pen``.
    ``rng`` needs only ``random()``: at most two calls per seat and turn."""
    n = len(hands)
    seats = range(n)
    bh = BH
    seat_eps = [eps] * n if isinstance(eps, (int, float)) else eps
    rnd = rng.random if rng is not None and any(seat_eps) else None  # None: no random cards
    last = len(rows) - 1
    while hands[0]:
        # The rows in order of their ends serve both the danger table and the placement.
        srt = sorted([(r[-1], i) for i, r in enumerate(rows)])
        e, i = srt[0]
        tbl: list[float] = [min(pts)] * (e + 1)
        ext = tbl.extend
        for nxt, j in srt[1:]:
            ext(ctab[ROW_LIMIT - len(rows[i])][pts[i]][1 : nxt - e + 1])
            e, i = nxt, j
        ext(ctab[ROW_LIMIT - len(rows[i])][pts[i]][1 : 105 - e])
        key = tbl.__getitem__
        order = []
        if rnd is not None:
            for p in seats:
                h = hands[p]
                if rnd() < seat_eps[p]:
                    c = h[int(rnd() * len(h))]
                else:
                    c = min(h, key=key)
                h.remove(c)
                order.append((c, p))
        else:
            for p in seats:
                h = hands[p]
                c = min(h, key=key)
                h.remove(c)
                order.append((c, p))
        order.sort()
        # Placement as a merge of the ascending cards with the ascending row ends: a card placed
        # on a row stays below the next row's end, so the order holds and the pointer only moves up.
        ends = [x[0] for x in srt]
        idx = [x[1] for x in srt]
        j = -1  # the last row, in order of ends, whose end is below the card
        for card, p in order:
            while j < last and ends[j + 1] < card:
                j += 1
            if j < 0:  # a low card takes the cheapest row, whose end becomes the lowest
                best = pts.index(min(pts))
                pen[p] += pts[best]
                rows[best] = [card]
                pts[best] = bh[card]
                k = idx.index(best)
                del idx[k], ends[k]
                idx.insert(0, best)
                ends.insert(0, card)
                j = 0
                continue
            best = idx[j]
            row = rows[best]
            if len(row) < ROW_LIMIT:
                row.append(card)
                pts[best] += bh[card]
            else:
                pen[p] += pts[best]
                rows[best] = [card]
                pts[best] = bh[card]
