"""``/6nimmt games``: the open games a player sits at on this server (or in this group DM), theirs to move first.

Read from the tables as last committed (``TableService.games_of``); answered at
once, ephemeral, in the user's language.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.tables.table import Table, TableStatus
from cogs.client import place_of
from cogs.i18n import join, tr, trn, user_locale
from cogs.render.links import table_link
from cogs.render.names import shown_name
from cogs.render.settings import pace_text
from cogs.render.text import VARIANT_NAMES
from cogs.ui.base import service_of

#: Discord's limit for a message's content.
MAX_CONTENT = 2000


def _names(table: Table, user_ids, locale) -> str:
    names = []
    for user_id in user_ids:
        seat = next((s for s in table.seats if s.user_id == user_id and not s.is_ai), None)
        names.append(shown_name(seat.name) if seat is not None else str(user_id))
    return join(locale, names)


def players_text(table: Table, locale) -> str:
    """The seats' names; an AI seat's name shows it is one, a player an AI took over from is marked."""
    return join(
        locale,
        [
            tr(locale, "{name} (AI)", name=shown_name(s.name)) if s.takeover is not None else shown_name(s.name)
            for s in table.seats
        ],
    )


def game_entry(table: Table, user_id: int, locale) -> str:
    """One game of the list: what it is, who plays, whose move it waits for, until when, and where."""
    head = f"**#{table.id}** · {tr(locale, VARIANT_NAMES[table.options.variant])} · {players_text(table, locale)}"
    owing = table.owing()
    if table.status is TableStatus.LOBBY:
        awaited = tr(
            locale, "waiting for players ({seated}/{most})", seated=len(table.seats), most=table.options.max_players
        )
    elif user_id in owing:
        awaited = tr(locale, "**your move**")
    elif owing:
        awaited = tr(locale, "waiting for {names}", names=_names(table, owing, locale))
    else:
        awaited = tr(locale, "the game is moving on")
    details = [awaited]
    if table.deadline is not None:
        details.append(tr(locale, "time runs out {when}", when=f"<t:{int(table.deadline)}:R>"))
    if table.options.turn_based:
        details.append(pace_text(locale, table.options.pace))
    return f"{head}\n{' · '.join(details)}\n{table_link(table)}"


def games_text(tables: list[Table], user_id: int, locale, limit: int = MAX_CONTENT, *, in_server: bool = True) -> str:
    """The list as one message of at most ``limit`` characters; what does not fit is counted.
    ``in_server``: asked in a server (else in a group DM or the bot's DM, whose own games it lists)."""
    if not tables:
        if not in_server:
            return tr(
                locale,
                "You are not playing at any open game here. Open one with `/6nimmt start`, "
                "or join one with `/6nimmt join`.",
            )
        return tr(
            locale,
            "You are not playing at any open game on this server. Open one with `/6nimmt start`, "
            "or join one with `/6nimmt join`.",
        )
    text = tr(locale, "Your open games on this server:") if in_server else tr(locale, "Your open games here:")
    for shown, table in enumerate(tables):
        entry = "\n\n" + game_entry(table, user_id, locale)
        # Room for this entry and, if more follow, for the line that counts those left out
        # (the entry before made room for that line with this one counted).
        rest = len(tables) - shown - 1
        if len(text) + len(entry) + (len(more_line(rest, locale)) if rest else 0) > limit:
            return text + more_line(rest + 1, locale)
        text += entry
    return text


def more_line(count: int, locale) -> str:
    return "\n\n" + trn(locale, "… and {count} more.", "… and {count} more.", count, count=count)


@app_commands.command(name="games", description="List the open games you play on this server")
async def games_command(interaction: discord.Interaction) -> None:
    locale = user_locale(interaction)
    place = place_of(interaction)
    tables = service_of(interaction).games_of(place.scope_id, interaction.user.id)
    await interaction.response.send_message(
        games_text(tables, interaction.user.id, locale, in_server=not place.private),
        ephemeral=True,
        suppress_embeds=True,
    )
