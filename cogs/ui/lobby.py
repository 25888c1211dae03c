"""The lobby's buttons (join, leave, add AI, start, cancel) and the Rematch that opens a new lobby."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord

from cogs.client import bot_of, channel_id_of
from cogs.i18n import N_, tr
from cogs.presenting.carriers import carriers_of
from cogs.render.settings import settings_lines
from cogs.reply import Answer, Reply
from cogs.threads import game_thread_parent

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
        parent = game_thread_parent(interaction)
        if parent is not None:
            # Pressed in a finished game's thread: the lobby goes to the channel, and the answer, only
            # the player's, says where (even if the save is slow and the answer deferred). That answer
            # waits for the lobby's post with the bot's token: deferred at once, it never hangs on a
            # busy moment's timer.
            reply.answer = Answer.EPHEMERAL
            await reply.defer()
        async with lobby_answer(reply, parent if parent is not None else channel_id_of(interaction)):
            await service.rematch(self.table_id, interaction.user.id, interaction.user.display_name, threads=threads)


def lobby_view(table, locale) -> discord.ui.View:
    view = item_view()
    for action in LOBBY_LABELS:
        view.add_item(LobbyButton(action, table.id, locale))
    return view


def rematch_view(table_id: int, locale) -> discord.ui.View:
    view = item_view()
    view.add_item(RematchButton(table_id, locale))
    return view


@contextlib.asynccontextmanager
async def lobby_answer(reply: Reply, channel_id: int, why: str | None = None) -> AsyncIterator[None]:
    """Around the service opening a lobby in ``channel_id`` for the user of ``reply``'s interaction:
    the presenter shows the lobby (committed with the table) as this interaction's answer, or, from
    another channel, in ``channel_id`` with a link as the answer; ``why``: why the game has no
    thread, told to the opener alone. Waits until it is shown, or until the answer is deferred (the
    presenter answers later through the interaction's token)."""
    carriers = carriers_of(reply.interaction.client)
    if carriers is None:  # the tables' cog is unloading: the next start shows the lobby
        yield
        await reply.defer()
        return
    user_id = reply.interaction.user.id
    opening = carriers.openings.expect(user_id, channel_id, reply, why)
    try:
        yield
    finally:
        carriers.openings.withdraw(user_id, opening)  # the lobby's commit claimed it, or none was opened
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(opening.done.wait(), reply.defer_after + 0.5)
    if not opening.done.is_set():
        await reply.defer()  # nothing if it was answered: the presenter answers through its token


def server_lines(client, guild_id: int | None, locale) -> list[str]:
    """The server's settings that differ from the bot's defaults, for the lobby."""
    if guild_id is None:
        return []
    return settings_lines(locale, client.server_settings.differences(guild_id))
