"""Brings each table's channel up to date with its committed state.

The presenter is the only writer of public table messages. What it shows is
drawn from the table: the live message (lobby or table, with its buttons)
from the current state, and the news the channel reads once (reveals,
standings, closings) from the table's outbox, which was committed with the
state that made it. A post leaves the outbox only once Discord has accepted
it, so a crash, a clean stop or a refused request loses nothing: the next
start shows what is left. Posts carry a nonce made of the table and the
post's number, so a post re-sent after a crash is not shown twice; Discord
remembers a nonce for a few minutes only, so a post first tried longer ago
(a long outage) is looked for in the channel before it is sent again.

Everything it shows comes from the snapshots the table service hands it
after each commit, never from a live table: a change whose save is still
under way, or failed, is never shown. Each post is drawn from the snapshot
of the commit that made it.

Each table has one worker task while it has something to show, and none
otherwise. A worker shows every post first (a reveal never waits behind
an edit), then the newest state of the live message, editing one message at
most once per ``edit_interval`` so a burst of picks is one edit. Whatever
fails (Discord, the database) is tried again with a growing pause; a post
shown once is never shown again by this process, even while the store
cannot yet be told.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import random
import time
from datetime import datetime, timezone

import aiohttp
import discord

from cogs.i18n import render, server_locale, tr
from bot.tables.service import TableService
from bot.tables.table import Post, Table, TableSnapshot, TableStatus
from bot.tables.timers import backoff
from bot.tables.updates import TableUpdate
from bot.tables.workers import WorkerPool
from engine import CardPlaced, GameEnded

from cogs.render.chart import CHART_WORDS, render_score_chart
from cogs.threads import add_to_thread
from cogs.ui.lobby import lobby_view, rematch_view, server_lines
from cogs.ui.table import table_view
from cogs.render.images import WORDS, render_table
from cogs.render.text import clip, final_standings, lobby_embed, reveal_text, seat_name, table_embed
from cogs.ui.specials import DecideMessages
from cogs.render.specials import IMAGE_MARKERS, waiting_line

IMAGE_NAME = "table.png"
CHART_NAME = "scores.png"

log = logging.getLogger(__name__)

#: The least time between two edits of a table's live message; posts never wait for it.
EDIT_INTERVAL = 1.0
#: How long a clean stop waits for queued news before leaving the rest to the next start.
DRAIN_SECONDS = 10.0
#: Waits between attempts when Discord fails (5xx) or cannot be reached: doubling, then capped.
RETRY_FIRST, RETRY_MOST = 0.5, 30.0
#: How long Discord is trusted to remember a post's nonce (it checks "the past few minutes").
NONCE_TRUST = 60.0
#: How many of the channel's messages since a post's first try are read to find it there.
LOOK_BACK = 100
#: Minutes without a message after which a finished game's thread archives itself (Discord's least).
THREAD_ARCHIVE_AFTER_GAME = 60
#: Discord's error codes: an archived thread refuses messages until it is unarchived; a deleted channel.
ARCHIVED_THREAD, UNKNOWN_CHANNEL = 50083, 10003
#: A thread a moderator locked refuses the bot's messages and edits (only Manage Threads unlocks it).
THREAD_LOCKED = 160005
CUT = 1900  # the characters of a post's words compared with what the channel shows (content ≤ 2,000)


def post_nonce(table_id: int, post: Post) -> str:
    """The same for every attempt at one post, so Discord creates its message once; a post's
    number is never given twice (see ``Post``), so a nonce always carries one content."""
    return f"6n{table_id}.{post.seq}"[:25]  # Discord's limit for a nonce


class Presenter:
    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.edit_interval = EDIT_INTERVAL
        self.retry_first = RETRY_FIRST
        self.drain_seconds = DRAIN_SECONDS
        self._latest: dict[int, TableSnapshot] = {}  # tables with something to show: their newest commit
        self._pending: dict[int, dict[int, tuple[Post, TableSnapshot]]] = {}  # posts to show, by seq
        self._shown: dict[int, int] = {}  # the highest post seq shown, per table
        self._unmarked: dict[int, tuple[int | None, int | None]] = {}  # shown, not yet marked: (upto, message)
        self._live: dict[int, int] = {}  # the table's live message id, as this process knows it
        self._stale: set[int] = set()  # tables whose live message is behind their state
        self._repost: set[int] = set()  # tables whose live message goes to the bottom anew
        self._workers: dict[int, asyncio.Task] = {}
        self._wake: dict[int, asyncio.Event] = {}
        # message id -> monotonic time of its last edit; a live message's entry goes when it is retired
        self._last_edit: dict[int, float] = {}
        self._without_picture: set[int] = set()  # tables whose live message was posted without one
        self._news: dict[int, list[str]] = {}  # the notices on a table's live message, kept by its edits
        self._decide = DecideMessages()  # a retired Decide nudge says what was decided
        self._since: dict[tuple[int, int], float] = {}  # (table, post seq) -> when it may first have been sent
        self._paused: set[int] = set()  # tables whose channel summary says they wait for their locked thread
        self._closing = False
        self._chores: set[asyncio.Task] = set()  # best-effort requests nobody waits for
        # Pillow holds the GIL for much of a ~15 ms render: a process of its own keeps the
        # event loop (and every other table's clicks) responsive on a second core.
        self._images = WorkerPool()

    # -- what the service tells us -----------------------------------------------

    def __call__(self, update: TableUpdate) -> None:
        snapshot = update.snapshot
        tid = snapshot.id
        known = self._latest.get(tid)
        if known is None or snapshot.version >= known.version or not snapshot.is_open:
            self._latest[tid] = snapshot
        if snapshot.message_id is not None and (tid not in self._live or snapshot.status is TableStatus.LOBBY):
            self._live[tid] = snapshot.message_id  # a restored table's, or the lobby's answer
        shown = self._shown.get(tid, 0)
        pending = self._pending.setdefault(tid, {})
        for post in snapshot.posts:
            if post.seq > shown and post.seq not in pending:
                pending[post.seq] = (post, snapshot)  # drawn as the commit that made it left the table
        if update.kind != "finished" and update.kind != "cancelled":
            self._stale.add(tid)
        self._kick(tid)

    def repost(self, snapshot: TableSnapshot) -> None:
        """Post the live table again at the bottom of the channel (``/6nimmt status``)."""
        self(TableUpdate(snapshot, "status"))
        self._repost.add(snapshot.id)
        self._kick(snapshot.id)

    def _kick(self, table_id: int) -> None:
        wake = self._wake.get(table_id)
        if wake is not None:
            wake.set()
        if table_id not in self._workers:
            self._wake[table_id] = asyncio.Event()
            self._workers[table_id] = asyncio.create_task(self._work(table_id), name=f"present-{table_id}")

    @property
    def busy_tables(self) -> int:
        return len(self._workers)

    async def idle(self) -> None:
        """Wait until everything is shown and done (tests)."""
        while self._workers or self._chores:
            await asyncio.gather(*self._workers.values(), *self._chores, return_exceptions=True)

    async def close(self) -> None:
        """Show what is queued, for at most ``drain_seconds``; the rest waits in the store."""
        self._closing = True
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
        for chore in list(self._chores):  # best effort only: nothing committed waits for them
            chore.cancel()
        await asyncio.gather(*self._chores, return_exceptions=True)
        self._images.close()

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
                    if _locked_out(exc) and await self._thread_locked(table_id):
                        continue  # the game paused: its summary says so, its news waits for the unlock
                    # Whatever failed (the database, a bug) is tried again, with a growing pause:
                    # what was committed must reach the channel.
                    failures += 1
                    if self._closing:
                        log.warning("table %s: news left for the next start (%s)", table_id, exc)
                        return
                    log.log(logging.ERROR if failures == 1 else logging.DEBUG,
                            "table %s: could not show its state (try %d)", table_id, failures,
                            exc_info=failures == 1)
                    await self._pause(table_id, backoff(failures, self.retry_first, RETRY_MOST))
                    continue
                failures = 0
                if not more:
                    return
        finally:
            self._workers.pop(table_id, None)
            self._wake.pop(table_id, None)
            self._stale.discard(table_id)
            self._repost.discard(table_id)
            snapshot = self._latest.get(table_id)
            if snapshot is not None and not self._pending.get(table_id) and table_id not in self._unmarked:
                if not snapshot.is_open:
                    self._forget(table_id)
                else:  # all shown: the next commit brings its own snapshot (and the game drawn from it)
                    del self._latest[table_id]
                    snapshot.release()

    def _forget(self, table_id: int) -> None:
        """A closed table whose news is all shown: nothing of it stays."""
        self._latest.pop(table_id, None)
        self._pending.pop(table_id, None)
        self._shown.pop(table_id, None)
        self._without_picture.discard(table_id)
        self._decide.posted(table_id, None, None)
        self._news.pop(table_id, None)
        self._paused.discard(table_id)
        self._last_edit.pop(self._live.pop(table_id, None), None)

    async def _pause(self, table_id: int, seconds: float) -> None:
        """Wait ``seconds``, or less if a stop comes."""
        wake = self._wake[table_id]
        wake.clear()
        try:
            await asyncio.wait_for(wake.wait(), seconds * random.uniform(0.8, 1.2))
        except TimeoutError:
            pass

    async def _step(self, table_id: int) -> bool:
        """Do the most urgent thing the table's channel needs; False when there is nothing left."""
        snapshot = self._latest[table_id]
        paused = snapshot.is_open and snapshot.paused is not None
        if snapshot.is_open and paused != (table_id in self._paused):
            await self._summary(snapshot.table)  # the channel's summary says whether the game waits
            (self._paused.add if paused else self._paused.discard)(table_id)
            return True
        pending = self._pending.get(table_id)
        if pending and not paused:  # a locked thread takes nothing: its news waits for the unlock
            seq = min(pending)
            post, at = pending[seq]
            await self._deliver(at, post, newest=seq == max(pending))
            return True
        if table_id in self._unmarked:
            await self._mark(table_id)
            return True
        if paused:
            return False
        if table_id in self._repost:
            self._repost.discard(table_id)
            self._stale.discard(table_id)
            if snapshot.is_open:
                await self._post_live(snapshot.table, None)
            return True
        if table_id in self._stale:
            wait = self._last_edit.get(self._live.get(table_id), -1e9) + self.edit_interval - time.monotonic()
            if wait > 0 and not self._closing:
                await self._pause(table_id, wait)  # a post arriving meanwhile goes first
                return True
            self._stale.discard(table_id)
            await self._edit_live(snapshot.table)
            return True
        return False

    async def _deliver(self, snapshot: TableSnapshot, post: Post, newest: bool) -> None:
        """Show ``post`` and record that it was shown; what Discord refuses for good is skipped."""
        table = snapshot.table
        key = (table.id, post.seq)
        # Its commit time, read before showing it moves a late post's clock: no earlier try exists.
        self._since.setdefault(key, post.at)
        message_id = None
        try:
            message_id = await self._show_post(table, post, newest)
        except discord.HTTPException as exc:  # a 4xx: this request will never succeed
            if _locked_out(exc):
                if self._latest[table.id].is_open:
                    raise  # a moderator locked the game's thread: the post waits for the unlock (_work)
                if post.kind in ("finished", "cancelled"):
                    await self._summary(table)  # it ended while locked: the channel's summary says how
            log.warning("table %s: Discord refused post %s for good (%s)", table.id, post.seq, exc)
        self._since.pop(key, None)
        # Shown: never again from this process, whatever the store says next.
        self._pending[table.id].pop(post.seq, None)
        self._shown[table.id] = max(self._shown.get(table.id, 0), post.seq)
        _, message = self._unmarked.get(table.id, (None, None))
        self._unmarked[table.id] = (post.seq, message_id or message)
        await self._mark(table.id)

    async def _mark(self, table_id: int) -> None:
        """Tell the store what the channel has seen (raises if it cannot: the worker tries again)."""
        upto, message_id = self._unmarked[table_id]
        await self.service.mark_shown(table_id, upto=upto, message_id=message_id)
        if self._unmarked.get(table_id) == (upto, message_id):
            del self._unmarked[table_id]

    async def _show_post(self, table: Table, post: Post, newest: bool) -> int | None:
        """Send ``post``; the id of the live message it posted, if it posted one."""
        locale = self._locale(table)
        notices = [render(locale, notice) for notice in post.notices]
        live = self._live.get(table.id)

        if post.kind == "cancelled":
            await self._retry(self._edit, table, live, **(
                {"embed": lobby_embed(table, locale)} if table.game is None else {}), view=None)
            if live != table.thread_id:  # the lobby, just edited, is the summary until the game starts
                await self._summary(table)
            text = "\n".join(notices) or tr(locale, "The table was closed.")
            await self._retry(self._send, table, post, content=text)
            self._retire_thread(table)
            return None
        if post.kind == "reminder":
            await self._remind(table, post, locale)
            return None
        text = reveal_text(table, post.events, locale)
        if post.kind == "finished":
            outcome = table.game.view(None).outcome if table.game is not None else None
            if outcome is not None and not any(isinstance(e, GameEnded) for e in post.events):
                # Ended before a crash with its last events unsaved: the outcome still says it all.
                text = "\n".join(t for t in (text, final_standings(table, GameEnded(outcome), locale)) if t)
            text = "\n".join(t for t in (text, *notices) if t)
            chart = await self._chart(table, locale)
            files = [] if chart is None else [discord.File(io.BytesIO(chart), filename=CHART_NAME, description=tr(
                locale, "Bullheads after each round"))]
            standings = await self._retry(self._send, table, post,
                                          content=clip(text or tr(locale, "The game is over.")),
                                          view=rematch_view(table.id, locale), files=files)
            await self._retry(self._edit, table, live, view=None, **self._decide.retired(table, post, locale))
            await self._summary(table, standings.id if standings is not None else None)
            self._retire_thread(table)
            return None
        if post.kind == "started" and live is not None:
            # The lobby says the game began; the table is posted below it (or in its thread).
            await self._retry(self._edit, table, live, embed=lobby_embed(table, locale), view=None)
            self._background(self._seat_players(table), f"table {table.id}: adding its players to its thread")
        if newest and table.is_open:
            return await self._post_live(table, post, text, notices)
        # Older news behind a newer post: its words only; the newest post carries the table. Whoever
        # owes the move it opened is still told, if the game still waits on that move.
        calls = bool(post.remind) and self._current(table.id, post)
        text = "\n".join(t for t in (text, *notices, self._mentions(table, post, locale) if calls else "") if t)
        if text:
            await self._retry(self._send, table, post, content=clip(text))
        if calls:
            await self._message_players(table, post, locale)
        return None

    async def _post_live(self, table: Table, post: Post | None, text: str = "", notices=()) -> int | None:
        """Post the live table (with ``post``'s news above it) and retire the previous live message;
        the new message's id."""
        locale = self._locale(table)
        self._stale.discard(table.id)  # the new message shows the newest state
        if post is not None:
            late = self.service.clock() - post.at
            if late > 0:
                try:
                    await self.service.post_seen_late(table.id, post, late)
                except Exception as exc:  # its timer is only less generous: show the news
                    log.debug("table %s: the timer could not wait for a late post (%s)", table.id, exc)
        nudge = waiting_line(table, lambda seat: seat_name(table, seat, locale), locale)  # pings a decider
        own = text  # the post's own words: the nudge and the buttons follow the state, which moves on
        if post is not None and post.remind:  # a turn-based decision opens: whoever owes it is told
            nudge = "\n".join(t for t in (nudge, self._mentions(table, post, locale)) if t)
        text = "\n".join(t for t in (text, nudge) if t)
        self._news[table.id] = list(notices)
        embed = table_embed(table, locale, list(notices))
        files = []
        image = None
        if table.game.view(None).rows:  # none during a Pro draft
            try:
                image = await self._image(table, post.events if post else [], locale)
            except Exception:  # the picture only repeats the rows in the text: post the table without it
                log.exception("table %s: the table picture could not be drawn", table.id)
        if image is None:
            self._without_picture.add(table.id)
        else:
            self._without_picture.discard(table.id)
            files.append(discord.File(io.BytesIO(image), filename=IMAGE_NAME,
                                      description=tr(locale, "The rows; the text above says the same")))
            embed.set_image(url=f"attachment://{IMAGE_NAME}")
        previous = self._live.get(table.id)
        message = await self._retry(self._send, table, post, content=clip(text) if text else None, words=own,
                                    embed=embed, view=table_view(table, locale), files=files)
        self._last_edit.pop(previous, None)  # retired: only its buttons go, whenever they may
        if message is not None:
            self._live[table.id] = message.id
        if previous is not None and (post is None or post.kind != "started") \
                and (message is None or message.id != previous):  # a post tried again after a lock
            retired = self._decide.retired(table, post, locale) if post else {}
            await self._retry(self._edit, table, previous, view=None, **retired)
        self._decide.posted(table.id, clip(text) if text else None, nudge)
        if post is not None and post.remind:
            await self._message_players(table, post, locale)
        if message is None:
            return None
        if post is None:  # a repost: no post to mark, only the message to remember
            self._unmarked[table.id] = (self._unmarked.get(table.id, (None, None))[0], message.id)
        return message.id

    async def _edit_live(self, table: Table) -> None:
        """Bring the live message up to the table's state (who has picked, the lobby's players)."""
        live = self._live.get(table.id)
        if live is None or not table.is_open:
            return
        locale = self._locale(table)
        if table.status is TableStatus.LOBBY:
            fields = {"embed": lobby_embed(table, locale, server=server_lines(self.client, table.guild_id, locale)),
                      "view": lobby_view(table, locale)}
        else:
            embed = table_embed(table, locale, self._news.get(table.id))
            if table.game.view(None).rows and table.id not in self._without_picture:
                embed.set_image(url=f"attachment://{IMAGE_NAME}")  # the image already attached
            fields = {"embed": embed, "view": table_view(table, locale)}
        self._last_edit[live] = time.monotonic()

        await self._retry(self._edit, table, live, **fields)

    # -- games in threads, turn-based reminders ------------------------------------------

    async def _seat_players(self, table: Table) -> None:
        """A game in a thread: every player is in it once the game starts (those who joined the
        lobby were added then; a rematch's seats were not), beside the game's first post."""
        for seat in table.humans:
            if seat.user_id is not None:
                await add_to_thread(self.client, table, seat.user_id)

    def _retire_thread(self, table: Table) -> None:
        """After the game its thread archives itself once an hour has passed without a message:
        the Rematch button's hour, Discord's shortest inactivity timer (no task of ours waits for it)."""
        if table.thread_id is not None:
            self._background(self._retry(self.client.http.edit_channel, table.thread_id,
                                         auto_archive_duration=THREAD_ARCHIVE_AFTER_GAME),
                             f"table {table.id}: its thread's archive timer")

    def _background(self, work, what: str) -> None:
        async def run():
            try:
                await work
            except Exception as exc:  # best effort: nothing committed depends on it
                log.warning("%s failed (%s)", what, exc)
        task = asyncio.create_task(run())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    def _mentions(self, table: Table, post: Post, locale) -> str:
        """The line mentioning the players of ``post.remind`` who did not ask for direct messages."""
        return self._call_line(table, [user_id for user_id in post.remind if not _wants_dm(table, user_id)], locale)

    @staticmethod
    def _call_line(table: Table, user_ids: list[int], locale) -> str:
        if not user_ids:
            return ""
        # Translators: {players} is one or more mentions ("@Anna" or "@Anna @Ben"): word it for one and for several.
        return tr(locale, "⏰ {players}: your move — time runs out {when}.",
                  players=" ".join(f"<@{user_id}>" for user_id in user_ids), when=f"<t:{int(table.deadline)}:R>")

    async def _message_players(self, table: Table, post: Post, locale) -> None:
        """After ``post`` is shown (never before it: a reveal does not wait for them), the direct
        messages to its players who asked for them; whoever cannot be messaged (closed direct
        messages) is mentioned in the game's channel instead, once (its own nonce)."""
        closed = [user_id for index, user_id in enumerate(post.remind)
                  if _wants_dm(table, user_id) and not await self._dm(table, post, index, locale)]
        if closed:
            await self._retry(self._send, table, post, content=self._call_line(table, closed, locale), nonce_tag="m")

    async def _dm(self, table: Table, post: Post, index: int, locale) -> bool:
        """Tell ``post.remind[index]`` privately that the game waits on them; False if they cannot be
        messaged (the channel mentions them instead)."""
        where = f"https://discord.com/channels/{table.guild_id}/{table.home_id}"  # its newest message is the table
        text = tr(locale, "⏰ Your move in your 6 nimmt! game (table #{table}) — time runs out {when}: {link}",
                  table=table.id, when=f"<t:{int(table.deadline)}:R>", link=where)
        try:
            channel = await self._retry(self.client.create_dm, discord.Object(post.remind[index]))
            await self._retry(channel.send, text, nonce=f"{post_nonce(table.id, post)}d{index}"[:25])
        except discord.HTTPException as exc:  # closed direct messages: 403
            log.info("table %s: a reminder could not be sent privately (%s)", table.id, exc)
            return False
        return True

    def _current(self, table_id: int, post: Post) -> bool:
        """Whether the newest commit known still waits on the decision ``post`` opened."""
        latest = self._latest.get(table_id)
        return latest is not None and latest.is_open and latest.meta.get("step") == post.step

    async def _remind(self, table: Table, post: Post, locale) -> None:
        """A turn-based reminder, once: only while the game still waits on that decision."""
        if not self._current(table.id, post):
            return  # the game moved on (or ended) before it could be shown: nobody owes that move now
        line = self._mentions(table, post, locale)
        if line:
            await self._retry(self._send, table, post, content=line)
        await self._message_players(table, post, locale)

    # -- Discord, patiently ---------------------------------------------------------

    async def _retry(self, request, *args, **kwargs):
        """``request`` until Discord accepts it; a 5xx or a lost connection is tried again, later.

        discord.py waits out rate limits itself. A 4xx other than those is final
        (``discord.HTTPException`` propagates); an edit of a message that is gone
        (404) is no news and returns None.
        """
        delay = self.retry_first
        unarchived = False
        while True:
            try:
                return await request(*args, **kwargs)
            except discord.NotFound as exc:
                table = args[0] if args and isinstance(args[0], Table) else None
                if exc.code == UNKNOWN_CHANNEL and table is not None and table.is_open:
                    # Deleted while this process did not listen (the gateway tells us otherwise).
                    self._background(self.service.channel_gone(table.home_id), f"table {table.id}: its end")
                if request == self._edit:
                    return None
                raise
            except (discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError) as exc:
                if self._closing:
                    raise
                log.warning("Discord failed (%s); trying again in %.1f s", exc, delay)
                await asyncio.sleep(delay * random.uniform(0.8, 1.2))
                delay = min(delay * 2, RETRY_MOST)
            except discord.HTTPException as exc:
                table = args[0] if args and isinstance(args[0], Table) else None
                if exc.code != ARCHIVED_THREAD or table is None or table.thread_id is None or unarchived:
                    raise
                # Someone (or Discord's inactivity timer) archived the game's thread: a new message
                # reopens it, an edit is refused until it is unarchived (Send Messages allows that).
                unarchived = True
                try:
                    await self.client.http.edit_channel(table.thread_id, archived=False)
                except discord.Forbidden as refused:
                    raise exc from refused  # locked too: only a moderator can reopen it (_locked_out)

    async def _thread_locked(self, table_id: int) -> bool:
        """Discord refused the game's thread as locked, which the gateway had not said: the game
        pauses (``TableService.thread_locked``). True once the newest commit is paused."""
        snapshot = self._latest[table_id]
        if not snapshot.is_open:
            return False
        try:  # its thread, or the thread it was opened in
            await self.service.thread_locked(int(snapshot.meta.get("thread_id") or snapshot.channel_id))
        except Exception as exc:  # tried again with the refused post, after a pause
            log.warning("table %s: could not pause for its locked thread (%s)", table_id, exc)
            return False
        return self._latest[table_id].paused is not None

    def _channel(self, table: Table, message_id: int | None = None):
        """Where ``message_id`` is (by default, where the game's messages go): a game's thread, except
        for the lobby message in its channel that the thread was started on (they share an id)."""
        where = table.channel_id if message_id is not None and message_id == table.thread_id else table.home_id
        return self.client.get_partial_messageable(where, guild_id=table.guild_id)

    async def _send(self, table: Table, post: Post | None, words: str | None = None, nonce_tag: str = "",
                    **fields):
        """Send a message; for ``post``, once: with its nonce, and after a long outage only if the
        channel does not show it yet (``words``: what the post says; the content by default).
        ``nonce_tag`` marks a second message of the same post (its nonce differs by it)."""
        if post is not None:
            fields["nonce"] = f"{post_nonce(table.id, post)}{nonce_tag}"[:25]
            since = self._since.get((table.id, post.seq))
            words = fields.get("content") if words is None else words
            if since is not None and words and self.service.clock() - since > NONCE_TRUST:
                sent = await self._sent_before(table, since, words)
                if sent is not None:
                    return sent
        for file in fields.get("files", ()):
            file.reset()  # a retried upload sends the picture from its start again
        return await self._channel(table).send(**fields)

    async def _sent_before(self, table: Table, since: float, words: str):
        """Our message saying ``words`` (then perhaps more) among the channel's messages since
        ``since``: an earlier try that Discord took, too long ago for the nonce to tell; or None."""
        me = self.client.user
        after = discord.Object(discord.utils.time_snowflake(datetime.fromtimestamp(since - 5, timezone.utc)))
        try:
            async for message in self._channel(table).history(limit=LOOK_BACK, after=after):
                if me is not None and message.author.id == me.id and _says(message.content, words):
                    log.info("table %s: a post was already in the channel (message %s)", table.id, message.id)
                    return message
        except discord.HTTPException as exc:  # cannot read the channel: sending is all that is left
            log.warning("table %s: could not look for an earlier post (%s)", table.id, exc)
        return None

    async def _edit(self, table: Table, message_id: int | None, **fields) -> None:
        if message_id is not None:
            await self._channel(table, message_id).get_partial_message(message_id).edit(**fields)

    async def _summary(self, table: Table, standings: int | None = None) -> None:
        """A game in a thread: the lobby message in the channel says where it is played, who plays
        and, at the end, who won (``standings``: the message to jump to)."""
        if table.thread_id is not None:
            locale = self._locale(table)
            await self._retry(self._edit, table, table.thread_id, view=None,
                              embed=lobby_embed(table, locale, standings=standings))

    async def _image(self, table: Table, events: list, locale) -> bytes:
        placed = {e.card for e in events if isinstance(e, CardPlaced)}
        view = table.game.view(None)
        markers = [[IMAGE_MARKERS[m] for m in row] for row in view.row_markers]
        render = functools.partial(render_table, [list(r.cards) for r in view.rows], highlight=placed,
                                   markers=markers, capacities=view.row_capacities,
                                   totals=[r.bullheads for r in view.rows],
                                   words={word: tr(locale, word) for word in WORDS})
        return await self._images.run(render)

    async def _chart(self, table: Table, locale) -> bytes | None:
        """The score chart of a finished game; the standings go out without it if it cannot be drawn."""
        history = table.game.view(None).history if table.game is not None else ()
        if not history:
            return None
        points = [[round_points[seat] for round_points in history] for seat in range(len(table.seats))]
        render = functools.partial(render_score_chart, [s.name for s in table.seats], points,
                                   {word: tr(locale, word) for word in CHART_WORDS})
        try:
            return await self._images.run(render)
        except Exception:
            log.exception("table %s: the score chart could not be drawn", table.id)
            return None

    def _locale(self, table: Table):
        """Public table messages speak the server's language (English when unknown)."""
        return server_locale(self.client, table.guild_id)


def _says(content: str, words: str) -> bool:
    """Whether a message's ``content`` is ``words``, or begins with them and goes on on a new line."""
    if content == words:
        return True
    words = words[:CUT] if len(words) > CUT else words + "\n"  # a long text may have been clipped
    return content.startswith(words)


def _locked_out(exc: BaseException) -> bool:
    """Whether Discord refused a request in a game's thread because a moderator locked it: "thread
    is locked", or archived and the bot may not unarchive it (``_retry``)."""
    return isinstance(exc, discord.HTTPException) and (
        exc.code == THREAD_LOCKED or (exc.code == ARCHIVED_THREAD and isinstance(exc.__cause__, discord.Forbidden)))


def _wants_dm(table: Table, user_id: int) -> bool:
    """Whether a turn-based player asked for their reminders as direct messages."""
    seat = table.seat_of(user_id)
    return seat is not None and table.seats[seat].remind_by_dm
