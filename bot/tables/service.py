"""The table service: owns every live table, its timer, AI seats and commits.

The Discord face calls it with ids and gets back results or ``TableError``s;
it learns what to show through ``TableUpdate``s, each carrying a snapshot of
what was committed. The service is assembled from parts, each with one job:

* ``TableRegistry`` — which tables are open here;
* ``Transactions`` — the lock, the one commit per action, the rollback of a
  failed one, the listeners;
* ``Lobby``, ``Play``, ``Specials`` — the operations, built on those two;
* ``Scheduler`` — deadlines, retried with a growing pause when a save fails.

Each table's actions run under that table's lock, so double clicks and
players clicking at the same moment are applied one after the other.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from data.models import CorruptTable, RestoredTable
from data.store import Store
from engine.ai.coach import Hint, NoHint

from .ai_seats import AIDecider, AISeats
from .checks import running_game, seat_of
from .errors import TableError
from .lobby import Lobby
from .observer import Observer
from .pause import Pauses
from .play import PickResult, Play, ServiceDefaults, ai_seed
from .registry import TableRegistry
from .specials import Specials
from .table import Post, Table, TableSnapshot
from .text import N_, Text
from .timers import Scheduler
from .transactions import Transactions, committed_change
from .updates import Listener
from .workers import WorkerPool

log = logging.getLogger(__name__)

#: Seconds a decision's post may take to reach the channel before its timer waits as long: a
#: post shown within a second is on time for a player (and nearly every post is).
LATE_ENOUGH = 1.0

__all__ = ["TableService", "ServiceDefaults", "PickResult", "committed_change"]


P = ParamSpec("P")
R = TypeVar("R")


class Operation(Generic[P, R]):
    """One of the service's operations: ``method`` of the part the service keeps as ``part``, with
    that method's own signature (an editor and mypy follow it there)."""

    def __init__(self, part: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.part = part
        self.name = method.__name__

    @overload
    def __get__(self, service: None, owner: type) -> Operation[P, R]: ...
    @overload
    def __get__(self, service: TableService, owner: type) -> Callable[P, R]: ...
    def __get__(self, service: TableService | None, owner: type) -> Operation[P, R] | Callable[P, R]:
        if service is None:
            return self
        method: Callable[P, R] = getattr(getattr(service, self.part), self.name)
        return method


class TableService:
    def __init__(
        self,
        store: Store,
        *,
        defaults: ServiceDefaults | None = None,
        clock: Callable[[], float] = time.time,
        ai: AIDecider | None = None,
        observer: Observer | None = None,
        workers: WorkerPool | None = None,
    ) -> None:
        self.store = store
        self.defaults = defaults or ServiceDefaults()
        self.clock = clock
        self.ai = AISeats(ai, workers)
        #: The process's one worker for CPU-heavy work: the searching AI thinks in it, and the
        #: face draws its pictures and a game's files there too. The bot's when given (it closes
        #: it once the face has drawn its last picture), else the AI seats' own.
        self.workers = self.ai.pool
        self._owns_workers = workers is None
        self.registry = TableRegistry()
        self.tx = Transactions(store, clock, observer)
        self.scheduler = Scheduler(self._on_deadline, clock)
        self.play = Play(self.registry, self.tx, self.ai, self.scheduler, self.defaults, clock)
        self.lobby = Lobby(self.registry, self.tx, self.play, self.defaults, clock)
        self.specials = Specials(self.registry, self.tx, self.play)
        self.pauses = Pauses(self.registry, self.tx, self.play, clock)
        self._marking: dict[int, asyncio.Lock] = {}  # per table: its mark_shown calls in order

    # -- the operations, as the face calls them: each its part's method, typed as that method --

    open_lobby = Operation("lobby", Lobby.open_lobby)
    join = Operation("lobby", Lobby.join)
    leave = Operation("lobby", Lobby.leave)
    kick = Operation("lobby", Lobby.kick)
    add_ai = Operation("lobby", Lobby.add_ai)
    begin = Operation("lobby", Lobby.begin)
    cancel = Operation("lobby", Lobby.cancel)
    reclaim_seat = Operation("lobby", Lobby.reclaim_seat)
    set_thread = Operation("lobby", Lobby.set_thread)
    set_reminders = Operation("lobby", Lobby.set_reminders)

    hand = Operation("play", Play.hand)
    pick = Operation("play", Play.pick)
    choose_row = Operation("play", Play.choose_row)
    draft = Operation("play", Play.draft)

    special_prompt = Operation("specials", Specials.special_prompt)
    play_special = Operation("specials", Specials.play_special)
    decline_special = Operation("specials", Specials.decline_special)
    swap = Operation("specials", Specials.swap)
    decline_swap = Operation("specials", Specials.decline_swap)
    set_prompts = Operation("specials", Specials.set_prompts)

    thread_locked = Operation("pauses", Pauses.thread_locked)
    thread_unlocked = Operation("pauses", Pauses.thread_unlocked)
    unseen = Operation("pauses", Pauses.unseen)
    seen = Operation("pauses", Pauses.seen)

    # -- lookup -------------------------------------------------------------------

    @property
    def tables(self) -> dict[int, Table]:
        return self.registry.tables

    def tables_in(self, channel_id: int) -> list[Table]:
        """The open tables a command used in ``channel_id`` may mean (a game's thread: its game)."""
        return self.registry.in_channel(channel_id)

    def table_in(self, channel_id: int) -> Table | None:
        """The oldest open table of ``channel_id`` (or of the game whose thread it is), if any."""
        tables = self.registry.in_channel(channel_id)
        return tables[0] if tables else None

    def games_of(self, guild_id: int, user_id: int) -> list[Table]:
        """The open tables of ``guild_id`` where ``user_id`` plays their seat, as last committed:
        those waiting for their move first, then by deadline."""
        tables = [t.as_committed() for t in self.registry.of_guild(guild_id)]
        mine = [t for t in tables if t.seat_of(user_id) is not None]
        return sorted(mine, key=lambda t: (user_id not in t.owing(), t.deadline or float("inf"), t.id))

    def find(self, table_id: int) -> Table | None:
        """The open table ``table_id``, or None (closed, or never here)."""
        return self.registry.find(table_id)

    def wakes_at(self, table_id: int) -> float | None:
        """When the table's timer fires next (its deadline, a reminder before it, or the time a
        late post gave back), on the service's clock; None when nothing is timed."""
        return self.scheduler.deadline(table_id)

    def get(self, table_id: int) -> Table:
        return self.registry.get(table_id)

    def add_listener(self, listener: Listener) -> None:
        self.tx.add_listener(listener)

    @property
    def database_reachable(self) -> bool:
        """False while saves fail because the database cannot be reached (the health line says so)."""
        return self.tx.health.reachable

    # -- lifecycle ----------------------------------------------------------------

    async def start(self, owns_guild: Callable[[int], bool] = lambda guild_id: True) -> list[CorruptTable]:
        """Restore every unfinished table of a guild this process owns and start the timers.

        ``owns_guild`` is how shards split the tables across processes: a table
        belongs to its channel, so to the shard of the channel's guild.
        A deadline that passed while the bot was down fires at once. Corrupt
        rows are returned (and logged) and never stop the other tables.
        """
        corrupt: list[CorruptTable] = []
        restored: set[int] = set()
        to_show: list[TableSnapshot] = []  # told to the listeners once every table is back, not one by one
        for entry in await self.store.load_unfinished():
            if not isinstance(entry, CorruptTable) and not owns_guild(entry.game.guild_id):
                continue
            if isinstance(entry, CorruptTable):
                log.error("table %s could not be restored: %s", entry.game_id, entry.reason)
                corrupt.append(entry)
                continue
            try:
                table = self._restore(entry)
            except Exception as exc:  # a damaged checkpoint must not take the others down
                log.error("table %s could not be restored: %s", entry.game.game_id, exc)
                corrupt.append(CorruptTable(game_id=entry.game.game_id, reason=str(exc)))
                continue
            if table is None:
                continue
            restored.add(table.id)
            self.registry.add(table)
            if table.game is not None and table.game.is_over:
                await self._finish_restored(table)  # written by a version that saved results apart
                continue
            self.play.schedule(table)
            await self.play.prepare_outlook(table)  # a special-card pause: its prompt is ready
            table.committed = table.snapshot()
            to_show.append(table.committed)
            self.play.think_later(table)  # its AI seats had not picked yet when it was saved
        for entry in await self.store.load_unshown():
            # Ended just before the crash or stop, with news its channel has not seen yet.
            if isinstance(entry, CorruptTable) or entry.game.game_id in restored or not owns_guild(entry.game.guild_id):
                continue
            try:
                table = self._restore(entry)
            except Exception as exc:
                log.error("table %s: its last news could not be restored: %s", entry.game.game_id, exc)
                continue
            if table is not None and table.outbox:
                table.committed = table.snapshot()
                to_show.append(table.committed)
        # Every table takes clicks before the first of them is drawn: showing a thousand restored
        # tables must not hold up restoring them.
        for snapshot in to_show:
            self.tx.notify(snapshot, "restored")
        self.scheduler.start()
        return corrupt

    async def _finish_restored(self, table: Table) -> None:
        """A game over whose results are not written: write them (once) and close it. Only a
        database written by an older version, which saved them apart, can hold such a game."""
        try:
            async with self.tx.acting(table):
                await self.play.finish(table, [], [], [])
        except Exception:
            log.exception("table %s: the results of its finished game could not be written", table.id)

    async def close(self) -> None:
        """Stop the timers and let running actions finish; every accepted action is committed
        already, so nothing is left to save."""
        await self.scheduler.stop()
        self.play.closing = True  # AI seats still thinking apply nothing: the next start asks again
        await asyncio.gather(*self.play.thinking.values(), return_exceptions=True)
        for table in list(self.registry.tables.values()):
            async with table.lock:  # whatever was under way has committed or rolled back
                pass
        if self._owns_workers:
            await self.workers.close()
        log.info("table service stopped; %d open table(s) saved", len(self.registry))

    def _restore(self, entry: RestoredTable) -> Table | None:
        record = entry.game
        checkpoint = entry.checkpoint
        if checkpoint is None or not checkpoint.meta:
            return None  # created but never saved: nothing anyone could have clicked yet
        posts = [Post.from_dict(p.payload) for p in entry.posts]
        table = Table.from_checkpoint(
            record.game_id,
            record.guild_id,
            record.channel_id,
            checkpoint.meta,
            checkpoint.state or None,
            posts,
            record.message_id,
        )
        table.saved = (checkpoint.state, checkpoint.meta)
        table.committed = table.snapshot()
        return table

    async def load_ended(self, table_id: int) -> Table | None:
        """An ended table as saved (for a rematch after any restart), or None."""
        entry = await self.store.load_table(table_id)
        if entry is None or isinstance(entry, CorruptTable):
            return None
        try:
            return self._restore(entry)
        except Exception as exc:
            log.warning("table %s could not be read for a rematch: %s", table_id, exc)
            return None

    async def rematch(self, table_id: int, user_id: int, name: str, *, threads: bool = True) -> Table:
        """A new lobby in the finished table's channel with the same seats; whoever asked hosts it."""
        live = self.registry.find(table_id)
        old = None if live is not None else await self.load_ended(table_id)  # a live table has no rematch
        return await self.lobby.rematch(old, user_id, name, threads=threads)

    async def channel_gone(self, channel_id: int) -> list[int]:
        """``channel_id`` was deleted: every table played in it, or opened in it, is abandoned
        (recorded, its timer stopped, nothing left running). The ids of those tables."""
        gone = [t for t in list(self.registry.tables.values()) if channel_id in (t.channel_id, t.thread_id)]
        for table in gone:
            await self.play.after_thinking(table)
            async with self.tx.acting(table):
                if self.registry.find(table.id) is not table:
                    continue  # ended meanwhile
                where = (
                    N_("The game's thread was deleted, so the game was abandoned.")
                    if table.thread_id == channel_id
                    else N_("The table's channel was deleted, so the game was abandoned.")
                )
                await self.play.close(table, "abandoned", Text(where))
        return [t.id for t in gone]

    # -- what the channel has seen ---------------------------------------------------

    async def mark_shown(self, table_id: int, *, upto: int | None = None, message_id: int | None = None) -> None:
        """The channel has seen the table's posts up to ``upto``; ``message_id`` is its live message now.

        A small write of its own, not a checkpoint, and it does not wait for the table's
        lock: a click being saved never holds up the news. Raises if the write fails (the
        caller tries again; meanwhile this process knows it)."""
        table = self.registry.find(table_id)
        if table is not None:
            if upto is not None:
                now = self.clock()
                for post in table.outbox:
                    if post.seq <= upto:
                        self.tx.observer.post_shown(post.kind, now - post.at)
                table.outbox = [p for p in table.outbox if p.seq > upto]
            if message_id is not None:
                table.message_id = message_id
        lock = self._marking.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:  # one table's marks in the order they were made
                await self.tx.write(lambda: self.store.mark_shown(table_id, upto=upto, message_id=message_id))
        finally:
            if not lock.locked() and self._marking.get(table_id) is lock:
                del self._marking[table_id]

    async def post_seen_late(self, table_id: int, post: Post, late: float) -> None:
        """``post`` reached the channel ``late`` seconds after its commit: if it opens the current
        decision and was late enough to be felt (over ``LATE_ENOUGH``), that decision's timer waits
        as long (a slow or refused request to Discord must not eat a player's thinking time),
        once per decision.

        Neither takes the table's lock nor writes: a reveal never waits behind a click being
        saved, nor a click behind the presenter. The extra time is this process's courtesy; a
        restart keeps the committed deadline."""
        table = self.registry.find(table_id)
        if (
            table is None
            or late <= LATE_ENOUGH
            or not table.is_open
            or table.deadline is None
            or post.step != table.step
            or table.grace[0] == table.step
        ):
            return
        if post.at < table.resumed_at:  # held while its thread was locked: the pause kept its time
            late = min(late, self.clock() - table.resumed_at)
            if late <= LATE_ENOUGH:
                return
        table.grace = (table.step, late)
        self.play.schedule(table)

    async def hint(self, table_id: int, user_id: int) -> Hint:
        """The coach's hint (``engine.ai.coach.Hint``) for ``user_id``'s card or row now, at a
        table opened with helpers on. Reads the table as last committed; changes nothing."""
        table = self.registry.get(table_id).as_committed()
        if not table.options.helpers:
            raise TableError(N_("Hints are off at this table; the host can turn on helpers for the next one."))
        game = running_game(table)
        seat = seat_of(table, user_id)
        try:
            return await self.ai.hint(game, seat, f"{ai_seed(table, seat)}:hint")
        except NoHint:
            raise TableError(
                N_("There is nothing to hint right now: it is not your turn to choose a card or a row.")
            ) from None
        except Exception:
            log.warning("the coach failed at table %s", table.id, exc_info=True)
            raise TableError(N_("The coach could not think just now; nothing was changed. Please try again.")) from None

    # -- timers -------------------------------------------------------------------

    async def _on_deadline(self, table_id: int) -> None:
        await self.play.on_deadline(table_id)
