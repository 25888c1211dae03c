"""The one place every app-command error is answered, and the short ephemeral reply all cogs use.

Loaded first of the extensions: ``cog_load`` installs the handler on ``bot.tree``
(and the translator that words the commands in German for a sync), so the
process shell in ``bot/`` starts the client without knowing the face's wording.
Its listener answers the clicks discord.py would drop without a word: a custom
id of ours that is not on the clicked message or that no item parses. The cogs
register their restart-proof items here (``add_items``), so that one listener
knows them all.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SixNimmtBot
from bot.tables.errors import TableError
from bot.tables.service import committed_change
from cogs.i18n import CatalogTranslator, error_text, failure_text, store_down_text, tr, user_locale
from data.errors import StoreUnavailable
from engine import IllegalAction

log = logging.getLogger(__name__)

#: A restart-proof item class (its custom id is matched by its template).
DynamicItemType = type[discord.ui.DynamicItem[Any]]


async def answer_error(interaction: discord.Interaction, message: str) -> None:
    """Tell only the user what went wrong, whether or not the interaction was answered yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s what went wrong", interaction.user.id)


def failure_message(locale, error: BaseException, *, move: bool) -> str:
    """What a user is told about an unexpected failure: the truth about what was saved.

    The database away before anything was saved says so (``move``: a move at a table, else a
    command); a failure after a change was committed says that it was saved.
    """
    changed = committed_change.get()
    if isinstance(error, StoreUnavailable) and not changed:
        return store_down_text(locale, move)
    return failure_text(locale, changed)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Every app-command error reaches the user as a short ephemeral message."""
    original = getattr(error, "original", error)
    locale = user_locale(interaction)
    if isinstance(original, (TableError, IllegalAction)):
        message = error_text(locale, original)
    elif isinstance(error, app_commands.CheckFailure):
        message = tr(locale, "You cannot use that command here.")
    elif isinstance(error, app_commands.TransformerError):
        message = tr(locale, "That value does not work: {value}.", value=repr(error.value))
    elif isinstance(original, StoreUnavailable):
        log.warning(
            "command %s: the database is not reachable (%s)",
            interaction.command and interaction.command.qualified_name,
            original,
        )
        message = failure_message(locale, original, move=False)
    else:
        log.error("command %s failed", interaction.command and interaction.command.qualified_name, exc_info=original)
        message = failure_message(locale, original, move=False)
    await answer_error(interaction, message)
    interaction.client.dispatch("app_command_refused", interaction)  # answered: the cogs may act on it


def on_message(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether the clicked message carries ``custom_id`` (discord.py ignores a click on one it does not)."""
    message = interaction.message
    return message is not None and any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", [row])
    )


class ErrorReplies(commands.Cog):
    """Installs the tree's error handler and translator; puts the old ones back when unloaded.

    Also answers clicks on our custom ids that no registered item would get.
    """

    def __init__(self, bot: SixNimmtBot) -> None:
        self.bot = bot
        self._old_on_error: Callable[..., Coroutine[Any, Any, Any]] | None = None
        # custom-id prefix -> (what a click on an invalid id of it is told, the items registered for it)
        self.items: dict[str, tuple[str, tuple[DynamicItemType, ...]]] = {}

    async def cog_load(self) -> None:
        _replies[self.bot] = self
        tree = self.bot.tree
        self._old_on_error = tree.on_error
        tree.error(on_app_command_error)
        await tree.set_translator(CatalogTranslator())  # German names and descriptions for the sync

    async def cog_unload(self) -> None:
        _replies.pop(self.bot, None)
        if self._old_on_error is not None:
            self.bot.tree.error(self._old_on_error)
        await self.bot.tree.set_translator(None)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer clicks discord.py would drop silently: ids of ours not on the message, or unknown."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        for prefix, (invalid, items) in self.items.items():
            if not custom_id.startswith(prefix):
                continue
            known = any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)
            if not (known and on_message(interaction, custom_id)):
                await answer_error(interaction, tr(user_locale(interaction), invalid))
            return


#: Each bot's ErrorReplies, while it is loaded (cogs.errors loads first): its items are added there.
_replies: weakref.WeakKeyDictionary[commands.Bot, ErrorReplies] = weakref.WeakKeyDictionary()


def add_items(bot: commands.Bot, prefix: str, invalid: str, items: tuple[DynamicItemType, ...]) -> None:
    """Register a cog's restart-proof items, whose custom ids start with ``prefix``.

    ``invalid`` (marked with ``N_``) is what a click on an id of that prefix is told when no item
    would answer it. cogs.errors is loaded first, so its listener is there.
    """
    bot.add_dynamic_items(*items)
    replies = _replies.get(bot)
    if replies is not None:
        replies.items[prefix] = (invalid, tuple(items))


def remove_items(bot: commands.Bot, prefix: str, items: tuple[DynamicItemType, ...]) -> None:
    bot.remove_dynamic_items(*items)
    replies = _replies.get(bot)
    if replies is not None:
        replies.items.pop(prefix, None)


async def setup(bot: SixNimmtBot) -> None:
    await bot.add_cog(ErrorReplies(bot))
