"""The Anniversary variant's own state in a saved game (the ``"anniversary"`` key).

Special cards are saved as their values (``"stop"`` …), markers as booleans.
"""

from __future__ import annotations

from typing import Any

from ..errors import CorruptState
from ..serialize import seat_or_none
from .game import AnniversaryGame
from .specials import SPECIAL_DECK, Special


def anniversary_to_dict(game: AnniversaryGame) -> dict[str, Any]:
    return {
        "specials": [[s.value for s in hand] for hand in game.specials],
        "special_deck": [s.value for s in game.special_deck],
        "special_discard": [s.value for s in game.special_discard],
        "sevens": list(game.sevens),
        "stops": list(game.stops),
        "decider": game.decider,
        "decided": game.decided,
    }


def _specials(value: object, name: str) -> list[Special]:
    if not isinstance(value, list):
        raise CorruptState(f"{name} must be a list of special cards")
    try:
        return [Special(s) for s in value]
    except ValueError as exc:
        raise CorruptState(f"{name} holds something that is not a special card") from exc


def _flags(value: object, name: str, rows: int) -> list[bool]:
    if not isinstance(value, list) or len(value) != rows or not all(type(f) is bool for f in value):
        raise CorruptState(f"{name} must hold one true/false per row")
    return list(value)


def load_anniversary(game: AnniversaryGame, data: dict[str, Any]) -> None:
    """Fill ``game``'s Anniversary state from ``data`` (``CorruptState`` if it cannot be one)."""
    extra = data.get("anniversary")
    if not isinstance(extra, dict):
        raise CorruptState("saved Anniversary game lacks its special cards")
    n = game.config.players
    hands = extra["specials"]
    if not isinstance(hands, list) or len(hands) != n:
        raise CorruptState("specials must hold one hand per seat")
    game.specials = [_specials(h, "a special hand") for h in hands]
    game.special_deck = _specials(extra["special_deck"], "special_deck")
    game.special_discard = _specials(extra["special_discard"], "special_discard")
    rows = len(game.rows)
    game.sevens = _flags(extra["sevens"], "sevens", rows)
    game.stops = _flags(extra["stops"], "stops", rows)
    game.decider = seat_or_none(extra["decider"], "decider", n)
    if type(extra["decided"]) is not bool:
        raise CorruptState("decided must be true or false")
    game.decided = extra["decided"]
    on_table = [s for h in game.specials for s in h]
    on_table += game.special_deck + game.special_discard
    on_table += [Special.SEVEN_NIMMT] * sum(game.sevens) + [Special.STOP] * sum(game.stops)
    on_table += [Special.FIFTH_ROW] * (rows == 5)
    if sorted(on_table) != sorted(SPECIAL_DECK):
        raise CorruptState("saved game does not hold the 28 special cards exactly once")
