"""English and German: one catalog, looked up by the Discord locale.

The English text is the key; ``cogs/i18n/de.py`` maps it to German. How to
use it (everything the Discord face shows goes through one of these):

* ``tr(locale, "Game #{id} is over.", id=7)`` — the text in ``locale``,
  ``str.format``-ed with the fields. Public messages use ``public_locale(interaction)``
  (the server's language), ephemeral ones ``user_locale(interaction)``.
* ``N_("text")`` — marks a text defined before any locale is known (a module
  constant, a label table) for the catalog; translate it later with ``tr``.
* ``render(locale, text)`` — a ``bot.text.Text`` (what the table service's errors
  and notices carry: English templates and fields) in ``locale``;
  ``error_text(locale, exc)`` — a refused action (``TableError`` or the engine's
  ``IllegalAction``) as the user is told it.
* Command, group, option and choice names and descriptions are translated by
  ``CatalogTranslator`` (set on the tree in ``setup_hook``): write them in
  English as usual; names come from ``NAMES``, everything else from ``MESSAGES``.

Give ``tr`` and ``N_`` the English text as a literal, never an f-string (values go
in as keyword fields), so tests/ops/test_i18n.py can find every text: it fails for
a marked text or a command string with no German entry or with other fields.
A message with no interaction (the presenter's) uses the guild's ``preferred_locale``.
Any locale without a catalog gets English.
"""

from __future__ import annotations

import logging
import string

import discord
from discord import app_commands

from engine import (
    CardNotInHand, IllegalAction, IllegalSpecial, InvalidRow, NotYourTurn, RowBlocked, SpecialNotInHand,
    UnknownPlayer, WrongPhase,
)

from . import de as locale_de
from bot.tables.errors import TableError
from bot.tables.text import N_, ChannelMention, Mention, Name, Text
from cogs.render.names import shown_name

log = logging.getLogger(__name__)

#: Discord locale → (names, messages). Only German so far.
CATALOGS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    discord.Locale.german.value: (locale_de.NAMES, locale_de.MESSAGES),
}
NAME_LOCATIONS = frozenset({
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
})


def _locale_key(locale: discord.Locale | str | None) -> str:
    return locale.value if isinstance(locale, discord.Locale) else str(locale or "")


def lookup(locale: discord.Locale | str | None, text: str) -> str | None:
    """The catalog's translation of ``text`` for ``locale``, or None if it has none."""
    catalog = CATALOGS.get(_locale_key(locale))
    return catalog[1].get(text) if catalog else None


def tr(locale: discord.Locale | str | None, text: str, /, **fields) -> str:
    """``text`` in ``locale`` (English when the catalog lacks it), formatted with ``fields``."""
    catalog = CATALOGS.get(_locale_key(locale))
    translated = catalog[1].get(text) if catalog else None
    if catalog and translated is None:
        log.warning("no %s translation for %r", _locale_key(locale), text)
    return (translated or text).format(**fields) if fields else (translated or text)


def render(locale: discord.Locale | str | None, text: Text) -> str:
    """A ``Text`` from ``bot/`` (an error's or a notice's) in ``locale``."""
    return text.render(lambda template, fields: tr(locale, template, **{
        key: markup(value) for key, value in fields.items()}))


def markup(value):
    """A field as Discord shows it: a user or channel id as its mention, a player's name as text
    (never markup, never a mention), anything else as it is."""
    if isinstance(value, Name):
        return shown_name(value)
    if isinstance(value, Mention):
        return f"<@{int(value)}>"
    if isinstance(value, ChannelMention):
        return f"<#{int(value)}>"
    return value


#: The engine words its refusals in English with details ("58 is not in your hand"); a
#: reader of another language gets the refusal's kind in their words (most specific class first).
ILLEGAL_ACTION_TEXTS: dict[type, str] = {
    SpecialNotInHand: N_("You do not hold that special card."),
    CardNotInHand: N_("You cannot play that card."),
    RowBlocked: N_("A Stop blocks that row."),
    InvalidRow: N_("You cannot choose that row."),
    NotYourTurn: N_("It is not your turn."),
    WrongPhase: N_("That is not possible right now."),
    UnknownPlayer: N_("You are not playing in this game."),
    IllegalSpecial: N_("The rules do not allow that special card here."),
    IllegalAction: N_("The rules do not allow that right now."),
}


def failure_text(locale: discord.Locale | str | None, changed: bool) -> str:
    """What a user is told when something failed on our side; ``changed``: their action was saved first."""
    if changed:
        return tr(locale, "Your action was saved, but something went wrong on our side while answering it. "
                          "The table message shows where the game stands.")
    return tr(locale, "Something went wrong on our side; nothing was changed. Please try again.")


def store_down_text(locale: discord.Locale | str | None, move: bool) -> str:
    """What a user is told when the database could not be reached and nothing was saved.

    ``move``: the user played or changed something at a table (a click); otherwise a command or a
    click that asked for something.
    """
    if move:
        return tr(locale, "Your move could not be saved because the database is not reachable right now; "
                          "nothing was changed. Please try again in a moment.")
    return tr(locale, "That did not go through because the database is not reachable right now; nothing was "
                      "changed. Please try again in a moment.")


def error_text(locale: discord.Locale | str | None, error: TableError | IllegalAction) -> str:
    """What a user is told about a refused action, in ``locale``."""
    if isinstance(error, TableError):
        return render(locale, error.text)
    template = next(ILLEGAL_ACTION_TEXTS[kind] for kind in type(error).__mro__ if kind in ILLEGAL_ACTION_TEXTS)
    return lookup(locale, template) or str(error)


def public_locale(interaction: discord.Interaction) -> discord.Locale:
    """The language of a message everyone in the channel sees: the server's."""
    return interaction.guild_locale or interaction.locale


def user_locale(interaction: discord.Interaction) -> discord.Locale:
    """The language of a message only the user sees: their own Discord language."""
    return interaction.locale


def fields_of(text: str) -> set[str]:
    """The ``str.format`` field names in ``text`` (a translation must keep exactly these)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the German names and descriptions of every command, option and choice."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        catalog = CATALOGS.get(locale.value)
        if catalog is None:
            return None
        names, messages = catalog
        table = names if context.location in NAME_LOCATIONS else messages
        translated = table.get(string.message)
        if translated is None:
            log.warning("no %s translation for %s %r", locale.value, context.location.name, string.message)
        return translated
