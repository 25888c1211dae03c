"""Which table a ``/6nimmt`` command means, and the ``table`` option's autocomplete.

A channel may hold several games (each in a thread of its own, and one in the
channel itself). A command used in a game's thread means that game; in the
channel it means the one open table there, or the one the user picked from the
``table`` option's list. The option's value is only a wish: it must name one of
the tables open where the command was used, so a stale or forged id changes
nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord import app_commands

from bot.tables.errors import NoTable, TableError
from bot.tables.table import Table, TableStatus
from bot.tables.text import Nn_
from cogs.client import channel_id_of
from cogs.i18n import N_, tr, user_locale
from cogs.presenting.carriers import carriers_of
from cogs.render.names import isolated
from cogs.ui.base import service_of
from engine import Variant

log = logging.getLogger(__name__)

#: Discord's limits for an autocomplete answer.
MAX_CHOICES = 25
MAX_NAME = 100

#: The ``table`` option's help, shown by every command that takes it.
TABLE_HELP = N_("Which game (only needed when this channel has several)")

SHORT_VARIANTS = {Variant.CLASSIC: N_("Classic"), Variant.PRO: N_("Pro"), Variant.ANNIVERSARY: N_("Anniversary")}


class NoSuchTable(NoTable):
    """The ``table`` option names no game open where the command was used."""

    def __init__(self) -> None:
        super().__init__(
            N_("That game is not open in this channel; nothing was changed. Choose one from the `table` option's list.")
        )


class ChooseTable(TableError):
    """Several games are open here and the command did not say which."""

    def __init__(self, count: int) -> None:
        super().__init__(
            Nn_(
                "This channel has {count} open game: choose one with the `table` option.",
                "This channel has {count} open games: choose one with the `table` option.",
                "count",
            ),
            count=count,
        )


def table_option(choices=None):
    """The optional ``table`` option (its parameter ``table_id``) with its help and autocomplete
    (``choices``: ``table_choices`` by default, ``lobby_choices`` for join)."""

    def decorate(command):
        command = app_commands.autocomplete(table_id=choices or table_choices)(command)
        command = app_commands.describe(table_id=TABLE_HELP)(command)
        return app_commands.rename(table_id="table")(command)

    return decorate


def table_for(
    interaction: discord.Interaction, table_id: int | None, mine: Callable[[Table, int], bool] | None = None
) -> Table:
    """The table the command means: ``table_id`` if it is open where the command was used, else
    the only one there, else the only one that is ``mine(table, user_id)`` (the one the user sits
    at, or hosts: asking which would have one answer). Raises ``NoTable`` (none here, or not that
    one) or ``ChooseTable``. A table only players' interactions reach takes the command as a click
    that may carry its next messages (``Clicks.command``)."""
    table = _table_for(interaction, table_id, mine)
    carriers = carriers_of(interaction.client)
    if table.carried and carriers is not None:
        carriers.clicks.command(table.id, interaction)
    return table


def _table_for(
    interaction: discord.Interaction, table_id: int | None, mine: Callable[[Table, int], bool] | None
) -> Table:
    tables = service_of(interaction).tables_in(channel_id_of(interaction))
    if table_id is not None:
        for table in tables:
            if table.id == table_id:
                return table
        raise NoSuchTable()
    if not tables:
        raise NoTable(N_("There is no open 6 nimmt! table here. Start one with `/6nimmt start`."))
    if len(tables) > 1 and mine is not None:
        own = [t for t in tables if mine(t, interaction.user.id)]
        if len(own) == 1:
            return own[0]
    if len(tables) > 1:
        raise ChooseTable(len(tables))
    return tables[0]


def seated(table: Table, user_id: int) -> bool:
    return table.has_user(user_id)


def hosted(table: Table, user_id: int) -> bool:
    return table.host_id == user_id


def joinable(table: Table, user_id: int) -> bool:
    return table.status is TableStatus.LOBBY and not table.has_user(user_id)


def choice_name(table: Table, locale) -> str:
    """``#12 · Alice's table · Classic · lobby 3/10`` (or ``… · playing, round 2``), at most 100 characters."""
    if table.status is TableStatus.LOBBY:
        state = tr(locale, "lobby {seated}/{most}", seated=len(table.seats), most=table.options.max_players)
    elif table.game is not None and table.game.round:
        state = tr(locale, "playing, round {round}", round=table.game.round)
    else:
        state = tr(locale, "playing")
    whose = tr(locale, "{name}'s table", name=isolated(table.host_name))
    name = " · ".join((f"#{table.id}", whose, tr(locale, SHORT_VARIANTS[table.options.variant]), state))
    if len(name) > MAX_NAME:  # a long host name gives way; the id and the state stay readable
        cut = len(name) - MAX_NAME + 1
        whose = whose[: max(len(whose) - cut, 1)] + "…"
        name = " · ".join((f"#{table.id}", whose, tr(locale, SHORT_VARIANTS[table.options.variant]), state))
    return name[:MAX_NAME]


def matches(table: Table, name: str, typed: str) -> bool:
    """What the user typed so far: part of the choice's name, or the start of the table's number."""
    typed = typed.strip().lower()
    return not typed or typed in name.lower() or str(table.id).startswith(typed.lstrip("#"))


def choices(interaction: discord.Interaction, typed, *, lobbies_first: bool = False) -> list[app_commands.Choice[int]]:
    """The open tables where the command is being typed, filtered by ``typed`` (no I/O: it answers
    within Discord's three seconds however busy the database is)."""
    locale = user_locale(interaction)
    tables = [t.as_committed() for t in service_of(interaction).tables_in(channel_id_of(interaction))]
    if lobbies_first:  # a stable sort: oldest first within each kind
        tables.sort(key=lambda t: t.status is not TableStatus.LOBBY)
    found = []
    for table in tables:
        name = choice_name(table, locale)
        if matches(table, name, str(typed or "")):
            found.append(app_commands.Choice(name=name, value=table.id))
        if len(found) == MAX_CHOICES:
            break
    return found


def _never_raising(lobbies_first: bool):
    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        try:
            return choices(interaction, current, lobbies_first=lobbies_first)
        except Exception:  # an autocomplete that raises shows the user nothing at all
            log.exception("the table choices could not be listed in channel %s", interaction.channel_id)
            return []

    return autocomplete


#: The ``table`` option's autocomplete (never raises: an empty list at worst), and join's, lobbies first.
table_choices = _never_raising(lobbies_first=False)
lobby_choices = _never_raising(lobbies_first=True)
