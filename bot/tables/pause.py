"""A game whose thread a moderator locked: it waits, its clock stopped, until the thread opens again.

The bot cannot post in a locked thread, nor unlock it (that takes Manage Threads), so a game
that went on would be played unseen: its timers would play for the players and then give their
seats to the AI. Instead the game pauses: no timer runs and no seat is taken, the time its
current decision had left is kept, and it is given back when the thread is unlocked. The pause is
committed like any change, so a restart keeps it. A game still locked after
``bot.tables.table.LOCKED_LONGEST`` seconds ends as abandoned (``Play.on_deadline``).

The Discord face says when a thread is locked or unlocked: from the gateway's thread updates, or,
where those did not arrive, from Discord refusing a post because the thread is locked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .play import Play
from .registry import TableRegistry
from .table import LOCKED, Table, TableStatus
from .transactions import Transactions

log = logging.getLogger(__name__)


class Pauses:
    """Pausing a game while its thread is locked, and letting it go on once it is unlocked."""

    def __init__(self, registry: TableRegistry, tx: Transactions, play: Play, clock: Callable[[], float]) -> None:
        self.registry = registry
        self.tx = tx
        self.play = play
        self.clock = clock

    def _played_in(self, thread_id: int) -> Table | None:
        """The game played in thread ``thread_id`` (its own, or the thread it was opened in), if this
        process has it."""
        return next((t for t in self.registry.in_channel(thread_id) if t.home_id == thread_id), None)

    async def thread_locked(self, thread_id: int) -> None:
        """A moderator locked thread ``thread_id``: the game running there pauses (once; a lobby
        posts nothing in its thread, and its game pauses at its first post there)."""
        table = self._played_in(thread_id)
        if table is None:
            return
        async with self.tx.acting(table):
            if (
                self.registry.find(table.id) is not table
                or table.status is not TableStatus.PLAYING
                or table.paused is not None
                or table.home_id != thread_id
            ):
                return
            now = self.clock()
            table.paused, table.paused_at = LOCKED, now
            table.time_left = None if table.deadline is None else max(0.0, (table.due() or table.deadline) - now)
            table.deadline = None
            await self.tx.commit(table, kind="paused")
            self.play.schedule(table)  # only its end, a day from now
        log.info("table %s paused: a moderator locked its thread %s", table.id, thread_id)

    async def thread_unlocked(self, thread_id: int) -> None:
        """Thread ``thread_id`` was unlocked: its paused game goes on with the time it had left."""
        table = self._played_in(thread_id)
        if table is None:
            return
        async with self.tx.acting(table):
            if (
                self.registry.find(table.id) is not table
                or table.paused != LOCKED
                or not table.is_open
                or table.home_id != thread_id
            ):
                return
            now = self.clock()
            table.deadline = None if table.time_left is None else now + table.time_left
            table.paused = table.paused_at = table.time_left = None
            table.resumed_at = now
            await self.tx.commit(table, kind="resumed")
            self.play.schedule(table)
            self.play.think_later(table)  # AI seats that had not picked yet
        log.info("table %s goes on: its thread %s was unlocked", table.id, thread_id)
