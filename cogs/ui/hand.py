"""A player's secret hand: the public "Play a card" opens it, ephemeral, to its owner alone.

The cards' custom ids name a card, so they are only ever sent in the owner's
ephemeral message; the public buttons carry only the table id.
"""

from __future__ import annotations

import discord

from bot.tables.service import TableService
from cogs.i18n import N_, join, number, tr, user_locale
from cogs.render.specials import new_round_text, specials_text
from cogs.render.text import card_label, seat_name
from cogs.render.tracker import tracker_text
from cogs.reply import Answer, Reply
from engine import BULLHEADS, Phase

from .base import FLAG, IdFormat, TableItem, digits, item_view, moved_on
from .draft import draft_selects
from .specials import preference_view


class HandButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=IdFormat("6n:h:{table_id}")):
    """ "Play a card" on the public table: opens a fresh ephemeral hand on every click."""

    answer = Answer.EPHEMERAL

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=tr(locale, "Play a card"),
                emoji="🃏",
                style=discord.ButtonStyle.primary,
                custom_id=self.id_format.build(table_id=table_id),
            )
        )
        self.table_id = table_id

    async def act(self, interaction, service, reply):
        await send_hand(reply, service, self.table_id)


async def send_hand(reply: Reply, service: TableService, table_id: int) -> None:
    """Answer with the user's hand, privately."""
    interaction = reply.interaction
    table, seat, view = service.hand(table_id, interaction.user.id)
    locale = user_locale(interaction)
    if table.seats[seat].back_from_step > table.step:
        await reply.error(
            tr(locale, "You have your seat back from the next turn on: the AI's choice for this turn stands.")
        )
        return
    if view.phase is Phase.DRAFT:
        await reply.send(draft_hand_text(view, locale), view=draft_hand_view(table, view, locale))
        return
    link = moved_on(interaction, service.find(table_id))  # "Play a card" of an earlier turn
    if view.phase is not Phase.PICK:
        reason = tr(
            locale,
            "There is nothing to pick right now: {reason}",
            reason=tr(locale, WAITING_REASONS.get(view.phase, NEXT_TURN)),
        )
        await reply.error(f"{reason}\n{link}" if link else reason)
        return
    text = hand_text(table, view, locale)
    await reply.send(f"{link}\n{text}" if link else text, view=hand_view(table, view, locale))


NEXT_TURN = N_("wait for the next turn.")
WAITING_REASONS = {
    Phase.CHOOSE_ROW: N_("a player is choosing a row."),
    Phase.DRAFT: N_("the cards are being drafted."),
    Phase.SPECIAL: N_("a player is deciding on a special card."),
    Phase.SWAP: N_("a player who took a row may swap a special card."),
}


def hand_text(table, view, locale) -> str:
    """The ephemeral hand's words, with who has still to pick (the public table does not show it: an
    edit for each pick would cost a request against Discord's limit); an Anniversary hand lists
    its special cards too (only here)."""
    if view.my_pick:
        text = tr(
            locale, "You play **{card}** face down — you can change it until everyone has picked.", card=view.my_pick
        )
    else:
        text = tr(locale, "**Your hand** — pick a card to play face down. Only you can see this.")
    waiting = [
        seat_name(table, seat, locale) for seat, picked in enumerate(view.picked) if not picked and seat != view.player
    ]
    if waiting:
        text += "\n" + tr(locale, "Still to pick: {players}", players=join(locale, waiting))
    specials = view.specials
    if not view.special_cards:
        return text
    return f"{text}{new_round_text(view, locale)}\n\n{specials_text(specials, locale)}\n" + tr(
        locale, "The buttons below the cards set when I ask you about them."
    )


def hand_view(table, view, locale) -> discord.ui.View:
    """The cards (rows 0–2), and on row 4 the Anniversary preferences and the table's helpers
    (the coach's Hint on row 3 beside the preferences)."""
    buttons = item_view()
    for card in view.hand:
        buttons.add_item(PickButton(table.id, table.step, card, chosen=card == view.my_pick))
    if view.special_cards:
        preference_view(table.id, table.seats[view.player].prompts, locale, buttons)
    if table.options.helpers:
        buttons.add_item(TrackerButton(table.id, locale))
        # Row 4 holds the Anniversary preferences and the tracker; at most 12 cards fill rows 0-2.
        buttons.add_item(HintButton(table.id, locale, row=3 if view.special_cards else 4))
    if table.options.turn_based:
        buttons.add_item(RemindButton(table.id, not table.seats[view.player].remind_by_dm, locale))
    return buttons


def draft_hand_text(view, locale) -> str:
    """A Pro hand during the draft: the cards taken so far, and whose turn it is."""
    drafted = " ".join(str(c) for c in view.hand) or "—"
    text = tr(
        locale,
        "**Your drafted cards** ({count}/10): {cards}. Only you can see this message, but everyone watched the draft.",
        count=len(view.hand),
        cards=drafted,
    )
    if view.drafter == view.player:
        return text + "\n" + tr(locale, "**Your turn:** take a card from the face-up pool below.")
    return text + "\n" + tr(locale, "Wait for your turn to draft.")


def draft_hand_view(table, view, locale) -> discord.ui.View:
    if view.drafter != view.player:
        return discord.utils.MISSING  # no view at all (None is refused by send_message)
    return draft_selects(table, list(view.draft_pool), locale)


class RemindButton(
    TableItem, discord.ui.DynamicItem[discord.ui.Button], template=IdFormat("6n:rm:{table_id}:{dm}", dm=FLAG)
):
    """Turn-based games: the player's reminders come as a direct message (``dm``) or as a mention in
    the game's channel; the button offers the other way."""

    def __init__(self, table_id: int, dm: bool, locale=None) -> None:
        label = (
            # Translators: a button label (at most 80 characters).
            N_("Remind me by direct message")
            if dm
            # Translators: a button label (at most 80 characters).
            else N_("Remind me in the channel")
        )
        super().__init__(
            discord.ui.Button(
                label=tr(locale, label),
                emoji="🔔" if dm else "🔕",
                row=3,
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_format.build(table_id=table_id, dm=dm),
            )
        )
        self.table_id, self.dm = table_id, dm

    async def act(self, interaction, service, reply):
        await service.set_reminders(self.table_id, interaction.user.id, self.dm)
        locale = user_locale(interaction)
        said = (
            tr(locale, "Your reminders come as a direct message now.")
            if self.dm
            else tr(locale, "Your reminders come as a mention in the game's channel now.")
        )
        table, seat, view = service.hand(self.table_id, interaction.user.id)
        if view.phase is Phase.PICK:
            await reply.edit(content=f"{said}\n{hand_text(table, view, locale)}", view=hand_view(table, view, locale))
        else:
            await reply.edit(content=said, view=None)


class TrackerButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=IdFormat("6n:tr:{table_id}")):
    """Helpers: the played-card tracker, answered privately (it shows only what the player has seen)."""

    answer = Answer.EPHEMERAL
    moves = False

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=tr(locale, "Cards seen"),
                emoji="📝",
                row=4,
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_format.build(table_id=table_id),
            )
        )
        self.table_id = table_id

    async def act(self, interaction, service, reply):
        table, seat, view = service.hand(self.table_id, interaction.user.id)
        locale = user_locale(interaction)
        if not table.options.helpers:
            await reply.error(tr(locale, "This table plays without helpers."))
            return
        await reply.send(tracker_text(table, view, locale))


class HintButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=IdFormat("6n:hi:{table_id}")):
    """Helpers: the coach's hint, answered privately: what hard expects each card to cost, and its pick."""

    answer = Answer.EPHEMERAL
    moves = False

    def __init__(self, table_id: int, locale=None, row: int = 4) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=tr(locale, "Hint"),
                emoji="💡",
                row=row,
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_format.build(table_id=table_id),
            )
        )
        self.table_id = table_id

    async def act(self, interaction, service, reply):
        service.hand(self.table_id, interaction.user.id)  # refuses outsiders before the coach thinks
        await reply.defer()  # the coach thinks for tens of ms
        hint = await service.hint(self.table_id, interaction.user.id)
        await reply.send(hint_text(hint, user_locale(interaction)))


def hint_text(hint, locale) -> str:
    """The coach's estimates, cheapest first; only ever sent to the hand's owner."""
    if hint.phase is Phase.CHOOSE_ROW or hint.phase == "choose_row":
        options = [
            tr(locale, "row {row}", row=row + 1) + f" → {number(locale, cost, 1)}🐮"
            for row, cost in sorted(hint.expected, key=lambda o: o[1])
        ]
        choice = tr(locale, "row {row}", row=hint.choice + 1)
    else:
        by_cost = sorted(hint.expected, key=lambda o: o[1])
        options = [f"**{card}** → {number(locale, cost, 1)}🐮" for card, cost in by_cost]
        choice = f"**{hint.choice}**"
    return (
        tr(
            locale,
            "💡 **Coach** — what the hard AI expects each choice to cost you by the end of the round "
            "(only you see this):",
        )
        + "\n"
        + " · ".join(options)
        + "\n"
        # Translators: {choice} is the hard AI's pick: a card ("**23**") or a row ("row 3").
        + tr(locale, "It would play {choice}.", choice=choice)
    )


def card_style(card: int, chosen: bool) -> discord.ButtonStyle:
    if chosen:
        return discord.ButtonStyle.success
    return discord.ButtonStyle.danger if BULLHEADS[card] >= 5 else discord.ButtonStyle.secondary


class PickButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6n:p:{table_id}:{step}:{card}", card=digits(3)),
):
    """A card in an ephemeral hand; only ever sent to the hand's owner."""

    def __init__(self, table_id: int, step: int, card: int, chosen: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=card_label(card),
                style=card_style(card, chosen),
                custom_id=self.id_format.build(table_id=table_id, step=step, card=card),
            )
        )
        self.table_id, self.step, self.card = table_id, step, card

    async def act(self, interaction, service, reply):
        result = await service.pick(self.table_id, interaction.user.id, self.card, self.step)
        locale = user_locale(interaction)
        if result.revealed:
            await reply.edit(
                view=None,
                content=tr(
                    locale, "You played **{card}**. Everyone has picked: see the reveal in the channel.", card=self.card
                ),
            )
            return
        table, seat, view = service.hand(self.table_id, interaction.user.id)
        await reply.edit(content=hand_text(table, view, locale), view=hand_view(table, view, locale))
