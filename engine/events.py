"""What happened, in order, so a presenter can show a turn without re-deriving any rule.

Events are ``NamedTuple``s: immutable, cheap to make on the hot path (the AI
simulates many thousands of rounds), and usable in ``match`` statements.
Players are seat numbers (0-based); rows are 0-based indexes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, NamedTuple, TypeAlias

from .errors import CorruptState
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


#: An event of any variant: every one is a ``NamedTuple`` of ``EVENT_TYPES`` (the classic ones
#: here, the Anniversary game's in ``engine/anniversary/events.py``); tell them apart with
#: ``isinstance`` or ``match``.
Event: TypeAlias = NamedTuple


#: Every event type by name, for ``event_to_dict`` / ``event_from_dict``; variants add theirs.
EVENT_TYPES: dict[str, Callable[..., Event]] = {}


def register_events(*classes: Callable[..., Event]) -> None:
    """Let a variant add its own event types to the saved format."""
    for cls in classes:
        EVENT_TYPES[cls.__name__] = cls


register_events(
    RoundStarted,
    CardDrafted,
    DraftEnded,
    CardPicked,
    CardsRevealed,
    RowChoiceRequired,
    RowTaken,
    CardPlaced,
    RoundEnded,
    GameEnded,
)


def _plain(value: object) -> object:
    if isinstance(value, Outcome):
        return value.to_dict()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuples(value: object) -> object:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data, so what a turn did can be shown after a restart."""
    return {"type": type(event).__name__, **{k: _plain(v) for k, v in event._asdict().items()}}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event ``event_to_dict`` saved; anything else raises ``CorruptState``."""
    try:
        cls = EVENT_TYPES[data["type"]]
        fields = {k: _tuples(v) for k, v in data.items() if k != "type"}
        if cls is GameEnded:
            fields["outcome"] = Outcome.from_dict(data["outcome"])
        elif cls is RowTaken:
            fields["reason"] = TakeReason(fields["reason"])
        return cls(**fields)
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptState(f"not an event: {data!r}") from exc
