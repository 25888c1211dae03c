"""Starting the Discord client: the one place ``bot/`` touches discord."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from data import open_store
from data.store import Store
from engine import IllegalAction

from .config import Settings
from .errors import TableError
from .service import ServiceDefaults, TableService

log = logging.getLogger(__name__)

#: Cogs loaded by ``setup_hook``; each is a discord.py extension in ``cogs/``.
EXTENSIONS: tuple[str, ...] = ("cogs.tables", "cogs.stats")  # stats adds to the /6nimmt group


class SixNimmtTree(app_commands.CommandTree):
    """Every app-command error reaches the user as a short ephemeral message."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, (TableError, IllegalAction)):
            message = str(original)
        elif isinstance(error, app_commands.CheckFailure):
            message = "You cannot use that command here."
        elif isinstance(error, app_commands.TransformerError):
            message = f"That value does not work: {error.value!r}."
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=original)
            message = "Something went wrong on our side; nothing was changed. Please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report an error to user %s", interaction.user.id)


class SixNimmtBot(commands.Bot):
    """A thin bot: ``setup_hook`` opens the store, starts the table service and loads the cogs."""

    def __init__(self, settings: Settings, *, store: Store | None = None,
                 clock: Callable[[], float] = time.time, ai=None, **options) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # slash commands and buttons need no privileged intents
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=SixNimmtTree, **options)
        self.settings = settings
        self._store = store
        self._clock = clock
        self._ai = ai
        self.service: TableService | None = None

    async def setup_hook(self) -> None:
        store = self._store or await open_store(self.settings.database_path)
        self.service = TableService(
            store, clock=self._clock, ai=self._ai,
            defaults=ServiceDefaults(lobby_minutes=self.settings.lobby_minutes,
                                     replacement_ai_level=self.settings.default_ai_level),
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        corrupt = await self.service.start()  # after the cogs, so restored tables are shown
        if corrupt:
            log.warning("%d table(s) could not be restored; see the errors above", len(corrupt))

    async def close(self) -> None:
        if self.service is not None:
            await self.service.close()
            for extension in list(self.extensions):
                await self.unload_extension(extension)
            await self.service.store.close()
            self.service = None
        await super().close()


def run(settings: Settings) -> int:
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    bot = SixNimmtBot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (it is on your application's Bot page)")
        return 1
    return 0
