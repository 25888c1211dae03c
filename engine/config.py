"""What a table agrees on before the first card is dealt."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import InvalidConfig


class Variant(str, enum.Enum):
    CLASSIC = "classic"
    PRO = "pro"
    ANNIVERSARY = "anniversary"


#: (fewest, most) players for each variant, as the rulebook says.
PLAYER_LIMITS: dict[Variant, tuple[int, int]] = {
    Variant.CLASSIC: (2, 10),
    Variant.PRO: (2, 6),
    Variant.ANNIVERSARY: (2, 8),
}

#: Cards in each hand at the start of a round.
HAND_SIZE: dict[Variant, int] = {
    Variant.CLASSIC: 10,
    Variant.PRO: 10,
    Variant.ANNIVERSARY: 12,
}

DEFAULT_TARGET = 66
ANNIVERSARY_ROUNDS = 2


@dataclass(frozen=True, slots=True)
class GameConfig:
    """A table's rules.

    The game ends after the round in which someone reaches ``target`` points,
    or after ``rounds`` rounds, whichever comes first; either may be ``None``
    but not both. The Anniversary variant always plays exactly two rounds.
    """

    players: int
    variant: Variant = Variant.CLASSIC
    target: int | None = DEFAULT_TARGET
    rounds: int | None = None

    def __post_init__(self) -> None:
        try:
            variant = Variant(self.variant)
        except ValueError:
            names = ", ".join(v.value for v in Variant)
            raise InvalidConfig(f"unknown variant {self.variant!r}: choose one of {names}") from None
        object.__setattr__(self, "variant", variant)
        if variant is Variant.ANNIVERSARY:
            # The rulebook fixes the Anniversary game at two rounds, no target.
            object.__setattr__(self, "target", None)
            object.__setattr__(self, "rounds", ANNIVERSARY_ROUNDS)
        low, high = PLAYER_LIMITS[variant]
        if not isinstance(self.players, int) or not low <= self.players <= high:
            raise InvalidConfig(
                f"the {variant.value} variant is for {low}–{high} players, not {self.players}"
            )
        if self.target is None and self.rounds is None:
            raise InvalidConfig("a game needs a target score or a number of rounds")
        if self.target is not None and not (isinstance(self.target, int) and 1 <= self.target <= 1000):
            raise InvalidConfig(f"the target score must be between 1 and 1000, not {self.target}")
        if self.rounds is not None and not (isinstance(self.rounds, int) and 1 <= self.rounds <= 100):
            raise InvalidConfig(f"the number of rounds must be between 1 and 100, not {self.rounds}")

    @property
    def hand_size(self) -> int:
        return HAND_SIZE[self.variant]

    @property
    def deck_size(self) -> int:
        """How many number cards are in play: 10·n+4 in the Pro variant, else all 104."""
        if self.variant is Variant.PRO:
            return 10 * self.players + 4
        return 104

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "variant": self.variant.value,
            "target": self.target,
            "rounds": self.rounds,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "GameConfig":
        return cls(
            players=data["players"],
            variant=Variant(data["variant"]),
            target=data.get("target"),
            rounds=data.get("rounds"),
        )
