"""Pointing discord.py at the stand-in, in-process or in a bot subprocess.

Kept free of aiohttp-server imports so a bot process can call apply_env_overrides() cheaply.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

API_BASE_ENV = "DISCORD_API_BASE"
GATEWAY_URL_ENV = "DISCORD_GATEWAY_URL"


def point_discord_py_at(api_base: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Patch discord.py's REST base and gateway URL; returns the old values for restoring."""
    previous = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return previous


@contextlib.contextmanager
def pointed_at(api_base: str, gateway_url: str) -> Iterator[None]:
    previous = point_discord_py_at(api_base, gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = previous


def apply_env_overrides(environ: dict[str, str] | None = None) -> bool:
    """Call at bot start-up: if DISCORD_API_BASE / DISCORD_GATEWAY_URL are set, talk to them instead.

    Returns True when an override was applied (production leaves both unset and nothing changes).
    """
    env = os.environ if environ is None else environ
    api_base, gateway = env.get(API_BASE_ENV), env.get(GATEWAY_URL_ENV)
    if not api_base and not gateway:
        return False
    point_discord_py_at(api_base or Route.BASE, gateway or str(DiscordWebSocket.DEFAULT_GATEWAY))
    return True
