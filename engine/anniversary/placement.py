"""Placing number cards in the Anniversary variant: the pauses and each special card's effect.

``_resolve`` is the classic loop with three pauses added, always in this order
for the card about to be placed (lowest first):

1. **Special** (``Phase.SPECIAL``): its player holds a special card legal for
   this card now (see ``legal.py``). Decided once per placement: after a play
   or a decline the card is placed without asking again.
2. **Row choice** (``Phase.CHOOSE_ROW``): a low card (Rule 4) — among the
   unblocked rows.
3. **Swap** (``Phase.SWAP``): after any take, its taker may swap one special
   card for the top of the deck, if they hold one and the deck (or the discard
   pile it is rebuilt from) is not empty. Offered before the next card is placed;
   not at the last turn of the last round, where the new card could never be
   played (the swap would change nothing and only delay the results).

Rulings for effects the rulebook leaves open:

* **Replace**: the replacement is placed at once, with no special card of its
  own (a low replacement still gets its row choice and a take its swap).
* **Shift**: if the move empties the source row, the played card starts that
  row (rulebook, Shift example 2); otherwise it is placed by the normal rules.
* **Insert** into a row at its capacity takes it: all but the row's last card
  go to the pile and that last card starts the row (with five rows: the whole
  row goes, see ``table.py``).
* **Stop** / **7 nimmt!** / **5th Row** stay on the table as markers; the
  others go straight to the discard pile.
"""

from __future__ import annotations

from bisect import insort

from ..errors import IllegalSpecial
from ..events import CardPlaced, Event, RowChoiceRequired, TakeReason
from ..phase import Phase
from .actions import PlaySpecial
from .events import (
    CardInserted,
    CardReplaced,
    CardShifted,
    FifthRowOpened,
    SevenNimmtPlaced,
    SpecialChoiceRequired,
    StopPlaced,
    SwapOffered,
)
from .legal import has_special_play
from .specials import Special
from .table import AnniversaryTable


class AnniversaryPlacement(AnniversaryTable):
    """The resolution loop and the special cards' effects (``AnniversaryGame`` builds on it)."""

    __slots__ = ()

    def _resolve(self, events: list[Event]) -> None:
        rows = self.rows
        pending = self.pending
        add = events.append
        while pending:
            card, player = pending[-1]
            if not self.decided and self.specials[player] and has_special_play(self, player, card):
                self.phase = Phase.SPECIAL
                self.decider = player
                add(SpecialChoiceRequired(player, card))
                return
            self.decided = True
            best = self.row_for(card)
            if best is None:
                self.phase = Phase.CHOOSE_ROW
                self.chooser = player
                add(RowChoiceRequired(player, card))
                return
            pending.pop()
            self.decided = False
            row = rows[best]
            if len(row) < self.capacity(best):
                row.append(card)
                add(CardPlaced(player, card, best))
                continue
            if self._take_row(events, player, best, row, card, TakeReason.FULL_ROW):
                add(CardPlaced(player, card, best))
            if self._offer_swap(events, player):
                return
        self.phase = Phase.PICK
        self.decider = None
        if self.hands[0]:
            self.turn += 1
        else:
            self._end_round(events)

    def _offer_swap(self, events: list[Event], player: int) -> bool:
        """Pause for ``player``'s swap after a take, if a swap is possible."""
        if self._last_placement(player):
            return False
        if self.specials[player] and (self.special_deck or self.special_discard):
            self.phase = Phase.SWAP
            self.decider = player
            events.append(SwapOffered(player))
            return True
        return False

    def _last_placement(self, player: int) -> bool:
        """Whether ``player`` has no number card left to place in this game (a swap is useless then)."""
        rounds = self.config.rounds
        return rounds is not None and self.round >= rounds and not self.hands[player]

    # -- effects of the special cards (the play is already known to be legal) -----

    def _play_effect(self, events: list[Event], player: int, card: int, action: PlaySpecial) -> None:
        """Carry out ``action`` on ``card`` (the top of ``pending``), then go on resolving."""
        kind = action.special
        add = events.append
        rows = self.rows
        self.decided = True  # at most one special card per placement
        if kind is Special.FIFTH_ROW:
            self.pending.pop()
            rows.append([card])
            self.sevens.append(False)
            self.stops.append(False)
            self.decided = False
            add(FifthRowOpened(player, card, len(rows) - 1))
        elif kind is Special.SEVEN_NIMMT:
            row = given(action.row)
            self.sevens[row] = True
            add(SevenNimmtPlaced(player, row))
        elif kind is Special.STOP:
            row = given(action.row)
            self.stops[row] = True
            add(StopPlaced(player, row))
        elif kind is Special.REPLACE:
            replacement = given(action.card)
            hand = self.hands[player]
            hand.remove(replacement)
            hand.append(card)
            hand.sort()
            self.pending[-1] = (replacement, player)
            add(CardReplaced(player, card, replacement))
        elif kind is Special.SHIFT:
            row, moved, target = given(action.row), given(action.card), given(action.target_row)
            source = rows[row]
            source.remove(moved)
            insort(rows[target], moved)
            add(CardShifted(player, moved, row, target, rows[target].index(moved)))
            if not source:  # Shift example 2: the played card starts the emptied row
                self.pending.pop()
                self.decided = False
                source.append(card)
                add(CardPlaced(player, card, row))
        elif kind is Special.INSERT:
            row, position = given(action.row), given(action.position)
            self.pending.pop()
            self.decided = False
            cards = rows[row]
            cards.insert(position, card)
            add(CardInserted(player, card, row, position))
            if len(cards) > self.capacity(row):
                self._take_row(events, player, row, cards[:-1], cards[-1], TakeReason.FULL_ROW)
                if self._offer_swap(events, player):
                    return
        elif kind is Special.NEGATIVE_POSITIVE:
            row, named = given(action.row), given(action.card)
            self.pending.pop()
            self.decided = False
            low = self.row_for(card) is None
            reason = TakeReason.LOW_CARD if low else TakeReason.FULL_ROW
            if self._take_row(events, player, row, rows[row], card, reason, named=named):
                add(CardPlaced(player, card, row))
            if self._offer_swap(events, player):
                return
        self._resolve(events)


def given(value: int | None) -> int:
    """A parameter of a special play already found legal: every legal play names each parameter
    its special card uses (see ``legal.special_plays``), so ``None`` here is a bug, not a move."""
    if value is None:
        raise IllegalSpecial("this special card's play lacks a row or card it needs")
    return value
