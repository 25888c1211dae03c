"""Every text the Discord face shows, in the reader's language: gettext catalogs, one lookup.

The English text is the source (the msgid); each language is a gettext catalog,
``cogs/i18n/locales/<language>/LC_MESSAGES/messages.po``, extracted from the code
into ``locales/messages.pot`` (see ``extract.py`` and the README's "Languages" part for the
commands). How to use it (everything the Discord face shows goes through one of these):

* ``tr(locale, "Game #{id} is over.", id=7)`` — the text in ``locale``,
  ``str.format``-ed with the fields. Public messages use ``public_locale(interaction)``
  (the server's language), ephemeral ones ``user_locale(interaction)``.
* ``trn(locale, "{count} game", "{count} games", n, count=number(locale, n))`` — a text that
  counts: the language's plural rule picks the form (English and German two, Polish,
  Russian and Ukrainian three, Japanese one).
* ``N_("text")`` — marks a text defined before any locale is known (a module
  constant, a label table) for the catalog; translate it later with ``tr``.
  ``Nn_(singular, plural, "field")`` marks a counted one for a ``Text`` of ``bot/``.
* ``number(locale, 2.5, 2)``, ``percent(locale, 0.45)``, ``join(locale, names)`` — figures and
  lists as the language writes them ("2,50", "45 %", "a, b und c"); ``items(locale, parts)`` a
  run of items without "and" ("17, 23", "17、23").
* ``render(locale, text)`` — a ``bot.text.Text`` (what the table service's errors
  and notices carry: English templates and fields) in ``locale``;
  ``error_text(locale, exc)`` — a refused action (``TableError`` or the engine's
  ``IllegalAction``) as the user is told it.
* Command, group, option and choice names and descriptions are translated by
  ``CatalogTranslator`` (set on the tree in ``setup_hook``): write them in English as
  usual; the extractor reads them from the command tree itself, names with the
  msgctxt ``command name``.

Give ``tr``, ``trn`` and ``N_`` the English text as a literal, never an f-string (values go
in as keyword fields), so the extractor finds every text; a ``# Translators:`` comment on
the line before the call goes into the template for the translator.
tests/ops/test_i18n.py fails for a text a catalog lacks or words with other fields.
Discord's locales without a catalog of their own fall back in ``language_of`` (``es-419`` → ``es``,
``sv-SE`` → ``sv``, ``en-GB`` → English).
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import string
from collections.abc import Iterable
from pathlib import Path

import discord
from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from discord import app_commands

from bot.tables.errors import TableError
from bot.tables.text import N_, ChannelMention, Mention, Name, Plural, Template, Text
from cogs.render.names import shown_name
from data.models import ResultRow, SeatInfo, forgotten
from engine import (
    CardNotInHand,
    IllegalAction,
    IllegalSpecial,
    InvalidRow,
    NotYourTurn,
    RowBlocked,
    SpecialNotInHand,
    UnknownPlayer,
    WrongPhase,
)

log = logging.getLogger(__name__)

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"
#: The source language, which has no catalog: its texts are the msgids.
ENGLISH = "en"
#: The msgctxt of a command, group or option name (Discord's rules for names apply to it).
COMMAND_NAME = "command name"
#: How English writes figures and lists: the British pattern keeps "a, b and c", as before.
ENGLISH_FORMATS = Locale.parse("en_GB")
NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)

LocaleLike = discord.Locale | str | None


# --------------------------------------------------------------------------- the catalogs


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages with a catalog ("de", ...), English not among them: it is the source."""
    return tuple(sorted(po.parent.parent.name for po in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po")))


class _Missing(gettext.NullTranslations):
    """The last fallback of a catalog: logs a text it lacks and gives the English."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language

    def gettext(self, message: str) -> str:
        log.warning("no %s translation for %r", self.language, message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        log.warning("no %s translation for %r", self.language, msgid1)
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        log.warning("no %s translation for %r (%s)", self.language, message, context)
        return message


@functools.cache
def translations(language: str) -> gettext.GNUTranslations:
    """``language``'s catalog, compiled from its .po when first used.

    Compiled in memory at start-up rather than shipped as a .mo: the .po that translators
    edit is the only copy, so a binary can never lag behind it, and no build step is needed
    (a few milliseconds a language). Fuzzy entries are left out, as ``msgfmt`` does.
    """
    with (LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    compiled_translations = gettext.GNUTranslations(compiled)
    compiled_translations.add_fallback(_Missing(language))
    return compiled_translations


def language_of(locale: LocaleLike) -> str:
    """The catalog a Discord locale (or a language code) reads: the whole tag if a catalog has it
    (``pt-BR`` → ``pt_BR``, ``zh-TW`` → ``zh_TW``), else its language's (``es-419`` and ``es-ES`` →
    ``es``, ``sv-SE`` → ``sv``), else that language's one regional catalog (``pt`` → ``pt_BR``), else
    ``ENGLISH`` (``en-GB``, ``en-US`` and every language without a catalog)."""
    key = locale.value if isinstance(locale, discord.Locale) else str(locale or "")
    return _language_of(key, languages())


@functools.lru_cache(maxsize=256)
def _language_of(key: str, available: tuple[str, ...]) -> str:
    # Cached: every text looked up asks it (Discord has some thirty locales).
    tag = key.replace("-", "_")
    if tag in available:
        return tag
    base = tag.split("_", 1)[0].lower()
    if base in available:
        return base
    regional = [language for language in available if language.split("_", 1)[0] == base]
    return regional[0] if regional else ENGLISH


#: Where CLDR's name of a language in itself is not what its speakers read in a language menu
#: (CLDR: "Indonesia", the country's name; Discord's own menu: "Bahasa Indonesia").
AUTONYMS = {"id": "Bahasa Indonesia"}


def language_name(language: str) -> str:
    """A catalog's language in its own words, as a language menu shows it ("Deutsch", "English")."""
    if language in AUTONYMS:
        return AUTONYMS[language]
    name = Locale.parse(ENGLISH if language == ENGLISH else language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


def formats_of(locale: LocaleLike) -> Locale:
    """Babel's locale for writing figures and lists in ``locale``'s language."""
    language = language_of(locale)
    return ENGLISH_FORMATS if language == ENGLISH else Locale.parse(language)


# --------------------------------------------------------------------------- looking texts up


def _translations_for(locale: LocaleLike) -> gettext.NullTranslations | None:
    language = language_of(locale)
    return None if language == ENGLISH else translations(language)


def _format(template: str, fields: dict) -> str:
    # Only with fields: a template without any may hold braces.
    return template.format(**fields) if fields else template


def lookup(locale: LocaleLike, text: str) -> str | None:
    """The catalog's translation of ``text`` for ``locale``, or None if it has none (or is English)."""
    found = _translations_for(locale)
    if found is None:
        return None
    return _entry(found, text)


def _entry(found: gettext.NullTranslations, key: str) -> str | None:
    """The catalog's own entry for ``key`` (a msgid, or ``context\\x04msgid`` as gettext keys a
    msgctxt), without the English fallback: None if it has none."""
    entry = getattr(found, "_catalog", {}).get(key)
    return entry if isinstance(entry, str) else None


def tr(locale: LocaleLike, text: str, /, **fields) -> str:
    """``text`` in ``locale`` (English when the catalog lacks it), formatted with ``fields``."""
    found = _translations_for(locale)
    return _format(found.gettext(text) if found else text, fields)


def trn(locale: LocaleLike, singular: str, plural: str, n: int, /, **fields) -> str:
    """The form of ``singular``/``plural`` that ``locale``'s plural rule gives for ``n``, formatted
    with ``fields`` (pass the count as a field, written with ``number``)."""
    found = _translations_for(locale)
    template = found.ngettext(singular, plural, n) if found else (singular if n == 1 else plural)
    return _format(template, fields)


def command_name(locale: LocaleLike, name: str) -> str:
    """A command or option name as ``locale``'s Discord client shows it (for messages that cite one)."""
    found = _translations_for(locale)
    return found.pgettext(COMMAND_NAME, name) if found else name


def number(locale: LocaleLike, value: float, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals, as ``locale``'s language writes it ("2.50", "2,50")."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=formats_of(locale))


def percent(locale: LocaleLike, ratio: float) -> str:
    """A ratio as a whole percentage ("45%", "45 %")."""
    return format_percent(ratio, locale=formats_of(locale))


def join(locale: LocaleLike, parts: Iterable[str]) -> str:
    """A list as ``locale``'s language writes it ("a, b and c", "a, b und c", "a、b和c").

    A catalog words its own lists: CLDR's patterns, which Babel has, are the formal written ones
    ("a, b 및 c" in Korean, "a、b和c" with no space before a Latin name in Chinese), where a
    player reads the language's everyday joining. English keeps CLDR's British pattern.
    """
    listed = list(parts)
    if language_of(locale) == ENGLISH or len(listed) < 2:
        return format_list(listed, locale=ENGLISH_FORMATS)
    # Translators: joins the last two items of a list of names, cards or rows ("Anna, Bartek and
    # Chloé", "17 and 23"); the items before it are joined with the separator ", " (its own entry).
    # Use the everyday word players write in chat, with the spacing your language puts around a
    # Latin name or a digit.
    return tr(locale, "{first} and {second}", first=items(locale, listed[:-1]), second=listed[-1])


def items(locale: LocaleLike, parts: Iterable[str]) -> str:
    """A run of items that takes no "and" (the cards revealed, a row's markers, standings), with
    the language's separator ("17, 23", "17、23")."""
    # Translators: the separator between the items of a list without "and" (the cards a turn
    # revealed, standings): ", " in English, "、" in Japanese and Chinese.
    return tr(locale, ", ").join(parts)


def render(locale: LocaleLike, text: Text) -> str:
    """A ``Text`` from ``bot/`` (an error's or a notice's) in ``locale``."""

    def translate(template: Template, fields: dict) -> str:
        shown = {key: markup(value) for key, value in fields.items()}
        if isinstance(template, Plural):
            return trn(locale, template.singular, template.plural, fields[template.counted], **shown)
        return tr(locale, template, **shown)

    return text.render(translate)


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


#: What a forgotten player's seats read in past games' standings, history and charts. The store
#: keeps English there (``data.models.DELETED_PLAYER_NAME``); each reader sees it in their words.
# Translators: shown in place of the name of a player who asked the bot to forget them, in past
# games' standings, history and score charts ("3. deleted player 42🐮"); lowercase where your
# language allows, as it stands mid-line.
DELETED_PLAYER = N_("deleted player")  # the stored English, DELETED_PLAYER_NAME (a test holds them equal)


def past_seat_name(locale: LocaleLike, seat: SeatInfo | ResultRow) -> str:
    """The name a past game's seat is shown by: its player's, or the reader's words for "deleted
    player" where that player was forgotten."""
    return tr(locale, DELETED_PLAYER) if forgotten(seat) else seat.display_name


def failure_text(locale: LocaleLike, changed: bool) -> str:
    """What a user is told when something failed on our side; ``changed``: their action was saved first."""
    if changed:
        return tr(
            locale,
            "Your action was saved, but something went wrong on our side while answering it. "
            "The table message shows where the game stands.",
        )
    return tr(locale, "Something went wrong on our side; nothing was changed. Please try again.")


def store_down_text(locale: LocaleLike, move: bool) -> str:
    """What a user is told when the database could not be reached and nothing was saved.

    ``move``: the user played or changed something at a table (a click); otherwise a command or a
    click that asked for something.
    """
    if move:
        return tr(
            locale,
            "Your move could not be saved because the database is not reachable right now; "
            "nothing was changed. Please try again in a moment.",
        )
    return tr(
        locale,
        "That did not go through because the database is not reachable right now; nothing was "
        "changed. Please try again in a moment.",
    )


def error_text(locale: LocaleLike, error: TableError | IllegalAction) -> str:
    """What a user is told about a refused action, in ``locale``."""
    if isinstance(error, TableError):
        return render(locale, error.text)
    template = next(ILLEGAL_ACTION_TEXTS[kind] for kind in type(error).__mro__ if kind in ILLEGAL_ACTION_TEXTS)
    return lookup(locale, template) or str(error)


# --------------------------------------------------------------------------- whose language


def server_locale(client: discord.Client, guild_id: int | None) -> LocaleLike:
    """The language of a server's public messages: the one it chose in ``/6nimmt-admin settings``,
    else its Discord ``preferred_locale`` (None when neither is known: English)."""
    if guild_id is None:
        return None
    book = getattr(client, "server_settings", None)
    chosen = book.cached(guild_id).language if book is not None else None
    if chosen is not None:
        return chosen
    guild = client.get_guild(guild_id)
    return guild.preferred_locale if guild is not None else None


def public_locale(interaction: discord.Interaction) -> LocaleLike:
    """The language of a message everyone in the channel sees: the server's (the user's own outside one)."""
    if interaction.guild_id is None:
        return interaction.locale
    return server_locale(interaction.client, interaction.guild_id) or interaction.guild_locale or interaction.locale


def user_locale(interaction: discord.Interaction) -> discord.Locale:
    """The language of a message only the user sees: their own Discord language."""
    return interaction.locale


def fields_of(text: str) -> set[str]:
    """The ``str.format`` field names in ``text`` (a translation must keep exactly these)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class CatalogTranslator(app_commands.Translator):
    """Gives Discord every command's, option's and choice's name and description in each language
    with a catalog (Discord's locales fall back as ``language_of`` says)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        found = _translations_for(locale)
        if found is None:
            return None
        if context.location in NAME_LOCATIONS:
            translated = _entry(found, f"{COMMAND_NAME}\x04{string.message}")
        else:
            translated = _entry(found, string.message)
        if translated is None:
            log.warning("no %s translation for %s %r", language_of(locale), context.location.name, string.message)
        return translated
