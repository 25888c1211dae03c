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

#: The route buckets' windows in the tests, against Discord's: a tenth (five messages a channel per
#: 0.5 s rather than 5 s). The counts, the headers and the bot's keeping to them are Discord's;
#: only the waiting is shorter. A test that needs Discord's own windows says so:
#: ``@pytest.mark.discord_rate_limits(window_scale=1.0)``.
WINDOW_SCALE = 0.1


def wants_rate_limits(request: pytest.FixtureRequest) -> bool:
    """Whether the requesting test is marked ``discord_rate_limits``."""
    return request.node.get_closest_marker(RATE_LIMITS_MARK) is not None


def window_scale(request: pytest.FixtureRequest) -> float:
    """The route windows' scale the requesting test's mark asks for (``WINDOW_SCALE`` unless it says)."""
    mark = request.node.get_closest_marker(RATE_LIMITS_MARK)
    return float(mark.kwargs.get("window_scale", WINDOW_SCALE)) if mark is not None else 1.0


@pytest_asyncio.fixture
async def discord_standin(request: pytest.FixtureRequest) -> AsyncIterator[DiscordStandin]:
    """A running stand-in on a free loopback port, closed (and discord.py un-patched) afterwards."""
    async with DiscordStandin(rate_limits=wants_rate_limits(request), window_scale=window_scale(request)) as standin:
        yield standin
