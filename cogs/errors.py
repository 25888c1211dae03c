"""The one place every app-command error is answered, and the short ephemeral reply all cogs use.

Loaded first of the extensions: ``cog_load`` installs the handler on ``bot.tree``
(and the translator that words the commands in German for a sync), so the
process shell in ``bot/`` starts the client without knowing the face's wording.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables.errors import TableError
from bot.tables.service import committed_change
from cogs.i18n import CatalogTranslator, error_text, failure_text, tr, user_locale
from engine import IllegalAction
from bot.app import SixNimmtBot


log = logging.getLogger(__name__)


async def answer_error(interaction: discord.Interaction, message: str) -> None:
    """Tell only the user what went wrong, whether or not the interaction was answered yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s what went wrong", interaction.user.id)


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
    else:
        log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                  exc_info=original)
        message = failure_text(locale, committed_change.get())
    await answer_error(interaction, message)


class ErrorReplies(commands.Cog):
    """Installs the tree's error handler and translator; puts the old ones back when unloaded."""

    def __init__(self, bot: SixNimmtBot) -> None:
        self.bot = bot
        self._old_on_error = None

    async def cog_load(self) -> None:
        tree = self.bot.tree
        self._old_on_error = tree.on_error
        tree.on_error = on_app_command_error
        await tree.set_translator(CatalogTranslator())  # German names and descriptions for the sync

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._old_on_error
        await self.bot.tree.set_translator(None)


async def setup(bot: SixNimmtBot) -> None:
    await bot.add_cog(ErrorReplies(bot))
