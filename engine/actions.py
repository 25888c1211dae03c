"""Actions a player can take. Each is small, immutable and JSON-safe, so the
action log can replay any game from its seed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, asdict, dataclass
from typing import Any, ClassVar, Protocol, TypeVar

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


class Action(Protocol):
    """An action of any variant (the classic ones here, the Anniversary game's in
    ``engine/anniversary/actions.py``): a frozen dataclass with its seat and its log tag."""

    kind: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def player(self) -> int: ...


A = TypeVar("A", bound=type[Action])

#: Every action type by its ``kind``: a type with fields to check has a ``from_dict`` classmethod.
ACTION_TYPES: dict[str, type[Action]] = {cls.kind: cls for cls in (Pick, ChooseRow, Draft)}


def action_to_dict(action: Action) -> dict[str, Any]:
    return {"kind": action.kind, **asdict(action)}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Rebuild an action from the action log; a foreign entry raises ``CorruptState``."""
    try:
        cls = ACTION_TYPES[data["kind"]]
        fields = {k: v for k, v in data.items() if k != "kind"}
        checked: Callable[[dict[str, Any]], Action] | None = getattr(cls, "from_dict", None)
        return checked(fields) if checked is not None else cls(**fields)
    except (KeyError, TypeError) as exc:
        raise CorruptState(f"not an action: {data!r}") from exc


def register_action(cls: A) -> A:
    """Let a variant add its own action types to the log format."""
    ACTION_TYPES[cls.kind] = cls
    return cls
