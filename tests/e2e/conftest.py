"""The real bot (its commands.Bot, cogs and discord.py code paths) against the Discord stand-in."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import discord
import pytest

from bot.app import SixNimmtBot
from bot.config import Settings
from data import Store
from tests.bot.conftest import FakeClock
from tests.e2e.driver import live_table, play_game
from tests.standin import DiscordStandin
from tests.standin.fixtures import wants_rate_limits, window_scale


class World:
    """One server with a games channel, a host, a friend and an intruder."""

    def __init__(self, standin: DiscordStandin, tmp_path, locale: str = "en-US", bob_locale: str | None = None) -> None:
        """``locale``: the server's and its members' Discord language; bob may speak another."""
        self.standin = standin
        self.tmp_path = tmp_path
        self.guild = standin.add_guild("Bullpen", locale=locale)
        self.channel = standin.add_text_channel(self.guild, "games")
        self.alice = standin.add_member(
            self.guild, "alice", locale=locale, permissions=discord.Permissions(manage_messages=True)
        )
        self.bob = standin.add_member(self.guild, "bob", locale=bob_locale or locale)
        self.carol = standin.add_member(self.guild, "carol", locale=locale)
        self.clock = FakeClock()
        self.bot: SixNimmtBot | None = None
        # Most tests play in the channel itself (a server may turn threads off); test_threads.py
        # plays each game in a thread of its own, the bot's default.
        self.threads = False
        #: Opens the bot's store when set (a test's own thresholds); else the bot opens the settings'.
        self.open_store: Callable[[], Awaitable[Store]] | None = None

    def settings(self) -> Settings:
        return Settings(
            discord_token=self.standin.token, database_path=self.tmp_path / "bot.sqlite3", threads=self.threads
        )

    @contextlib.asynccontextmanager
    async def running_bot(self):
        store = await self.open_store() if self.open_store is not None else None
        bot = SixNimmtBot(self.settings(), clock=self.clock, store=store)
        async with self.standin.running(bot):
            await bot.tree.sync()
            await self.standin.wait_for_commands("6nimmt", "leaderboard")
            bot.get_cog("Tables").presenter.live.edit_interval = 0  # tests wait for every edit anyway
            self.bot = bot
            yield bot
        self.bot = None

    async def settle(self) -> None:
        """Let the presenter finish showing every update."""
        cog = self.bot.get_cog("Tables")
        await cog.presenter.idle()

    def public(self, channel=None):
        return self.standin.channel_messages(channel or self.channel)

    def table_message(self, channel=None):
        """The live table message in the games channel, or in ``channel`` (a game's thread); see
        ``driver.live_table``."""
        return live_table(self.standin, channel or self.channel)

    async def play(self, players, channel=None, **options):
        """``players`` play the game in the games channel, or in ``channel`` (a game's thread), to its
        standings (or to ``until``): ``driver.play_game``, the bot settled before each move."""
        return await play_game(self.standin, channel or self.channel, players, settle=self.settle, **options)


@pytest.fixture
async def world(request, tmp_path):
    """``@pytest.mark.discord_rate_limits``: the stand-in holds the bot to Discord's rate limits (their
    route windows shortened, see ``tests.standin.fixtures.WINDOW_SCALE``)."""
    async with DiscordStandin(rate_limits=wants_rate_limits(request), window_scale=window_scale(request)) as standin:
        yield World(standin, tmp_path)
