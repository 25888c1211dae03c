"""The persistent buttons and selects (discord.py DynamicItems) and the views they sit in.

Each item's custom id matches its ``template`` and carries only what it needs
(table id, step, and in a hand's ephemeral message a card), so a click after
a restart is parsed again and answered. ``ITEMS`` is every one of them, as
the tables cog registers them with the bot.
"""

from .base import PREFIX, ReclaimButton, TableItem, item_view, refuse
from .draft import DraftSelect
from .hand import HandButton, HintButton, PickButton, RemindButton, TrackerButton, send_hand
from .lobby import LobbyButton, RematchButton, lobby_answer, lobby_view, rematch_view
from .specials import SPECIAL_ITEMS
from .table import RowButton, table_view

TABLE_ITEMS = (
    LobbyButton,
    HandButton,
    PickButton,
    RowButton,
    DraftSelect,
    RematchButton,
    ReclaimButton,
    TrackerButton,
    HintButton,
    RemindButton,
)
ITEMS = TABLE_ITEMS + SPECIAL_ITEMS

__all__ = [
    "ITEMS",
    "PREFIX",
    "SPECIAL_ITEMS",
    "TABLE_ITEMS",
    "TableItem",
    "item_view",
    "lobby_view",
    "lobby_answer",
    "refuse",
    "rematch_view",
    "send_hand",
    "table_view",
]
