"""Pro: the face-up draft pool, in selects of at most 25 cards (public, and in the drafter's hand)."""

from __future__ import annotations

import discord

from cogs.i18n import tr, user_locale
from cogs.render.text import card_label

from .base import IdFormat, PagedSelect, digits, item_view


class DraftSelect(
    PagedSelect,
    discord.ui.DynamicItem[discord.ui.Select],
    template=IdFormat("6n:d:{table_id}:{step}:{page}", page=digits(1)),
):
    """Pro draft: the face-up cards (public) in selects of at most 25 options."""

    def __init__(self, table_id: int, step: int, page: int, cards: list[int] | None = None, locale=None) -> None:
        cards = cards or []
        options = [discord.SelectOption(label=card_label(c), value=str(c)) for c in cards] or [
            discord.SelectOption(label="—", value="0")
        ]
        low, high = (cards[0], cards[-1]) if cards else (0, 0)
        # Translators: a select menu's placeholder (at most 150 characters).
        super().__init__(
            discord.ui.Select(
                placeholder=tr(locale, "Draft a card ({low}–{high})", low=low, high=high),
                options=options,
                custom_id=self.id_format.build(table_id=table_id, step=step, page=page),
            )
        )
        self.table_id, self.step = table_id, step

    async def act(self, interaction, service, reply):
        card = int(self.item.values[0])
        await service.draft(self.table_id, interaction.user.id, card, self.step)
        message = interaction.message
        if message is not None and message.flags.ephemeral:  # from the drafter's own hand
            await reply.edit(view=None, content=tr(user_locale(interaction), "You drafted **{card}**.", card=card))
            return
        await reply.acknowledge()


def draft_selects(table, pool: list[int], locale) -> discord.ui.View:
    view = item_view()
    for page in range(0, min(len(pool), 100), 25):
        view.add_item(DraftSelect(table.id, table.step, page // 25, pool[page : page + 25], locale))
    return view
