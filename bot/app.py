"""Starting the Discord client (the one place ``bot/`` touches discord)."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from .config import Settings

log = logging.getLogger(__name__)

#: Cogs loaded by ``setup_hook``; each is a discord.py extension in ``cogs/``.
EXTENSIONS: tuple[str, ...] = ()


class SixNimmtBot(commands.Bot):
    """A thin bot: its ``setup_hook`` loads the extensions, the services do the work."""

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()  # slash commands need no privileged intents
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings

    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)


def run(settings: Settings) -> int:
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    bot = SixNimmtBot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (it is on your application's Bot page)")
        return 1
    return 0
