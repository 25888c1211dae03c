"""The number cards 1–104 and their bullheads (AMIGO rulebook)."""

from __future__ import annotations

from collections.abc import Iterable

HIGHEST_CARD = 104
ROW_LIMIT = 5  # a row holds at most five cards; the sixth takes it (Rule 3)
ROW_COUNT = 4


def _bullheads(card: int) -> int:
    # 55 is a doublet *and* ends in 5: the rulebook gives it seven.
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


#: BULLHEADS[card] is the card's penalty; index 0 is unused so lookups stay a
#: plain list index on the hot path.
BULLHEADS: tuple[int, ...] = (0,) + tuple(_bullheads(c) for c in range(1, HIGHEST_CARD + 1))


def bullheads(card: int) -> int:
    """The bullheads printed on ``card`` (1–104)."""
    if not 1 <= card <= HIGHEST_CARD:
        raise ValueError(f"there is no card {card}: cards run from 1 to {HIGHEST_CARD}")
    return BULLHEADS[card]


def total_bullheads(cards: Iterable[int]) -> int:
    """The penalty of a pile or row."""
    return sum(BULLHEADS[c] for c in cards)
