"""A thread for each game: whether one can be started here, starting it, and noticing it is gone.

The lobby is posted in the channel; the game's thread is started on that
message (a thread started on a message shares its id), and from the start
of the game on everything the table posts goes there. Where no thread can be
made, the game runs in the channel as before and the host is told why.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.tables.service import TableService
from bot.tables.table import Table
from cogs.i18n import N_, join, tr, trn
from cogs.render.names import isolated

log = logging.getLogger(__name__)

#: Minutes without a message before Discord archives a game's thread: a day for a live game (a
#: lobby can wait that long), a week for a turn-based one, whose moves may each take a day.
LIVE_ARCHIVE_MINUTES, TURN_BASED_ARCHIVE_MINUTES = 1440, 10080

#: Channel types a public thread can be started in from a message (text and announcement channels).
THREADABLE = (discord.ChannelType.text, discord.ChannelType.news)


def why_not_in_thread(interaction: discord.Interaction, locale) -> str | None:
    """Why the game cannot get a thread here (in ``locale``), or None if it can."""
    channel = interaction.channel
    kind = getattr(channel, "type", None)
    if isinstance(channel, discord.Thread) or kind in (
            discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread):
        return tr(locale, "This is a thread (or a forum post) already, so the game runs right here.")
    if kind not in THREADABLE:
        return tr(locale, "This kind of channel has no threads, so the game runs right here.")
    permissions = interaction.app_permissions
    missing = [tr(locale, name) for name, granted in (
        # Translators: Discord's name of the permission, as your language's client shows it (quoted, if
        # your language quotes such names in running text).
        (N_("Create Public Threads"), permissions.create_public_threads),
        # Translators: Discord's name of the permission, as above.
        (N_("Send Messages in Threads"), permissions.send_messages_in_threads)) if not granted]
    if missing:
        # Translators: {permissions} is one or two permission names, joined as your language lists them.
        return trn(locale, "I lack the {permissions} permission here, so the game runs in this channel.",
                   "I lack the {permissions} permissions here, so the game runs in this channel.", len(missing),
                   permissions=join(locale, missing))
    return None


#: Discord's longest display name: the host's name never pushes the table's number out of the thread's name.
MAX_HOST_NAME = 32


def thread_name(table: Table, host_name: str, locale) -> str:
    """"6 nimmt! · Alice's table · #12" (Discord allows 1–100 characters). A thread's name shows no
    markdown and pings nobody, but a right-to-left override in the host's name would reverse it."""
    return tr(locale, "6 nimmt! · {host}'s table · #{table}", host=isolated(host_name[:MAX_HOST_NAME]),
              table=table.id)[:100]


async def start_thread(client: discord.Client, service: TableService, table: Table, message_id: int,
                       host_name: str, locale) -> str | None:
    """Start the game's thread on its lobby message and tell the service; if Discord refuses,
    the game plays in its channel. Returns why not (already in ``locale``), or None."""
    minutes = TURN_BASED_ARCHIVE_MINUTES if table.options.turn_based else LIVE_ARCHIVE_MINUTES
    try:
        data = await client.http.start_thread_with_message(
            table.channel_id, message_id, name=thread_name(table, host_name, locale),
            auto_archive_duration=minutes, rate_limit_per_user=None)
    except discord.HTTPException as exc:
        log.warning("table %s: no thread could be started (%s); it plays in its channel", table.id, exc)
        why = (tr(locale, "I may not start threads here, so the game runs in this channel.")
               if isinstance(exc, discord.Forbidden) else
               tr(locale, "Discord would not start a thread just now, so the game runs in this channel."))
        await service.set_thread(table.id, None)
        return why
    await service.set_thread(table.id, int(data["id"]))
    return None


async def add_to_thread(client: discord.Client, table: Table, user_id: int) -> None:
    """Add a player to the game's thread, so it shows in their sidebar. Anyone can open it from
    the channel anyway, so a refusal is only logged."""
    if table.thread_id is None:
        return
    try:
        await client.http.add_user_to_thread(table.thread_id, user_id)
    except (discord.HTTPException, OSError) as exc:
        log.info("table %s: a player could not be added to its thread (%s)", table.id, exc)


class Threads(commands.Cog):
    """A game's thread or channel deleted: its table ends cleanly (recorded as abandoned)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel.id)

    async def _gone(self, channel_id: int) -> None:
        if not self.service.tables_in(channel_id):
            return
        try:
            ended = await self.service.channel_gone(channel_id)
        except Exception:  # the presenter's next post there finds it gone and tries again
            log.exception("the tables of deleted channel %s could not be ended", channel_id)
            return
        log.info("channel %s was deleted: table(s) %s abandoned", channel_id, ended)
