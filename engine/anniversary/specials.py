"""The seven special cards of the Anniversary variant (4 copies each, 28 in all).

A special card has no identity beyond its kind, so a hand, the deck and the
discard pile are plain lists of ``Special`` members (a ``str`` enum, so JSON
writes them as their value).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable


class Special(str, enum.Enum):
    FIFTH_ROW = "fifth_row"  # the number card starts a fifth row
    SEVEN_NIMMT = "seven_nimmt"  # the number card's row holds six; the seventh takes it
    INSERT = "insert"  # the number card goes anywhere it keeps a row ascending
    REPLACE = "replace"  # another card from the hand is placed instead
    SHIFT = "shift"  # move one number card to another row first
    STOP = "stop"  # block a row first
    NEGATIVE_POSITIVE = "negative_positive"  # when taking a row: one card's bullheads cancel others

    @property
    def label(self) -> str:
        """The name printed on the card."""
        return LABELS[self]


LABELS: dict[Special, str] = {
    Special.FIFTH_ROW: "5th Row",
    Special.SEVEN_NIMMT: "7 nimmt!",
    Special.INSERT: "Insert",
    Special.REPLACE: "Replace",
    Special.SHIFT: "Shift",
    Special.STOP: "Stop",
    Special.NEGATIVE_POSITIVE: "Negative = Positive",
}

COPIES = 4  # of each kind
SPECIAL_DECK: tuple[Special, ...] = tuple(s for s in Special for _ in range(COPIES))
SPECIALS_PER_DEAL = 3  # each player gets three at the start of each round (fewer if short)
MAX_STOPS = 2  # at most two rows carry a Stop at once
FOUR_ROWS, FIVE_ROWS = 4, 5
ROW_LIMIT, SEVEN_LIMIT = 5, 6  # a row holds five cards, six with a 7 nimmt!

ORDER = {s: i for i, s in enumerate(Special)}


def special(value: Special | str) -> Special:
    """``value`` as a ``Special``; a ``ValueError`` for anything else."""
    return value if isinstance(value, Special) else Special(value)


def sort_specials(cards: Iterable[Special]) -> list[Special]:
    """A hand of special cards in the order of ``Special`` (so states compare equal)."""
    return sorted(cards, key=ORDER.__getitem__)
