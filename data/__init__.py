"""Persistence layer: tables, action logs, results, statistics and ratings.

Callers depend on the ``Store`` protocol and get an implementation from
``open_store(url)``: SQLite (``data/sqlite/``, the embedded default) for
``sqlite:///path`` or a bare file path, PostgreSQL (``data/postgres/``) for
``postgresql://…``.
"""

from __future__ import annotations

from os import PathLike

from .errors import (
    ConstraintViolation,
    CorruptRecord,
    GameNotActive,
    GameNotFound,
    InvalidPayload,
    InvalidTransition,
    MigrationError,
    NotADatabase,
    PlayerInActiveGame,
    ResultMismatch,
    SchemaTooNew,
    StoreError,
    StoreUnavailable,
    UnknownMetric,
)
from .models import (
    Commit,
    CorruptTable,
    GameLog,
    GameResult,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    OutboxPost,
    PlayerStats,
    RestoredTable,
    SeatInfo,
    SeatResult,
    Transferred,
)
from .store import Store

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def sqlite_path(url: str | PathLike[str]) -> str | None:
    """The file an SQLite URL or bare path names; None for a PostgreSQL URL.

    ``sqlite:///sixnimmt.sqlite3`` is relative, ``sqlite:////data/x.sqlite3``
    absolute (the usual database-URL convention).
    """
    text = str(url)
    if text.startswith(POSTGRES_PREFIXES):
        return None
    if text.startswith(SQLITE_PREFIX):
        return text[len(SQLITE_PREFIX) :]
    if "://" in text:
        raise ValueError(f"unknown database URL {text!r}: use sqlite:///path or postgresql://…")
    return text


async def open_store(url: str | PathLike[str], *, pool_size: int = 10) -> Store:
    """Open the database ``url`` names (created and migrated as needed).

    ``pool_size`` is PostgreSQL's connection pool; SQLite uses its own fixed
    writer and reader connections.
    """
    path = sqlite_path(url)
    if path is None:
        from .postgres import PostgresStore  # asyncpg is loaded only by who uses it

        return await PostgresStore.open(str(url), pool_size=pool_size)
    from .sqlite import SQLiteStore

    return await SQLiteStore.open(path)


async def copy_database(source: str, target: str) -> Transferred:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``target``
    (see ``data/transfer.py``); returns what was copied, raises a StoreError saying why not."""
    from .transfer import copy_sqlite_to_postgres  # both backends: only for this one-off command

    return await copy_sqlite_to_postgres(source, target)


__all__ = [
    "Commit",
    "ConstraintViolation",
    "CorruptRecord",
    "CorruptTable",
    "GameLog",
    "GameNotActive",
    "GameNotFound",
    "GameResult",
    "GameSummary",
    "InvalidPayload",
    "InvalidTransition",
    "LeaderboardEntry",
    "LeaderboardPage",
    "MigrationError",
    "NotADatabase",
    "OutboxPost",
    "PlayerInActiveGame",
    "PlayerStats",
    "RestoredTable",
    "ResultMismatch",
    "SchemaTooNew",
    "SeatInfo",
    "SeatResult",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Transferred",
    "UnknownMetric",
    "open_store",
    "copy_database",
    "sqlite_path",
]
