"""The table of the Anniversary variant: rows with their markers, the special deck, takes.

State kept beside the classic lists (all plain, so copying and serialising stay simple):

* ``sevens[r]`` / ``stops[r]``: row ``r`` carries a 7 nimmt! / a Stop card;
* the 5th Row card lies on the table exactly while there are five rows (it
  always marks row 4, the row it opened: rows are only ever appended, and the
  next take removes a row);
* ``specials[p]``: player ``p``'s special cards; ``special_deck`` (top = last)
  and ``special_discard``.

Rulings (the rulebook is silent):

* A blocked row (Stop) is invisible to Rules 1 and 2: a card that fits only
  blocked rows is a low card (Rule 4), and its player chooses among the
  unblocked rows.
* With five rows, *every* take (full row, low card, a full row after Insert)
  puts the whole row and the taker's played number card on their pile, and
  the row disappears: four rows again, the 5th Row card is discarded.
* Every take removes all Stop cards (to the discard pile); a taken row's
  7 nimmt! is discarded with it.
* Negative = Positive cancels from the whole pile after the take (this row
  and earlier takes of this round, the taker's own played card included in
  a five-row take); the engine picks the set that cancels the most bullheads,
  then the fewest cards, then the lowest card numbers.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..cards import BULLHEADS
from ..config import GameConfig
from ..events import Event, RowTaken, TakeReason
from ..game import Game
from .events import (
    BullheadsCancelled,
    FifthRowClosed,
    SevenNimmtRemoved,
    SpecialDeckReshuffled,
    StopsRemoved,
)
from .specials import FIVE_ROWS, ROW_LIMIT, SEVEN_LIMIT, Special


def best_cancellation(pile: list[int], budget: int) -> tuple[int, ...]:
    """The cards of ``pile`` worth at most ``budget`` bullheads that cancel the most.

    Ties: fewest cards, then the lowest card numbers. A 0/1 knapsack over the
    (tiny) budget; cards are scanned in ascending order so a subset that ends in
    the newest card is compared correctly with the ones found before.
    """
    best: list[tuple[int, tuple[int, ...]] | None] = [None] * (budget + 1)
    best[0] = (0, ())
    for card in sorted(pile):
        cost = BULLHEADS[card]
        for total in range(budget, cost - 1, -1):
            base = best[total - cost]
            if base is None:
                continue
            candidate = (base[0] + 1, base[1] + (card,))
            found = best[total]
            if found is None or candidate < found:
                best[total] = candidate
    for total in range(budget, -1, -1):
        found = best[total]
        if found is not None:
            return found[1]
    return ()


class PlacementPreview(NamedTuple):
    """What placing a number card now does without a special card (see ``preview_placement``).

    ``row`` is ``None`` for a low card: its player then chooses an unblocked
    row to take, and ``bullheads`` is what the cheapest such row costs.
    ``bullheads`` counts everything the take puts on the pile (with five rows
    the played card too); it is 0 when nothing is taken.
    """

    card: int
    row: int | None
    takes: bool
    bullheads: int


class AnniversaryTable(Game):
    """The Anniversary state beside the classic lists, the row markers, the special deck and the
    take of a row (``AnniversaryGame`` builds on it)."""

    __slots__ = ("specials", "special_deck", "special_discard", "sevens", "stops", "decider", "decided")

    def __init__(self, config: GameConfig, rng: random.Random) -> None:
        super().__init__(config, rng)
        n = config.players
        self.specials: list[list[Special]] = [[] for _ in range(n)]
        self.special_deck: list[Special] = []  # face down; the top card is the last
        self.special_discard: list[Special] = []  # face up, oldest first
        self.sevens: list[bool] = []  # per row: a 7 nimmt! lies at its end
        self.stops: list[bool] = []  # per row: a Stop blocks it
        self.decider: int | None = None  # whom Phase.SPECIAL / Phase.SWAP waits for
        self.decided = False  # the special card of the card being placed is settled

    # -- rows ---------------------------------------------------------------------

    def capacity(self, row: int) -> int:
        """How many number cards ``row`` holds before the next one takes it."""
        return SEVEN_LIMIT if self.sevens[row] else ROW_LIMIT

    def open_rows(self) -> list[int]:
        """The rows without a Stop."""
        return [r for r, stop in enumerate(self.stops) if not stop]

    def row_for(self, card: int) -> int | None:
        """The row ``card`` goes to by Rules 1 and 2 among the unblocked rows; ``None``: low card."""
        best: int | None = None
        best_end = 0
        stops = self.stops
        for i, row in enumerate(self.rows):
            end = row[-1]
            if best_end < end < card and not stops[i]:
                best, best_end = i, end
        return best

    def cheapest_row(self) -> int:
        """The unblocked row with the fewest bullheads (lowest index on a tie)."""
        return min(self.open_rows(), key=lambda r: (self.row_bullheads(r), r))

    def takes_row(self, card: int) -> bool:
        """Whether placing ``card`` by the normal rules now takes a row."""
        return self.preview_placement(card).takes

    def preview_placement(self, card: int) -> PlacementPreview:
        """Where ``card`` goes if it is placed now by the normal rules, and what it takes.

        A pure query (the state is not touched): what a player weighs before
        deciding on a special card for the card about to be placed.
        """
        row = self.row_for(card)
        if row is None:
            taken = self.row_bullheads(self.cheapest_row())
        elif len(self.rows[row]) >= self.capacity(row):
            taken = self.row_bullheads(row)
        else:
            return PlacementPreview(card, row, False, 0)
        if len(self.rows) == FIVE_ROWS:  # the played card goes to the pile with the row
            taken += BULLHEADS[card]
        return PlacementPreview(card, row, True, taken)

    # -- the special deck ---------------------------------------------------------

    def _draw(self, events: list[Event]) -> Special:
        """The top special card; an empty deck is first rebuilt from the shuffled discard pile."""
        if not self.special_deck:
            deck = self.special_discard
            self.special_discard = []
            self.rng.shuffle(deck)
            self.special_deck = deck
            events.append(SpecialDeckReshuffled(len(deck)))
        return self.special_deck.pop()

    # -- taking a row -------------------------------------------------------------

    def _take_row(
        self,
        events: list[Event],
        player: int,
        row: int,
        taken: list[int],
        first: int,
        reason: TakeReason,
        named: int | None = None,
    ) -> bool:
        """``player`` takes ``taken`` from ``row``; ``first`` starts the row again.

        With five rows, ``first`` goes to the pile too and the row disappears.
        ``named``: the card of a Negative = Positive. Returns whether the row
        still exists (so the caller may announce ``first`` as placed there).
        """
        rows = self.rows
        pile = self.piles[player]
        pile.extend(taken)
        points = 0
        for c in taken:
            points += BULLHEADS[c]
        events.append(RowTaken(player, row, tuple(taken), points, reason))
        discard = self.special_discard
        stopped = tuple(r for r, s in enumerate(self.stops) if s)
        if stopped:
            discard.extend(Special.STOP for _ in stopped)
            self.stops = [False] * len(rows)
            events.append(StopsRemoved(stopped))
        if self.sevens[row]:
            discard.append(Special.SEVEN_NIMMT)
            self.sevens[row] = False
            events.append(SevenNimmtRemoved(row))
        stays = len(rows) < FIVE_ROWS
        if stays:
            rows[row] = [first]
        else:
            pile.append(first)
            del rows[row], self.sevens[row], self.stops[row]
            discard.append(Special.FIFTH_ROW)
            events.append(FifthRowClosed(player, row, first))
        if named is not None:
            self._cancel(events, player, named)
        self.round_points[player] = sum(BULLHEADS[c] for c in pile)
        return stays

    def _cancel(self, events: list[Event], player: int, named: int) -> None:
        """Negative = Positive: set ``named`` aside with the pile cards its bullheads cancel."""
        pile = self.piles[player]
        pile.remove(named)
        budget = BULLHEADS[named]
        cancelled = best_cancellation(pile, budget)
        for c in cancelled:
            pile.remove(c)
        self.set_aside.append(named)
        self.set_aside.extend(cancelled)
        points = sum(BULLHEADS[c] for c in cancelled)
        events.append(BullheadsCancelled(player, named, cancelled, points, budget - points))
