"""PostgreSQL implementation of the Store interface (asyncpg), for several bot processes.

Every method runs one transaction on a connection of a pool (its size is a
setting) and commits before returning, so a commit is durable when the click
is acknowledged. The methods are the shared ones of ``data/backend.py``, the
SQL the shared SQL of ``data/queries.py`` and ``data/writes.py``, which
``writes.py`` here runs with the locks several writing processes need.

A lost connection (a server restart, a failover) is retried: reads and the
group commit's batches (idempotently, see ``_write_batch``); other writes are
not retried, since their outcome is unknown. No call takes longer than
``timeout`` (tries included): a server that hangs (frozen, or the network
gone) has its connection cut then. When the server stays away the caller gets
StoreUnavailable, which the Discord face answers with "try again".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Literal, TypeVar

import asyncpg

from ..backend import StoreBase
from ..errors import StoreError, StoreUnavailable
from ..writes import Outcome, Pending, Step, batch_written, write_batch
from .schema import apply_migrations
from .sql import TRANSIENT, Numbered
from .writes import drive

log = logging.getLogger(__name__)
T = TypeVar("T")
Isolation = Literal["repeatable_read", "read_committed"]  # the two levels a transaction here runs at

#: Pauses between tries after a lost connection: about 3 s in all, then StoreUnavailable.
RETRY_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.5)
#: The longest a call may take, its tries included, before it is StoreUnavailable (seconds).
TIMEOUT = 5.0


def unavailable(exc: BaseException) -> StoreUnavailable:
    return StoreUnavailable(f"the database server cannot be reached ({type(exc).__name__}: {exc}); try again")


class PostgresStore(StoreBase):
    """Persistence for tables, logs, results and rankings in one PostgreSQL database."""

    def __init__(
        self, url: str, pool: asyncpg.Pool, clock: Callable[[], float] = time.time, timeout: float = TIMEOUT
    ) -> None:
        self.url = url
        self._pool = pool
        self._clock = clock
        self._closed = False
        self._busy = 0
        self._idle = asyncio.Event()
        self.retry_delays: Sequence[float] = RETRY_DELAYS
        self.timeout = timeout
        # Commits are group-committed as on SQLite: one transaction (one disk sync) for
        # every commit queued meanwhile, in call order.
        super().__init__()

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int = 10,
        clock: Callable[[], float] = time.time,
        connect_timeout: float = 10.0,
        timeout: float = TIMEOUT,
    ) -> PostgresStore:
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
        return cls(url, pool, clock, timeout)

    async def close(self) -> None:
        """Refuse new calls, let the ones under way finish (queued commits are written), close."""
        if not self._closed:
            self._closed = True
            await self._commits.close()
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

    async def _attempt(self, body: Callable[[Numbered], Awaitable[T]], readonly: bool, deadline: float) -> T:
        """One try of ``body`` in one transaction, its connection cut at ``deadline`` (loop time):
        a hung statement then fails at once, as after a lost connection."""
        loop = asyncio.get_running_loop()
        if deadline <= loop.time():
            raise TimeoutError("no time left for another try")
        conn = await self._pool.acquire(timeout=deadline - loop.time())
        watchdog = loop.call_later(max(0.0, deadline - loop.time()), conn.terminate)
        try:
            # REPEATABLE READ: a query of several statements sees one snapshot, as SQLite's reader does.
            isolation: Isolation = "repeatable_read" if readonly else "read_committed"
            async with conn.transaction(isolation=isolation, readonly=readonly):
                return await body(Numbered(conn))
        finally:
            watchdog.cancel()
            try:
                await self._pool.release(conn, timeout=max(0.1, deadline - loop.time()))
            except Exception:  # reset failed: the pool dropped the connection, the outcome stands
                log.debug("connection dropped on release", exc_info=True)

    async def _run(self, body: Callable[[Numbered], Awaitable[T]], *, readonly: bool = False, retry: bool = False) -> T:
        """``body`` in one transaction; retried after a lost connection if ``retry`` (it must be
        idempotent), else a lost connection is StoreUnavailable at once."""
        async with self._call():
            return await self._run_now(body, readonly=readonly, retry=retry)

    async def _run_now(self, body: Callable[[Numbered], Awaitable[T]], *, readonly: bool, retry: bool) -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        delays = iter(self.retry_delays if retry else ())
        while True:
            try:
                return await self._attempt(body, readonly, deadline)
            except TRANSIENT as exc:
                delay = next(delays, None)
                if delay is None or loop.time() + delay >= deadline:
                    raise unavailable(exc) from None
                log.warning("database connection lost (%s); trying again in %.2f s", exc, delay)
                await asyncio.sleep(delay)

    def _transact(self, make_step: Callable[[], Step[T]]) -> Awaitable[T]:
        return self._run(lambda conn: drive(conn, make_step()))

    def _query(self, read: Callable[[Numbered], Awaitable[T]]) -> Awaitable[T]:
        return self._run(read, readonly=True, retry=True)

    async def _write_batch(self, batch: list[Pending]) -> list[Outcome]:
        """One batch of the group commit, retried after a lost connection, idempotently: when
        the connection died during COMMIT the outcome is unknown, and a retry that finds the
        first try's stamp on its checkpoints (``writes.batch_written``) knows that it was
        committed, and answers as it would have, writing nothing twice."""
        now = self._clock()
        first: list[list[Outcome]] = []

        async def write(conn: Numbered) -> list[Outcome]:
            if first:
                written = await drive(conn, batch_written(batch, first[0], now))
                if written:
                    return first[0]
            outcomes = await drive(conn, write_batch(batch, now))
            first[:] = [outcomes]
            return outcomes

        return await self._run_now(write, readonly=False, retry=True)
