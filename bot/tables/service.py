"""The table service: owns every live table, its timer, AI seats and checkpoints.

The Discord face calls it with ids and gets back results or ``TableError``s;
it learns what to show through ``TableUpdate``s sent to its listeners. Each
table's actions run under that table's lock, so double clicks and players
clicking at the same moment are applied one after the other; every accepted
action is checkpointed (with its action-log entry) before the call returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from data.models import CorruptTable, SeatInfo
from data.store import Store
from engine import IllegalAction, action_to_dict
from engine.ai.coach import NoHint

from .ai_seats import AIDecider, AISeats
from .errors import BackNextTurn, NoTable, NotAtTable, SeatTakenOver, StaleButton, TableError
from .lobby import LobbyOps
from .play import PlayOps
from .specials import SpecialOps
from .table import Post, Table, TableOptions, TableStatus
from .text import N_
from .timers import Scheduler
from .updates import Listener, TableUpdate

log = logging.getLogger(__name__)

#: True once the running task (one click or command) has committed a change to a table, so an
#: error after that is not reported as "nothing was changed": the change stands.
committed_change: contextvars.ContextVar[bool] = contextvars.ContextVar("committed_change", default=False)


@dataclass(frozen=True)
class ServiceDefaults:
    """Defaults from the settings that a table does not choose itself."""

    lobby_minutes: int = 30
    replacement_ai_level: str = "medium"  # who takes over after two missed turns


class TableService(LobbyOps, PlayOps, SpecialOps):
    def __init__(
        self,
        store: Store,
        *,
        defaults: ServiceDefaults | None = None,
        clock: Callable[[], float] = time.time,
        ai: AIDecider | None = None,
    ) -> None:
        self.store = store
        self.defaults = defaults or ServiceDefaults()
        self.clock = clock
        self.ai = AISeats(ai)
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self._listeners: list[Listener] = []
        self._opening: set[int] = set()  # channels whose lobby is being created right now
        self.scheduler = Scheduler(self._on_deadline, clock)
        self._thinking: dict[int, asyncio.Task] = {}  # tables whose AI seats pick after the answer
        self._closing = False

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
            self._register(table)
            if table.game is not None and table.game.is_over:
                await self.finish_restored(table)  # died between the last move and the results
                continue
            self.scheduler.set(table.id, table.deadline)
            self._notify(TableUpdate(table, "restored"))
            self._think_later(table)  # its AI seats had not picked yet when it was saved
        for entry in await self.store.load_unshown():
            # Ended just before the crash or stop, with news its channel has not seen yet.
            if isinstance(entry, CorruptTable) or entry.game.game_id in restored \
                    or not owns_guild(entry.game.guild_id):
                continue  # finished just now, above, and shown from there
            try:
                table = self._restore(entry)
            except Exception as exc:
                log.error("table %s: its last news could not be restored: %s", entry.game.game_id, exc)
                continue
            if table is not None and table.outbox:
                self._notify(TableUpdate(table, "restored"))
        self.scheduler.start()
        return corrupt

    async def close(self) -> None:
        """Stop the timers, let running actions finish and checkpoint every table once more.

        Every accepted action is checkpointed already; the final checkpoint
        waits on each table's lock, so nothing is cut off half-way.
        """
        await self.scheduler.stop()
        self._closing = True  # AI seats still thinking apply nothing: the next start asks again
        await asyncio.gather(*self._thinking.values(), return_exceptions=True)
        for table in list(self.tables.values()):
            async with table.lock:
                if table.status in (TableStatus.LOBBY, TableStatus.PLAYING):
                    try:
                        await self._save(table)
                    except Exception:  # one table's failure must not keep the others unsaved
                        log.exception("final checkpoint of table %s failed", table.id)
        self.ai.close()
        log.info("table service stopped; %d open table(s) checkpointed", len(self.tables))

    def _restore(self, entry) -> Table | None:
        record = entry.game
        checkpoint = entry.checkpoint
        if checkpoint is None or not checkpoint.meta:
            return None  # created but never saved: nothing anyone could have clicked yet
        table = Table.from_checkpoint(
            record.game_id, record.guild_id, record.channel_id, checkpoint.meta, checkpoint.state or None
        )
        table.saved = (checkpoint.state, checkpoint.meta)
        return table

    # -- listeners ----------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _notify(self, update: TableUpdate) -> None:
        for listener in self._listeners:
            try:
                listener(update)
            except Exception:
                log.exception("table listener failed for table %s", update.table.id)

    # -- lookup -------------------------------------------------------------------

    def table_in(self, channel_id: int) -> Table | None:
        table_id = self.by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id is not None else None

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise NoTable(N_("That table has ended. Start a new one with `/6nimmt start`."))
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

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def _unregister(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.scheduler.set(table.id, None)

    @staticmethod
    def _seat(table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            taken = table.taken_over_seat(user_id)
            if taken is not None:
                raise SeatTakenOver(table.id, table.seats[taken].takeover)
            raise NotAtTable()
        return seat

    @classmethod
    def _acting_seat(cls, table: Table, user_id: int) -> int:
        """``_seat`` for an action: a seat taken back acts only from the next decision point on."""
        seat = cls._seat(table, user_id)
        if table.seats[seat].back_from_step > table.step:
            raise BackNextTurn()
        return seat

    @staticmethod
    def _check_step(table: Table, step: int | None) -> None:
        if step is not None and step != table.step:
            raise StaleButton()

    # -- persistence --------------------------------------------------------------

    async def _save(self, table: Table, actions: list = ()) -> None:
        """Checkpoint the table, logging ``actions`` (engine actions) in the same transaction.

        The table's outbox is in its meta: news is committed with the state that made it.
        """
        state = table.game.to_dict() if table.game is not None else {}
        meta = table.meta()
        await self.store.checkpoint(table.id, state, meta, actions=[action_to_dict(a) for a in actions],
                                    unshown=bool(table.outbox))
        table.saved = (state, meta)
        committed_change.set(True)

    @contextlib.asynccontextmanager
    async def _acting(self, table: Table):
        """The table's lock, for a change that is saved before it counts.

        If the change fails before its checkpoint is written (the database is
        away, a bug), the table goes back to its last checkpoint: what the user is
        told ("nothing was changed") is then true in memory too.
        """
        async with table.lock:
            before = table.saved
            try:
                yield
            except (TableError, IllegalAction):
                raise  # refused before anything changed
            except Exception:
                if table.saved is before and before is not None:
                    table.roll_back()
                    if table.is_open:
                        self.scheduler.set(table.id, table.deadline)
                raise

    # -- what the channel has seen ---------------------------------------------------

    def post_seen_late(self, table: Table, post: Post) -> None:
        """``post`` opens the current decision and is shown only now: its timer starts now.

        A slow or refused request to Discord must not eat a player's thinking time.
        """
        late = self.clock() - post.at
        if post.step == table.step and table.deadline is not None and late > 0 and table.is_open:
            table.deadline += late
            post.at += late  # extended once, however often the post is retried
            self.scheduler.set(table.id, table.deadline)

    async def mark_shown(self, table: Table, seq: int, message_id: int | None = None) -> None:
        """The channel has seen ``table``'s posts up to ``seq``; ``message_id`` is its live message now."""
        async with self._acting(table):
            table.outbox = [p for p in table.outbox if p.seq > seq]
            if message_id is not None:
                table.message_id = message_id
            await self._save(table)

    async def _save_seats(self, table: Table) -> None:
        await self.store.update_game(table.id, seats=self._seat_infos(table))

    @staticmethod
    def _seat_infos(table: Table) -> list[SeatInfo]:
        return [
            SeatInfo(seat=i, user_id=s.user_id, ai_level=s.ai_level if s.user_id is None else None,
                     display_name=s.name)
            for i, s in enumerate(table.seats)
        ]

    @staticmethod
    def _new_seed() -> int:
        return secrets.randbits(63)

    @staticmethod
    def _ai_seed(table: Table, seat: int) -> str:
        # From the table, so a restored table's AI plays as it would have.
        return f"{table.seed}:{table.step}:{seat}"

    async def hint(self, table_id: int, user_id: int):
        """The coach's hint (``engine.ai.coach.Hint``) for ``user_id``'s card or row now, at a
        table opened with helpers on. Reads a snapshot of the game; changes nothing."""
        table = self.get(table_id)
        if not table.options.helpers:
            raise TableError(N_("Hints are off at this table; the host can turn on helpers for the next one."))
        game = self._running_game(table)
        seat = self._seat(table, user_id)
        try:
            return await self.ai.hint(game, seat, f"{self._ai_seed(table, seat)}:hint")
        except NoHint:
            raise TableError(N_("There is nothing to hint right now: it is not your turn to choose a card "
                                "or a row.")) from None
        except Exception:
            log.warning("the coach failed at table %s", table.id, exc_info=True)
            raise TableError(N_("The coach could not think just now; nothing was changed. Please try again.")) \
                from None

    def options_for(self, **values) -> TableOptions:
        return TableOptions(**values)
