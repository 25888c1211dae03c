"""PostgreSQL implementation of the Store interface (asyncpg), for several bot processes.

Every method runs one transaction on a connection of a pool (its size is a
setting) and commits before returning, so a checkpoint is durable when the
click is acknowledged. The SQL is the shared SQL of ``data/queries.py``,
``data/statements.py`` and ``data/privacy.py``; ``writes.py`` adds the locks
several writing processes need.

A lost connection (a server restart, a failover) is retried: reads and
checkpoints for a few seconds (checkpoints idempotently, see
``writes.checkpoint_batch``); other writes are not retried, since their outcome is
unknown. When the server stays away the caller gets StoreUnavailable, which
the Discord face answers with "try again".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg

from .. import queries
from .. import statements as sql
from ..checkpoint_queue import CheckpointQueue, Outcome, PendingCheckpoint
from ..errors import StoreError, StoreUnavailable
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
from .schema import apply_migrations
from .sql import TRANSIENT, Numbered

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Pauses between tries after a lost connection: about 3 s in all, then StoreUnavailable.
RETRY_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.5)


def unavailable(exc: BaseException) -> StoreUnavailable:
    return StoreUnavailable(f"the database server cannot be reached ({type(exc).__name__}: {exc}); try again")


class PostgresStore:
    """Persistence for tables, logs, results and rankings in one PostgreSQL database."""

    def __init__(self, url: str, pool: asyncpg.Pool, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self._pool = pool
        self._clock = clock
        self._closed = False
        self._busy = 0
        self._idle = asyncio.Event()
        # Checkpoints are group-committed as on SQLite: one transaction (one disk sync) for
        # every checkpoint queued meanwhile, in call order.
        self._checkpoints = CheckpointQueue(self._write_checkpoints)
        self.retry_delays: Sequence[float] = RETRY_DELAYS

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10, clock: Callable[[], float] = time.time,
                   connect_timeout: float = 10.0) -> PostgresStore:
        """Connect, migrate (once, however many processes start at once) and return the store.

        Raises SchemaTooNew for a database of newer code (left unchanged),
        MigrationError if an upgrade fails, StoreUnavailable if the server
        cannot be reached.
        """
        try:
            conn = await asyncpg.connect(url, timeout=connect_timeout)
            try:
                await apply_migrations(conn)
            finally:
                await conn.close()
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, timeout=connect_timeout)
        except TRANSIENT as exc:
            raise unavailable(exc) from None
        except asyncpg.PostgresError as exc:  # e.g. no such database, authentication failed
            raise StoreUnavailable(f"the database server refused: {exc}") from None
        return cls(url, pool, clock)

    async def close(self) -> None:
        """Refuse new calls, let the ones under way finish (a queued checkpoint is written), close."""
        if not self._closed:
            self._closed = True
            await self._checkpoints.close()
            while self._busy:
                await self._idle.wait()
                self._idle.clear()
            await self._pool.close()

    @asynccontextmanager
    async def _call(self) -> AsyncIterator[None]:
        """Counts a call under way, so that close waits for it."""
        if self._closed:
            raise StoreError("the store is closed")
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- transactions ----------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self, *, readonly: bool = False) -> AsyncIterator[Numbered]:
        async with self._pool.acquire() as conn:
            # REPEATABLE READ: a query of several statements sees one snapshot, as SQLite's reader does.
            isolation = "repeatable_read" if readonly else "read_committed"
            async with conn.transaction(isolation=isolation, readonly=readonly):
                yield Numbered(conn)

    async def _run(self, body: Callable[[Numbered], Awaitable[T]], *, readonly: bool = False,
                   retry: bool = False) -> T:
        """``body`` in one transaction; retried after a lost connection if ``retry`` (it must be
        idempotent), else a lost connection is StoreUnavailable at once."""
        async with self._call():
            return await self._run_now(body, readonly=readonly, retry=retry)

    async def _run_now(self, body: Callable[[Numbered], Awaitable[T]], *, readonly: bool, retry: bool) -> T:
        delays = iter(self.retry_delays if retry else ())
        while True:
            try:
                async with self._transaction(readonly=readonly) as conn:
                    return await body(conn)
            except TRANSIENT as exc:
                delay = next(delays, None)
                if delay is None:
                    raise unavailable(exc) from None
                log.warning("database connection lost (%s); trying again in %.2f s", exc, delay)
                await asyncio.sleep(delay)

    def _read(self, body: Callable[[Numbered], Awaitable[T]]) -> Awaitable[T]:
        return self._run(body, readonly=True, retry=True)

    # -- identities ------------------------------------------------------------

    async def upsert_player(self, user_id: int, display_name: str) -> None:
        now = self._clock()
        await self._run(lambda conn: writes.upsert_players(conn, [(user_id, display_name)], now))

    async def upsert_guild(self, guild_id: int, name: str | None) -> None:
        now = self._clock()
        await self._run(lambda conn: conn.execute(sql.UPSERT_GUILD, (guild_id, name, now)))

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

        async def create(conn: Numbered) -> int:
            await conn.execute(sql.ENSURE_GUILD, (guild_id, now))
            [(game_id,)] = await conn.execute_fetchall(sql.INSERT_GAME, (
                guild_id, channel_id, messages_json, host_id, variant, options_json, seed, now, now,
            ))
            await writes.replace_seats(conn, game_id, seats, now)
            return game_id

        return await self._run(create)

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
        changes = sql.GameChanges(message_ids=message_ids, options=options, seed=seed, host_id=host_id,
                                  status=status, seats=seats)
        now = self._clock()

        async def update(conn: Numbered) -> None:
            statement, parameters = changes.update(game_id, await writes.status_of(conn, game_id, lock=True), now)
            if seats is not None:
                await writes.replace_seats(conn, game_id, seats, now)
            await conn.execute(statement, parameters)

        await self._run(update)

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
        entries = [dump_object(a, "action") for a in ([action] if action is not None else []) + list(actions)]
        state_json, meta_json = dump_object(state, "state"), dump_object(meta, "meta")
        async with self._call():
            return await self._checkpoints.write(game_id, state_json, meta_json, entries, unshown)

    async def _write_checkpoints(self, batch: list[PendingCheckpoint]) -> list[Outcome]:
        """One batch of the group commit, retried (idempotently) after a lost connection."""
        now = self._clock()
        attempt: dict[str, dict[int, int]] = {}
        return await self._run_now(lambda conn: writes.checkpoint_batch(conn, batch, now, attempt),
                                   readonly=False, retry=True)

    async def load_unfinished(self) -> list[RestoredTable | CorruptTable]:
        return await self._read(queries.load_unfinished)

    async def load_unshown(self) -> list[RestoredTable | CorruptTable]:
        return await self._read(queries.load_unshown)

    async def load_table(self, game_id: int) -> RestoredTable | CorruptTable | None:
        return await self._read(lambda conn: queries.load_table(conn, game_id))

    async def record_results(self, game_id: int, result: GameResult) -> bool:
        now = self._clock()
        return await self._run(lambda conn: writes.record_results(conn, game_id, result, now))

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
        return await self._read(lambda conn: queries.leaderboard(conn, guild_id, metric, min_games, limit, offset))

    async def rank_of(
        self,
        user_id: int,
        guild_id: int | None,
        metric: Metric = "wins",
        *,
        min_games: int = 1,
    ) -> LeaderboardEntry | None:
        return await self._read(lambda conn: queries.rank_of(conn, user_id, guild_id, metric, min_games))

    async def player_stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        return await self._read(lambda conn: queries.player_stats(conn, user_id, guild_id))

    async def history(self, guild_id: int | None, limit: int = 10) -> list[GameSummary]:
        return await self._read(lambda conn: queries.history(conn, guild_id, limit))

    async def game_log(self, game_id: int) -> GameLog:
        return await self._read(lambda conn: queries.game_log(conn, game_id))

    # -- privacy ---------------------------------------------------------------

    async def forget_player(self, user_id: int) -> bool:
        return await self._run(lambda conn: writes.forget_player(conn, user_id))
