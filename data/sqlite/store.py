"""SQLite implementation of the Store interface (aiosqlite).

Connections to one WAL database:

* the *writer*: every write transaction is one call run in its thread, and
  the thread runs one call at a time, so two transactions never interleave
  (``tx.run_transaction``); checkpoints reach it through the group-committing
  CheckpointWriter, every other write through ``_write()``;
* the *reader* (query_only), so leaderboards and restores never see a
  writer's uncommitted rows and never queue behind a write transaction;

plus a third, idle most of the time, that checkpoints the WAL (see wal.py).

The database must be a file (WAL needs one); use pytest's tmp_path in tests.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from os import PathLike
from typing import Any, TypeVar

import aiosqlite

from .. import queries
from .. import statements as sql
from ..errors import GameNotFound
from ..models import (
    CorruptTable,
    GameLog,
    GameResult,
    GameStatus,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    Metric,
    PlayerStats,
    RestoredTable,
    SeatInfo,
)
from ..rows import dump_object
from . import writes
from .checkpoint_writer import CheckpointWriter
from .schema import apply_migrations, refuse_newer
from .tx import run_transaction, transaction
from .wal import WalCheckpointer

T = TypeVar("T")

def _decode_text(raw: bytes) -> str:
    """Never let one invalid UTF-8 value abort a whole restore query."""
    return raw.decode("utf-8", errors="replace")


async def _connect(path: str, busy_timeout_ms: int, *, reader: bool) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await conn.execute("PRAGMA foreign_keys = ON")
        if reader:
            conn.text_factory = _decode_text
            await conn.execute("PRAGMA query_only = ON")
        else:
            # Only effective on a new file: fits a typical 3-6 KB checkpoint
            # into a single page instead of a page plus overflow page.
            await conn.execute("PRAGMA page_size = 8192")
            await conn.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL never corrupts; a power cut may lose only the
            # last few commits, which is the right trade for per-move writes.
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA wal_autocheckpoint = 0")  # see wal.py
    except BaseException:
        await conn.close()
        raise
    return conn


class SQLiteStore:
    """Persistence for tables, logs, results and rankings in one SQLite file."""

    def __init__(
        self,
        path: str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        wal: WalCheckpointer,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._wal = wal
        self._clock = clock
        self._read_lock = asyncio.Lock()
        self._checkpoints = CheckpointWriter(writer, clock)

    @classmethod
    async def open(
        cls,
        path: str | PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout_ms: int = 5000,
    ) -> SQLiteStore:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises SchemaTooNew if the file was written by newer code, and
        MigrationError if an upgrade fails (the file keeps its old version).
        """
        path = str(path)
        refuse_newer(path)
        writer = await _connect(path, busy_timeout_ms, reader=False)
        try:
            await apply_migrations(writer)
            reader = await _connect(path, busy_timeout_ms, reader=True)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader, await WalCheckpointer.start(path), clock)

    async def close(self) -> None:
        await self._checkpoints.close()
        await self._wal.close()
        await self._reader.close()
        await self._writer.close()  # the last connection out folds the WAL in

    async def __aenter__(self) -> SQLiteStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _write(self, body: Callable[[sqlite3.Connection], T]) -> Awaitable[T]:
        """Run ``body`` as one write transaction, in one hand-over to the writer's thread
        (which runs one at a time: see ``run_transaction``)."""
        return run_transaction(self._writer, body)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """One consistent snapshot for queries made of several statements."""
        async with transaction(self._reader, self._read_lock, "DEFERRED") as conn:
            yield conn

    # -- identities ------------------------------------------------------------

    async def upsert_player(self, user_id: int, display_name: str) -> None:
        now = self._clock()
        await self._write(lambda conn: writes.upsert_players(conn, [(user_id, display_name)], now))

    async def upsert_guild(self, guild_id: int, name: str | None) -> None:
        now = self._clock()
        await self._write(lambda conn: conn.execute(sql.UPSERT_GUILD, (guild_id, name, now)))

    # -- tables ----------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int | None,
        variant: str,
        options: dict[str, Any] | None = None,
        seats: Sequence[SeatInfo] = (),
        seed: int | None = None,
        message_ids: dict[str, int] | None = None,
    ) -> int:
        options_json = dump_object(options or {}, "options")
        messages_json = dump_object(message_ids or {}, "message_ids")
        now = self._clock()

        def create(conn: sqlite3.Connection) -> int:
            conn.execute(sql.ENSURE_GUILD, (guild_id, now))
            [(game_id,)] = conn.execute(sql.INSERT_GAME, (
                guild_id, channel_id, messages_json, host_id, variant, options_json, seed, now, now,
            )).fetchall()
            writes.replace_seats(conn, game_id, seats, now)
            return game_id

        return await self._write(create)

    async def update_game(
        self,
        game_id: int,
        *,
        status: GameStatus | None = None,
        message_ids: dict[str, int] | None = None,
        seats: Sequence[SeatInfo] | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        host_id: int | None = None,
    ) -> None:
        """Apply the given changes (None = leave unchanged) in one transaction."""
        changes = sql.GameChanges(message_ids=message_ids, options=options, seed=seed, host_id=host_id,
                                  status=status, seats=seats)
        now = self._clock()

        def update(conn: sqlite3.Connection) -> None:
            statement, parameters = changes.update(game_id, self._status_of(conn, game_id), now)
            if seats is not None:
                writes.replace_seats(conn, game_id, seats, now)
            conn.execute(statement, parameters)

        await self._write(update)

    @staticmethod
    def _status_of(conn: sqlite3.Connection, game_id: int) -> str:
        rows = conn.execute(sql.STATUS_OF, (game_id,)).fetchall()
        if not rows:
            raise GameNotFound(game_id)
        return rows[0][0]

    async def checkpoint(
        self,
        game_id: int,
        state: dict[str, Any],
        meta: dict[str, Any],
        action: dict[str, Any] | None = None,
        *,
        actions: Sequence[dict[str, Any]] = (),
        unshown: bool = False,
    ) -> int | None:
        # Serialise here, outside the writer's thread, so bad payloads fail fast
        # and JSON encoding does not lengthen anybody's transaction.
        entries = ([action] if action is not None else []) + list(actions)
        return await self._checkpoints.write(
            game_id,
            dump_object(state, "state"),
            dump_object(meta, "meta"),
            [dump_object(a, "action") for a in entries],
            unshown,
        )

    async def load_unfinished(self) -> list[RestoredTable | CorruptTable]:
        async with self._read() as conn:
            return await queries.load_unfinished(conn)

    async def load_unshown(self) -> list[RestoredTable | CorruptTable]:
        async with self._read() as conn:
            return await queries.load_unshown(conn)

    async def load_table(self, game_id: int) -> RestoredTable | CorruptTable | None:
        async with self._read() as conn:
            return await queries.load_table(conn, game_id)

    async def record_results(self, game_id: int, result: GameResult) -> bool:
        now = self._clock()
        # Looked up when the write runs, so a test can replace it.
        return await self._write(lambda conn: writes.record_results(conn, game_id, result, now))

    # -- queries ---------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int | None,
        metric: Metric = "wins",
        *,
        min_games: int = 1,
        limit: int = 10,
        offset: int = 0,
    ) -> LeaderboardPage:
        async with self._read() as conn:
            return await queries.leaderboard(conn, guild_id, metric, min_games, limit, offset)

    async def rank_of(
        self,
        user_id: int,
        guild_id: int | None,
        metric: Metric = "wins",
        *,
        min_games: int = 1,
    ) -> LeaderboardEntry | None:
        async with self._read() as conn:
            return await queries.rank_of(conn, user_id, guild_id, metric, min_games)

    async def player_stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        async with self._read() as conn:
            return await queries.player_stats(conn, user_id, guild_id)

    async def history(self, guild_id: int | None, limit: int = 10) -> list[GameSummary]:
        async with self._read() as conn:
            return await queries.history(conn, guild_id, limit)

    async def game_log(self, game_id: int) -> GameLog:
        async with self._read() as conn:
            return await queries.game_log(conn, game_id)

    # -- privacy ---------------------------------------------------------------

    async def forget_player(self, user_id: int) -> bool:
        return await self._write(lambda conn: writes.forget_player(conn, user_id))
