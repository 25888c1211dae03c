"""Fixtures for the operations tests: the service's store and clock, and a loaded command tree."""

import pytest

from bot.app import SixNimmtBot
from bot.config import Settings
from tests.bot.conftest import clock, store  # noqa: F401  (the service fixtures)


@pytest.fixture
async def tree(tmp_path):
    bot = SixNimmtBot(Settings(discord_token="x", database_path=tmp_path / "db.sqlite3"), start_tables=False)
    async with bot:
        await bot.setup_hook()  # loads every cog and sets the translator, without connecting
        yield bot.tree
        await bot.close()
