"""Actions a player can take. Each is small, immutable and JSON-safe, so the
action log can replay any game from its seed."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import ClassVar

from .errors import CorruptState


@dataclass(frozen=True, slots=True)
class Pick:
    """Put ``card`` face down (or change the face-down card before the reveal)."""

    player: int
    card: int
    kind: ClassVar[str] = "pick"


@dataclass(frozen=True, slots=True)
class ChooseRow:
    """Take ``row`` (0-based) because your low card fits nowhere (Rule 4)."""

    player: int
    row: int
    kind: ClassVar[str] = "choose_row"


@dataclass(frozen=True, slots=True)
class Draft:
    """Pro variant: take ``card`` from the face-up cards into your hand."""

    player: int
    card: int
    kind: ClassVar[str] = "draft"


Action = Pick | ChooseRow | Draft

ACTION_TYPES: dict[str, type] = {cls.kind: cls for cls in (Pick, ChooseRow, Draft)}


def action_to_dict(action) -> dict:
    return {"kind": action.kind, **asdict(action)}


def action_from_dict(data: dict):
    """Rebuild an action from the action log; a foreign entry raises ``CorruptState``."""
    try:
        cls = ACTION_TYPES[data["kind"]]
        fields = {k: v for k, v in data.items() if k != "kind"}
        return cls.from_dict(fields) if hasattr(cls, "from_dict") else cls(**fields)
    except (KeyError, TypeError) as exc:
        raise CorruptState(f"not an action: {data!r}") from exc


def register_action(cls: type) -> type:
    """Let a variant add its own action types to the log format."""
    ACTION_TYPES[cls.kind] = cls
    return cls
