"""Errors the table service raises for a user: the message is what they are shown.

Rules errors come from the engine (``engine.IllegalAction``); these are about
tables and seats. Every one means nothing was changed.
"""

from __future__ import annotations


class TableError(Exception):
    """Something a user tried that this table does not allow; ``str()`` says why."""


class NoTable(TableError):
    def __init__(self, message: str = "There is no 6 nimmt! table in this channel. Start one with `/6nimmt start`.") -> None:
        super().__init__(message)


class TableExists(TableError):
    def __init__(self, table_id: int, message_id: int | None) -> None:
        super().__init__("This channel already has a 6 nimmt! table.")
        self.table_id = table_id
        self.message_id = message_id


class NotAtTable(TableError):
    def __init__(self) -> None:
        super().__init__("You are not at this table.")


class NotHost(TableError):
    def __init__(self, what: str) -> None:
        super().__init__(f"Only the host can {what}.")


class StaleButton(TableError):
    def __init__(self) -> None:
        super().__init__("That button is from an earlier turn. Use the newest table message.")


class LobbyError(TableError):
    """Joining, leaving or starting is not possible right now (full, started, too few…)."""
