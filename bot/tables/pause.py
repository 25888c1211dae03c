"""A game whose thread a moderator locked: it waits, its clock stopped, until the thread opens again.

The bot cannot post in a locked thread, nor unlock it (that takes Manage Threads), so a game
that went on would be played unseen: its timers would play for the players and then give their
seats to the AI. Instead the game pauses: no timer runs and no seat is taken, the time its
current decision had left is kept, and it is given back when the thread is unlocked. The pause is
committed like any change, so a restart keeps it. A game still locked after
``bot.tables.table.LOCKED_LONGEST`` seconds ends as abandoned (``Play.on_deadline``).

A game that only players' interactions can show (``Table.carried``) waits the same way when it
has news and no interaction is left to carry it (``unseen``), until a player is back (``seen``).

The Discord face says when a thread is locked or unlocked: from the gateway's thread updates, or,
where those did not arrive, from Discord refusing a post because the thread is locked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .play import Play
from .registry import TableRegistry
from .table import LOCKED, UNSEEN, Table, TableStatus
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
        if table is not None and await self._pause(table, LOCKED, lambda t: t.home_id == thread_id):
            log.info("table %s paused: a moderator locked its thread %s", table.id, thread_id)

    async def thread_unlocked(self, thread_id: int) -> None:
        """Thread ``thread_id`` was unlocked: its paused game goes on with the time it had left."""
        table = self._played_in(thread_id)
        if table is not None and await self._resume(table, LOCKED, lambda t: t.home_id == thread_id):
            log.info("table %s goes on: its thread %s was unlocked", table.id, thread_id)

    async def unseen(self, table_id: int) -> None:
        """A game that only players' interactions can show has news no interaction can carry now
        (everyone away for longer than a token lasts): it waits, its clock stopped, for the next click."""
        table = self.registry.find(table_id)
        if table is not None and await self._pause(table, UNSEEN, lambda t: t.carried):
            log.info("table %s paused: no interaction left to show it", table.id)

    async def seen(self, table_id: int) -> None:
        """A player is back at a game that waited to be seen: it goes on with the time it had left."""
        table = self.registry.find(table_id)
        if table is not None and table.paused == UNSEEN and await self._resume(table, UNSEEN, lambda t: True):
            log.info("table %s goes on: a player is back", table.id)

    async def _pause(self, table: Table, why: str, still: Callable[[Table], bool]) -> bool:
        """Pause ``table`` for ``why`` unless it is no longer a running game that ``still`` holds for."""
        async with self.tx.acting(table):
            if (
                self.registry.find(table.id) is not table
                or table.status is not TableStatus.PLAYING
                or table.paused is not None
                or not still(table)
            ):
                return False
            now = self.clock()
            table.paused, table.paused_at = why, now
            table.time_left = None if table.deadline is None else max(0.0, (table.due() or table.deadline) - now)
            table.deadline = None
            await self.tx.commit(table, kind="paused")
            self.play.schedule(table)  # only its end, a day from now
        return True

    async def _resume(self, table: Table, why: str, still: Callable[[Table], bool]) -> bool:
        """Let ``table``, paused for ``why``, go on with the time its decision had left."""
        async with self.tx.acting(table):
            if (
                self.registry.find(table.id) is not table
                or table.paused != why
                or not table.is_open
                or not still(table)
            ):
                return False
            now = self.clock()
            table.deadline = None if table.time_left is None else now + table.time_left
            table.paused = table.paused_at = table.time_left = None
            table.resumed_at = now
            await self.tx.commit(table, kind="resumed")
            self.play.schedule(table)
            self.play.think_later(table)  # AI seats that had not picked yet
        return True
