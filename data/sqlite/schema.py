"""Versioned SQLite schema and the migration runner.

The schema version lives in ``PRAGMA user_version``. Each migration runs in
one ``BEGIN IMMEDIATE`` transaction together with its version bump (SQLite
writes user_version into the database header inside the transaction, so a
rollback restores the old number too). Statements run one by one through
``execute``: ``executescript`` would COMMIT implicitly and break atomicity.

Never edit a shipped migration; append a new one instead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import aiosqlite

from ..errors import MigrationError, NotADatabase, SchemaTooNew
from ..migration import Migration, outbox_migration, server_settings_migration
from .tx import transaction

_V1_CORE = Migration(
    1,
    "core tables: players, guilds, games, seats, checkpoints, action log, results",
    (
        """CREATE TABLE players (
            user_id      INTEGER PRIMARY KEY,
            display_name TEXT NOT NULL,
            updated_at   REAL NOT NULL
        )""",
        """CREATE TABLE guilds (
            guild_id   INTEGER PRIMARY KEY,
            name       TEXT,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE games (
            game_id     INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id    INTEGER NOT NULL REFERENCES guilds(guild_id),
            channel_id  INTEGER NOT NULL,
            message_ids TEXT NOT NULL DEFAULT '{}',
            host_id     INTEGER,
            variant     TEXT NOT NULL,
            options     TEXT NOT NULL DEFAULT '{}',
            status      TEXT NOT NULL CHECK (status IN
                          ('lobby', 'playing', 'finished', 'cancelled', 'abandoned')),
            seed        INTEGER,
            rounds      INTEGER,
            created_at  REAL NOT NULL,
            started_at  REAL,
            finished_at REAL,
            updated_at  REAL NOT NULL
        )""",
        "CREATE INDEX games_unfinished ON games(status) WHERE status IN ('lobby', 'playing')",
        """CREATE TABLE seats (
            game_id      INTEGER NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
            seat         INTEGER NOT NULL CHECK (seat >= 0),
            user_id      INTEGER REFERENCES players(user_id) ON DELETE SET NULL,
            ai_level     TEXT,
            display_name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID""",
        "CREATE UNIQUE INDEX seats_user ON seats(user_id, game_id) WHERE user_id IS NOT NULL",
        """CREATE TABLE checkpoints (
            game_id    INTEGER PRIMARY KEY REFERENCES games(game_id) ON DELETE CASCADE,
            last_seq   INTEGER NOT NULL DEFAULT 0,
            state      TEXT NOT NULL,
            meta       TEXT NOT NULL,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE actions (
            game_id    INTEGER NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
            seq        INTEGER NOT NULL CHECK (seq >= 1),
            action     TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        """CREATE TABLE round_scores (
            game_id INTEGER NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
            round   INTEGER NOT NULL CHECK (round >= 1),
            seat    INTEGER NOT NULL,
            points  INTEGER NOT NULL,
            PRIMARY KEY (game_id, round, seat)
        ) WITHOUT ROWID""",
        """CREATE TABLE results (
            game_id      INTEGER NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
            seat         INTEGER NOT NULL,
            user_id      INTEGER REFERENCES players(user_id) ON DELETE SET NULL,
            display_name TEXT NOT NULL,
            ai_level     TEXT,
            points       INTEGER NOT NULL,
            rank         INTEGER NOT NULL CHECK (rank >= 1),
            won          INTEGER NOT NULL CHECK (won IN (0, 1)),
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID""",
        "CREATE INDEX results_user ON results(user_id) WHERE user_id IS NOT NULL",
        """CREATE TABLE seat_stats (
            game_id          INTEGER NOT NULL,
            seat             INTEGER NOT NULL,
            user_id          INTEGER REFERENCES players(user_id) ON DELETE CASCADE,
            rows_taken       INTEGER NOT NULL,
            sixth_card_takes INTEGER NOT NULL,
            low_card_takes   INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat),
            FOREIGN KEY (game_id, seat) REFERENCES results(game_id, seat) ON DELETE CASCADE
        ) WITHOUT ROWID""",
        "CREATE INDEX seat_stats_user ON seat_stats(user_id) WHERE user_id IS NOT NULL",
        """CREATE TABLE seat_row_takes (
            game_id   INTEGER NOT NULL,
            seat      INTEGER NOT NULL,
            row_index INTEGER NOT NULL CHECK (row_index >= 0),
            takes     INTEGER NOT NULL CHECK (takes >= 0),
            PRIMARY KEY (game_id, seat, row_index),
            FOREIGN KEY (game_id, seat) REFERENCES seat_stats(game_id, seat) ON DELETE CASCADE
        ) WITHOUT ROWID""",
    ),
)

_V2_RATINGS = Migration(
    2,
    "skill ratings per scope (0 = global, else guild id) and history index",
    (
        """CREATE TABLE ratings (
            scope_id   INTEGER NOT NULL,
            user_id    INTEGER NOT NULL REFERENCES players(user_id) ON DELETE CASCADE,
            mu         REAL NOT NULL,
            sigma      REAL NOT NULL,
            games      INTEGER NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL,
            PRIMARY KEY (scope_id, user_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX ratings_user ON ratings(user_id)",
        """CREATE INDEX games_guild_history ON games(guild_id, finished_at DESC)
           WHERE status = 'finished'""",
    ),
)

_V3_UNSHOWN = Migration(
    3,
    "checkpoints say whether the table still has news for its channel (ended tables included)",
    (
        "ALTER TABLE checkpoints ADD COLUMN unshown INTEGER NOT NULL DEFAULT 0 CHECK (unshown IN (0, 1))",
        "CREATE INDEX checkpoints_unshown ON checkpoints(game_id) WHERE unshown = 1",
    ),
)

# DROP COLUMN needs SQLite 3.35, as RETURNING (used since version 1) does.
_V4_OUTBOX = outbox_migration(4, integer="INTEGER", real="REAL", table_options=" WITHOUT ROWID")

_V5_SERVER_SETTINGS = server_settings_migration(5, integer="INTEGER", real="REAL")

MIGRATIONS: tuple[Migration, ...] = (_V1_CORE, _V2_RATINGS, _V3_UNSHOWN, _V4_OUTBOX, _V5_SERVER_SETTINGS)
LATEST_VERSION = MIGRATIONS[-1].version


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


def refuse_newer(path: str, latest: int = LATEST_VERSION) -> None:
    """Raise SchemaTooNew, before anything opens ``path`` for writing, if newer code wrote it.

    Read on a read-only connection: switching a newer file's journal mode to
    WAL (the writer's first statement) would already change it. A file that is
    not a database raises NotADatabase here too, with the same guarantee.
    """
    if not Path(path).is_file():
        return
    try:
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            raise NotADatabase(path) from None
        raise
    if version > latest:
        raise SchemaTooNew(version, latest)


async def apply_migrations(conn: aiosqlite.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the database up to the last of ``migrations``; return the new version.

    ``conn`` must be in autocommit mode (``isolation_level=None``) so that the
    explicit BEGIN/COMMIT here are the only transaction boundaries. Tests pass
    a prefix of MIGRATIONS to build databases of every earlier version.
    """
    latest = migrations[-1].version if migrations else 0
    current = await schema_version(conn)
    if current > latest:
        raise SchemaTooNew(current, latest)
    for migration in migrations:
        if migration.version <= current:
            continue
        await _apply_one(conn, migration)
        current = migration.version
    return current


async def _apply_one(conn: aiosqlite.Connection, migration: Migration) -> None:
    try:
        async with transaction(conn):
            # Re-check under the write lock: another process may have migrated.
            if await schema_version(conn) >= migration.version:
                return
            for statement in migration.statements:
                await conn.execute(statement)
            if migration.after is not None:
                await migration.after(conn)
            # PRAGMA arguments cannot be bound; the version is a trusted int.
            await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
    except Exception as exc:
        raise MigrationError(migration.version, exc) from exc
