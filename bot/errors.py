"""Errors the table service raises for a user: the message is what they are shown.

Rules errors come from the engine (``engine.IllegalAction``); these are about
tables and seats. Every one means nothing was changed. Each carries its
message as a ``Text`` (an English template and fields), which the Discord face
translates; ``str()`` is the English.
"""

from __future__ import annotations

from .text import N_, Text


class TableError(Exception):
    """Something a user tried that this table does not allow; ``text`` says why."""

    def __init__(self, template: str, /, **fields) -> None:
        self.text = Text(template, **fields)
        super().__init__(str(self.text))


class OptionError(ValueError):
    """A table option that does not fit; a ``ValueError`` because pydantic validation raises it."""

    def __init__(self, template: str, /, **fields) -> None:
        self.text = Text(template, **fields)
        super().__init__(str(self.text))


class NoTable(TableError):
    def __init__(self, template: str = N_("There is no 6 nimmt! table in this channel. "
                                          "Start one with `/6nimmt start`."), /, **fields) -> None:
        super().__init__(template, **fields)


class TableExists(TableError):
    def __init__(self, table_id: int, message_id: int | None) -> None:
        super().__init__(N_("This channel already has a 6 nimmt! table."))
        self.table_id = table_id
        self.message_id = message_id


class NotAtTable(TableError):
    def __init__(self) -> None:
        super().__init__(N_("You are not at this table."))


class NotHost(TableError):
    """Only the host may do this; the template says what (``Only the host can …``)."""


class StaleButton(TableError):
    def __init__(self) -> None:
        super().__init__(N_("That button is from an earlier turn. Use the newest table message."))


class LobbyError(TableError):
    """Joining, leaving or starting is not possible right now (full, started, too few…)."""
