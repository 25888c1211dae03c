"""The Anniversary variant's actions, registered with the action-log format.

The special card's kind is the field ``special`` (``kind`` is already every
action's log tag). Parameters a special does not use stay ``None``; the game
lists every legal play fully filled in (``AnniversaryGame.legal_actions``):

==================  ===========================================================
special             parameters
==================  ===========================================================
fifth_row           —
seven_nimmt         ``row``: the row the number card goes to
insert              ``row``, ``position``: index the card takes in that row
replace             ``card``: the number card from the hand placed instead
shift               ``row``, ``card``: the card moved and its row; ``target_row``
stop                ``row``: the row blocked
negative_positive   ``row``: the row taken; ``card``: the card whose bullheads turn
==================  ===========================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from ..actions import register_action
from ..errors import CorruptState
from .specials import Special


class _NamesSpecial:
    """What an action naming a special card (``PlaySpecial``, ``Swap``) does with the name: the
    card it is built with, as a ``Special`` where the name is one; and from the action log, a
    name that is none is refused."""

    __slots__ = ()
    special: Special

    def __post_init__(self) -> None:
        # not contextlib.suppress: ten times the cost of a try, and every legal play is built here
        try:  # noqa: SIM105
            object.__setattr__(self, "special", Special(self.special))
        except ValueError:
            pass  # the game refuses it with a readable message

    @classmethod
    def from_dict(cls, fields: dict[str, Any]) -> Self:
        try:
            Special(fields["special"])
        except ValueError as exc:
            raise CorruptState(f"not a special card: {fields.get('special')!r}") from exc
        return cls(**fields)


@register_action
@dataclass(frozen=True, slots=True)
class PlaySpecial(_NamesSpecial):
    """Play ``special`` on the number card about to be placed (see the table above)."""

    player: int
    special: Special
    row: int | None = None
    card: int | None = None
    target_row: int | None = None
    position: int | None = None
    kind: ClassVar[str] = "play_special"


@register_action
@dataclass(frozen=True, slots=True)
class DeclineSpecial:
    """Place the number card without a special card."""

    player: int
    kind: ClassVar[str] = "decline_special"


@register_action
@dataclass(frozen=True, slots=True)
class Swap(_NamesSpecial):
    """After taking a row: discard ``special`` from the hand and draw the top of the deck."""

    player: int
    special: Special
    kind: ClassVar[str] = "swap"


@register_action
@dataclass(frozen=True, slots=True)
class DeclineSwap:
    """Keep your special cards."""

    player: int
    kind: ClassVar[str] = "decline_swap"
