"""The embedded SQLite backend (aiosqlite): one file, nothing to run."""

from .store import SQLiteStore

__all__ = ["SQLiteStore"]
