"""Sending the slash commands to Discord: on request only, never on every start-up.

Discord rate-limits syncs and a global sync takes up to an hour to show, so the
bot syncs only when told: ``python -m bot --sync [GUILD_ID|dev]`` or the owner's
``/6nimmt-admin sync``. A guild sync shows at once (for development).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger(__name__)


class SyncTargetError(ValueError):
    """A ``--sync`` value that names no guild; ``str()`` is the one line to show."""


def parse_sync_target(value: str | None, dev_guild_ids: list[int]) -> list[int] | None:
    """``None``/"global" → None (global); "dev" → DEV_GUILD_IDS; "<id>[,<id>…]" → those guilds."""
    if value is None or value == "global":
        return None
    if value == "dev":
        if not dev_guild_ids:
            raise SyncTargetError("--sync dev: DEV_GUILD_IDS is empty; set it or give a guild id")
        return list(dev_guild_ids)
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if not parts or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise SyncTargetError(f"--sync: {value!r} is not a guild id (a number), 'dev' or 'global'")
    return [int(part) for part in parts]


async def sync_commands(bot: commands.Bot, guild_ids: list[int] | None) -> list[tuple[int | None, int]]:
    """Sync globally (``None``) or to each guild; returns (guild id or None, commands synced).

    The player commands may be installed to users too; Discord refuses the whole sync if the
    application does not allow that (its Installation page), so they are then sent for servers only."""
    info = await bot.application_info()
    narrowed: list[tuple[Any, app_commands.AppInstallationType]] = []  # (a command or a group, its installs)
    if info.user_integration_config is None:
        for command in bot.tree.get_commands():
            installs = getattr(command, "allowed_installs", None)
            if installs is not None and installs.user:
                narrowed.append((command, installs))
                command.allowed_installs = app_commands.AppInstallationType(guild=installs.guild, user=False)
        if narrowed:
            log.warning(
                "the application cannot be installed to users (tick User Install on its Installation page "
                "in the developer portal): the commands are synced for servers only"
            )
    try:
        if guild_ids is None:
            return [(None, len(await bot.tree.sync()))]
        synced: list[tuple[int | None, int]] = []
        for guild_id in guild_ids:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)  # the global commands, shown in this guild at once
            synced.append((guild_id, len(await bot.tree.sync(guild=guild))))
        return synced
    finally:
        for command, installs in narrowed:
            command.allowed_installs = installs


def describe_sync(results: list[tuple[int | None, int]]) -> list[str]:
    return [
        f"synced {count} command(s) globally (Discord shows them everywhere within an hour)"
        if guild is None
        else f"synced {count} command(s) to guild {guild} (they show there at once)"
        for guild, count in results
    ]
