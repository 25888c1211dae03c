"""A table's channel and thread on Discord, reached patiently.

Every request the presenter makes goes through ``TableChannels.retry``: a 5xx or a
lost connection is tried again with a growing pause, an archived thread is
reopened, a deleted channel ends its tables. What Discord refuses for good
propagates to the caller.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from bot.tables.service import TableService
from bot.tables.table import Table, TableSnapshot
from cogs.i18n import LocaleLike, server_locale

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Waits between attempts when Discord fails (5xx) or cannot be reached: doubling, then capped.
RETRY_FIRST, RETRY_MOST = 0.5, 30.0
#: Discord's error codes: an archived thread refuses messages until it is unarchived; a deleted channel.
ARCHIVED_THREAD, UNKNOWN_CHANNEL = 50083, 10003
#: A thread a moderator locked refuses the bot's messages and edits (only Manage Threads unlocks it).
THREAD_LOCKED = 160005


def transient(exc: BaseException) -> bool:
    """Whether a failed request may succeed later: a 5xx, a lost connection, a 429 (too many
    requests, which discord.py gave up waiting out). Anything else Discord refused for good."""
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, (discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError))


def locked_out(exc: BaseException) -> bool:
    """Whether Discord refused a request in a game's thread because a moderator locked it: "thread
    is locked", or archived and the bot may not unarchive it (``TableChannels.retry``)."""
    return isinstance(exc, discord.HTTPException) and (
        exc.code == THREAD_LOCKED or (exc.code == ARCHIVED_THREAD and isinstance(exc.__cause__, discord.Forbidden))
    )


class TableChannels:
    """Where a table's messages go, and the requests that reach them.

    ``closing``: a stop is under way, so a request that fails is not tried again
    (what it was for waits in the store for the next start).
    """

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.retry_first = RETRY_FIRST
        self.closing = False
        self._chores: set[asyncio.Task[None]] = set()  # best-effort requests nobody waits for

    def channel(self, table: Table, message_id: int | None = None) -> discord.PartialMessageable:
        """Where ``message_id`` is (by default, where the game's messages go): a game's thread, except
        for the lobby message in its channel that the thread was started on (they share an id)."""
        return self.client.get_partial_messageable(table.channel_of(message_id), guild_id=table.guild_id)

    def lobby_channel(self, table: Table) -> discord.PartialMessageable:
        """Where a table's lobby is: the channel it was opened in, even once its game's thread (started
        on the lobby) holds everything else, and after a restart that finds the lobby still owed."""
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    def locale(self, table: Table) -> LocaleLike:
        """Public table messages speak the server's language (English when unknown); where no server
        setting reaches (a group DM, a server without the bot), the language the table was opened in."""
        if table.carried and table.language is not None:
            return table.language
        return server_locale(self.client, table.guild_id)

    async def edit(self, table: Table, message_id: int | None, **fields: Any) -> None:
        if message_id is not None:
            await self.channel(table, message_id).get_partial_message(message_id).edit(**fields)

    async def retry(self, request: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T | None:
        """``request`` until Discord accepts it; a 5xx or a lost connection is tried again, later.

        discord.py waits out rate limits itself, and a 429 it gave up on is tried again here too. A
        4xx other than those is final (``discord.HTTPException`` propagates); an edit of a message
        that is gone (404) is no news and returns None. While ``closing`` nothing is tried again.
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
                    self.background(self.service.channel_gone(table.home_id), f"table {table.id}: its end")
                if request == self.edit:
                    return None
                raise
            except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError) as exc:
                if not transient(exc):
                    table = args[0] if args and isinstance(args[0], Table) else None
                    if (
                        not isinstance(exc, discord.HTTPException)
                        or exc.code != ARCHIVED_THREAD
                        or table is None
                        or table.thread_id is None
                        or unarchived
                    ):
                        raise
                    # Someone (or Discord's inactivity timer) archived the game's thread: a new message
                    # reopens it, an edit is refused until it is unarchived (Send Messages allows that).
                    unarchived = True
                    try:
                        await self.client.http.edit_channel(table.thread_id, archived=False)
                    except discord.Forbidden as refused:
                        raise exc from refused  # locked too: only a moderator can reopen it (locked_out)
                    continue
                if self.closing:
                    raise
                log.warning("Discord failed (%s); trying again in %.1f s", exc, delay)
                await asyncio.sleep(delay * random.uniform(0.8, 1.2))
                delay = min(delay * 2, RETRY_MOST)

    def confirm_home(self, snapshot: TableSnapshot) -> None:
        """A table restored at start-up may play in a thread (or channel) deleted while no process
        listened (the gateway tells only a listener), and no request goes to an up-to-date table to
        find it out. Once connected, a place the gateway does not list among its guild's channels
        and active threads is asked for, once: an archived thread is fine, a deleted one ends the table."""
        if snapshot.is_open:
            home = snapshot.home_id
            self.background(self._confirm_home(home), f"table {snapshot.id}: the check of its channel")

    async def _confirm_home(self, channel_id: int) -> None:
        await self.client.wait_until_ready()
        if self.client.get_channel(channel_id) is not None:
            return
        try:
            await self.client.fetch_channel(channel_id)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self.service.channel_gone(channel_id)

    def background(self, work: Awaitable[Any], what: str) -> None:
        """Run ``work`` on its own, best effort: nothing committed depends on it."""

        async def run() -> None:
            try:
                await work
            except Exception as exc:
                log.warning("%s failed (%s)", what, exc)

        task = asyncio.create_task(run())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    @property
    def chores(self) -> set[asyncio.Task[None]]:
        return self._chores

    async def drop_chores(self) -> None:
        """A stop: the best-effort requests still running are given up."""
        for chore in list(self._chores):
            chore.cancel()
        await asyncio.gather(*self._chores, return_exceptions=True)
