"""Restart-proof buttons and selects (``DynamicItem``s) and the views that carry them.

Custom ids are compact and carry only public facts: the table id, the step
(so an earlier turn's buttons are refused) and, for the ephemeral hand only,
a card. Each item declares its id where it is defined, as an ``IdFormat``
passed as its ``template``; from that one declaration the item builds its id,
discord.py matches a click, and ``TableItem.from_custom_id`` parses it back.
That only parses — discord.py drops an interaction without a word when it
raises — and every check and callback answers the user itself.
"""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.tables.errors import SeatTakenOver, StaleButton, TableError
from bot.tables.service import TableService
from bot.tables.table import Table, TableStatus
from cogs.client import service_of
from cogs.errors import answer_error, failure_message
from cogs.i18n import error_text, tr, user_locale
from cogs.presenting.carriers import carriers_of
from cogs.presenting.clicks import Click, Clicks
from cogs.render.links import message_link
from cogs.reply import Answer, Reply
from data.errors import StoreUnavailable
from engine import IllegalAction

log = logging.getLogger(__name__)

PREFIX = "6n:"


@dataclass(frozen=True)
class Part:
    """One field of a custom id: what it admits (a regular expression without groups), how its
    text becomes the value the item's constructor takes, and how that value is written."""

    pattern: str
    read: Callable[[str], Any] = str
    write: Callable[[Any], str] = str


def digits(most: int) -> Part:
    """A whole number of at most ``most`` digits."""
    return Part(r"\d" if most == 1 else rf"\d{{1,{most}}}", int)


def one_of(*words: str) -> Part:
    """One of ``words``, as written."""
    return Part("|".join(words))


TABLE = digits(18)  # a table's id
STEP = digits(9)  # the table's step the item was sent at: a click of an earlier one is refused
FLAG = Part("[01]", read=lambda text: text == "1", write=lambda value: str(int(value)))


class IdFormat:
    """An item's custom id, declared once, where the item is: ``layout`` with a ``{name}`` for each
    field, ``name`` being the parameter of the item's constructor it carries; ``parts`` says what
    each field admits (``table_id`` and ``step`` are ``TABLE`` and ``STEP`` unless given).

    From it come the template discord.py matches a click against (``pattern``), the id an item
    is sent with (``build``) and, from a matched id, the constructor's arguments (``parse``)."""

    SHARED: ClassVar[dict[str, Part]] = {"table_id": TABLE, "step": STEP}

    def __init__(self, layout: str, **parts: Part) -> None:
        pieces = list(string.Formatter().parse(layout))
        names = [name for _, name, _, _ in pieces if name is not None]
        unknown = set(parts) - set(names)
        if unknown or any(name not in parts and name not in self.SHARED for name in names):
            raise ValueError(f"the fields of {layout!r} and its parts {sorted(parts)} differ")
        self.layout = layout
        self.parts = {name: parts.get(name) or self.SHARED[name] for name in names}
        self.pattern = "".join(
            re.escape(literal) + (f"(?P<{name}>{self.parts[name].pattern})" if name is not None else "")
            for literal, name, _, _ in pieces
        )

    def build(self, **values: Any) -> str:
        """The id of the item built with ``values`` (every field's)."""
        return self.layout.format(**{name: part.write(values[name]) for name, part in self.parts.items()})

    def parse(self, match: re.Match[str]) -> dict[str, Any]:
        """The constructor's arguments for an id ``pattern`` matched."""
        return {name: part.read(match[name]) for name, part in self.parts.items()}


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
    #: The item's custom id, declared as the class's ``template``.
    id_format: ClassVar[IdFormat]

    def __init_subclass__(cls, *, template: IdFormat | None = None, **kwargs: Any) -> None:
        """An item class declares its custom id as ``template=IdFormat(...)``; discord.py gets the pattern."""
        if template is not None:
            cls.id_format = template
            kwargs["template"] = template.pattern
        super().__init_subclass__(**kwargs)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        """The item a clicked custom id stands for: its fields, read back, are the constructor's arguments."""
        return cls(**cls.id_format.parse(match))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return True  # every refusal is answered inside the callback, never silently

    async def callback(self, interaction: discord.Interaction) -> None:
        carried = self._carried(interaction)
        registered = self._register(interaction, carried is not None)
        acted = False
        try:
            async with Reply(interaction, self.answer) as reply:
                service = service_of(interaction)
                if carried is not None:  # a player is back at a game that waited to be seen: it goes on first
                    await service.seen(carried)
                await self.act(interaction, service, reply)
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
                # A refused or failed click changes nothing, not even who carries posts (but see _register).
                if not acted and carried is None:
                    clicks.refused(table_id, click)
                click.settle()

    def _carried(self, interaction: discord.Interaction) -> int | None:
        """The table clicked if only players' interactions can show it (``Table.carried``), else None."""
        table_id = getattr(self, "table_id", None)
        if table_id is None:
            return None
        table = service_of(interaction).find(table_id)
        if table is not None:
            return table_id if table.carried else None
        carriers = carriers_of(interaction.client)  # a closed table whose last news waits for a click
        return table_id if carriers is not None and carriers.clicks.only_clicks(table_id) else None

    def _register(self, interaction: discord.Interaction, carried: bool) -> tuple[Clicks, int, Click] | None:
        """A click that makes a move on a table may carry the table's next messages (``Clicks``):
        registered before it is acted on, so that the reveal it brings finds it. Where only players'
        interactions reach the table (``carried``) every click may, a refused one too: whoever made it
        is in the channel, and it may be all that is left to show the game."""
        table_id = getattr(self, "table_id", None)
        carriers = carriers_of(interaction.client)
        if not (self.moves or carried) or table_id is None or carriers is None:
            return None
        clicks = carriers.clicks
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
        link=message_link(table.server_id, where, table.message_id),
    )


async def refuse(
    interaction: discord.Interaction, exc: TableError | IllegalAction, table_id: int | None = None
) -> None:
    """Tell the user why not; a player an AI took over from may take the seat back from here; a
    button of an earlier turn points at the table's newest message."""
    locale = user_locale(interaction)
    text = error_text(locale, exc)
    if isinstance(exc, StaleButton) and table_id is not None:
        link = moved_on(interaction, service_of(interaction).find(table_id))
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


class ReclaimButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=IdFormat("6n:rc:{table_id}")):
    """ "Take my seat back", shown privately to a player an AI took over from (never a kicked one)."""

    def __init__(self, table_id: int, locale=None) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=tr(locale, "Take my seat back"),
                emoji="🪑",
                style=discord.ButtonStyle.success,
                custom_id=self.id_format.build(table_id=table_id),
            )
        )
        self.table_id = table_id

    async def act(self, interaction, service, reply):
        await service.reclaim_seat(self.table_id, interaction.user.id)
        await reply.edit(
            view=None,
            content=tr(user_locale(interaction), "You have your seat back: you play again from the next turn on."),
        )


class PagedSelect(TableItem):
    """A select whose options are only in the message: rebuilt from the clicked one."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        made = await super().from_custom_id(interaction, item, match)
        made.item.options = item.options
        return made
