"""The played-card tracker: which cards a player has seen this round, from their view alone.

What a careful player would note on a pad: the cards in the rows, the ones
taken into piles this round (each was face up when taken) and the ones
revealed and still to place. It reads only a ``PlayerView``, so it can show
nothing the player may not know. In the Pro variant the draft was public,
so the cards still in the other hands are known too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .phase import Phase
from .variants import Variant, variant_spec
from .view import PlayerView


@dataclass(frozen=True, slots=True)
class SeenCards:
    in_rows: tuple[int, ...]
    in_piles: tuple[int, ...]  # taken this round, by anyone
    revealed: tuple[int, ...]  # revealed this turn, not placed yet
    unseen: tuple[int, ...]  # in play, neither seen nor in the viewer's hand
    others_hands: tuple[tuple[int, ...], ...] | None  # Pro: each seat's known hand (the viewer's empty)

    @property
    def seen(self) -> tuple[int, ...]:
        return tuple(sorted(self.in_rows + self.in_piles + self.revealed))


def seen_cards(view: PlayerView) -> SeenCards:
    """The tracker for ``view``'s player (the public view: nobody's hand is left out)."""
    rows = tuple(sorted(c for row in view.rows for c in row.cards))
    piles = tuple(sorted(c for pile in view.piles for c in pile))
    revealed = tuple(view.revealed)
    out = set(rows) | set(piles) | set(revealed) | set(view.hand or ())
    deck = variant_spec(view.variant).deck_size(len(view.scores))
    others = None
    if view.variant == Variant.PRO and view.phase is not Phase.DRAFT:
        others = tuple(
            () if seat == view.player else tuple(c for c in cards if c not in out)
            for seat, cards in enumerate(view.drafted)
        )
    if view.phase is Phase.DRAFT:  # the rows are not laid yet: every card is in the pool or drafted
        out |= set(view.draft_pool)
    return SeenCards(
        in_rows=rows,
        in_piles=piles,
        revealed=revealed,
        unseen=tuple(c for c in range(1, deck + 1) if c not in out),
        others_hands=others,
    )
