"""A thread for each game: whether one can be started here, starting it, noticing it is gone, and
noticing a moderator locked (or unlocked) it.

The lobby is posted in the channel; the game's thread is started on that
message (a thread started on a message shares its id), and from the start
of the game on everything the table posts goes there. Where no thread can be
made, the game runs in the channel as before and the host is told why; a
channel holds one such game at a time, so a table with neither closes. A
game's thread is one this bot started: it never holds a second table.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Coroutine
from typing import Any, Literal

import aiohttp
import discord
from discord.ext import commands

from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import Table, TableStatus
from bot.tables.timers import backoff
from bot.tables.transactions import UNREACHABLE
from bot.tables.updates import TableUpdate
from cogs.i18n import N_, join, render, tr, trn
from cogs.render.names import isolated

log = logging.getLogger(__name__)

#: Minutes without a message before Discord archives a game's thread: an hour for a live game (its
#: turns post far more often; a lobby that waits longer is reopened by the game's first post, and
#: after the game the Rematch button's hour needs no edit of the thread), a week for a turn-based
#: one, whose moves may each take a day.
ArchiveMinutes = Literal[60, 1440, 4320, 10080]  # the durations Discord accepts
LIVE_ARCHIVE_MINUTES: ArchiveMinutes = 60
TURN_BASED_ARCHIVE_MINUTES: ArchiveMinutes = 10080

#: Tries to save a game's pause (or its end) when the database is away, before the next sign of it.
LOCK_TRIES = 8
#: Discord's error code for a second thread started on one message (the first one has its id).
THREAD_ALREADY_CREATED = 160004
#: Pauses between tries of saving where a game plays, or of ending a deleted channel's tables:
#: doubling from the first, capped; a thread's place is tried RECORD_TRIES times (about 30 s).
RETRY_FIRST, RETRY_MOST, RECORD_TRIES = 0.5, 30.0, 7

#: Tries to start a game's thread while Discord answers 5xx or 429 (or loses the answer), pausing
#: from THREAD_RETRY_FIRST seconds, doubling: a game only plays in its channel once they are spent.
THREAD_TRIES, THREAD_RETRY_FIRST = 4, 0.25

#: Channel types a public thread can be started in from a message (text and announcement channels).
THREADABLE = (discord.ChannelType.text, discord.ChannelType.news)


def why_not_in_thread(interaction: discord.Interaction, locale) -> str | None:
    """Why the game cannot get a thread here (in ``locale``), or None if it can."""
    channel = interaction.channel
    kind = getattr(channel, "type", None)
    if isinstance(channel, discord.Thread) or kind in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    ):
        return tr(locale, "This is a thread (or a forum post) already, so the game runs right here.")
    if kind not in THREADABLE:
        return tr(locale, "This kind of channel has no threads, so the game runs right here.")
    permissions = interaction.app_permissions
    missing = [
        tr(locale, name)
        for name, granted in (
            # Translators: Discord's name of the permission, as your language's client shows it (quoted, if
            # your language quotes such names in running text).
            (N_("Create Public Threads"), permissions.create_public_threads),
            # Translators: Discord's name of the permission, as above.
            (N_("Send Messages in Threads"), permissions.send_messages_in_threads),
        )
        if not granted
    ]
    if missing:
        # Translators: {permissions} is one or two permission names, joined as your language lists them.
        return trn(
            locale,
            "I lack the {permissions} permission here, so the game runs in this channel.",
            "I lack the {permissions} permissions here, so the game runs in this channel.",
            len(missing),
            permissions=join(locale, missing),
        )
    return None


#: Discord's longest display name: the host's name never pushes the table's number out of the thread's name.
MAX_HOST_NAME = 32


def thread_name(table: Table, host_name: str, locale) -> str:
    """ "6 nimmt! · Alice's table · #12" (Discord allows 1–100 characters). A thread's name shows no
    markdown and pings nobody, but a right-to-left override in the host's name would reverse it."""
    return tr(locale, "6 nimmt! · {host}'s table · #{table}", host=isolated(host_name[:MAX_HOST_NAME]), table=table.id)[
        :100
    ]


def game_thread_parent(interaction: discord.Interaction) -> int | None:
    """The channel of the game whose thread the command was used in, or None. A game's thread is
    one this bot started (it starts threads for its games only), so this holds once the game is
    over too, and after a restart."""
    channel = interaction.channel
    me = interaction.client.user
    if isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id:
        return channel.parent_id
    return None


async def start_thread(
    client: discord.Client, service: TableService, table: Table, message_id: int | None, host_name: str, locale
) -> str | None:
    """Start the game's thread on its lobby message and tell the service; if Discord refuses, the
    game plays in its channel, or, when the channel has its one game played in place already, the
    table closes. Returns why there is no thread (already in ``locale``), or None.

    ``message_id`` None: the lobby's id was never saved (a kill right after it was posted), so no
    thread can be started on it."""
    thread_id, why = await _open_thread(client, table, message_id, host_name, locale)
    try:
        table = await _record_thread(service, table.id, thread_id)
    except TableError:  # the table closed meanwhile: nothing left to place
        return None
    except UNREACHABLE as exc:  # the next start finds it without its thread and places it
        log.error("table %s: where it plays could not be saved (%s); the next start places it", table.id, exc)
        return None
    if not table.is_open and table.closed_notice is not None:  # no room for it in the channel
        return render(locale, table.closed_notice)
    return why


async def _open_thread(
    client: discord.Client, table: Table, message_id: int | None, host_name: str, locale
) -> tuple[int | None, str | None]:
    """(the thread started on ``message_id``, None), or (None, why none could be)."""
    if message_id is None:
        return None, tr(locale, "Discord would not start a thread just now, so the game runs in this channel.")
    minutes: ArchiveMinutes = TURN_BASED_ARCHIVE_MINUTES if table.options.turn_based else LIVE_ARCHIVE_MINUTES
    try:
        for attempt in range(1, THREAD_TRIES + 1):
            try:
                data = await client.http.start_thread_with_message(
                    table.channel_id,
                    message_id,
                    name=thread_name(table, host_name, locale),
                    auto_archive_duration=minutes,
                    rate_limit_per_user=None,
                )
                break
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
                # A 5xx, a 429 or a lost answer may pass: tried again (a start Discord took answers
                # THREAD_ALREADY_CREATED next, which finds it); a refusal is final at once.
                passing = not isinstance(exc, discord.HTTPException) or exc.status == 429 or exc.status >= 500
                if not passing or attempt == THREAD_TRIES:
                    raise
                log.info("table %s: its thread could not be started yet (%s); trying again", table.id, exc)
                await asyncio.sleep(backoff(attempt, THREAD_RETRY_FIRST, RETRY_MOST))
    except discord.HTTPException as exc:
        if exc.code == THREAD_ALREADY_CREATED:
            # Started before a kill kept its id from being saved: it shares its message's id.
            return message_id, None
        log.warning("table %s: no thread could be started (%s); it plays in its channel", table.id, exc)
        return None, (
            tr(locale, "I may not start threads here, so the game runs in this channel.")
            if isinstance(exc, discord.Forbidden)
            else tr(locale, "Discord would not start a thread just now, so the game runs in this channel.")
        )
    except (aiohttp.ClientError, OSError) as exc:
        log.warning("table %s: Discord could not be reached to start its thread (%s)", table.id, exc)
        return None, tr(locale, "Discord would not start a thread just now, so the game runs in this channel.")
    return int(data["id"]), None


async def _record_thread(service: TableService, table_id: int, thread_id: int | None) -> Table:
    """``service.set_thread``, tried again with a growing pause while the database is away."""
    for attempt in itertools.count(1):
        try:
            return await service.set_thread(table_id, thread_id)
        except UNREACHABLE:
            if attempt == RECORD_TRIES:
                raise
            await asyncio.sleep(backoff(attempt, RETRY_FIRST, RETRY_MOST))
    raise AssertionError("unreachable")


class Threads(commands.Cog):
    """A game's thread or channel deleted: its table ends cleanly (recorded as abandoned). A game's
    thread locked by a moderator: the game pauses until it is unlocked (``TableService.thread_locked``).
    A lobby restored without the thread it was posted for (a kill came between): its thread is
    started, or it is placed in its channel under the one-game rule."""

    def __init__(self, service: TableService, client: discord.Client | None = None) -> None:
        self.service = service
        self.client = client
        self._tasks: set[asyncio.Task] = set()  # endings being retried, threads being started: cut at unload
        if client is not None:
            service.add_listener(self._on_update)

    async def cog_unload(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_update(self, update: TableUpdate) -> None:
        snapshot = update.snapshot
        if (
            update.kind == "restored"
            and snapshot.is_open
            and snapshot.threaded
            and snapshot.thread_id is None
            # A lobby whose message was never shown gets its thread once the presenter shows it.
            and not any(post.kind == "opened" for post in snapshot.posts)
        ):
            self._spawn(self._place(snapshot.table), f"place-{snapshot.id}")

    async def _place(self, table: Table) -> None:
        """Start the thread a restored lobby was posted for, or place it in its channel."""
        if self.client is None:  # the service's updates are listened to only with a client
            return
        guild = self.client.get_guild(table.guild_id)
        locale = guild.preferred_locale if guild is not None else None
        why = await start_thread(self.client, self.service, table, table.message_id, table.host_name, locale)
        log.info("table %s was restored without its thread: %s", table.id, why or "its thread is started")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel.id)

    async def _gone(self, channel_id: int) -> None:
        if not self.service.tables_in(channel_id):
            return
        self._spawn(self._end_gone(channel_id), f"gone-{channel_id}")

    async def _end_gone(self, channel_id: int) -> None:
        """End the tables of a deleted channel or thread; a failed ending (the database away) is
        tried again with a growing pause until it goes through, not left for a post that may never come."""
        for failures in itertools.count(0):
            if failures:
                await asyncio.sleep(backoff(failures, RETRY_FIRST, RETRY_MOST))
            try:
                ended = await self.service.channel_gone(channel_id)
            except Exception:
                log.log(
                    logging.ERROR if not failures else logging.DEBUG,
                    "the tables of deleted channel %s could not be ended (try %d); trying again",
                    channel_id,
                    failures + 1,
                    exc_info=not failures,
                )
                continue
            log.info("channel %s was deleted: table(s) %s abandoned", channel_id, ended)
            return

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A game's thread was locked or unlocked. The raw event, because ``on_thread_update`` fires
        only for a thread in discord.py's cache, and an archived thread is not in it: a thread
        locked and archived at once, then unlocked, would go unheard."""
        locked = (payload.data.get("thread_metadata") or {}).get("locked")
        if locked is not None:
            await self._lock_changed(payload.thread_id, bool(locked))

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """Connected (after a start, or a reconnection that could not resume): what was locked or
        unlocked while the bot did not listen. The active threads came with the guild; a paused
        game's thread that is not among them (archived) is asked for."""
        for table in [t.as_committed() for t in self.service.tables.values() if t.guild_id == guild.id]:
            if table.status is not TableStatus.PLAYING:
                continue
            thread: discord.abc.GuildChannel | discord.Thread | None = guild.get_thread(table.home_id)
            # None for a channel, or a thread not active
            if thread is None and table.paused is not None:
                try:
                    thread = await guild.fetch_channel(table.home_id)
                except discord.NotFound:
                    continue  # deleted: the gateway or the next post ends its game
                except (discord.HTTPException, OSError) as exc:
                    log.warning("table %s: could not ask whether its thread is still locked (%s)", table.id, exc)
                    continue
            if isinstance(thread, discord.Thread):
                await self._lock_changed(thread.id, thread.locked)

    async def _lock_changed(self, thread_id: int, locked: bool) -> None:
        """Pause or resume the game played in ``thread_id``; a database that is away is waited for."""
        if not self.service.tables_in(thread_id):
            return
        change = self.service.thread_locked if locked else self.service.thread_unlocked
        for attempt in range(1, LOCK_TRIES + 1):
            try:
                await change(thread_id)
                return
            except UNREACHABLE as exc:
                if attempt == LOCK_TRIES:  # a locked thread still refuses the next post, which pauses it
                    log.error(
                        "thread %s was %s, but the game could not be saved so (%s)",
                        thread_id,
                        "locked" if locked else "unlocked",
                        exc,
                    )
                    return
                await asyncio.sleep(backoff(attempt))
            except Exception:
                log.exception(
                    "thread %s was %s, but its game could not follow", thread_id, "locked" if locked else "unlocked"
                )
                return
