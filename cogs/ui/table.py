"""The public table message's items: the row choice, the Pro draft, and what the phase asks for."""

from __future__ import annotations

import discord

from cogs.i18n import tr
from engine import Phase

from .base import IdFormat, TableItem, digits, item_view
from .draft import draft_selects
from .hand import HandButton
from .specials import DecideButton


class RowButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6n:r:{table_id}:{step}:{row}", row=digits(1)),
):
    """Public row choice for a low card; only the chooser may press it."""

    def __init__(self, table_id: int, step: int, row: int, cost: int = 0, locale=None) -> None:
        # Translators: a button label (at most 70 characters), also a line's start and a word on the table picture.
        super().__init__(
            discord.ui.Button(
                label=tr(locale, "Row {row}", row=row + 1) + f" · {cost}🐮",
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_format.build(table_id=table_id, step=step, row=row),
            )
        )
        self.table_id, self.step, self.row = table_id, step, row

    async def act(self, interaction, service, reply):
        # The service refuses outsiders, the engine anyone but the chooser.
        await service.choose_row(self.table_id, interaction.user.id, self.row, self.step)
        await reply.acknowledge()


def table_view(table, locale) -> discord.ui.View | None:
    """The buttons of the current table message: Play a card, the row choice, or the draft."""
    game = table.game
    public = game.view(None)
    view = item_view()
    phase = public.phase
    if phase is Phase.PICK:
        view.add_item(HandButton(table.id, locale))
    elif phase is Phase.CHOOSE_ROW:
        for action in game.legal_actions(public.chooser):  # Anniversary: not a row behind a Stop
            view.add_item(RowButton(table.id, table.step, action.row, public.rows[action.row].bullheads, locale))
    elif phase is Phase.SPECIAL or phase is Phase.SWAP:
        view.add_item(DecideButton(table.id, table.step, locale))
    elif phase is Phase.DRAFT:
        return draft_selects(table, public.draft_pool, locale)
    else:
        return None
    return view
