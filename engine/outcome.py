"""How a game ended, in the style of python-chess's ``Outcome``."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Termination(str, enum.Enum):
    TARGET_REACHED = "target_reached"  # someone reached the target score
    ROUNDS_PLAYED = "rounds_played"  # the agreed number of rounds is over


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # fewest points win; ties share the win

    @classmethod
    def from_scores(cls, termination: Termination, scores: tuple[int, ...]) -> Outcome:
        best = min(scores)
        return cls(termination, scores, tuple(p for p, s in enumerate(scores) if s == best))

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "scores": list(self.scores),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(Termination(data["termination"]), tuple(data["scores"]), tuple(data["winners"]))
