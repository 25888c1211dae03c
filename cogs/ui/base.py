"""Restart-proof buttons and selects (``DynamicItem``s) and the views that carry them.

Custom ids are compact and carry only public facts: the table id, the step
(so an earlier turn's buttons are refused) and, for the ephemeral hand only,
a card. ``from_custom_id`` only parses — discord.py drops an interaction
without a word when it raises — and every check and callback answers the
user itself.
"""

from __future__ import annotations

import logging

import discord

from bot.tables.errors import SeatTakenOver, StaleButton, TableError
from bot.tables.service import TableService
from bot.tables.table import Table, TableStatus
from cogs.client import bot_of, service_of
from cogs.errors import answer_error, failure_message
from cogs.i18n import error_text, tr, user_locale
from cogs.presenting.clicks import Click, Clicks
from cogs.render.links import message_link
from cogs.reply import Answer, Reply
from data.errors import StoreUnavailable
from engine import IllegalAction

log = logging.getLogger(__name__)

PREFIX = "6n:"


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
    """Shared callback shell: run ``act`` answering in time, answer rules and table errors to the user.

    ``act`` answers through its ``Reply``, which defers the interaction the way ``answer``
    says if a slow save keeps the answer past Discord's deadline.
    """

    #: How this item's click is answered (and so deferred when the answer is slow).
    answer = Answer.EDIT
    #: Whether a click makes a move (saves something); a click that only reads says so when the store is away.
    moves = True
    #: Whether the item is on a lobby message, which the presenter edits through its newest click.
    on_lobby = False

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return True  # every refusal is answered inside the callback, never silently

    async def callback(self, interaction: discord.Interaction) -> None:
        registered = self._register(interaction)
        acted = False
        try:
            async with Reply(interaction, self.answer) as reply:
                await self.act(interaction, service_of(interaction), reply)
            acted = True
        except (TableError, IllegalAction) as exc:
            await refuse(interaction, exc, getattr(self, "table_id", None))
        except Exception as exc:
            # The class and table only: an ephemeral item's custom id may name a card of a hand.
            if isinstance(exc, StoreUnavailable):
                log.warning(
                    "%s on table %s: the database is not reachable (%s)",
                    type(self).__name__,
                    getattr(self, "table_id", "?"),
                    exc,
                )
            else:
                log.exception("%s on table %s failed", type(self).__name__, getattr(self, "table_id", "?"))
            await answer_error(interaction, failure_message(user_locale(interaction), exc, move=self.moves))
        finally:
            if registered is not None:
                clicks, table_id, click = registered
                if not acted:  # a refused or failed click changes nothing, not even who carries posts
                    clicks.refused(table_id, click)
                click.settle()

    def _register(self, interaction: discord.Interaction) -> tuple[Clicks, int, Click] | None:
        """A click that makes a move on a table may carry the table's next messages (``Clicks``):
        registered before it is acted on, so that the reveal it brings finds it."""
        table_id = getattr(self, "table_id", None)
        presenter = getattr(bot_of(interaction).get_cog("Tables"), "presenter", None)
        if not self.moves or table_id is None or presenter is None:
            return None
        clicks: Clicks = presenter.clicks
        return clicks, table_id, clicks.clicked(table_id, interaction, on_lobby=self.on_lobby)

    async def act(self, interaction: discord.Interaction, service: TableService, reply: Reply) -> None:
        raise NotImplementedError


def moved_on(interaction: discord.Interaction, table: Table | None) -> str | None:
    """ "The table has moved on: <link>" when the click was on a message that no longer shows
    ``table`` (a newer one superseded it and is never edited back), else None."""
    clicked = interaction.message
    if (
        table is None
        or not table.is_open
        or table.message_id is None
        or clicked is None
        or clicked.id == table.message_id
    ):
        return None
    where = table.channel_id if table.status is TableStatus.LOBBY else table.home_id
    return tr(
        user_locale(interaction),
        "The table has moved on: {link}",
        link=message_link(table.guild_id, where, table.message_id),
    )


async def refuse(
    interaction: discord.Interaction, exc: TableError | IllegalAction, table_id: int | None = None
) -> None:
    """Tell the user why not; a player an AI took over from may take the seat back from here; a
    button of an earlier turn points at the table's newest message."""
    locale = user_locale(interaction)
    text = error_text(locale, exc)
    if isinstance(exc, StaleButton) and table_id is not None:
        link = moved_on(interaction, service_of(interaction).registry.find(table_id))
        text = f"{text}\n{link}" if link else text
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
    """ "Take my seat back", shown privately to a player an AI took over from (never a kicked one)."""

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=tr(locale, "Take my seat back"),
                emoji="🪑",
                style=discord.ButtonStyle.success,
                custom_id=f"6n:rc:{table_id}",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def act(self, interaction, service, reply):
        await service.reclaim_seat(self.table_id, interaction.user.id)
        await reply.edit(
            view=None,
            content=tr(user_locale(interaction), "You have your seat back: you play again from the next turn on."),
        )


class PagedSelect:
    """A select whose options are only in the message: rebuilt from the clicked one."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        made = cls(int(match["table"]), int(match["step"]), int(match["page"]))
        made.item.options = item.options
        return made
