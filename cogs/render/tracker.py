"""The played-card tracker's words: what a player has seen this round, in short ranges.

The engine computes it (``engine.tracker.seen_cards``) from the player's own
view; this only writes it down, short enough for one message at any table size.
"""

from __future__ import annotations

from cogs.i18n import tr
from engine.tracker import seen_cards

from .text import plain_name


def card_ranges(cards) -> str:
    """``1–4, 7, 9–12``: ascending cards with their runs shortened, ``—`` for none."""
    cards = sorted(cards)
    parts: list[str] = []
    i = 0
    while i < len(cards):
        j = i
        while j + 1 < len(cards) and cards[j + 1] == cards[j] + 1:
            j += 1
        parts.append(str(cards[i]) if j == i else f"{cards[i]}–{cards[j]}" if j > i + 1 else f"{cards[i]}, {cards[j]}")
        i = j + 1
    return ", ".join(parts) or "—"


def tracker_text(table, view, locale) -> str:
    seen = seen_cards(view)
    lines = [
        tr(locale, "📝 **Cards seen this round** (only what everyone saw; only you get this list)"),
        tr(locale, "In the rows: {cards}", cards=card_ranges(seen.in_rows)),
        tr(locale, "Taken into piles: {cards}", cards=card_ranges(seen.in_piles)),
    ]
    if seen.revealed:
        lines.append(tr(locale, "Revealed, still to place: {cards}", cards=card_ranges(seen.revealed)))
    if seen.others_hands is not None:  # Pro: the draft was public
        lines.append(tr(locale, "Still in the other hands (drafted in front of everyone):"))
        lines += [
            f"  {plain_name(table, seat)}: {card_ranges(cards)}"
            for seat, cards in enumerate(seen.others_hands)
            if seat != view.player
        ]
    else:
        lines.append(
            tr(
                locale,
                "Not seen yet ({count}, in other hands or out of this round): {cards}",
                count=len(seen.unseen),
                cards=card_ranges(seen.unseen),
            )
        )
    return "\n".join(lines)[:2000]
