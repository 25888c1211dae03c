"""What a table agrees on before the first card is dealt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidConfig
from .variants import PLAYER_LIMITS, ROUNDS_LIMITS, TARGET_LIMITS, Variant, VariantSpec, variant_spec

__all__ = ["GameConfig", "Variant", "PLAYER_LIMITS", "VARIANT_DEFAULT"]


class _VariantDefault:
    """The default of ``target`` and ``rounds``: whatever the variant says (see ``engine.variants``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "VARIANT_DEFAULT"


VARIANT_DEFAULT = _VariantDefault()


@dataclass(frozen=True, slots=True, init=False)
class GameConfig:
    """A table's rules.

    The game ends after the round in which someone reaches ``target`` points,
    or after ``rounds`` rounds, whichever comes first; either may be ``None``
    but not both. Left out, each is the variant's default. A variant that fixes
    them (Anniversary: two rounds, no target) refuses any other value.
    """

    players: int
    variant: Variant
    target: int | None
    rounds: int | None

    # Written out, not the dataclass's own: ``target`` and ``rounds`` take ``VARIANT_DEFAULT``,
    # which the fields never hold once the variant has replaced it.
    def __init__(
        self,
        players: int,
        variant: Variant | str = Variant.CLASSIC,
        target: int | None | _VariantDefault = VARIANT_DEFAULT,
        rounds: int | None | _VariantDefault = VARIANT_DEFAULT,
    ) -> None:
        spec = variant_spec(variant)
        variant = spec.variant
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "variant", variant)
        for name, value, default in (("target", target, spec.target), ("rounds", rounds, spec.rounds)):
            if isinstance(value, _VariantDefault):
                value = default
            elif spec.fixed_length and value != default:
                raise InvalidConfig(
                    f"the {variant.value} variant plays {spec.rounds} rounds and no target score: "
                    f"its {name} cannot be {value}"
                )
            object.__setattr__(self, name, value)
        low, high = spec.players
        if type(self.players) is not int or not low <= self.players <= high:
            raise InvalidConfig(f"the {variant.value} variant is for {low}–{high} players, not {self.players}")
        if self.target is None and self.rounds is None:
            raise InvalidConfig("a game needs a target score or a number of rounds")
        for name, (least, most), what in (
            ("target", TARGET_LIMITS, "the target score"),
            ("rounds", ROUNDS_LIMITS, "the number of rounds"),
        ):
            value = getattr(self, name)
            if value is not None and not (type(value) is int and least <= value <= most):
                raise InvalidConfig(f"{what} must be between {least} and {most}, not {value}")

    @property
    def spec(self) -> VariantSpec:
        """The variant's numbers and parts (``engine.variants.VariantSpec``)."""
        return variant_spec(self.variant)

    @property
    def hand_size(self) -> int:
        return variant_spec(self.variant).hand_size

    @property
    def deck_size(self) -> int:
        """How many number cards are in play: 10·n+4 in the Pro variant, else all 104."""
        return variant_spec(self.variant).deck_size(self.players)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "variant": self.variant.value,
            "target": self.target,
            "rounds": self.rounds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        return cls(
            players=data["players"],
            variant=Variant(data["variant"]),
            target=data.get("target"),
            rounds=data.get("rounds"),
        )
