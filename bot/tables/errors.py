"""Errors the table service raises for a user: the message is what they are shown.

Rules errors come from the engine (``engine.IllegalAction``); these are about
tables and seats. Every one means nothing was changed. Each carries its
message as a ``Text`` (an English template and fields), which the Discord face
translates; ``str()`` is the English.
"""

from __future__ import annotations

from typing import Any

from .text import N_, Template, Text


class TableError(Exception):
    """Something a user tried that this table does not allow; ``text`` says why."""

    def __init__(self, template: Template, /, **fields: Any) -> None:
        self.text = Text(template, **fields)
        super().__init__(str(self.text))


class OptionError(ValueError):
    """A table option that does not fit; a ``ValueError`` because pydantic validation raises it."""

    def __init__(self, template: Template, /, **fields: Any) -> None:
        self.text = Text(template, **fields)
        super().__init__(str(self.text))


class NoTable(TableError):
    def __init__(
        self,
        template: str = N_("There is no 6 nimmt! table in this channel. Start one with `/6nimmt start`."),
        /,
        **fields: Any,
    ) -> None:
        super().__init__(template, **fields)


class TableExists(TableError):
    """A game is played in this channel (or thread) itself already: ``message_id`` shows it (None
    if not known yet), in ``channel_id``."""

    def __init__(self, table_id: int, message_id: int | None, channel_id: int) -> None:
        super().__init__(N_("This channel already has a 6 nimmt! table."))
        self.table_id = table_id
        self.message_id = message_id
        self.channel_id = channel_id


class NotAtTable(TableError):
    """Someone not seated pressed a table's button: say how to play next time."""

    def __init__(
        self,
        template: str = N_(
            "You are not at this table. To play in the next game, press **Join** on "
            "its lobby, or open one with `/6nimmt start`."
        ),
        /,
        **fields: Any,
    ) -> None:
        super().__init__(template, **fields)


class NotInLobby(NotAtTable):
    """Someone not seated pressed a lobby button that is for its players."""

    def __init__(self) -> None:
        super().__init__(N_("You are not at this table: press **Join** to sit down."))


#: Why an AI plays a player's seat (``Seat.takeover``), as they are told.
TAKEOVER_REASONS = {
    "missed": N_("An AI plays your seat since you missed two turns in a row."),
    "left": N_("An AI plays your seat since you left the table."),
    "kicked": N_("An AI plays your seat since the host removed you from this game; it stays with the AI."),
}


class SeatTakenOver(NotAtTable):
    """A player whose seat an AI plays; ``can_reclaim`` unless the host removed them."""

    def __init__(self, table_id: int, reason: str) -> None:
        super().__init__(TAKEOVER_REASONS[reason])
        self.table_id = table_id
        self.can_reclaim = reason != "kicked"


class NotHost(TableError):
    """Only the host may do this; the template says what (``Only the host can …``)."""


class StaleButton(TableError):
    def __init__(self) -> None:
        super().__init__(N_("That button is from an earlier turn. Use the newest table message."))


class LobbyError(TableError):
    """Joining, leaving or starting is not possible right now (full, started, too few…)."""


class BackNextTurn(TableError):
    """A player took their seat back mid-turn: the AI's decision for this turn stands."""

    def __init__(self) -> None:
        super().__init__(N_("You have your seat back from the next turn on: the AI's choice for this turn stands."))


class TablePaused(TableError):
    """The game waits with its clock stopped (``Table.paused``): nothing can be played meanwhile."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "This game is paused because a moderator locked its thread. It goes on when the "
                "thread is unlocked; nothing was changed."
            )
        )
