"""Persistence layer: tables, action logs, results, statistics and ratings.

Callers depend on the ``Store`` protocol and get an implementation from
``open_store``; today that is SQLite (``SQLiteStore``).
"""

from __future__ import annotations

from os import PathLike

from .errors import (
    CorruptRecord,
    GameNotActive,
    GameNotFound,
    InvalidPayload,
    InvalidTransition,
    MigrationError,
    PlayerInActiveGame,
    ResultMismatch,
    SchemaTooNew,
    StoreError,
    UnknownMetric,
)
from .models import (
    CorruptTable,
    GameLog,
    GameResult,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerStats,
    RestoredTable,
    SeatInfo,
    SeatResult,
)
from .store import Store


async def open_store(path: str | PathLike[str]) -> Store:
    """Open the database at ``path`` (created and migrated as needed)."""
    from .sqlite_store import SQLiteStore

    return await SQLiteStore.open(path)


__all__ = [
    "CorruptRecord", "CorruptTable", "GameLog", "GameNotActive", "GameNotFound",
    "GameResult", "GameSummary", "InvalidPayload", "InvalidTransition",
    "LeaderboardEntry", "LeaderboardPage", "MigrationError", "PlayerInActiveGame",
    "PlayerStats", "RestoredTable", "ResultMismatch", "SchemaTooNew", "SeatInfo",
    "SeatResult", "Store", "StoreError", "UnknownMetric", "open_store",
]
