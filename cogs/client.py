"""The bot behind an interaction, typed: the cogs reach its services through ``bot_of``.

discord.py types ``interaction.client`` as any ``discord.Client``; the cogs run only in
``SixNimmtBot`` (``bot.app``), and this says so once, where it is checked.
"""

from __future__ import annotations

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


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server ``interaction`` came from. /6nimmt is guild-only and the tables' buttons are in servers'
    channels, so Discord always names it; a bug that lets one through fails here, answered as a failure."""
    if interaction.guild_id is None:
        raise RuntimeError(f"interaction {interaction.id} came from no server")
    return interaction.guild_id


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel ``interaction`` came from (Discord names one for every command and click)."""
    if interaction.channel_id is None:
        raise RuntimeError(f"interaction {interaction.id} came from no channel")
    return interaction.channel_id
