"""The bot behind an interaction, typed: the cogs reach its services through ``bot_of``.

discord.py types ``interaction.client`` as any ``discord.Client``; the cogs run only in
``SixNimmtBot`` (``bot.app``), and this says so once, where it is checked.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.app import SixNimmtBot
from bot.tables.service import TableService


def bot_of(interaction: discord.Interaction) -> SixNimmtBot:
    """The bot that received ``interaction``."""
    client = interaction.client
    if not isinstance(client, SixNimmtBot):
        raise TypeError(f"the cogs run in a SixNimmtBot, not in a {type(client).__name__}")
    return client


def service_of(interaction: discord.Interaction) -> TableService:
    """The table service of the bot that received ``interaction``."""
    return bot_of(interaction).tables


@dataclass(frozen=True)
class Place:
    """Where an interaction came from, as a table there needs it."""

    scope_id: int  # whose board its games count for: the server, or a private channel itself
    channel_id: int
    server_id: int | None  # None: a private channel (a group DM, the bot's DM)
    carried: bool  # the bot is not a member there: only interactions reach it, never its token

    @property
    def private(self) -> bool:
        return self.server_id is None


def place_of(interaction: discord.Interaction) -> Place:
    """Where ``interaction`` came from: a server that added the bot (its token reaches the channel), a
    server that did not (the app used by a member who installed it to their account), or a private
    channel. ``authorizing_integration_owners`` names the server only where the server installed it."""
    channel_id = channel_id_of(interaction)
    guild_id = interaction.guild_id
    if guild_id is not None:
        return Place(guild_id, channel_id, guild_id, carried=not interaction.is_guild_integration())
    return Place(channel_id, channel_id, None, carried=True)


def scope_id_of(interaction: discord.Interaction) -> int:
    """The board the place ``interaction`` came from counts its games on (``Place.scope_id``)."""
    return place_of(interaction).scope_id


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel ``interaction`` came from (Discord names one for every command and click)."""
    if interaction.channel_id is None:
        raise RuntimeError(f"interaction {interaction.id} came from no channel")
    return interaction.channel_id
