"""What the face's buttons and commands hand the presenter of their bot, found by the bot itself.

discord.py builds a button's item from its custom id, with nothing passed in but the interaction,
so an item finds its bot's presenter parts here, typed, instead of looking a cog up by name.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import discord

from .clicks import Clicks
from .openings import Openings


@dataclass(frozen=True)
class Carriers:
    """The clicks that carry a table's messages, and the openings of lobbies waiting to be shown."""

    clicks: Clicks
    openings: Openings


_by_client: weakref.WeakKeyDictionary[discord.Client, Carriers] = weakref.WeakKeyDictionary()


def serve(client: discord.Client, carriers: Carriers | None) -> None:
    """``client``'s presenter parts from now on (None: its presenter stopped)."""
    if carriers is None:
        _by_client.pop(client, None)
    else:
        _by_client[client] = carriers


def carriers_of(client: discord.Client) -> Carriers | None:
    """``client``'s presenter parts, or None while no presenter serves it (loading, unloading)."""
    return _by_client.get(client)
