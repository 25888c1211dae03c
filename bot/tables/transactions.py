"""The transaction that applies one action to a table and commits it, and who hears of it.

Every change to a table runs inside ``Transactions.acting(table)``: under the
table's lock, the caller changes the live table and calls ``commit`` once,
which writes everything the action changed (the state, its log entries, the
seats, the status, a finished game's results, the posts it owes the channel)
in one store transaction. Only after that commit do the listeners hear of it,
with a ``TableSnapshot`` made of exactly what was committed. If anything fails
before the commit, the table goes back to its last commit: a failed save
changes nothing, and numbers no post twice.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from data.errors import StoreUnavailable
from data.models import Commit, GameResult, GameStatus, OutboxPost, SeatInfo
from data.store import Store
from engine import IllegalAction, action_to_dict
from engine.actions import Action

from .errors import TableError
from .observer import Observer
from .table import Table, TableSnapshot
from .updates import Listener, TableUpdate

log = logging.getLogger(__name__)

T = TypeVar("T")

#: True once the running task (one click or command) has committed a change to a table, so an
#: error after that is not reported as "nothing was changed": the change stands.
committed_change: contextvars.ContextVar[bool] = contextvars.ContextVar("committed_change", default=False)

#: What a store raises when the database cannot be reached, or is locked by another program:
#: nothing was written (both backends say so with StoreUnavailable).
UNREACHABLE = (StoreUnavailable, OSError, TimeoutError)


@dataclass
class DatabaseHealth:
    """Whether the last save reached the database, for the health line and for bounded logging."""

    reachable: bool = True
    since: float = 0.0  # when it last changed (the service's clock)
    failures: int = 0  # saves that failed since it was last reachable

    def failed(self, now: float) -> bool:
        """Record a failed save; True for the first of an outage (the one worth a log line)."""
        first = self.reachable
        if first:
            self.reachable, self.since, self.failures = False, now, 0
        self.failures += 1
        return first

    def succeeded(self, now: float) -> bool:
        """Record a save that went through; True if it ends an outage."""
        if self.reachable:
            return False
        self.reachable, self.since = True, now
        return True


class Transactions:
    """Commits tables' changes and tells the listeners what was committed."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time, observer: Observer | None = None) -> None:
        self.store = store
        self.clock = clock
        self.health = DatabaseHealth()
        self.observer = observer or Observer()
        self._listeners: list[Listener] = []

    # -- listeners ----------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def notify(self, snapshot: TableSnapshot, kind: str) -> None:
        update = TableUpdate(snapshot, kind)
        for listener in self._listeners:
            try:
                listener(update)
            except Exception:
                log.exception("table listener failed for table %s", snapshot.id)

    # -- the transaction ------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def acting(self, table: Table) -> AsyncIterator[None]:
        """The table's lock, for a change that counts only once committed.

        If the change fails before its commit (the database is away, a bug), the
        table goes back to its last commit: what the user is told ("nothing was
        changed") is then true in memory too.
        """
        async with table.lock:
            try:
                yield
            except (TableError, IllegalAction):
                table.unsaved = []  # refused before anything changed
                raise
            except BaseException:
                # Back to the last commit, whether it was made before this hold or in it (the AI
                # seats' picks commit one by one): what follows it was never saved.
                if table.saved is not None:
                    table.roll_back()
                raise

    async def commit(
        self,
        table: Table,
        actions: Iterable[Action] = (),
        *,
        kind: str | None = None,
        seats: bool = False,
        status: GameStatus | None = None,
        host: bool = False,
        result: GameResult | None = None,
    ) -> TableSnapshot:
        """Write what this action changed in one transaction; then tell the listeners (``kind``).
        Returns the snapshot of what was committed.

        ``seats``/``status``/``host``: the game's record changes too; ``result``: the
        game is over and these are its results (the store finishes it with them).
        """
        state, meta = table.checkpoint()
        posts = table.unsaved
        change = Commit(
            state=state,
            meta=meta,
            actions=[action_to_dict(a) for a in actions],
            posts=[OutboxPost(seq=p.seq, payload=p.to_dict()) for p in posts],
            seats=seat_infos(table) if seats else None,
            status=status,
            host_id=table.host_id if host else None,
            result=result,
        )
        await self.write(lambda: self.store.commit(table.id, change))
        return self.saved(table, state, meta, kind)

    async def create(self, table: Table, kind: str) -> None:
        """The record of a new table and its first commit, in one transaction (sets ``table.id``)."""
        state, meta = table.checkpoint()
        change = Commit(
            state=state,
            meta=meta,
            seats=seat_infos(table),
            posts=[OutboxPost(seq=p.seq, payload=p.to_dict()) for p in table.unsaved],
        )
        table.id = await self.write(
            lambda: self.store.create_game(
                guild_id=table.guild_id,
                channel_id=table.channel_id,
                host_id=table.host_id,
                variant=table.options.variant.value,
                options=table.options.model_dump(mode="json"),
                seed=table.seed,
                commit=change,
            )
        )
        self.saved(table, state, meta, kind)

    def saved(self, table: Table, state: dict[str, Any], meta: dict[str, Any], kind: str | None) -> TableSnapshot:
        table.saved = (state, meta)
        table.outbox = table.outbox + table.unsaved
        table.unsaved = []
        table.version += 1
        committed = table.committed = table.snapshot()
        committed_change.set(True)
        if kind is not None:
            self.notify(committed, kind)
        return committed

    async def write(self, call: Callable[[], Awaitable[T]]) -> T:
        """One store write, keeping ``health`` up to date and the observer told how long it took;
        an unreachable database is logged once per outage, not once per save."""
        started = time.perf_counter()
        try:
            result = await call()
        except Exception as exc:
            self.observer.store_write(time.perf_counter() - started, ok=False)
            if isinstance(exc, UNREACHABLE) and self.health.failed(self.clock()):
                log.error(
                    "the database cannot be reached (%s: %s); tables pause until it is back", type(exc).__name__, exc
                )
            raise
        self.observer.store_write(time.perf_counter() - started, ok=True)
        if self.health.succeeded(self.clock()):
            log.warning("the database is reachable again after %d failed save(s)", self.health.failures)
        return result


def seat_infos(table: Table) -> list[SeatInfo]:
    return [
        SeatInfo(seat=i, user_id=s.user_id, ai_level=s.ai_level if s.user_id is None else None, display_name=s.name)
        for i, s in enumerate(table.seats)
    ]
