"""Every variant in one registry: its numbers here, its state, view and serializer registered by its code.

``variant_spec(variant)`` says a variant's player range, hand and deck, how a
game of it ends (target score and rounds: the default, whether a table may
choose; ``TARGET_CHOICES`` / ``ROUNDS_CHOICES`` bound the choice), and which state class, view
and serializer play it. ``GameConfig``, ``Game.new``, ``serialize``, the
lobby's options and the slash command's bounds all read it, so no other
module knows a variant's numbers. The classic and Pro parts register in
``engine/game.py``, the Anniversary ones in ``engine/anniversary``: this
module imports neither, which keeps the engine free of import cycles.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import InvalidConfig


class Variant(str, enum.Enum):
    CLASSIC = "classic"
    PRO = "pro"
    ANNIVERSARY = "anniversary"


#: No variant seats more players (the engine sizes its shared event tables by it).
MAX_PLAYERS = 10
#: What any ``GameConfig`` accepts (simulations play long games); a table offers
#: the narrower ``target_choices`` / ``rounds_choices`` of its variant.
TARGET_LIMITS = (1, 1000)
ROUNDS_LIMITS = (1, 100)
#: What a table may choose, in every variant that lets it choose (the lobby's and
#: the slash command's bounds; a ``fixed_length`` variant offers no choice).
TARGET_CHOICES = (10, 500)
ROUNDS_CHOICES = (1, 20)


# The parts are each variant's own code, which this module sits below and so cannot name: a
# view or serializer takes its own variant's game class (hence ``Any``), and ``engine/game.py``
# checks that a state class is a ``Game`` and a view a ``PlayerView`` as it reads them.


@dataclass(frozen=True, slots=True)
class Serializer:
    """A variant's own state in a saved game, kept under the variant's name."""

    dump: Callable[[Any], dict[str, Any]]  # (game) -> JSON-safe dict
    load: Callable[[Any, dict[str, Any]], None]  # (game, saved dict) -> None; raises CorruptState


@dataclass(frozen=True, slots=True)
class Parts:
    """The code that plays a variant."""

    state: type  # the game class (``Game`` or a subclass)
    view: Callable[[Any, int | None], object]  # (game, player | None) -> PlayerView
    serializer: Serializer | None = None


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """A variant's numbers, as the rulebook gives them."""

    variant: Variant
    players: tuple[int, int]  # fewest, most
    hand_size: int  # number cards per hand at the start of a round
    pro_deck: bool  # 10·n+4 number cards in play instead of all 104
    target: int | None  # the default target score
    rounds: int | None  # the default number of rounds
    fixed_length: bool  # the rulebook fixes target and rounds: a table may not choose them
    special_cards: bool = False  # special cards are dealt (and shown) beside the number cards

    def deck_size(self, players: int) -> int:
        """How many number cards are in play: 10·n+4 in the Pro variant, else all 104."""
        return 10 * players + 4 if self.pro_deck else 104

    @property
    def parts(self) -> Parts:
        try:
            return _PARTS[self.variant]
        except KeyError:
            raise LookupError(f"the {self.variant.value} variant's code is not loaded") from None

    @property
    def state(self) -> type:
        return self.parts.state

    @property
    def view(self) -> Callable[[Any, int | None], object]:
        return self.parts.view

    @property
    def serializer(self) -> Serializer | None:
        return self.parts.serializer


SPECS: dict[Variant, VariantSpec] = {
    spec.variant: spec
    for spec in (
        VariantSpec(
            Variant.CLASSIC, players=(2, 10), hand_size=10, pro_deck=False, target=66, rounds=None, fixed_length=False
        ),
        VariantSpec(
            Variant.PRO, players=(2, 6), hand_size=10, pro_deck=True, target=66, rounds=None, fixed_length=False
        ),
        # The rulebook fixes the Anniversary game at two rounds and no target score.
        VariantSpec(
            Variant.ANNIVERSARY,
            players=(2, 8),
            hand_size=12,
            pro_deck=False,
            target=None,
            rounds=2,
            fixed_length=True,
            special_cards=True,
        ),
    )
}
#: (fewest, most) players of each variant.
PLAYER_LIMITS: dict[Variant, tuple[int, int]] = {v: s.players for v, s in SPECS.items()}
#: The specs by value: a str enum's members hash and compare as their values, so one lookup
#: serves a member and its value.
_SPECS_BY_VALUE: dict[str, VariantSpec] = {v.value: s for v, s in SPECS.items()}
assert max(high for _, high in PLAYER_LIMITS.values()) == MAX_PLAYERS

_PARTS: dict[Variant, Parts] = {}


def register(variant: Variant, parts: Parts) -> None:
    """Called once by the code that plays ``variant``."""
    _PARTS[Variant(variant)] = parts


def variant_spec(variant: Variant | str) -> VariantSpec:
    """The spec of ``variant`` (a member or its value); ``InvalidConfig`` for an unknown one."""
    try:
        return _SPECS_BY_VALUE[variant]
    except (KeyError, TypeError):
        names = ", ".join(v.value for v in Variant)
        raise InvalidConfig(f"unknown variant {variant!r}: choose one of {names}") from None


def state_class(cls: type, variant: Variant) -> type:
    """The class a game of ``variant`` is built as when ``cls`` is asked for one.

    ``cls`` itself if it is the variant's state class or a subclass of it (and
    not of another variant's), else the variant's state class: ``Game.new`` of
    an Anniversary config makes an ``AnniversaryGame``, and a classic save read
    through ``AnniversaryGame.from_dict`` is a plain ``Game``.
    """
    state = variant_spec(variant).state
    states = {parts.state for parts in _PARTS.values()}
    own = next((c for c in cls.__mro__ if c in states), None)
    return cls if own is state else state
