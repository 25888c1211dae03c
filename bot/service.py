"""The table service: owns every live table, its timer, AI seats and checkpoints.

The Discord face calls it with ids and gets back results or ``TableError``s;
it learns what to show through ``TableUpdate``s sent to its listeners. Each
table's actions run under that table's lock, so double clicks and players
clicking at the same moment are applied one after the other; every accepted
action is checkpointed (with its action-log entry) before the call returns.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from data.models import CorruptTable, SeatInfo
from data.store import Store
from engine import action_to_dict

from .ai_seats import AIDecider, AISeats
from .errors import NoTable, NotAtTable, StaleButton, TableError
from .lobby import LobbyOps
from .play import PlayOps
from .specials import SpecialOps
from .table import Table, TableOptions, TableStatus
from .text import N_, Text
from .timers import Scheduler

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServiceDefaults:
    """Defaults from the settings that a table does not choose itself."""

    lobby_minutes: int = 30
    replacement_ai_level: str = "medium"  # who takes over after two missed turns
    finished_tables_kept: int = 500  # for Rematch buttons, most recent first


@dataclass
class TableUpdate:
    """Something the channel should see. ``kind`` says what; ``events`` are the engine's."""

    table: Table
    kind: str  # lobby, started, picked, turn, expired, cancelled, finished, restored, replaced
    events: list = field(default_factory=list)
    notices: list[Text] = field(default_factory=list)  # rendered in the channel's language


Listener = Callable[[TableUpdate], None]


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
        self.finished: OrderedDict[int, Table] = OrderedDict()
        self._listeners: list[Listener] = []
        self._opening: set[int] = set()  # channels whose lobby is being created right now
        self.scheduler = Scheduler(self._on_deadline, clock)

    # -- lifecycle ----------------------------------------------------------------

    async def start(self, owns_guild: Callable[[int], bool] = lambda guild_id: True) -> list[CorruptTable]:
        """Restore every unfinished table of a guild this process owns and start the timers.

        ``owns_guild`` is how shards split the tables across processes: a table
        belongs to its channel, so to the shard of the channel's guild.
        A deadline that passed while the bot was down fires at once. Corrupt
        rows are returned (and logged) and never stop the other tables.
        """
        corrupt: list[CorruptTable] = []
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
            self._register(table)
            if table.game is not None and table.game.is_over:
                await self.finish_restored(table)  # died between the last move and the results
                continue
            self.scheduler.set(table.id, table.deadline)
            self._notify(TableUpdate(table, "restored"))
        self.scheduler.start()
        return corrupt

    async def close(self) -> None:
        """Stop the timers, let running actions finish and checkpoint every table once more.

        Every accepted action is checkpointed already; the final checkpoint
        waits on each table's lock, so nothing is cut off half-way.
        """
        await self.scheduler.stop()
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
        return Table.from_checkpoint(
            record.game_id, record.guild_id, record.channel_id, checkpoint.meta, checkpoint.state or None
        )

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

    def get_finished(self, table_id: int) -> Table | None:
        return self.finished.get(table_id)

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def _unregister(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.scheduler.set(table.id, None)
        if table.status is TableStatus.FINISHED:
            self.finished[table.id] = table
            while len(self.finished) > self.defaults.finished_tables_kept:
                self.finished.popitem(last=False)

    @staticmethod
    def _seat(table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotAtTable()
        return seat

    @staticmethod
    def _check_step(table: Table, step: int | None) -> None:
        if step is not None and step != table.step:
            raise StaleButton()

    # -- persistence --------------------------------------------------------------

    async def _save(self, table: Table, actions: list = ()) -> None:
        """Checkpoint the table, logging ``actions`` (engine actions) in the same transaction."""
        state = table.game.to_dict() if table.game is not None else {}
        await self.store.checkpoint(table.id, state, table.meta(), actions=[action_to_dict(a) for a in actions])

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
        from engine.ai.coach import NoHint

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
