"""The lobby's buttons (join, leave, add AI, start, cancel) and the Rematch that opens a new lobby."""

from __future__ import annotations

import discord

from bot.tables.service import TableService
from bot.tables.table import Table
from cogs.client import bot_of
from cogs.i18n import N_, public_locale, tr, user_locale
from cogs.render.settings import settings_lines
from cogs.render.text import lobby_embed
from cogs.reply import Answer, Reply
from cogs.threads import start_thread

from .base import IdFormat, TableItem, item_view, one_of

LOBBY_LABELS = {
    # Translators: a button label (at most 80 characters).
    "join": (N_("Join"), discord.ButtonStyle.success),
    # Translators: a button label (at most 80 characters).
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    # Translators: a button label (at most 80 characters).
    "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    # Translators: a button label (at most 80 characters).
    "start": (N_("Start"), discord.ButtonStyle.primary),
    # Translators: a button label (at most 80 characters).
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}


class LobbyButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6n:l:{action}:{table_id}", action=one_of("join", "leave", "ai", "start", "cancel")),
):
    on_lobby = True

    def __init__(self, action: str, table_id: int, locale=None) -> None:
        label, style = LOBBY_LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=tr(locale, label), style=style, custom_id=self.id_format.build(action=action, table_id=table_id)
            )
        )
        self.action = action
        self.table_id = table_id

    async def act(self, interaction, service, reply):
        await self._act(interaction, service)
        # The lobby message is updated by the presenter, through this click (answered without a message).
        await reply.acknowledge()

    async def _act(self, interaction, service):
        user = interaction.user
        if self.action == "join":
            await service.join(self.table_id, user.id, user.display_name)
        elif self.action == "leave":
            await service.leave(self.table_id, user.id)
        elif self.action == "ai":
            await service.add_ai(self.table_id, user.id)
        elif self.action == "start":
            await service.begin(self.table_id, user.id)
        else:
            can_manage = bool(getattr(user, "guild_permissions", None) and user.guild_permissions.manage_messages)
            await service.cancel(self.table_id, user.id, can_manage)


class RematchButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=IdFormat("6n:m:{table_id}")):
    answer = Answer.PUBLIC  # the new lobby is the answer

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=tr(locale, "Rematch"),
                emoji="🔁",
                style=discord.ButtonStyle.success,
                custom_id=self.id_format.build(table_id=table_id),
            )
        )
        self.table_id = table_id

    async def act(self, interaction, service, reply):
        book = bot_of(interaction).server_settings
        # a rematch button is pressed in a server; elsewhere the bot's own defaults hold
        threads = (book.cached(interaction.guild_id) if interaction.guild_id is not None else book.bot_defaults).threads
        table = await service.rematch(
            self.table_id, interaction.user.id, interaction.user.display_name, threads=threads
        )
        message_id = await post_lobby(reply, service, table)
        if table.threaded and message_id is not None:
            why = await start_thread(
                interaction.client,
                service,
                table,
                message_id,
                interaction.user.display_name,
                public_locale(interaction),
            )
            if why:
                await interaction.followup.send(why, ephemeral=True)


def lobby_view(table, locale) -> discord.ui.View:
    view = item_view()
    for action in LOBBY_LABELS:
        view.add_item(LobbyButton(action, table.id, locale))
    return view


def rematch_view(table_id: int, locale) -> discord.ui.View:
    view = item_view()
    view.add_item(RematchButton(table_id, locale))
    return view


async def post_lobby(reply: Reply, service: TableService, table: Table) -> int | None:
    """Post the public lobby (as committed) and remember its message; its id.

    It is the interaction's answer, unless the interaction came from another channel (a Rematch
    pressed in a finished game's thread): then the lobby goes to the table's channel, where its
    thread will start, and the player is told where it is."""
    interaction = reply.interaction
    locale = public_locale(interaction)
    shown = table.last_commit().table
    embed = lobby_embed(shown, locale, server=server_lines(interaction.client, table.guild_id, locale))
    view = lobby_view(shown, locale)
    message_id: int | None
    if interaction.channel_id != table.channel_id:
        channel = interaction.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        message_id = (await channel.send(embed=embed, view=view)).id
        await reply.send(
            tr(
                user_locale(interaction),
                "The new table is open: {link}",
                link=f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message_id}",
            )
        )
    else:
        message_id = await reply.send(ephemeral=False, embed=embed, view=view)
        message_id = message_id or (await interaction.original_response()).id
    if not await service.set_message(table.id, message_id, lobby=True):
        # The game began (or the lobby closed) before Discord told us this message's id,
        # so nothing else knows to take its buttons away.
        channel = interaction.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.get_partial_message(message_id).edit(
            embed=lobby_embed(table.last_commit().table, locale), view=None
        )
        return None
    return message_id


def server_lines(client, guild_id: int | None, locale) -> list[str]:
    """The server's settings that differ from the bot's defaults, for the lobby."""
    if guild_id is None:
        return []
    return settings_lines(locale, client.server_settings.differences(guild_id))
