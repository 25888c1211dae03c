"""A fast simulation of the rest of an Anniversary round, special cards included, for hard's search.

The classic kernel (``kernel``) knows four rows of five. An Anniversary table also has
rows of six (under a 7 nimmt!), rows blocked by a Stop, a fifth row whose take removes
it, and players holding special cards that turn a take away. ``Table`` is that state as
plain lists; ``place`` puts one revealed card on it, by the engine's rules for the table
(``tests/engine/test_ai_anniversary_kernel.py`` checks them against ``AnniversaryGame``),
and ``play_out`` finishes the round with every seat playing the danger table.

A simulated player spends a special card only on a take, and only when the card saves
more than it is worth keeping (``WORTH`` times a scale that shrinks as the game runs out:
the medium level's rule). Each kind does what it does on the real table, simplified to
one fixed way of playing it:

* **5th Row** (four rows): the card starts a fifth row.
* **7 nimmt!** (a full row): the row holds six; the card is the sixth.
* **Insert**: the card goes into the open row with the most room, where it keeps the row ascending.
* **Replace**: the player's lowest card that lands on a row with room is placed instead.
* **Shift** (a full row): the row's first card moves to the open row with the most room.
* **Stop** (a full row): the row is blocked and the card goes to a row with room, if it then fits one.
* **Negative = Positive**: the take happens; the row's dearest card and as many bullheads
  again from the pile are set aside (an estimate of the best cancellation).

The swap after a take is not simulated. Kinds are ``Special`` members (a ``str`` enum).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence

from ..anniversary.specials import FIVE_ROWS, FOUR_ROWS, MAX_STOPS, ROW_LIMIT, SEVEN_LIMIT, Special
from ..cards import BULLHEADS
from .kernel import MAX_ROW_POINTS, CostTable

BH = BULLHEADS
FIFTH_ROW, SEVEN_NIMMT, INSERT, REPLACE, SHIFT, STOP, NEGATIVE_POSITIVE = (
    Special.FIFTH_ROW,
    Special.SEVEN_NIMMT,
    Special.INSERT,
    Special.REPLACE,
    Special.SHIFT,
    Special.STOP,
    Special.NEGATIVE_POSITIVE,
)

#: How useful a special card is to hold, relative to the others (an average draw ≈ 1).
WORTH = {
    Special.NEGATIVE_POSITIVE: 1.3,
    Special.SEVEN_NIMMT: 1.1,
    Special.REPLACE: 1.1,
    Special.INSERT: 1.0,
    Special.SHIFT: 1.0,
    Special.STOP: 1.0,
    Special.FIFTH_ROW: 0.6,
}
AVERAGE_WORTH = sum(WORTH.values()) / len(WORTH)
HAND = 12  # number cards per round
NO_ARG = -1  # how a special card is played, for a kind played one way only (see ``Table._saving``)


def worth_scale(turns_left: int) -> float:
    """Bullheads a special card of worth 1 is worth keeping with ``turns_left`` number cards to play."""
    return min(4.0, 0.2 * turns_left)


class Table:
    """The rows of an Anniversary round with their markers, the seats' special cards and penalties."""

    __slots__ = ("rows", "pts", "caps", "stops", "held", "hands", "pen")

    def __init__(
        self,
        rows: Iterable[Sequence[int]],
        caps: Iterable[int],
        stops: Iterable[bool],
        held: Iterable[Iterable[Special]],
        hands: list[list[int]],
    ) -> None:
        self.rows = [list(r) for r in rows]
        self.pts = [sum(BH[c] for c in r) for r in self.rows]
        self.caps = list(caps)
        self.stops = list(stops)
        self.held = [list(h) for h in held]  # special cards per seat
        self.hands = hands  # number cards per seat (mutated by play_out)
        self.pen = [0] * len(hands)

    # -- the rules for a card without a special card ------------------------------------

    def row_for(self, card: int) -> int:
        """The unblocked row ``card`` goes to by Rules 1 and 2, or -1 (a low card)."""
        best, best_end = -1, 0
        stops = self.stops
        i = 0
        for row in self.rows:
            e = row[-1]
            if best_end < e < card and not stops[i]:
                best, best_end = i, e
            i += 1  # noqa: SIM113 - a counter: enumerate costs more on this hot path
        return best

    def cheapest(self) -> int:
        """The unblocked row with the fewest bullheads (lowest index on a tie)."""
        pts, stops = self.pts, self.stops
        best = -1
        for i in range(len(pts)):
            if not stops[i] and (best < 0 or pts[i] < pts[best]):
                best = i
        return best

    def take(self, p: int, r: int, card: int, named_saving: int = 0) -> None:
        """Seat ``p`` takes row ``r``; ``card`` starts it again (with five rows: the row goes)."""
        self.pen[p] += self.pts[r] - named_saving
        if any(self.stops):
            self.stops = [False] * len(self.rows)
        if len(self.rows) == FIVE_ROWS:
            self.pen[p] += BH[card]
            del self.rows[r], self.pts[r], self.caps[r], self.stops[r]
        else:
            self.rows[r] = [card]
            self.pts[r] = BH[card]
            self.caps[r] = ROW_LIMIT

    def _append(self, r: int, card: int) -> None:
        self.rows[r].append(card)
        self.pts[r] += BH[card]

    # -- one card -----------------------------------------------------------------------

    def place(self, p: int, card: int, scale: float = 0.0) -> None:
        """Place seat ``p``'s revealed ``card``; before a take, ``p`` may spend a special card
        that saves more than ``scale`` times its ``WORTH`` (0: any saving)."""
        r = self.row_for(card)
        if r >= 0 and len(self.rows[r]) < self.caps[r]:
            self._append(r, card)
            return
        if self.held[p] and self._special(p, card, r, scale):
            return
        if r < 0:
            r = self.cheapest()
        self.take(p, r, card)

    def _cost(self, card: int, r: int) -> int:
        """What the take ``card`` faces costs (the cheapest row for a low card)."""
        extra = BH[card] if len(self.rows) == FIVE_ROWS else 0
        return self.pts[r if r >= 0 else self.cheapest()] + extra

    def _special(self, p: int, card: int, r: int, scale: float) -> bool:
        """Spend the special card of ``p`` that saves most beyond its worth on the take that
        ``card`` faces; whether one was spent (the card is then placed)."""
        cost = self._cost(card, r)
        best_kind: Special | None = None
        best_gain, best_arg = 0.0, NO_ARG
        for kind in set(self.held[p]):
            saving, arg = self._saving(kind, p, card, r, cost)
            gain = saving - WORTH[kind] * scale
            if saving > 0 and gain > best_gain:
                best_kind, best_gain, best_arg = kind, gain, arg
        if best_kind is None:
            return False
        self.held[p].remove(best_kind)
        self._effect(best_kind, p, card, r, best_arg)
        return True

    def _roomiest(self, exclude: int = -1) -> int:
        """The unblocked row with the most room (lowest index on a tie), or -1."""
        best, room = -1, 0
        for i, row in enumerate(self.rows):
            free = self.caps[i] - len(row)
            if i != exclude and not self.stops[i] and free > room:
                best, room = i, free
        return best

    def _saving(self, kind: Special, p: int, card: int, r: int, cost: int) -> tuple[int, int]:
        """(bullheads ``kind`` saves on the take ``card`` faces, how it is played: a row or a
        card, ``NO_ARG`` for a kind played one way only)."""
        full = r >= 0  # else a low card
        if kind is FIFTH_ROW:
            return (cost, NO_ARG) if len(self.rows) == FOUR_ROWS else (0, NO_ARG)
        if kind is SEVEN_NIMMT:
            return (cost, NO_ARG) if full and self.caps[r] == ROW_LIMIT else (0, NO_ARG)
        if kind is INSERT:
            j = self._roomiest()
            return (cost, j) if j >= 0 else (0, NO_ARG)
        if kind is REPLACE:
            for c in self.hands[p]:
                j = self.row_for(c)
                if j >= 0 and len(self.rows[j]) < self.caps[j]:
                    return cost, c
            return 0, NO_ARG
        if kind is SHIFT:
            if not full or len(self.rows[r]) < 2:
                return 0, NO_ARG
            j = self._roomiest(exclude=r)
            return (cost, j) if j >= 0 else (0, NO_ARG)
        if kind is STOP:
            if not full or sum(self.stops) >= MAX_STOPS:
                return 0, NO_ARG
            self.stops[r] = True
            j = self.row_for(card)
            fits = j >= 0 and len(self.rows[j]) < self.caps[j]
            self.stops[r] = False
            return (cost, NO_ARG) if fits else (0, NO_ARG)
        if kind is NEGATIVE_POSITIVE:
            row = r if full else self.cheapest()
            named = max(BH[c] for c in self.rows[row])
            return named + min(named, cost - named), row
        return 0, NO_ARG

    def _effect(self, kind: Special, p: int, card: int, r: int, arg: int) -> None:
        rows = self.rows
        if kind is FIFTH_ROW:
            rows.append([card])
            self.pts.append(BH[card])
            self.caps.append(ROW_LIMIT)
            self.stops.append(False)
        elif kind is SEVEN_NIMMT:
            self.caps[r] = SEVEN_LIMIT
            self._append(r, card)
        elif kind is INSERT:
            rows[arg].insert(bisect_left(rows[arg], card), card)
            self.pts[arg] += BH[card]
        elif kind is REPLACE:
            hand = self.hands[p]
            hand.remove(arg)
            hand.append(card)
            hand.sort()
            self._append(self.row_for(arg), arg)
        elif kind is SHIFT:
            moved = rows[r].pop(0)
            self.pts[r] -= BH[moved]
            rows[arg].insert(bisect_left(rows[arg], moved), moved)
            self.pts[arg] += BH[moved]
            self._append(r, card)
        elif kind is STOP:
            self.stops[r] = True
            self._append(self.row_for(card), card)
        else:  # NEGATIVE_POSITIVE: the take, with the cancelled bullheads off
            cost = self._cost(card, r)
            named = max(BH[c] for c in rows[arg])
            self.take(p, arg, card, named + min(named, cost - named))

    # -- the rest of the round ----------------------------------------------------------

    def danger(self, ctab: CostTable) -> list[float]:
        """The danger table (``kernel.danger_table``) of the unblocked rows, each with its capacity."""
        rows, pts, caps = self.rows, self.pts, self.caps
        order = sorted([(rows[i][-1], i) for i in range(len(rows)) if not self.stops[i]])
        e, i = order[0]
        tbl = [float(min(pts[j] for _, j in order))] * (e + 1)
        ext = tbl.extend
        for nxt, j in order[1:]:
            ext(ctab[max(0, caps[i] - len(rows[i]))][min(pts[i], MAX_ROW_POINTS)][1 : nxt - e + 1])
            e, i = nxt, j
        ext(ctab[max(0, caps[i] - len(rows[i]))][min(pts[i], MAX_ROW_POINTS)][1 : 105 - e])
        return tbl

    def play_turn(self, order: Iterable[tuple[int, int]], scale: float) -> None:
        """Place the revealed ``(card, seat)`` pairs, lowest first."""
        for card, p in sorted(order):
            self.place(p, card, scale)

    def play_out(self, ctab: CostTable, rnd: Callable[[], float], eps: Sequence[float], later_turns: int) -> None:
        """Play the rest of the round: each seat plays by the danger table, a random card with
        chance ``eps[seat]`` (``rnd()`` gives the uniform floats); ``later_turns`` number cards
        follow this round in the game (they set what a special card is worth keeping)."""
        hands = self.hands
        seats = range(len(hands))
        while hands[0]:
            key = self.danger(ctab).__getitem__
            order = []
            for p in seats:
                h = hands[p]
                if eps[p] and rnd() < eps[p]:
                    c = h[int(rnd() * len(h))]
                else:
                    c = min(h, key=key)
                h.remove(c)
                order.append((c, p))
            self.play_turn(order, worth_scale(len(hands[0]) + later_turns))
