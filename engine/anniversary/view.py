"""The Anniversary view: the base ``PlayerView`` with its special-card fields filled in.

A player sees their own special cards, how many each player holds, the
markers on each row, the deck's size and the (face-up) discard pile; never
another player's special cards nor which card a swap drew.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..view import PlayerView, observe
from .game import AnniversaryGame
from .specials import FIVE_ROWS, Special


@dataclass(frozen=True, slots=True)
class AnniversaryView(PlayerView):
    """A ``PlayerView`` of an Anniversary game (the base view carries every field)."""


def row_markers(game: AnniversaryGame) -> tuple[tuple[str, ...], ...]:
    markers = []
    for r in range(len(game.rows)):
        here: list[str] = []
        if r == FIVE_ROWS - 1 and len(game.rows) == FIVE_ROWS:
            here.append(Special.FIFTH_ROW.value)
        if game.sevens[r]:
            here.append(Special.SEVEN_NIMMT.value)
        if game.stops[r]:
            here.append(Special.STOP.value)
        markers.append(tuple(here))
    return tuple(markers)


def observe_anniversary(game: AnniversaryGame, player: int | None) -> AnniversaryView:
    base = observe(game, player)
    values = {f.name: getattr(base, f.name) for f in fields(PlayerView)}
    values.update(
        specials=tuple(s.value for s in game.specials[player]) if player is not None else None,
        special_counts=tuple(len(h) for h in game.specials),
        row_markers=row_markers(game),
        row_capacities=tuple(game.capacity(r) for r in range(len(game.rows))),
        special_deck_size=len(game.special_deck),
        special_discard=tuple(s.value for s in game.special_discard),
        decider=game.decider,
        special_card=game.special_card,
    )
    return AnniversaryView(**values)
