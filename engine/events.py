"""What happened, in order, so a presenter can show a turn without re-deriving any rule.

Events are ``NamedTuple``s: immutable, cheap to make on the hot path (the AI
simulates many thousands of rounds), and usable in ``match`` statements.
Players are seat numbers (0-based); rows are 0-based indexes.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from .outcome import Outcome


class TakeReason(str, enum.Enum):
    FULL_ROW = "full_row"  # Rule 3: the sixth card takes the five
    LOW_CARD = "low_card"  # Rule 4: a card lower than every row end


class RoundStarted(NamedTuple):
    round: int
    rows: tuple[tuple[int, ...], ...]  # empty until a Pro draft is over
    first_drafter: int | None = None  # Pro variant only


class CardDrafted(NamedTuple):
    player: int
    card: int


class DraftEnded(NamedTuple):
    rows: tuple[tuple[int, ...], ...]


class CardPicked(NamedTuple):
    """A player has a card face down (never says which: that is secret)."""

    player: int


class CardsRevealed(NamedTuple):
    cards: tuple[tuple[int, int], ...]  # (card, player), lowest card first


class RowChoiceRequired(NamedTuple):
    """The engine waits: ``player``'s low ``card`` fits no row, so they choose one to take."""

    player: int
    card: int


class RowTaken(NamedTuple):
    player: int
    row: int
    cards: tuple[int, ...]
    bullheads: int
    reason: TakeReason


class CardPlaced(NamedTuple):
    player: int
    card: int
    row: int


class RoundEnded(NamedTuple):
    round: int
    points: tuple[int, ...]  # taken this round, per player
    totals: tuple[int, ...]


class GameEnded(NamedTuple):
    outcome: Outcome


Event = (
    RoundStarted | CardDrafted | DraftEnded | CardPicked | CardsRevealed
    | RowChoiceRequired | RowTaken | CardPlaced | RoundEnded | GameEnded
)
