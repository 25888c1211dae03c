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

All that the presenter holds of a table is its ``TableStage``, made when the
table first has something to show and dropped in one place (``_work``) once
the table has closed and everything it owed is shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

import discord

from bot.tables.service import TableService
from bot.tables.table import UNSEEN, Post, Table, TableSnapshot
from bot.tables.timers import backoff
from bot.tables.updates import TableUpdate
from cogs.presenting.budget import (
    BEFORE_INSTALL,
    BURST,
    REACH,
    ROUTE_WINDOW,
    Priority,
    RequestBudget,
    install,
    process_started,
    requests_for,
)
from cogs.presenting.carriers import Carriers, serve
from cogs.presenting.channels import RETRY_MOST, TableChannels, locked_out
from cogs.presenting.clicks import CLICK_TOKEN_SECONDS, Clicks, TableClicks
from cogs.presenting.live import LiveMessages
from cogs.presenting.news import News
from cogs.presenting.openings import Openings
from cogs.presenting.outbox import NoCarrier, OutboxDelivery
from cogs.presenting.pictures import IMAGE_NAME, Pictures
from cogs.presenting.reminders import Reminders
from cogs.presenting.stage import TableStage

__all__ = ["IMAGE_NAME", "Presenter"]

log = logging.getLogger(__name__)

#: How long a clean stop waits for queued news before leaving the rest to the next start.
DRAIN_SECONDS = 10.0
#: The bot token's requests a second when the settings do not say (Discord allows 50).
REQUESTS_PER_SECOND = 45.0
#: How long a closed table's news waits for a click where only clicks reach its channel before it is
#: given up: a token's life, so that whoever was still there when it closed may click once more.
UNREACHABLE_AFTER = CLICK_TOKEN_SECONDS


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
        self.started = process_started()
        self.route_window = ROUTE_WINDOW  # how long a restored table's channel is left alone after the start
        self.unreachable_after = UNREACHABLE_AFTER
        self.channels = TableChannels(client, service)
        self.pictures = Pictures(service.workers)
        self._stages: dict[int, TableStage] = {}  # by table: all the presenter holds of each
        self.clicks = Clicks(service.clock, self._clicks_of, self._clicked)
        self.outbox = OutboxDelivery(client, service, self.channels, self._holds_back)
        self.reminders = Reminders(client, self.channels, self.outbox)
        self.openings = Openings(service.clock)
        serve(client, Carriers(self.clicks, self.openings))
        self.live = LiveMessages(
            client, service, self.channels, self.outbox, self.pictures, self.reminders, self.budget
        )
        self.news = News(client, self.channels, self.outbox, self.live, self.reminders, self.pictures)

    # -- what the service tells us -----------------------------------------------

    def __call__(self, update: TableUpdate) -> None:
        snapshot = update.snapshot
        stage = self._stage(snapshot.id)
        known = stage.latest
        if known is None or snapshot.version >= known.version or not snapshot.is_open:
            stage.latest = snapshot
        self.live.learn(stage, snapshot)
        stage.clicks.only_clicks = snapshot.carried
        if update.kind == "lobby" and snapshot.version == 1:  # a new lobby: the interaction that asked for it
            opening = self.openings.claim(snapshot.table.host_id, snapshot.channel_id)
            if opening is not None:
                stage.opening = opening
        if update.kind == "restored" and not snapshot.carried:  # the bot's token cannot reach the others'
            self.channels.confirm_home(snapshot)
            # A crash just before this start may have spent the channel's route buckets.
            for channel_id in {snapshot.channel_id, snapshot.home_id}:
                self.budget.hold_channel(channel_id, self.started + self.route_window)
        brought_posts = self.outbox.take(stage, snapshot, restored=update.kind == "restored")
        if not brought_posts and self.live.needs_edit(stage, update):
            self.live.fall_behind(stage)
        self._kick(stage)

    def repost(self, snapshot: TableSnapshot) -> None:
        """Post the live table again at the bottom of the channel (``/6nimmt status``)."""
        self(TableUpdate(snapshot, "status"))
        stage = self._stage(snapshot.id)
        if not (snapshot.carried and self.outbox.owes(stage)):  # else its news, still to come, shows it
            self.live.ask_repost(stage)
        self._kick(stage)

    def _stage(self, table_id: int) -> TableStage:
        """The table's stage, made when it first has something to show."""
        stage = self._stages.get(table_id)
        if stage is None:
            stage = self._stages[table_id] = TableStage(table_id)
        return stage

    def _clicks_of(self, table_id: int) -> TableClicks | None:
        """Where a click on the table is kept: its stage's, made for an open table that has none yet;
        None for a table that is neither held nor open (its click carries nothing it will show)."""
        stage = self._stages.get(table_id)
        if stage is None and self.service.find(table_id) is not None:
            stage = self._stage(table_id)
        return stage.clicks if stage is not None else None

    def _clicked(self, table_id: int) -> None:
        """A click on a table only clicks reach, whose news waited for one: its worker carries it on."""
        stage = self._stages.get(table_id)
        if (
            stage is not None
            and stage.clicks.only_clicks
            and stage.latest is not None
            and (self.outbox.owes(stage) or self.live.owes_change(stage))
        ):
            self._kick(stage)

    def _kick(self, stage: TableStage) -> None:
        if stage.worker is not None:
            stage.wake.set()
        else:
            stage.wake.clear()
            stage.worker = asyncio.create_task(self._work(stage), name=f"present-{stage.id}")

    @property
    def tables_held(self) -> int:
        """How many tables the presenter holds anything of: the open ones it has seen, and the closed
        ones still showing their last posts."""
        return len(self._stages)

    def _workers(self) -> list[asyncio.Task[None]]:
        return [stage.worker for stage in self._stages.values() if stage.worker is not None]

    @property
    def busy_tables(self) -> int:
        return len(self._workers())

    async def idle(self) -> None:
        """Wait until everything is shown and done (tests)."""
        while (workers := self._workers()) or self.channels.chores:
            await asyncio.gather(*workers, *self.channels.chores, return_exceptions=True)

    async def close(self) -> None:
        """Show what is queued, for at most ``drain_seconds``; the rest waits in the store."""
        self.channels.closing = True
        for stage in self._stages.values():
            if stage.worker is not None:
                stage.wake.set()  # a worker pausing before its next try gives up now
        workers = self._workers()
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

    async def _work(self, stage: TableStage) -> None:
        failures = 0
        try:
            while True:
                try:
                    more = await self._step(stage)
                except asyncio.CancelledError:
                    raise
                except NoCarrier:
                    # Nothing but a click reaches its channel, and none can carry its news now: the game
                    # waits, its clock stopped, and the next click carries it on (``_clicked``).
                    if await self._unreachable(stage):
                        continue
                    await self._unseen(stage)
                    return
                except Exception as exc:
                    if locked_out(exc) and await self._thread_locked(stage):
                        continue  # the game paused: its summary says so, its news waits for the unlock
                    # Whatever failed (the database, a bug) is tried again, with a growing pause:
                    # what was committed must reach the channel.
                    failures += 1
                    if self.channels.closing:
                        log.warning("table %s: news left for the next start (%s)", stage.id, exc)
                        return
                    log.log(
                        logging.ERROR if failures == 1 else logging.DEBUG,
                        "table %s: could not show its state (try %d)",
                        stage.id,
                        failures,
                        exc_info=failures == 1,
                    )
                    await self._pause(stage, backoff(failures, self.channels.retry_first, RETRY_MOST))
                    continue
                failures = 0
                stage.reached()
                if not more:
                    return
        finally:
            stage.worker = None
            self.live.settle(stage)
            snapshot = stage.latest
            if snapshot is not None and not self.outbox.owes(stage):
                if not snapshot.is_open:
                    # A closed table whose news is all shown: the one place a table is let go of,
                    # and with its stage everything the parts kept of it.
                    del self._stages[stage.id]
                    stage.opened()
                    stage.reached()
                else:  # all shown: the next commit brings its own snapshot (and the game drawn from it)
                    stage.latest = None
                    snapshot.release()

    async def _carrier_ready(self, stage: TableStage, snapshot: TableSnapshot) -> bool:
        """Whether the table's newest click can carry a message into its channel now."""
        click = stage.clicks.newest
        return click is not None and await click.can_post_in(snapshot.table.home_id)

    async def _unreachable(self, stage: TableStage) -> bool:
        """A closed table's news that no click can carry waits ``unreachable_after`` for one, and is
        then given up, marked shown unseen, so that the presenter lets the table go: nobody may ever
        click on it again, and the bot's token cannot reach its channel. True once it gave up a post."""
        snapshot, owed = stage.latest, self.outbox.next_post(stage)
        if snapshot is None or snapshot.is_open or owed is None:
            return False
        loop = asyncio.get_running_loop()
        if stage.unreachable_since is None:
            stage.unreachable_since = loop.time()
        waited = loop.time() - stage.unreachable_since
        if waited < self.unreachable_after:
            if stage.give_up is None:
                stage.give_up = loop.call_later(self.unreachable_after - waited, self._give_up, stage.id)
            return False
        post, made_by, newest = owed
        log.info("table %s: post %s given up, no click left to carry it", stage.id, post.seq)

        async def unseen(*_: object) -> None:
            return None

        await self.outbox.deliver(stage, made_by, post, newest, unseen)
        return True

    def _give_up(self, table_id: int) -> None:
        """``unreachable_after`` has passed: the table's worker gives up what still waits (``_unreachable``)."""
        stage = self._stages.get(table_id)
        if stage is not None:
            stage.give_up = None
            self._kick(stage)

    async def _unseen(self, stage: TableStage) -> None:
        """A running game nothing can show now waits for a player to be back (``TableService.unseen``)."""
        snapshot = stage.latest
        if snapshot is None or not snapshot.is_open or snapshot.paused is not None:
            return
        try:
            await self.service.unseen(stage.id)
        except Exception as exc:  # its timers run on: the next click shows what they did
            log.warning("table %s: could not wait to be seen (%s)", stage.id, exc)

    async def _pause(self, stage: TableStage, seconds: float) -> None:
        """Wait ``seconds``, or less if a stop comes."""
        stage.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stage.wake.wait(), seconds * random.uniform(0.8, 1.2))

    async def _step(self, stage: TableStage) -> bool:
        """Do the most urgent thing the table's channel needs; False when there is nothing left."""
        snapshot = stage.snapshot
        paused = snapshot.is_open and snapshot.paused is not None
        if snapshot.is_open and paused != stage.paused:
            # The channel's summary says whether the game waits for its locked thread.
            await self.live.summary(stage, snapshot.table, priority=Priority.NORMAL)
            stage.paused = paused
            return True
        owed = self.outbox.next_post(stage)
        if owed is not None and not paused:  # a locked thread takes nothing: its news waits for the unlock
            post, made_by, newest = owed
            with requests_for(self.outbox.priority(stage, post)):
                await self.outbox.deliver(stage, made_by, post, newest, self._show)
            return True
        if self.outbox.unmarked(stage):
            await self.outbox.mark(stage)
            return True
        if paused:
            if snapshot.paused == UNSEEN and await self._carrier_ready(stage, snapshot):
                await self.service.seen(stage.id)  # a click came while it paused: the game goes on
                return True
            return False
        if self.live.owes_change(stage):
            await self.live.catch_up(stage, snapshot, lambda seconds: self._pause(stage, seconds))
            return True
        return False

    async def _show(self, stage: TableStage, table: Table, post: Post, newest: bool) -> int | None:
        """``News.show``; a game that ended while its thread was locked says how in the channel's summary."""
        try:
            return await self.news.show(stage, table, post, newest)
        except discord.HTTPException as exc:
            if locked_out(exc) and not stage.snapshot.is_open and post.kind in ("finished", "cancelled"):
                await self.live.summary(stage, table)
            raise

    # -- a thread a moderator locked ------------------------------------------------

    def _holds_back(self, stage: TableStage, exc: discord.HTTPException) -> bool:
        """A post refused because a moderator locked the game's thread waits for the unlock, while
        the game is open (the helper that pauses it is ``_thread_locked``); a finished game's is dropped."""
        return locked_out(exc) and stage.snapshot.is_open

    async def _thread_locked(self, stage: TableStage) -> bool:
        """Discord refused the game's thread as locked, which the gateway had not said: the game
        pauses (``TableService.thread_locked``). True once the newest commit is paused."""
        snapshot = stage.snapshot
        if not snapshot.is_open:
            return False
        try:  # its thread, or the thread it was opened in
            await self.service.thread_locked(snapshot.home_id)
        except Exception as exc:  # tried again with the refused post, after a pause
            log.warning("table %s: could not pause for its locked thread (%s)", stage.id, exc)
            return False
        return stage.snapshot.paused is not None
