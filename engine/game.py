"""The state of a game of 6 nimmt! (classic and Pro) and the rules that change it.

In the spirit of OpenSpiel's simultaneous-move games: the state says its
``phase`` and whom it ``waiting_for``; ``legal_actions(player)`` lists what a
player may do; ``apply(action)`` (or the direct methods ``pick``,
``choose_row``, ``draft``) changes the state and returns the events that
happened. Picks are collected face down and applied together once everyone
has chosen. An illegal action raises an ``IllegalAction`` and changes nothing.

The state is plain lists of ints so that random play and AI simulations stay
fast (``engine/state.py``); players are seats ``0 … n-1`` and rows are ``0 … 3``.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from operator import add
from typing import Any, Self

from .actions import Action, ChooseRow, Draft, Pick
from .cards import BULLHEADS, HIGHEST_CARD, ROW_COUNT, ROW_LIMIT
from .config import GameConfig
from .errors import CardNotInHand, InvalidRow, NotYourTurn, UnknownPlayer, WrongPhase
from .events import (
    CardDrafted,
    CardPicked,
    CardPlaced,
    CardsRevealed,
    DraftEnded,
    Event,
    GameEnded,
    RoundEnded,
    RoundStarted,
    RowChoiceRequired,
    RowTaken,
    TakeReason,
)
from .outcome import Outcome, Termination
from .phase import DOING, Phase
from .serialize import game_from_dict, game_to_dict
from .setup import deal, game_at_position
from .state import GameState
from .variants import MAX_PLAYERS, Parts, Variant, register, variant_spec
from .view import PlayerView, observe

__all__ = ["Game"]

# Events are immutable tuples, so the ones made of a few small ints are made once
# and shared: a lookup costs ~0.03 µs where building a NamedTuple costs ~0.3–0.6 µs,
# and random play makes about eight events a turn. A pick is announced without its card.
_SEATS = range(MAX_PLAYERS)
_CARDS = range(HIGHEST_CARD + 1)
_PICKED = tuple(CardPicked(p) for p in _SEATS)
_PAIRS = tuple(tuple((c, p) for c in _CARDS) for p in _SEATS)  # (card, seat) as CardsRevealed lists them
_PLACED = tuple(tuple(tuple(CardPlaced(p, c, r) for r in range(ROW_COUNT)) for c in _CARDS) for p in _SEATS)
_LOW = tuple(tuple(RowChoiceRequired(p, c) for c in _CARDS) for p in _SEATS)
_new = tuple.__new__  # RowTaken(...) through tuple.__new__ skips the NamedTuple wrapper
_FULL_ROW, _LOW_CARD = TakeReason.FULL_ROW, TakeReason.LOW_CARD


# module constants: an enum class attribute costs ~1k instructions
_PICK, _CHOOSE_ROW, _DRAFT = Phase.PICK, Phase.CHOOSE_ROW, Phase.DRAFT
_PRO = Variant.PRO


class Game(GameState):
    """A game in progress. Create one with ``Game.new(config, seed=…)``."""

    __slots__ = ()

    # -- construction -------------------------------------------------------------

    @classmethod
    def new(cls, config: GameConfig, seed: int | None = None, rng: random.Random | None = None) -> Game:
        """Deal the first round. All randomness comes from ``rng`` (or ``Random(seed)``).

        ``Game.new`` returns the variant's state class (an ``AnniversaryGame``
        for an Anniversary config; see ``engine.variants``).
        """
        state = variant_class(config.variant) if cls is Game else cls
        game = state(config, rng if rng is not None else random.Random(seed))
        game._start_round([])
        return game

    @classmethod
    def from_position(
        cls,
        config: GameConfig,
        rows: list[list[int]],
        hands: list[list[int]],
        *,
        piles: list[list[int]] | None = None,
        totals: list[int] | None = None,
        seed: int = 0,
    ) -> Game:
        """A game at a chosen position in its picking phase (rulebook examples, puzzles, AI).

        Every card not in a row, hand or pile is set aside (out of this round).
        For an Anniversary config this is ``AnniversaryGame.from_position`` (no special cards).
        Hands of unequal length are refused with ``UnevenHands``.
        """
        state = variant_class(config.variant)
        if cls is Game and state is not Game:
            return state.from_position(config, rows, hands, piles=piles, totals=totals, seed=seed)
        return game_at_position(cls, config, rows, hands, piles, totals, seed)

    # -- queries ------------------------------------------------------------------

    @property
    def decision_id(self) -> tuple[object, ...]:
        """Which decision the game waits on now: equal for two states exactly when they wait on the
        same decision (a Pro draft pick, a turn's picks, a row choice, and in the Anniversary game
        each special-card or swap pause of a turn, told apart by its decider and by how many
        revealed cards are still to place). Keys whatever belongs to one decision: its timer, its
        buttons, a cached outlook."""
        return (self.round, self.turn, self.phase, self.drafter, self.chooser, self.decider, len(self.pending))

    def row_bullheads(self, row: int) -> int:
        return sum(BULLHEADS[c] for c in self.rows[row])

    def cheapest_row(self) -> int:
        """The row with the fewest bullheads (the lowest index on a tie): the rulebook's hint."""
        # One plain pass (the AI's rollouts call this): a list of sums, min() and
        # index() cost three times as much. Strictly less keeps the lowest index on a tie.
        best = row = 0
        least: int | None = None
        bullheads = BULLHEADS
        for cards in self.rows:
            cost = 0
            for c in cards:
                cost += bullheads[c]
            if least is None or cost < least:
                best, least = row, cost
            row += 1  # noqa: SIM113 - a counter: enumerate costs more on this hot path
        return best

    def row_for(self, card: int) -> int | None:
        """The row ``card`` would go to by Rules 1 and 2, or ``None`` for a low card."""
        best: int | None = None
        best_end = 0
        for i, row in enumerate(self.rows):
            end = row[-1]
            if best_end < end < card:
                best, best_end = i, end
        return best

    def legal_actions(self, player: int) -> list[Action]:
        """Everything ``player`` may do now (empty when the game does not wait for them)."""
        self._check_player(player)
        phase = self.phase
        if phase is Phase.PICK:
            return [Pick(player, c) for c in self.hands[player]]
        if phase is Phase.CHOOSE_ROW and player == self.chooser:
            return [ChooseRow(player, r) for r in range(len(self.rows))]
        if phase is Phase.DRAFT and player == self.drafter:
            return [Draft(player, c) for c in self.draft_pool]
        return []

    # -- actions ------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply any action object (e.g. one read back from the action log)."""
        if isinstance(action, Pick):
            return self.pick(action.player, action.card)
        if isinstance(action, ChooseRow):
            return self.choose_row(action.player, action.row)
        if isinstance(action, Draft):
            return self.draft(action.player, action.card)
        raise WrongPhase(f"{type(action).__name__} is not an action of the {self.config.variant.value} game")

    def pick(self, player: int, card: int) -> list[Event]:
        """Put ``card`` face down; a second pick before the reveal changes the first."""
        if self.phase is not _PICK:
            raise WrongPhase(self._not_now("pick a card"))
        picks = self.picks
        n = len(picks)
        if type(player) is not int or not 0 <= player < n:
            self._check_player(player)
        if type(card) is not int or card not in self.hands[player]:
            raise CardNotInHand(f"{card} is not in your hand")
        if not picks[player]:
            self.n_picked += 1
        picks[player] = card
        if self.n_picked < n:
            return [_PICKED[player]]
        return self.play_turn(picks)  # which clears the picks once it has checked them

    def play_turn(self, cards: Sequence[int]) -> list[Event]:
        """Everyone's face-down cards at once (``cards[p]`` for seat ``p``), then the reveal.

        The joint action of a simultaneous-move game: what a simulation or a
        replay uses instead of ``n`` separate picks. Replaces any single picks.
        """
        if self.phase is not _PICK:
            raise WrongPhase(self._not_now("pick a card"))
        hands = self.hands
        if len(cards) != len(hands):
            raise UnknownPlayer(f"a turn needs one card for each of the {len(hands)} players")
        order: list[tuple[int, int]] = []
        seat = 0  # a counter, not zip/enumerate: creating either costs more than the loop
        try:
            for card in cards:
                if type(card) is not int:
                    raise ValueError
                hands[seat].remove(card)  # the check and the take in one scan of the hand
                order.append(_PAIRS[seat][card])
                seat += 1
        except ValueError:
            # the seats before the refused card give theirs back: hands are sorted, and an
            # illegal turn changes nothing
            for hand, taken in zip(hands[:seat], cards, strict=False):
                insort(hand, taken)
            raise CardNotInHand(f"{card} is not in the hand of seat {seat}") from None
        if self.n_picked:  # drop single picks made before (no new list when there are none)
            self.picks = [0] * len(hands)
            self.n_picked = 0
        order.sort()  # lowest card first
        events: list[Event] = [_new(CardsRevealed, (tuple(order),))]
        order.reverse()  # so the next card to place is popped from the end
        self.pending = order
        self._resolve(events)
        return events

    def choose_row(self, player: int, row: int) -> list[Event]:
        """Take ``row`` for the low card that fits nowhere (Rule 4)."""
        if self.phase is not _CHOOSE_ROW:
            raise WrongPhase(self._not_now("choose a row"))
        if type(player) is not int or player != self.chooser:  # True == 1, but is no seat
            self._check_player(player)
            raise NotYourTurn("it is not your low card: another player chooses the row")
        rows = self.rows
        if type(row) is not int or not 0 <= row < len(rows):
            raise InvalidRow(f"there is no row {row + 1 if type(row) is int else row}")
        card = self.pending.pop()[0]
        taken = rows[row]  # the take, as in _resolve (inlined: ~60% of random turns come here)
        rows[row] = [card]
        self.piles[player] += taken
        points = 0
        for c in taken:
            points += BULLHEADS[c]
        self.round_points[player] += points
        events: list[Event] = [
            _new(RowTaken, (player, row, tuple(taken), points, _LOW_CARD)),
            _PLACED[player][card][row],
        ]
        self.chooser = None
        self.phase = _PICK
        self._resolve(events)
        return events

    def draft(self, player: int, card: int) -> list[Event]:
        """Pro variant: take a face-up card into your hand."""
        if self.phase is not _DRAFT:
            raise WrongPhase(self._not_now("draft a card"))
        self._check_player(player)
        if player != self.drafter:
            raise NotYourTurn("it is not your turn to draft")
        if card not in self.draft_pool:
            raise CardNotInHand(f"{card} is not among the face-up cards")
        self.draft_pool.remove(card)
        hand = self.hands[player]
        hand.append(card)
        hand.sort()
        self.draft_log.append((player, card))
        events: list[Event] = [CardDrafted(player, card)]
        n = self.config.players
        if len(self.draft_pool) == ROW_COUNT:
            self.rows = [[c] for c in self.draft_pool]
            self.draft_pool = []
            self.drafter = None
            self.phase = Phase.PICK
            events.append(DraftEnded(tuple((c,) for row in self.rows for c in row)))
        else:
            self.drafter = (player + 1) % n
        return events

    # -- the rules ----------------------------------------------------------------

    def _resolve(self, events: list[Event]) -> None:
        """Place revealed cards lowest first until done or a low card needs its player."""
        rows = self.rows
        pending = self.pending
        # The row ends as they are now decide every card of this call, never updated:
        # cards come lowest first and a placed card stays below the next end up, so
        # the rows' order by end never changes and each card's row is the one whose
        # end was closest below it at the start (and only the lowest card can be low).
        first_row, second_row, third_row, fourth_row = rows  # classic and Pro play on four rows …
        first, second, third, fourth = first_row[-1], second_row[-1], third_row[-1], fourth_row[-1]  # … by their ends
        limit = ROW_LIMIT
        # events.append(...) each time, not a cached bound method: Python 3.11
        # specialises the method-call form of list.append (~120 instructions less a call)
        while pending:
            card, player = pending.pop()
            # Rules 1 and 2: the row whose end is closest below the card (the four
            # rows unrolled: ~40% cheaper than a loop over the ends; two plain
            # comparisons cost fewer bytecodes than a chained one)
            top = best = 0
            if first < card:
                top = first
            if second < card and second > top:
                top, best = second, 1
            if third < card and third > top:
                top, best = third, 2
            if fourth < card and fourth > top:
                top, best = fourth, 3
            if not top:  # Rule 4: the player chooses; the engine never does it for them
                pending.append((card, player))
                self.phase = _CHOOSE_ROW
                self.chooser = player
                events.append(_LOW[player][card])
                return
            row = rows[best]
            if len(row) < limit:
                row.append(card)
            else:  # Rule 3: the sixth card takes the five (inlined, as in choose_row)
                rows[best] = [card]
                self.piles[player] += row
                points = 0
                for c in row:
                    points += BULLHEADS[c]
                self.round_points[player] += points
                events.append(_new(RowTaken, (player, best, tuple(row), points, _FULL_ROW)))
            events.append(_PLACED[player][card][best])
        if self.hands[0]:
            self.turn += 1
        else:
            self._end_round(events)

    def _end_round(self, events: list[Event]) -> None:
        points = tuple(self.round_points)
        self.totals = list(map(add, self.totals, points))  # no comprehension call, no zip
        self.history.append(list(points))
        totals = tuple(self.totals)
        events.append(_new(RoundEnded, (self.round, points, totals)))
        config = self.config
        termination = None
        if config.rounds is not None and self.round >= config.rounds:
            termination = Termination.ROUNDS_PLAYED
        elif config.target is not None and max(totals) >= config.target:
            termination = Termination.TARGET_REACHED
        if termination is not None:
            self.phase = Phase.GAME_OVER
            self.outcome = Outcome.from_scores(termination, totals)
            events.append(GameEnded(self.outcome))
            return
        self._start_round(events)

    def _start_round(self, events: list[Event]) -> None:
        config = self.config
        n = config.players
        self.round += 1
        self.turn = 1
        self.piles = [[] for _ in range(n)]
        self.round_points = [0] * n
        self.pending = []
        self.chooser = None
        if config.variant is _PRO:
            if self.first_drafter is None:
                self.first_drafter = self.rng.randrange(n)  # drawn by the seed in round 1 …
            else:
                self.first_drafter = (self.first_drafter + 1) % n  # … then one seat on
            self.draft_pool = list(range(1, config.deck_size + 1))
            self.draft_log = []
            self.drafter = self.first_drafter
            self.hands = [[] for _ in range(n)]
            self.rows = []
            self.set_aside = []
            self.phase = Phase.DRAFT
            events.append(RoundStarted(self.round, (), self.first_drafter))
            return
        size = config.hand_size
        deck = deal(self.rng, size * n + ROW_COUNT)
        self.set_aside = deck[: HIGHEST_CARD - size * n - ROW_COUNT]
        top = HIGHEST_CARD - ROW_COUNT
        hands: list[list[int]] = []
        self.hands = hands
        for end in range(top, top - size * n, -size):  # seat 0 gets the cards just below the rows
            hand = deck[end - size : end]
            hand.sort()  # in place: half the cost of sorted() on a slice
            hands.append(hand)
        first, second, third, fourth = deck[top:]  # displays, not comprehensions: no function calls
        self.rows = [[first], [second], [third], [fourth]]
        self.phase = _PICK
        events.append(_new(RoundStarted, (self.round, ((first,), (second,), (third,), (fourth,)), None)))

    # -- helpers ------------------------------------------------------------------

    def _not_now(self, what: str) -> str:
        doing = DOING.get(self.phase, f"the game is in its {self.phase.value} phase")
        return f"you cannot {what} now: {doing}"

    # -- observation and serialisation (see view.py and serialize.py) -------------------

    def view(self, player: int | None) -> PlayerView:
        """What ``player`` may know (``None``: what everyone may know): the variant's view."""
        view = variant_spec(self.config.variant).view(self, player)
        if not isinstance(view, PlayerView):  # the registry cannot name the type: see engine.variants
            raise TypeError(f"the {self.config.variant.value} variant's view made a {type(view).__name__}")
        return view

    def to_dict(self) -> dict[str, Any]:
        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a saved game (an ``AnniversaryGame`` for an Anniversary save)."""
        game = game_from_dict(cls, data)
        if not isinstance(game, Game):  # what engine.variants.state_class gives: a Game of the save's variant
            raise TypeError(f"a saved game was rebuilt as a {type(game).__name__}, which is no Game")
        return game

    def copy(self) -> Self:
        game = type(self).from_dict(self.to_dict())
        if not isinstance(game, type(self)):  # a save is read back as its own class: see state_class
            raise TypeError(f"a copy of a {type(self).__name__} came back as a {type(game).__name__}")
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable: no hash, as a list has none

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.config.variant.value} players={self.config.players} "
            f"round={self.round} turn={self.turn} phase={self.phase.value}>"
        )


def variant_class(variant: Variant) -> type[Game]:
    """The class that plays ``variant``: ``engine.variants`` holds it, but sits below ``Game``
    and so cannot say it is one."""
    state = variant_spec(variant).state
    if not issubclass(state, Game):
        raise TypeError(f"the {variant.value} variant is registered with {state.__name__}, which is no Game")
    return state


# The classic and Pro variants are played by ``Game`` itself (the Pro draft is a phase of it).
register(Variant.CLASSIC, Parts(state=Game, view=observe))
register(Variant.PRO, Parts(state=Game, view=observe))
