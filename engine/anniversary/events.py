"""What the special cards did, in order, so a presenter can narrate without re-deriving rules.

They come alongside the classic events (``RowTaken``, ``CardPlaced``,
``RowChoiceRequired`` …). Rows are 0-based indexes as they were when the event
happened; special cards are ``Special`` values (``str``).
"""

from __future__ import annotations

from typing import NamedTuple

from ..events import register_events


class SpecialsDealt(NamedTuple):
    """Each player drew ``counts[p]`` special cards (which ones is secret)."""

    round: int
    counts: tuple[int, ...]


class SpecialChoiceRequired(NamedTuple):
    """The engine waits: ``player`` may play a special card on ``card`` before it is placed."""

    player: int
    card: int


class SpecialDeclined(NamedTuple):
    player: int
    card: int


class SpecialPlayed(NamedTuple):
    """``player`` played ``special`` on their number ``card``; the effect events follow."""

    player: int
    special: str
    card: int


class FifthRowOpened(NamedTuple):
    """``card`` starts a fifth row, ``row`` (always 4); the 5th Row card lies beside it."""

    player: int
    card: int
    row: int


class FifthRowClosed(NamedTuple):
    """With five rows, the taker also took ``card`` (their played card; after an Insert
    into a full row, the row's last card); ``row`` is gone (later rows move up one) and
    the 5th Row card is discarded: four rows again."""

    player: int
    row: int
    card: int


class SevenNimmtPlaced(NamedTuple):
    """``row`` now holds six number cards; whoever adds the seventh takes the six."""

    player: int
    row: int


class SevenNimmtRemoved(NamedTuple):
    """``row`` was taken, so its 7 nimmt! card is discarded."""

    row: int


class CardInserted(NamedTuple):
    """``card`` went into ``row`` at index ``position`` (a full row is then taken: see RowTaken)."""

    player: int
    card: int
    row: int
    position: int


class CardReplaced(NamedTuple):
    """``card`` went back to the hand; ``replacement`` is placed instead, right now."""

    player: int
    card: int
    replacement: int


class CardShifted(NamedTuple):
    """A number card moved from ``from_row`` to index ``position`` of ``to_row``."""

    player: int
    card: int
    from_row: int
    to_row: int
    position: int


class StopPlaced(NamedTuple):
    """``row`` is blocked: nothing is added to it, removed from it or taken from it."""

    player: int
    row: int


class StopsRemoved(NamedTuple):
    """A row was taken, so every Stop card left the table (discarded)."""

    rows: tuple[int, ...]


class BullheadsCancelled(NamedTuple):
    """Negative = Positive: ``card``'s bullheads cancelled ``cancelled_cards`` from the pile.

    ``card`` and ``cancelled_cards`` are set aside; ``points`` bullheads of the
    pile were cancelled and ``wasted`` positive points were lost. The player's
    score drops by ``bullheads(card) + points``.
    """

    player: int
    card: int
    cancelled_cards: tuple[int, ...]
    points: int
    wasted: int


class SwapOffered(NamedTuple):
    """The engine waits: ``player`` took a row and may swap one special card."""

    player: int


class SpecialSwapped(NamedTuple):
    """``player`` discarded ``special`` and drew the top card of the deck (secret)."""

    player: int
    special: str


class SwapDeclined(NamedTuple):
    player: int


class SpecialDeckReshuffled(NamedTuple):
    """The deck ran out: the discard pile was shuffled into a new deck of ``size`` cards."""

    size: int


register_events(
    SpecialsDealt,
    SpecialChoiceRequired,
    SpecialDeclined,
    SpecialPlayed,
    FifthRowOpened,
    FifthRowClosed,
    SevenNimmtPlaced,
    SevenNimmtRemoved,
    CardInserted,
    CardReplaced,
    CardShifted,
    StopPlaced,
    StopsRemoved,
    BullheadsCancelled,
    SwapOffered,
    SpecialSwapped,
    SwapDeclined,
    SpecialDeckReshuffled,
)
