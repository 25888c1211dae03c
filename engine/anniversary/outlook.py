"""What each answer to a special-card pause leads to, worked out before anyone answers.

A pure query (the game is not touched): each legal special play, and the
decline, is played out on a copy of the game until the pausing player's card
is placed. Their own decisions on the way are made the way that costs them
least: a low card's row choice takes the cheapest row, a swap offer is
declined (a swap moves no number card). Only what the player may know is
used: the table, their own hand and the cards revealed this turn.

An option *changes something* if the rows (with their markers), the penalty
piles or the scores it leads to differ from those of declining. When the
placement ends the game, or the round, only the scores count: the table is
cleared anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import WrongPhase
from ..events import CardPlaced, Event, RowChoiceRequired, RowTaken
from ..game import Game
from ..phase import Phase
from .actions import DeclineSpecial, PlaySpecial
from .events import CardInserted, FifthRowOpened, SwapOffered
from .game import AnniversaryGame
from .legal import all_special_plays


@dataclass(frozen=True, slots=True)
class OptionOutcome:
    """Where one answer to a special-card pause leads (see ``special_outlook``)."""

    action: PlaySpecial | DeclineSpecial
    bullheads: int  # added to the player's score by this placement (< 0: Negative = Positive cancelled more)
    taken_row: int | None  # the row the player takes (its index then); None: no take
    row_choice: bool  # the card is low: the player then chooses the row (figures for the cheapest)
    changes: bool  # rows, markers, piles or scores differ from declining
    placed: tuple[int, int] | None = None  # (number card, row) it ends in; None: it went to the pile
    swap_offered: bool = False  # the player's take is followed by a swap offer


@dataclass(frozen=True, slots=True)
class SpecialOutlook:
    """Every answer to the pause for ``card``: the decline first, then each legal play."""

    player: int
    card: int
    decline: OptionOutcome
    options: tuple[OptionOutcome, ...]

    @property
    def changes_anything(self) -> bool:
        """Whether some special play leads elsewhere than declining: otherwise there is nothing to ask."""
        return any(o.changes for o in self.options)

    def saving(self, option: OptionOutcome) -> int:
        """Bullheads ``option`` saves the player compared with declining (negative: it costs more)."""
        return self.decline.bullheads - option.bullheads

    @property
    def best_saving(self) -> int:
        """The most bullheads one special play saves the player now (0 if none saves any)."""
        return max([0] + [self.saving(o) for o in self.options])

    def outcome_of(self, action: object) -> OptionOutcome | None:
        if action == self.decline.action:
            return self.decline
        return next((o for o in self.options if o.action == action), None)


def settle(game: AnniversaryGame, player: int) -> list[Event]:
    """Make ``player``'s own remaining decisions of this placement the cheapest way; their events.

    Stops as soon as the game waits on someone else (or on the next turn).
    """
    events: list[Event] = []
    for _ in range(8):  # a placement pauses at most three times (special, row, swap)
        if player not in game.waiting_for or game.phase in (Phase.PICK, Phase.GAME_OVER):
            break
        if game.phase is Phase.CHOOSE_ROW:
            events += game.choose_row(player, game.cheapest_row())
        elif game.phase is Phase.SWAP:
            events += game.decline_swap(player)
        elif game.phase is Phase.SPECIAL:
            events += game.decline_special(player)
        else:
            break
    return events


#: What "changes something" compares (see ``_table_state``).
TableState = tuple[object, ...]


def _table_state(game: AnniversaryGame, round_: int) -> TableState:
    """What "changes something" compares: the table and piles, or only the scores after a round ends."""
    if game.round != round_ or game.is_over:
        return (game.round, tuple(game.scores))
    return (
        tuple(map(tuple, game.rows)),
        tuple(game.sevens),
        tuple(game.stops),
        tuple(tuple(sorted(p)) for p in game.piles),
        tuple(game.scores),
    )


_PLACING = (CardPlaced, CardInserted, FifthRowOpened)


def _play_out(
    game: AnniversaryGame,
    action: PlaySpecial | DeclineSpecial,
    player: int,
    base: TableState | None = None,
) -> tuple[OptionOutcome, TableState]:
    """``action`` played out on a copy (see the module's docstring); its outcome and table state."""
    copy = game.copy()
    events = copy.apply(action)
    row_choice = any(isinstance(e, RowChoiceRequired) and e.player == player for e in events)
    events += settle(copy, player)
    taken = next((e.row for e in events if isinstance(e, RowTaken) and e.player == player), None)
    placed = next(((e.card, e.row) for e in events if isinstance(e, _PLACING) and e.player == player), None)
    swap = any(isinstance(e, SwapOffered) and e.player == player for e in events)
    state = _table_state(copy, game.round)
    outcome = OptionOutcome(
        action,
        copy.scores[player] - game.scores[player],
        taken,
        row_choice,
        base is not None and state != base,
        placed,
        swap,
    )
    return outcome, state


def special_outlook(game: Game) -> SpecialOutlook:
    """Where declining and each legal special play lead, for the card the game pauses on now
    (``WrongPhase`` if it pauses on none, as a game without special cards never does)."""
    # the pause names its player and card; ``special_card`` is None in every other phase
    if not isinstance(game, AnniversaryGame) or game.decider is None or game.special_card is None:
        raise WrongPhase("no special-card decision is pending")
    player, card = game.decider, game.special_card
    declined, base = _play_out(game, DeclineSpecial(player), player)
    options = tuple(_play_out(game, play, player, base)[0] for play in all_special_plays(game, player, card))
    return SpecialOutlook(player, card, declined, options)
