"""The lobby's buttons (join, leave, add AI, start, cancel) and the Rematch that opens a new lobby."""

from __future__ import annotations


import discord

from bot.tables.table import Table
from cogs.i18n import N_, public_locale, tr
from cogs.render.text import lobby_embed

from cogs.reply import Answer, Reply

from .base import TableItem, item_view
from bot.tables.service import TableService


LOBBY_LABELS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}


class LobbyButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"6n:l:(?P<action>join|leave|ai|start|cancel):(?P<table>\d{1,18})"):
    def __init__(self, action: str, table_id: int, locale=None) -> None:
        label, style = LOBBY_LABELS[action]
        super().__init__(discord.ui.Button(label=tr(locale, label), style=style,
                                           custom_id=f"6n:l:{action}:{table_id}"))
        self.action = action
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["action"], int(match["table"]))

    async def act(self, interaction, service, reply):
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
        await reply.acknowledge()  # the lobby message is updated by the presenter


class RematchButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=r"6n:m:(?P<table>\d{1,18})"):
    answer = Answer.PUBLIC  # the new lobby is the answer

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(discord.ui.Button(label=tr(locale, "Rematch"), emoji="🔁", style=discord.ButtonStyle.success,
                                           custom_id=f"6n:m:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def act(self, interaction, service, reply):
        table = await service.rematch(self.table_id, interaction.user.id, interaction.user.display_name)
        await post_lobby(reply, service, table)


def lobby_view(table, locale) -> discord.ui.View:
    view = item_view()
    for action in LOBBY_LABELS:
        view.add_item(LobbyButton(action, table.id, locale))
    return view


def rematch_view(table_id: int, locale) -> discord.ui.View:
    view = item_view()
    view.add_item(RematchButton(table_id, locale))
    return view


async def post_lobby(reply: Reply, service: TableService, table: Table) -> None:
    """Answer the interaction with the public lobby (as committed) and remember its message."""
    interaction = reply.interaction
    locale = public_locale(interaction)
    shown = table.committed.table
    message_id = await reply.send(embed=lobby_embed(shown, locale), view=lobby_view(shown, locale), ephemeral=False)
    message_id = message_id or (await interaction.original_response()).id
    if not await service.set_message(table.id, message_id, lobby=True):
        # The game began (or the lobby closed) before Discord told us this message's id,
        # so nothing else knows to take its buttons away.
        await interaction.edit_original_response(embed=lobby_embed(table.committed.table, locale), view=None)
