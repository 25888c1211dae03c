"""pytest fixture: import it into a test module or conftest (`from tests.standin import discord_standin`).

A test (or a module, with ``pytestmark``) marked ``@pytest.mark.discord_rate_limits`` gets a
stand-in that holds the bot to Discord's rate limits (ratelimits.py); the e2e ``world`` fixture
reads the same mark."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from .api import DiscordStandin

RATE_LIMITS_MARK = "discord_rate_limits"


def wants_rate_limits(request: pytest.FixtureRequest) -> bool:
    """Whether the requesting test is marked ``discord_rate_limits``."""
    return request.node.get_closest_marker(RATE_LIMITS_MARK) is not None


@pytest_asyncio.fixture
async def discord_standin(request: pytest.FixtureRequest) -> AsyncIterator[DiscordStandin]:
    """A running stand-in on a free loopback port, closed (and discord.py un-patched) afterwards."""
    async with DiscordStandin(rate_limits=wants_rate_limits(request)) as standin:
        yield standin
