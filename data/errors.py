"""Typed exceptions raised by the persistence layer.

Callers (the table service) catch these by type instead of parsing messages,
so every failure mode the store can report has its own class here.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised deliberately by the store."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot than this code.

    Opening it anyway could silently corrupt data the newer code relies on, so
    the store refuses and leaves the file untouched.
    """

    def __init__(self, db_version: int, code_version: int) -> None:
        super().__init__(
            f"database schema version {db_version} is newer than the newest "
            f"version this code knows ({code_version}); upgrade the bot "
            "instead of downgrading the database"
        )
        self.db_version = db_version
        self.code_version = code_version


class StoreUnavailable(StoreError):
    """The database cannot be reached or used right now (server away or frozen, file locked
    by another process beyond the busy timeout).

    Nothing was written: the caller may try again later.
    """


class NotADatabase(StoreError):
    """The database file exists but is not an SQLite database (or is encrypted or damaged)."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"{path} is not an SQLite database file; point DATABASE_URL or "
            "DATABASE_PATH at the bot's database, or at a new file"
        )
        self.path = path


class MigrationError(StoreError):
    """A migration failed; its transaction was rolled back."""

    def __init__(self, version: int, cause: BaseException) -> None:
        super().__init__(f"migration to schema version {version} failed: {cause}")
        self.version = version


class GameNotFound(StoreError, LookupError):
    """No game with the given id exists."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class InvalidTransition(StoreError):
    """The requested change is not allowed in the game's current status."""


class GameNotActive(InvalidTransition):
    """Actions were sent to the log of a game that is no longer lobby/playing."""


class ResultMismatch(StoreError, ValueError):
    """A GameResult does not fit the game it is recorded for (e.g. seats)."""


class PlayerInActiveGame(StoreError):
    """forget_player was asked for someone still seated at an open table.

    Anonymising a seat of a running game would break that table, so the
    player must leave (or the table must end) first.
    """


class UnknownMetric(StoreError, ValueError):
    """A leaderboard metric name that the store does not support."""


class InvalidPayload(StoreError, ValueError):
    """A state/meta/action payload that cannot be stored as a JSON object."""


class ConstraintViolation(StoreError, ValueError):
    """A write broke one of the database's rules (e.g. one user in two seats of a game);
    that write was undone."""


class CorruptRecord(StoreError):
    """A stored row could not be read back (bad JSON, wrong types, ...)."""
