"""``AnniversaryGame``: 6 nimmt! with the seven special cards (2–8 players, two rounds).

Set-up and flow (rulebook, Anniversary variant): number cards and special
cards are shuffled separately; each player gets twelve number cards and three
special cards; the rest of the special cards form a face-down deck, used ones
a face-up discard pile (shuffled into a new deck when the deck runs out).
After round 1 all 104 number cards are dealt again; players keep their
special cards and draw three more each.

Rulings:

* The round-2 deal draws from the deck, rebuilt from the discard pile when it
  runs out (special cards left on the table at the end of round 1 are
  discarded first). Everyone gets ``min(3, available // players)`` cards.
* A swap draws first (rebuilding an empty deck from the discard pile) and only
  then discards the swapped card, so a swap never hands back the same card.
* At the end of the game the special cards stay where they are (hands and
  table): they score nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, ChooseRow
from ..cards import BULLHEADS
from ..config import GameConfig, Variant
from ..errors import InvalidConfig, InvalidRow, NotYourTurn, RowBlocked, SpecialNotInHand, WrongPhase
from ..events import CardPlaced, Event, TakeReason
from ..phase import Phase
from ..setup import check_even_hands
from .actions import DeclineSpecial, DeclineSwap, PlaySpecial, Swap
from .events import SpecialDeclined, SpecialPlayed, SpecialsDealt, SpecialSwapped, SwapDeclined
from .legal import all_special_plays, refuse, special_plays
from .placement import AnniversaryPlacement
from .specials import FIVE_ROWS, FOUR_ROWS, SPECIAL_DECK, SPECIALS_PER_DEAL, Special, sort_specials


class AnniversaryGame(AnniversaryPlacement):
    """A game of the Anniversary variant. ``Game.new`` makes one for an Anniversary config."""

    __slots__ = ()

    def __init__(self, config: GameConfig, rng: random.Random) -> None:
        if config.variant is not Variant.ANNIVERSARY:
            raise InvalidConfig("an AnniversaryGame needs the anniversary variant")
        super().__init__(config, rng)

    @classmethod
    def from_position(
        cls,
        config: GameConfig,
        rows: list[list[int]],
        hands: list[list[int]],
        *,
        specials: Sequence[Sequence[Special | str]] | None = None,
        piles: list[list[int]] | None = None,
        sevens: list[bool] | None = None,
        stops: list[bool] | None = None,
        special_deck: Sequence[Special | str] | None = None,
        special_discard: Sequence[Special | str] | None = None,
        totals: list[int] | None = None,
        seed: int = 0,
    ) -> AnniversaryGame:
        """A game at a chosen position in its picking phase (rulebook examples, puzzles).

        Four or five ascending rows; special cards not in a hand, the discard
        pile or on the table form the deck (shuffled by ``seed``) unless
        ``special_deck`` is given. Number cards not in play are set aside.
        """
        n = config.players
        piles = [list(p) for p in piles] if piles is not None else [[] for _ in range(n)]
        if len(hands) != n or len(piles) != n:
            raise InvalidConfig(f"a position for {n} players needs {n} hands and piles")
        check_even_hands(hands)
        if len(rows) not in (FOUR_ROWS, FIVE_ROWS) or any(not r or r != sorted(r) for r in rows):
            raise InvalidConfig("a position needs four or five ascending rows")
        sevens = list(sevens) if sevens is not None else [False] * len(rows)
        stops = list(stops) if stops is not None else [False] * len(rows)
        if len(sevens) != len(rows) or len(stops) != len(rows):
            raise InvalidConfig("a position needs one 7 nimmt! flag and one Stop flag per row")
        if any(len(r) > (6 if s else 5) for r, s in zip(rows, sevens, strict=True)) or sum(stops) > 2:
            raise InvalidConfig("a row holds five cards (six with a 7 nimmt!); two Stops at most")
        used = [c for group in (rows, hands, piles) for cards in group for c in cards]
        if len(set(used)) != len(used) or not all(1 <= c <= 104 for c in used):
            raise InvalidConfig("a position may use each card once, from 1 to 104")
        game = cls(config, random.Random(seed))
        game.round, game.turn, game.phase = 1, 1, Phase.PICK
        game.rows = [list(r) for r in rows]
        game.hands = [sorted(h) for h in hands]
        game.piles = piles
        game.round_points = [sum(BULLHEADS[c] for c in p) for p in piles]
        game.totals = list(totals) if totals is not None else [0] * n
        in_play = set(used)
        game.set_aside = [c for c in range(1, 105) if c not in in_play]
        game.sevens, game.stops = sevens, stops
        specials = specials if specials is not None else [[] for _ in range(n)]
        game.specials = [sort_specials(Special(s) for s in h) for h in specials]
        game.special_discard = [Special(s) for s in special_discard or ()]
        left = list(SPECIAL_DECK)
        on_table = [c for h in game.specials for c in h] + game.special_discard
        on_table += [Special.SEVEN_NIMMT] * sum(sevens) + [Special.STOP] * sum(stops)
        on_table += [Special.FIFTH_ROW] * (len(rows) == FIVE_ROWS)
        if special_deck is not None:
            on_table += [Special(s) for s in special_deck]
        for s in on_table:
            if s not in left:
                raise InvalidConfig(f"there are only four {s.label} cards")
            left.remove(s)
        if special_deck is not None:
            game.special_deck = [Special(s) for s in special_deck]
            game.special_discard += left
        else:
            game.rng.shuffle(left)
            game.special_deck = left
        return game

    # -- rounds ------------------------------------------------------------------

    def _start_round(self, events: list[Event]) -> None:
        discard = self.special_discard
        if self.round == 0:  # the special cards are shuffled on their own
            deck = list(SPECIAL_DECK)
        else:  # markers left on the table at the end of a round are discarded
            deck = self.special_deck
            discard.extend(Special.SEVEN_NIMMT for s in self.sevens if s)
            discard.extend(Special.STOP for s in self.stops if s)
            if len(self.rows) == FIVE_ROWS:
                discard.append(Special.FIFTH_ROW)
        super()._start_round(events)
        self.sevens = [False] * len(self.rows)
        self.stops = [False] * len(self.rows)
        self.decider, self.decided = None, False
        if self.round == 1:
            self.rng.shuffle(deck)
            self.special_deck = deck
        n = self.config.players
        count = min(SPECIALS_PER_DEAL, (len(self.special_deck) + len(discard)) // n)
        drawn: list[list[Special]] = [[] for _ in range(n)]
        for _ in range(count):
            for p in range(n):
                drawn[p].append(self._draw(events))
        self.specials = [sort_specials(h + d) for h, d in zip(self.specials, drawn, strict=True)]
        events.append(SpecialsDealt(self.round, (count,) * n))

    # -- queries -----------------------------------------------------------------

    @property
    def waiting_for(self) -> tuple[int, ...]:
        if (self.phase is Phase.SPECIAL or self.phase is Phase.SWAP) and self.decider is not None:
            return (self.decider,)
        return super().waiting_for

    @property
    def special_card(self) -> int | None:
        """The number card waiting for its player's special-card decision (already revealed)."""
        return self.pending[-1][0] if self.phase is Phase.SPECIAL else None

    def legal_actions(self, player: int) -> list[Action]:
        self._check_player(player)
        phase = self.phase
        if phase is Phase.SPECIAL:
            if player != self.decider:
                return []
            return all_special_plays(self, player, self.pending[-1][0]) + [DeclineSpecial(player)]
        if phase is Phase.SWAP:
            if player != self.decider:
                return []
            kinds = sort_specials(set(self.specials[player]))
            return [Swap(player, s) for s in kinds] + [DeclineSwap(player)]
        if phase is Phase.CHOOSE_ROW:
            if player != self.chooser:
                return []
            return [ChooseRow(player, r) for r in self.open_rows()]
        return super().legal_actions(player)

    # -- actions -----------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, PlaySpecial):
            return self.play_special(action)
        if isinstance(action, DeclineSpecial):
            return self.decline_special(action.player)
        if isinstance(action, Swap):
            return self.swap(action.player, action.special)
        if isinstance(action, DeclineSwap):
            return self.decline_swap(action.player)
        return super().apply(action)

    def _check_decider(self, player: int, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise WrongPhase(self._not_now(what))
        if type(player) is not int or player != self.decider:  # True == 1, but is no seat
            self._check_player(player)
            raise NotYourTurn(f"you cannot {what} now: the game waits for another player")

    def play_special(self, action: PlaySpecial) -> list[Event]:
        """Play a special card on your number card about to be placed (see ``legal.py``)."""
        self._check_decider(action.player, Phase.SPECIAL, "play a special card")
        card = self.pending[-1][0]
        if (
            not isinstance(action.special, Special)
            or action not in special_plays(self, action.player, card, action.special)
            or action.special not in self.specials[action.player]
        ):
            raise refuse(self, action, card)
        player = action.player
        self.specials[player].remove(action.special)
        if action.special not in (Special.STOP, Special.SEVEN_NIMMT, Special.FIFTH_ROW):
            self.special_discard.append(action.special)
        events: list[Event] = [SpecialPlayed(player, action.special, card)]
        self.decider = None
        self._play_effect(events, player, card, action)
        return events

    def decline_special(self, player: int) -> list[Event]:
        """Place your number card without a special card."""
        self._check_decider(player, Phase.SPECIAL, "decline a special card")
        events: list[Event] = [SpecialDeclined(player, self.pending[-1][0])]
        self.decided = True
        self.decider = None
        self._resolve(events)
        return events

    def swap(self, player: int, special: Special | str) -> list[Event]:
        """Discard ``special`` from your hand and draw the top card of the special deck."""
        self._check_decider(player, Phase.SWAP, "swap a special card")
        try:
            special = Special(special)
        except ValueError:
            raise SpecialNotInHand(f"{special!r} is not a special card") from None
        hand = self.specials[player]
        if special not in hand:
            raise SpecialNotInHand(f"you do not hold a {special.label} card")
        events: list[Event] = []
        drawn = self._draw(events)
        hand.remove(special)
        hand.append(drawn)
        self.specials[player] = sort_specials(hand)
        self.special_discard.append(special)
        events.append(SpecialSwapped(player, special))
        self.decider = None
        self._resolve(events)
        return events

    def decline_swap(self, player: int) -> list[Event]:
        """Keep your special cards."""
        self._check_decider(player, Phase.SWAP, "decline a swap")
        events: list[Event] = [SwapDeclined(player)]
        self.decider = None
        self._resolve(events)
        return events

    def choose_row(self, player: int, row: int) -> list[Event]:
        """Take ``row`` (an unblocked one) for a low card."""
        if self.phase is not Phase.CHOOSE_ROW:
            raise WrongPhase(self._not_now("choose a row"))
        if type(player) is not int or player != self.chooser:
            self._check_player(player)
            raise NotYourTurn("it is not your low card: another player chooses the row")
        if type(row) is not int or not 0 <= row < len(self.rows):
            raise InvalidRow(f"there is no row {row + 1 if type(row) is int else row}")
        if self.stops[row]:
            raise RowBlocked(f"row {row + 1} is blocked by a Stop: choose another row")
        card = self.pending.pop()[0]
        self.chooser = None
        self.decided = False
        events: list[Event] = []
        if self._take_row(events, player, row, self.rows[row], card, TakeReason.LOW_CARD):
            events.append(CardPlaced(player, card, row))
        if not self._offer_swap(events, player):
            self._resolve(events)
        return events

    # Its view and its saved form: see view.py and serialize.py, registered in __init__.py.
