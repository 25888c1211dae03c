"""Brings each table's channel up to date with its committed state.

The presenter is the only writer of public table messages. What it shows is
drawn from the table: the live message (lobby or table, with its buttons)
from the current state, and the news the channel reads once (reveals,
standings, closings) from the table's outbox, which was committed with the
state that made it.

Everything it shows comes from the snapshots the table service hands it
after each commit, never from a live table: a change whose save is still
under way, or failed, is never shown. Each post is drawn from the snapshot
of the commit that made it.

Each table has one worker task while it has something to show, and none
otherwise. A worker shows every post first (a reveal never waits behind
an edit), then the newest state of the live message. Whatever fails
(Discord, the database) is tried again with a growing pause; a post shown
once is never shown again by this process, even while the store cannot yet
be told. The work itself is done by the parts in ``cogs/presenting/``: the
outbox delivery, the live message, the reminders (see that package).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

import discord

from bot.tables.service import TableService
from bot.tables.table import Post, Table, TableSnapshot
from bot.tables.timers import backoff
from bot.tables.updates import TableUpdate
from cogs.presenting.budget import (
    BEFORE_INSTALL,
    BURST,
    REACH,
    Priority,
    RequestBudget,
    install,
    requests_for,
)
from cogs.presenting.carriers import Carriers, serve
from cogs.presenting.channels import RETRY_MOST, TableChannels, locked_out
from cogs.presenting.clicks import Clicks
from cogs.presenting.live import LiveMessages
from cogs.presenting.news import News
from cogs.presenting.openings import Openings
from cogs.presenting.outbox import OutboxDelivery
from cogs.presenting.pictures import IMAGE_NAME, Pictures
from cogs.presenting.reminders import Reminders

__all__ = ["IMAGE_NAME", "Presenter"]

log = logging.getLogger(__name__)

#: How long a clean stop waits for queued news before leaving the rest to the next start.
DRAIN_SECONDS = 10.0
#: The bot token's requests a second when the settings do not say (Discord allows 50).
REQUESTS_PER_SECOND = 45.0


class Presenter:
    """Listens to the table service (``__call__``) and runs one worker per table with news to show.

    Every request the process makes with the bot token waits for its ``budget``
    (``requests_per_second``), which the presenter installs on the client's HTTP client.
    """

    def __init__(
        self, client: discord.Client, service: TableService, requests_per_second: float = REQUESTS_PER_SECOND
    ) -> None:
        self.client = client
        self.service = service
        self.drain_seconds = DRAIN_SECONDS
        # A request reaches Discord up to ~100 ms after its start on a busy loop: at 1,000 tables
        # the stand-in counted 47 in a second against a budget of 45 counted at the start.
        self.budget = RequestBudget(requests_per_second, reach=REACH, burst=BURST)
        self._uninstall = install(client.http, self.budget)
        self.budget.seed(BEFORE_INSTALL)  # the login's requests may share the catch-up's first second
        self.channels = TableChannels(client, service)
        self.pictures = Pictures(service.workers)
        self.clicks = Clicks(service.clock)
        self.outbox = OutboxDelivery(client, service, self.channels, self._holds_back, self.clicks)
        self.reminders = Reminders(client, self.channels, self.outbox, self._waits_on)
        self.openings = Openings()
        serve(client, Carriers(self.clicks, self.openings))
        self.live = LiveMessages(
            client,
            service,
            self.channels,
            self.outbox,
            self.pictures,
            self.reminders,
            self.budget,
            self.clicks,
            self.openings,
        )
        self.news = News(client, self.channels, self.outbox, self.live, self.reminders, self.pictures)
        self._latest: dict[int, TableSnapshot] = {}  # tables with something to show: their newest commit
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._paused: set[int] = set()  # tables whose channel summary says they wait for their locked thread

    # -- what the service tells us -----------------------------------------------

    def __call__(self, update: TableUpdate) -> None:
        snapshot = update.snapshot
        tid = snapshot.id
        known = self._latest.get(tid)
        if known is None or snapshot.version >= known.version or not snapshot.is_open:
            self._latest[tid] = snapshot
        self.live.learn(snapshot)
        if update.kind == "lobby" and snapshot.version == 1:  # a new lobby: the interaction that asked for it
            self.openings.claim(tid, snapshot.table.host_id, snapshot.channel_id)
        if update.kind == "restored":
            self.channels.confirm_home(snapshot)
        if not self.outbox.take(snapshot, restored=update.kind == "restored") and self.live.needs_edit(update):
            self.live.fall_behind(tid)
        self._kick(tid)

    def repost(self, snapshot: TableSnapshot) -> None:
        """Post the live table again at the bottom of the channel (``/6nimmt status``)."""
        self(TableUpdate(snapshot, "status"))
        self.live.ask_repost(snapshot.id)
        self._kick(snapshot.id)

    def _kick(self, table_id: int) -> None:
        wake = self._wake.get(table_id)
        if wake is not None:
            wake.set()
        if table_id not in self._workers:
            self._wake[table_id] = asyncio.Event()
            self._workers[table_id] = asyncio.create_task(self._work(table_id), name=f"present-{table_id}")

    def _waits_on(self, table_id: int, post: Post) -> bool:
        """Whether the newest commit known still waits on the decision ``post`` opened."""
        latest = self._latest.get(table_id)
        return latest is not None and latest.is_open and latest.step == post.step

    @property
    def busy_tables(self) -> int:
        return len(self._workers)

    async def idle(self) -> None:
        """Wait until everything is shown and done (tests)."""
        while self._workers or self.channels.chores:
            await asyncio.gather(*self._workers.values(), *self.channels.chores, return_exceptions=True)

    async def close(self) -> None:
        """Show what is queued, for at most ``drain_seconds``; the rest waits in the store."""
        self.channels.closing = True
        for wake in self._wake.values():
            wake.set()  # a worker pausing before its next try gives up now
        workers = list(self._workers.values())
        if workers:
            done, pending = await asyncio.wait(workers, timeout=self.drain_seconds)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            if pending:
                log.warning("%d table(s) still had news to show; the next start shows it", len(pending))
        await self.channels.drop_chores()  # best effort only: nothing committed waits for them
        self._uninstall()
        self.budget.close()
        serve(self.client, None)

    # -- one table's worker ---------------------------------------------------------

    async def _work(self, table_id: int) -> None:
        failures = 0
        try:
            while True:
                try:
                    more = await self._step(table_id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if locked_out(exc) and await self._thread_locked(table_id):
                        continue  # the game paused: its summary says so, its news waits for the unlock
                    # Whatever failed (the database, a bug) is tried again, with a growing pause:
                    # what was committed must reach the channel.
                    failures += 1
                    if self.channels.closing:
                        log.warning("table %s: news left for the next start (%s)", table_id, exc)
                        return
                    log.log(
                        logging.ERROR if failures == 1 else logging.DEBUG,
                        "table %s: could not show its state (try %d)",
                        table_id,
                        failures,
                        exc_info=failures == 1,
                    )
                    await self._pause(table_id, backoff(failures, self.channels.retry_first, RETRY_MOST))
                    continue
                failures = 0
                if not more:
                    return
        finally:
            self._workers.pop(table_id, None)
            self._wake.pop(table_id, None)
            self.live.settle(table_id)
            snapshot = self._latest.get(table_id)
            if snapshot is not None and not self.outbox.owes(table_id):
                if not snapshot.is_open:
                    self._forget(table_id)
                else:  # all shown: the next commit brings its own snapshot (and the game drawn from it)
                    del self._latest[table_id]
                    snapshot.release()

    def _forget(self, table_id: int) -> None:
        """A closed table whose news is all shown: nothing of it stays."""
        self._latest.pop(table_id, None)
        self._paused.discard(table_id)
        self.outbox.forget(table_id)
        self.live.forget(table_id)
        self.clicks.forget(table_id)
        self.openings.finish(table_id)

    async def _pause(self, table_id: int, seconds: float) -> None:
        """Wait ``seconds``, or less if a stop comes."""
        wake = self._wake[table_id]
        wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), seconds * random.uniform(0.8, 1.2))

    async def _step(self, table_id: int) -> bool:
        """Do the most urgent thing the table's channel needs; False when there is nothing left."""
        snapshot = self._latest[table_id]
        paused = snapshot.is_open and snapshot.paused is not None
        if snapshot.is_open and paused != (table_id in self._paused):
            # The channel's summary says whether the game waits for its locked thread.
            await self.live.summary(snapshot.table, priority=Priority.NORMAL)
            (self._paused.add if paused else self._paused.discard)(table_id)
            return True
        owed = self.outbox.next_post(table_id)
        if owed is not None and not paused:  # a locked thread takes nothing: its news waits for the unlock
            post, made_by, newest = owed
            with requests_for(self.outbox.priority(table_id, post)):
                await self.outbox.deliver(made_by, post, newest, self._show)
            return True
        if self.outbox.unmarked(table_id):
            await self.outbox.mark(table_id)
            return True
        if paused:
            return False
        if self.live.owes_change(table_id):
            await self.live.catch_up(snapshot, lambda seconds: self._pause(table_id, seconds))
            return True
        return False

    async def _show(self, table: Table, post: Post, newest: bool) -> int | None:
        """``News.show``; a game that ended while its thread was locked says how in the channel's summary."""
        try:
            return await self.news.show(table, post, newest)
        except discord.HTTPException as exc:
            if locked_out(exc) and not self._latest[table.id].is_open and post.kind in ("finished", "cancelled"):
                await self.live.summary(table)
            raise

    # -- a thread a moderator locked ------------------------------------------------

    def _holds_back(self, table_id: int, exc: discord.HTTPException) -> bool:
        """A post refused because a moderator locked the game's thread waits for the unlock, while
        the game is open (the helper that pauses it is ``_thread_locked``); a finished game's is dropped."""
        return locked_out(exc) and self._latest[table_id].is_open

    async def _thread_locked(self, table_id: int) -> bool:
        """Discord refused the game's thread as locked, which the gateway had not said: the game
        pauses (``TableService.thread_locked``). True once the newest commit is paused."""
        snapshot = self._latest[table_id]
        if not snapshot.is_open:
            return False
        try:  # its thread, or the thread it was opened in
            await self.service.thread_locked(snapshot.home_id)
        except Exception as exc:  # tried again with the refused post, after a pause
            log.warning("table %s: could not pause for its locked thread (%s)", table_id, exc)
            return False
        return self._latest[table_id].paused is not None
