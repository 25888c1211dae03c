"""Restart-proof buttons and selects (``DynamicItem``s) and the views that carry them.

Custom ids are compact and carry only public facts: the table id, the step
(so an earlier turn's buttons are refused) and, for the ephemeral hand only,
a card. ``from_custom_id`` only parses — discord.py drops an interaction
without a word when it raises — and every check and callback answers the
user itself.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs.errors import answer_error
from bot.tables.errors import SeatTakenOver, TableError
from cogs.i18n import N_, error_text, failure_text, tr, user_locale
from bot.tables.service import committed_change
from engine import BULLHEADS, IllegalAction, Phase

from cogs.render.text import card_label

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

PREFIX = "6n:"


def service_of(interaction: discord.Interaction) -> "TableService":
    return interaction.client.service  # type: ignore[attr-defined]


def item_view() -> discord.ui.View:
    """A view to send whose items are all ``DynamicItem``s.

    discord.py finds those by their custom id's template, so it has no use for
    the view once it is sent. Left running, it would keep it anyway, and for an
    ephemeral message (a hand, a prompt) with a 15-minute timer task: at a busy
    hour thousands of views that the collector walks again and again. A
    stopped view is sent just the same and then let go.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class TableItem:
    """Shared callback shell: run ``act``, answer rules and table errors to the user."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return True  # every refusal is answered inside the callback, never silently

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.act(interaction, service_of(interaction))
        except (TableError, IllegalAction) as exc:
            await refuse(interaction, exc)
        except Exception:
            # The class and table only: an ephemeral item's custom id may name a card of a hand.
            log.exception("%s on table %s failed", type(self).__name__, getattr(self, "table_id", "?"))
            await answer_error(interaction, failure_text(user_locale(interaction), committed_change.get()))

    async def act(self, interaction: discord.Interaction, service: "TableService") -> None:
        raise NotImplementedError


async def refuse(interaction: discord.Interaction, exc: TableError | IllegalAction) -> None:
    """Tell the user why not; a player an AI took over from may take the seat back from here."""
    locale = user_locale(interaction)
    text = error_text(locale, exc)
    if not (isinstance(exc, SeatTakenOver) and exc.can_reclaim):
        await answer_error(interaction, text)
        return
    text += " " + tr(locale, "Press **Take my seat back** to play again from the next turn.")
    view = item_view()
    view.add_item(ReclaimButton(exc.table_id, locale))
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)


class ReclaimButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=r"6n:rc:(?P<table>\d{1,18})"):
    """"Take my seat back", shown privately to a player an AI took over from (never a kicked one)."""

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(discord.ui.Button(label=tr(locale, "Take my seat back"), emoji="🪑",
                                           style=discord.ButtonStyle.success, custom_id=f"6n:rc:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def act(self, interaction, service):
        await service.reclaim_seat(self.table_id, interaction.user.id)
        await interaction.response.edit_message(view=None, content=tr(
            user_locale(interaction), "You have your seat back: you play again from the next turn on."))


LOBBY_LABELS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}


class LobbyButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"6n:l:(?P<action>join|leave|ai|start|cancel):(?P<table>\d{1,18})"):
    def __init__(self, action: str, table_id: int, locale=None) -> None:
        label, style = LOBBY_LABELS[action]
        super().__init__(discord.ui.Button(label=tr(locale, label), style=style,
                                           custom_id=f"6n:l:{action}:{table_id}"))
        self.action = action
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["action"], int(match["table"]))

    async def act(self, interaction, service):
        user = interaction.user
        if self.action == "join":
            await service.join(self.table_id, user.id, user.display_name)
        elif self.action == "leave":
            await service.leave(self.table_id, user.id)
        elif self.action == "ai":
            await service.add_ai(self.table_id, user.id)
        elif self.action == "start":
            await service.begin(self.table_id, user.id)
        else:
            can_manage = bool(getattr(user, "guild_permissions", None) and user.guild_permissions.manage_messages)
            await service.cancel(self.table_id, user.id, can_manage)
        await interaction.response.defer()  # the lobby message is updated by the presenter


class HandButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=r"6n:h:(?P<table>\d{1,18})"):
    """"Play a card" on the public table: opens a fresh ephemeral hand on every click."""

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(discord.ui.Button(label=tr(locale, "Play a card"), emoji="🃏",
                                           style=discord.ButtonStyle.primary, custom_id=f"6n:h:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def act(self, interaction, service):
        await send_hand(interaction, service, self.table_id)


async def send_hand(interaction: discord.Interaction, service: "TableService", table_id: int) -> None:
    table, seat, view = service.hand(table_id, interaction.user.id)
    locale = user_locale(interaction)
    if table.seats[seat].back_from_step > table.step:
        await answer_error(interaction, tr(locale, "You have your seat back from the next turn on: the AI's "
                                                   "choice for this turn stands."))
        return
    if view.phase is Phase.DRAFT:
        await interaction.response.send_message(draft_hand_text(view, locale), view=draft_hand_view(table, view, locale),
                                                ephemeral=True)
        return
    if view.phase is not Phase.PICK:
        await answer_error(interaction, tr(locale, "There is nothing to pick right now: {reason}",
                                           reason=tr(locale, WAITING_REASONS.get(view.phase, NEXT_TURN))))
        return
    await interaction.response.send_message(hand_text(view, locale), view=hand_view(table, view, locale),
                                            ephemeral=True)


NEXT_TURN = N_("wait for the next turn.")
WAITING_REASONS = {
    Phase.CHOOSE_ROW: N_("a player is choosing a row."), Phase.DRAFT: N_("the cards are being drafted."),
    Phase.SPECIAL: N_("a player is deciding on a special card."),
    Phase.SWAP: N_("a player who took a row may swap a special card."),
}


def hand_text(view, locale) -> str:
    """The ephemeral hand's words; an Anniversary hand lists its special cards too (only here)."""
    if view.my_pick:
        text = tr(locale, "You play **{card}** face down — you can change it until everyone has picked.",
                  card=view.my_pick)
    else:
        text = tr(locale, "**Your hand** — pick a card to play face down. Only you can see this.")
    specials = view.specials
    if not view.special_cards:
        return text
    from cogs.render.specials import new_round_text, specials_text

    return (f"{text}{new_round_text(view, locale)}\n\n{specials_text(specials, locale)}\n"
            + tr(locale, "The buttons below the cards set when I ask you about them."))


def hand_view(table, view, locale) -> discord.ui.View:
    """The cards (rows 0–2), and on row 4 the Anniversary preferences and the table's helpers."""
    buttons = item_view()
    for card in view.hand:
        buttons.add_item(PickButton(table.id, table.step, card, chosen=card == view.my_pick))
    if view.special_cards:
        from .specials import preference_view

        preference_view(table.id, table.seats[view.player].prompts, locale, buttons)
    if table.options.helpers:
        buttons.add_item(TrackerButton(table.id, locale))
    return buttons


def draft_hand_text(view, locale) -> str:
    """A Pro hand during the draft: the cards taken so far, and whose turn it is."""
    drafted = " ".join(str(c) for c in view.hand) or "—"
    text = tr(locale, "**Your drafted cards** ({count}/10): {cards}. Only you can see this message, but "
                      "everyone watched the draft.", count=len(view.hand), cards=drafted)
    if view.drafter == view.player:
        return text + "\n" + tr(locale, "**Your turn:** take a card from the face-up pool below.")
    return text + "\n" + tr(locale, "Wait for your turn to draft.")


def draft_hand_view(table, view, locale) -> discord.ui.View:
    if view.drafter != view.player:
        return discord.utils.MISSING  # no view at all (None is refused by send_message)
    return draft_selects(table, list(view.draft_pool), locale)


def draft_selects(table, pool: list[int], locale) -> discord.ui.View:
    view = item_view()
    for page in range(0, min(len(pool), 100), 25):
        view.add_item(DraftSelect(table.id, table.step, page // 25, pool[page:page + 25], locale))
    return view


class TrackerButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=r"6n:tr:(?P<table>\d{1,18})"):
    """Helpers: the played-card tracker, answered privately (it shows only what the player has seen)."""

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(discord.ui.Button(label=tr(locale, "Cards seen"), emoji="📝", row=4,
                                           style=discord.ButtonStyle.secondary, custom_id=f"6n:tr:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def act(self, interaction, service):
        from cogs.render.tracker import tracker_text

        table, seat, view = service.hand(self.table_id, interaction.user.id)
        locale = user_locale(interaction)
        if not table.options.helpers:
            await answer_error(interaction, tr(locale, "This table plays without helpers."))
            return
        await interaction.response.send_message(tracker_text(table, view, locale), ephemeral=True)


def card_style(card: int, chosen: bool) -> discord.ButtonStyle:
    if chosen:
        return discord.ButtonStyle.success
    return discord.ButtonStyle.danger if BULLHEADS[card] >= 5 else discord.ButtonStyle.secondary


class PickButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"6n:p:(?P<table>\d{1,18}):(?P<step>\d{1,9}):(?P<card>\d{1,3})"):
    """A card in an ephemeral hand; only ever sent to the hand's owner."""

    def __init__(self, table_id: int, step: int, card: int, chosen: bool = False) -> None:
        super().__init__(discord.ui.Button(label=card_label(card), style=card_style(card, chosen),
                                           custom_id=f"6n:p:{table_id}:{step}:{card}"))
        self.table_id, self.step, self.card = table_id, step, card

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), int(match["step"]), int(match["card"]))

    async def act(self, interaction, service):
        result = await service.pick(self.table_id, interaction.user.id, self.card, self.step)
        locale = user_locale(interaction)
        if result.revealed:
            await interaction.response.edit_message(view=None, content=tr(
                locale, "You played **{card}**. Everyone has picked: see the reveal in the channel.", card=self.card))
            return
        table, seat, view = service.hand(self.table_id, interaction.user.id)
        await interaction.response.edit_message(content=hand_text(view, locale), view=hand_view(table, view, locale))


class RowButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                template=r"6n:r:(?P<table>\d{1,18}):(?P<step>\d{1,9}):(?P<row>\d)"):
    """Public row choice for a low card; only the chooser may press it."""

    def __init__(self, table_id: int, step: int, row: int, cost: int = 0, locale=None) -> None:
        super().__init__(discord.ui.Button(label=tr(locale, "Row {row}", row=row + 1) + f" · {cost}🐮",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"6n:r:{table_id}:{step}:{row}"))
        self.table_id, self.step, self.row = table_id, step, row

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), int(match["step"]), int(match["row"]))

    async def act(self, interaction, service):
        # The service refuses outsiders, the engine anyone but the chooser.
        await service.choose_row(self.table_id, interaction.user.id, self.row, self.step)
        await interaction.response.defer()


class PagedSelect:
    """A select whose options are only in the message: rebuilt from the clicked one."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        made = cls(int(match["table"]), int(match["step"]), int(match["page"]))
        made.item.options = item.options
        return made


class DraftSelect(TableItem, PagedSelect, discord.ui.DynamicItem[discord.ui.Select],
                  template=r"6n:d:(?P<table>\d{1,18}):(?P<step>\d{1,9}):(?P<page>\d)"):
    """Pro draft: the face-up cards (public) in selects of at most 25 options."""

    def __init__(self, table_id: int, step: int, page: int, cards: list[int] | None = None, locale=None) -> None:
        cards = cards or []
        options = [discord.SelectOption(label=card_label(c), value=str(c)) for c in cards] or [
            discord.SelectOption(label="—", value="0")]
        low, high = (cards[0], cards[-1]) if cards else (0, 0)
        super().__init__(discord.ui.Select(placeholder=tr(locale, "Draft a card ({low}–{high})", low=low, high=high),
                                           options=options, custom_id=f"6n:d:{table_id}:{step}:{page}"))
        self.table_id, self.step = table_id, step

    async def act(self, interaction, service):
        card = int(self.item.values[0])
        await service.draft(self.table_id, interaction.user.id, card, self.step)
        message = interaction.message
        if message is not None and message.flags.ephemeral:  # from the drafter's own hand
            await interaction.response.edit_message(view=None, content=tr(
                user_locale(interaction), "You drafted **{card}**.", card=card))
            return
        await interaction.response.defer()


class RematchButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=r"6n:m:(?P<table>\d{1,18})"):
    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(discord.ui.Button(label=tr(locale, "Rematch"), emoji="🔁", style=discord.ButtonStyle.success,
                                           custom_id=f"6n:m:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def act(self, interaction, service):
        from cogs.presenter import post_lobby  # the new lobby is the answer to the click

        table = await service.rematch(self.table_id, interaction.user.id, interaction.user.display_name)
        await post_lobby(interaction, service, table)


TABLE_ITEMS = (LobbyButton, HandButton, PickButton, RowButton, DraftSelect, RematchButton, ReclaimButton,
               TrackerButton)


def lobby_view(table, locale) -> discord.ui.View:
    view = item_view()
    for action in LOBBY_LABELS:
        view.add_item(LobbyButton(action, table.id, locale))
    return view


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
        from .specials import DecideButton  # it imports this module's TableItem

        view.add_item(DecideButton(table.id, table.step, locale))
    elif phase is Phase.DRAFT:
        return draft_selects(table, public.draft_pool, locale)
    else:
        return None
    return view


def rematch_view(table_id: int, locale) -> discord.ui.View:
    view = item_view()
    view.add_item(RematchButton(table_id, locale))
    return view
