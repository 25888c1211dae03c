"""Medium's card choice, fast: how the hard level's simulated opponents pick.

``heuristics.pick_keys`` rates a card by the bullheads it expects to take this
turn, counting the unseen cards in the card's gap one by one. The search needs
that choice for every opponent in every determinization, so ``MediumModel``
does the shared work once per decision: for every card value, its row, the end
of that row and how many cards of the *universe* lie in the gap. The universe
is what the searching player has not seen plus its own hand — exactly the cards
any opponent has not seen, plus that opponent's own hand; ``pick`` subtracts
the opponent's own cards in the gap.

The binomial tails come from ``heuristics._at_least`` (memoized), and the key
is computed with medium's own expressions, so the keys are bit-identical and
ties go the same way (the lowest card); ``tests/engine/test_ai_medium_model.py``
checks that the choice agrees with ``heuristics.medium_pick``. Classic only:
in the Pro variant medium counts each known hand separately.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from ..cards import ROW_LIMIT
from . import heuristics, kernel

AVG_BH = kernel.AVG_BH
#: (opponents, need, k, size) -> the chance that at least ``need`` land in the gap
_TAILS: dict[tuple[int, int, int, int], float] = {}


def _tail(m: int, need: int, k: int, size: int) -> float:
    key = (m, need, k, size)
    got = _TAILS.get(key)
    if got is None:
        odds = [k / size] * m if size else []
        got = _TAILS[key] = heuristics._at_least(odds, need)
    return got


class MediumModel:
    """Medium's pick for any seat facing ``opponents`` others on fixed rows."""

    __slots__ = ("size", "m", "low", "end", "base", "need", "pts", "cost")

    def __init__(
        self,
        rows: list[list[int]],
        pts: list[int],
        universe: Sequence[int],
        opponents: int,
        deck_size: int = 104,
    ) -> None:
        self.size = len(universe)
        self.m = opponents
        self.low = float(min(pts))
        below = [0] * (deck_size + 2)  # below[v]: cards of the universe lower than v
        for c in universe:
            below[c + 1] += 1
        for v in range(1, deck_size + 2):
            below[v] += below[v - 1]
        ends = [r[-1] for r in rows]
        n = deck_size + 1
        self.end = end = [-1] * n
        self.base = base = [0] * n
        self.need = need = [0] * n
        self.pts = rp = [0] * n
        self.cost = cost = [0.0] * n
        for c in range(1, n):
            r = kernel.row_for(rows, c)
            if r < 0:
                continue
            e = ends[r]
            end[c] = e
            base[c] = below[c] - below[e + 1]
            need[c] = nd = max(0, ROW_LIMIT - len(rows[r]))
            rp[c] = pts[r]
            cost[c] = pts[r] + nd * AVG_BH

    def keys(self, hand: list[int]) -> list[float]:
        """Medium's key for every card of the sorted ``hand`` (lower is better)."""
        size = self.size - len(hand)  # the unseen cards of the hand's owner
        m = self.m
        out = []
        for i, c in enumerate(hand):
            e = self.end[c]
            if e < 0:
                out.append(self.low + 0.0)
                continue
            k = self.base[c] - (i - bisect_right(hand, e))
            nd = self.need[c]
            if nd == 0:
                danger = self.pts[c] * (1.0 - _tail(m, 1, k, size))
            else:
                danger = _tail(m, nd, k, size) * self.cost[c]
            out.append(danger + 0.002 * (c - e))
        return out

    def pick(self, hand: list[int]) -> int:
        """Medium's card from the sorted ``hand`` (the lowest on a tie)."""
        keys = self.keys(hand)
        return hand[keys.index(min(keys))]
