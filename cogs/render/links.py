"""Jump links: where on Discord a message, a channel or a game is."""

from __future__ import annotations

from bot.tables.table import Table


def message_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link to message ``message_id`` in ``channel_id`` (a thread is a channel too); without a
    message (its id not known yet, or none meant), to the channel. ``guild_id`` None: a private
    channel (a group DM), which Discord's links name "@me"."""
    where = f"https://discord.com/channels/{guild_id if guild_id is not None else '@me'}/{channel_id}"
    return where if message_id is None else f"{where}/{message_id}"


def table_link(table: Table) -> str:
    """Where the game is shown: its newest table message, else its channel (or thread)."""
    return message_link(table.server_id, table.channel_of(table.message_id), table.message_id)
