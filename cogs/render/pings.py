"""Whom a table's public message pings: the players it calls on purpose, nobody else.

The client pings nobody by default (``bot/app.py``). A table's message that means to call
players writes their mentions itself (``seat_name``, a ``Mention`` field of a notice, the reminder
line): the player a decision waits on, those who owe a turn-based move, a player told that the
bot played for them or that an AI took their seat, the winners. ``table_pings`` lets exactly those
mentions ping: the users the content mentions who sit (or sat) at the table. A name a player
chose is never a mention (``names.shown_name``), and nobody outside the table is pinged, whatever
the content holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

from bot.tables.table import Table

#: A user mention as Discord reads it from content (docs/reference.md, "Message Formatting").
USER_MENTION = re.compile(r"<@!?(\d+)>")


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly ``user_ids`` (where the content mentions them): no role,
    no @everyone or @here, not a replied-to author."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(user_id) for user_id in sorted(set(user_ids))],
    )


def table_pings(table: Table, content: str | None) -> discord.AllowedMentions:
    """The allowed mentions for a message of ``table`` saying ``content``: its players mentioned there."""
    players = {seat.user_id for seat in table.seats if seat.user_id is not None}
    return pinging(user_id for user_id in map(int, USER_MENTION.findall(content or "")) if user_id in players)
