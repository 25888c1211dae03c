"""pytest fixture: import it into a test module or conftest (`from tests.standin import discord_standin`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .api import DiscordStandin


@pytest_asyncio.fixture
async def discord_standin() -> AsyncIterator[DiscordStandin]:
    """A running stand-in on a free loopback port, closed (and discord.py un-patched) afterwards."""
    async with DiscordStandin() as standin:
        yield standin
