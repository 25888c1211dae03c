"""The catalogs: every text the bot shows is in every language, fits, and keeps its fields.

Texts come from one extraction, the one ``pybabel extract -F babel.cfg`` runs
(``cogs/i18n/extract.py``): every literal given to ``tr``, ``trn`` or ``N_`` in bot/ and cogs/,
and every name and description of the command tree. Each catalog under
``cogs/i18n/locales`` must translate each of them (not fuzzy), with the same ``{fields}``, the
number of plural forms its language has, command names Discord accepts and texts within
Discord's limits once filled with the longest real values. Each check is also shown to fail on
a deliberately broken entry.
"""

from __future__ import annotations

import copy
import functools
import re
import unicodedata
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

import engine
from bot.tables.errors import LobbyError
from bot.tables.lobby import TABLE_FULL
from bot.tables.text import Text
from cogs.i18n import (
    COMMAND_NAME,
    DELETED_PLAYER,
    LOCALES,
    CatalogTranslator,
    command_name,
    error_text,
    fields_of,
    join,
    language_name,
    language_of,
    languages,
    number,
    percent,
    render,
    tr,
    trn,
)
from cogs.render.names import shown_name
from cogs.render.specials import label
from data.models import DELETED_PLAYER_NAME
from engine import Special
from tests.standin.commands import command_problems, command_size

ROOT = Path(__file__).resolve().parents[2]
GERMAN = discord.Locale.german

# ---------------------------------------------------------------------------- the catalogs, read


@functools.cache
def extracted() -> Catalog:
    """What ``pybabel extract -F babel.cfg -c Translators: -s ... bot cogs`` finds, as a catalog."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog()
    for folder in ("bot", "cogs"):
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / folder,
            method_map,
            options_map,
            keywords=DEFAULT_KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        ):
            catalog.add(message, None, [(f"{folder}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def catalog_of(language: str) -> Catalog:
    return read(LOCALES / language / "LC_MESSAGES" / "messages.po", language)


def texts(catalog: Catalog) -> set[tuple[str | tuple[str, ...], str | None]]:
    return {
        (message.id if isinstance(message.id, str) else tuple(message.id), message.context)
        for message in catalog
        if message.id
    }


# ---------------------------------------------------------------------------- the checks


def name_problem(name: str) -> str | None:
    """Why Discord refuses ``name`` as a command or option name (``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``,
    lowercase where the script has case), or None."""
    if not 1 <= len(name) <= 32:
        return f"{len(name)} characters"
    if name != name.lower():
        return "not lowercase"
    for char in name:
        devanagari_or_thai = "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"
        if char not in "-_" and unicodedata.category(char)[0] not in "LN" and not devanagari_or_thai:
            return f"{char!r} is not allowed"
    return None


#: The longest value each field takes where the code fills it (a mention, a chosen name, a row of
#: cards, a link...), so a text is measured as Discord would get it at its longest.
MENTION = "<@123456789012345678>"
LONGEST_FIELDS: dict[str, str] = {
    "bull": "🐮",
    "cancelled": "55, 66, 77, 88",
    "card": "104",
    "cards": ", ".join(["104"] * 104),
    "channel": "<#123456789012345678>",
    "choice": "row 4",
    "choices": "always, saving, big, never",
    "count": "1,000",
    "deck": "28",
    "discard": "28",
    "first": "W" * 60,
    "game": "123456",
    "games": "1,000 games",
    "goal": "W" * 70,
    "high": "104",
    "host": shown_name("W" * 32),
    "hours": "24",
    "last": shown_name("W" * 32),
    "language": "Português (Brasil)",
    "left": "9",
    "level": "medium",
    "limits": "W" * 160,
    "link": "https://discord.com/channels/" + "/".join(["123456789012345678"] * 3),
    "low": "104",
    "metric": "W" * 45,
    "most": "10",
    "name": shown_name("W" * 32),
    "names": ", ".join([shown_name("W" * 32)] * 9),
    "now": "W" * 200,
    "pace": "W" * 40,
    "page": "100",
    "pages": "100",
    "permissions": "W" * 70,
    "place": "6",
    "player": MENTION,
    "players": ", ".join([MENTION] * 10),
    "points": "171",
    "problem": "W" * 150,
    "rate": "100 %",
    "rating": "-12.3",
    "reason": "W" * 80,
    "reminder": "W" * 120,
    "replacement": "104",
    "round": "99",
    "rounds": "99",
    "row": "5",
    "rows": "1, 2, 3, 4, 5",
    "seated": "10",
    "seats": "9",
    "second": "W" * 60,
    "seconds": "600",
    "sentence": "W" * 300,
    "size": "28",
    "source": "5",
    "standings": "W" * 600,
    "status": "W" * 20,
    "table": "123456",
    "target": "5",
    "text": "W" * 100,
    "thread": "<#123456789012345678>",
    "times": "999",
    "turn": "12",
    "value": "W" * 100,
    "variant": "W" * 40,
    "when": "<t:1900000000:R>",
    "where": "W" * 20,
    "why": "W" * 30,
    "winner": shown_name("W" * 32),
    "winners": ", ".join([shown_name("W" * 32)] * 10),
    "wins": "1,000",
}
MESSAGE_LIMIT = 2000


def limit_of(message) -> int:
    """The text's limit: what its translator's comment says ("a button label (at most 80 characters)",
    the budget of a label's part) or else a message's, 2,000."""
    said = " ".join(message.auto_comments)
    return min([int(n) for n in re.findall(r"at most (\d+) characters", said)] or [MESSAGE_LIMIT])


SPECIAL_CARD = "{card} is a special card's name"


def longest(text: str, message=None, language: str | None = None) -> str:
    """``text`` with every field at its longest; ``{card}`` is a number card unless the translator's
    comment says it is a special card's name (then the language's longest one)."""
    fields = fields_of(text)
    unknown = fields - set(LONGEST_FIELDS)
    assert not unknown, f"no longest value for the fields {unknown} of {text!r}: add them to LONGEST_FIELDS"
    values = {name: LONGEST_FIELDS[name] for name in fields}
    if "card" in fields and message is not None and SPECIAL_CARD in " ".join(message.auto_comments):
        values["card"] = max((label(special, language) for special in Special), key=len)
    return text.format(**values) if fields else text


def template_problems(template: Catalog) -> list[str]:
    """Problems of the English texts themselves: a plural pair whose forms have other fields, a text
    over its limit at its longest."""
    problems = []
    for message in template:
        if not message.id:
            continue
        forms = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        if len(forms) == 2 and fields_of(forms[0]) != fields_of(forms[1]):
            problems.append(f"{forms[0]!r} and {forms[1]!r} have other fields: give both the count")
        for form in forms:
            if len(longest(form, message)) > limit_of(message):
                problems.append(
                    f"{form!r}: {len(longest(form, message))} characters at its longest, over {limit_of(message)}"
                )
    return problems


def catalog_problems(template: Catalog, catalog: Catalog, language: str) -> list[str]:
    """Everything wrong with ``catalog`` against the extracted ``template``."""
    problems = []
    plurals = Catalog(locale=language).num_plurals  # the language's plural rule, from Babel's CLDR data
    if catalog.num_plurals != plurals:
        problems.append(f"{language}: the header says {catalog.num_plurals} plural forms, the language has {plurals}")
    if catalog.fuzzy:  # msgfmt and translators' tools take a fuzzy header for an unfinished catalog
        problems.append(f"{language}: the header is marked fuzzy")
    for message in template:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[1]
        here = f"{language}: {english!r}" + (f" ({message.context})" if message.context else "")
        entry = catalog.get(message.id, context=message.context)
        forms = () if entry is None else (entry.string,) if isinstance(entry.string, str) else tuple(entry.string)
        if entry is None or entry.fuzzy or not forms or not all(forms):
            problems.append(f"{here}: not translated")
            continue
        if message.pluralizable and len(forms) != plurals:
            problems.append(f"{here}: {len(forms)} plural forms, {language} has {plurals}")
        for form in forms:
            if fields_of(form) != fields_of(english):
                problems.append(f"{here}: {form!r} has the fields {sorted(fields_of(form))}")
            elif message.context == COMMAND_NAME and (why := name_problem(form)):
                problems.append(f"{here}: the name {form!r} breaks Discord's rule: {why}")
            elif len(longest(form, message, language)) > limit_of(message):
                problems.append(
                    f"{here}: {len(longest(form, message, language))} characters at its longest, "
                    f"over {limit_of(message)}"
                )
    extra = texts(catalog) - texts(template)
    problems += [f"{language}: {text!r} is not in the code any more" for text, _ in sorted(extra, key=str)]
    return problems


# ---------------------------------------------------------------------------- the template and catalogs


def test_the_extraction_finds_every_kind_of_text():
    found = texts(extracted())
    assert ("Join", None) in found  # tr(locale, "Join") in the lobby
    assert ("A Stop blocks that row.", None) in found  # N_ in a table of constants
    assert ("start", COMMAND_NAME) in found and ("ai_players", COMMAND_NAME) in found  # command and option names
    assert ("Open a table in this channel", None) in found  # a command's description
    assert ("classic", None) in found  # a choice (from a Literal)
    assert any(isinstance(text, tuple) for text, _ in found), "a plural text (trn)"
    assert len(found) > 450


def test_the_committed_template_is_the_code_s():
    """Re-extract (the README's command) when this fails: the .pot lags behind the code."""
    committed = read(LOCALES / "messages.pot")
    assert sorted(texts(extracted()) - texts(committed), key=str) == []
    assert sorted(texts(committed) - texts(extracted()), key=str) == []
    assert template_problems(extracted()) == []


def test_there_are_catalogs_and_english_is_the_source():
    assert "de" in languages() and "en" not in languages()


@pytest.mark.parametrize("language", languages())
def test_every_text_is_translated_with_its_fields_forms_and_limits(language):
    assert catalog_problems(extracted(), catalog_of(language), language) == []


def test_the_check_fails_for_a_missing_or_broken_entry():
    template = extracted()
    german = catalog_of("de")
    assert catalog_problems(template, german, "de") == []
    broken = copy.deepcopy(german)
    del broken["Join"]  # missing
    broken.get("Choose one of: {choices}.").string = "Wähle eins von: {auswahl}."
    broken.get("Decide").flags.add("fuzzy")
    plural = next(m for m in broken if m.pluralizable)
    plural.string = plural.string[:1]  # one form short
    broken.get("start", context=COMMAND_NAME).string = "Eröffnen Tisch"
    broken.get("Play a card").string = "Eine Karte spielen " + "x" * 80  # a button label over 80
    broken.add("Nobody says this any more", "Das sagt niemand mehr")
    problems = catalog_problems(template, broken, "de")
    assert "de: 'Join': not translated" in problems
    assert "de: 'Decide': not translated" in problems
    assert any("['auswahl']" in p for p in problems)
    assert any("1 plural forms, de has 2" in p for p in problems)
    assert any("Eröffnen Tisch" in p and "not lowercase" in p for p in problems)
    assert any("'Play a card'" in p and "over 80" in p for p in problems)
    assert "de: 'Nobody says this any more' is not in the code any more" in problems
    assert len(problems) == 7
    polish_header = Catalog(locale="pl")
    assert polish_header.num_plurals == 3  # the machinery knows three forms where the language has them
    assert (
        catalog_problems(template, Catalog(locale="de", header_comment="", fuzzy=False), "pl")[0]
        == "pl: the header says 2 plural forms, the language has 3"
    )
    assert "de: the header is marked fuzzy" in catalog_problems(template, Catalog(locale="de"), "de")


def test_discords_name_rule():
    assert name_problem("ki-spieler") is None and name_problem("mindestpartien") is None
    assert name_problem("名前") is None and name_problem("नाम") is None  # letters of any script; Devanagari marks
    assert name_problem("Eröffnen") == "not lowercase"
    assert name_problem("zwei wörter") == "' ' is not allowed"
    assert name_problem("x" * 33) == "33 characters"


# ---------------------------------------------------------------------------- the command tree


def discord_locales(language: str) -> list[discord.Locale]:
    """The Discord locales whose players read ``language``'s catalog (es: es-ES and es-419)."""
    return [locale for locale in discord.Locale if language_of(locale) == language]


def payload_problems(payload: dict, locale: str, path: str = "") -> list[str]:
    """Every name or description of a synced command payload that has no ``locale`` text (or a bad one)."""
    problems = []
    here = f"{path}/{payload['name']}"
    name = (payload.get("name_localizations") or {}).get(locale)
    if name is None:
        problems.append(f"{here}: no {locale} name")
    elif "choices" not in path and (why := name_problem(name)):
        problems.append(f"{here}: {name!r} breaks Discord's name rule: {why}")
    elif len(name) > 100:
        problems.append(f"{here}: {name!r} is over 100 characters")
    if "description" in payload:
        description = (payload.get("description_localizations") or {}).get(locale)
        if not description or len(description) > 100:
            problems.append(f"{here}: no {locale} description of 1 to 100 characters")
    children = payload.get("options") or []
    names = [(c.get("name_localizations") or {}).get(locale) for c in children]
    if len(set(names)) != len(names):
        problems.append(f"{here}: two options share a {locale} name: {names}")
    for child in children:
        problems += payload_problems(child, locale, here)
    for choice in payload.get("choices") or []:
        problems += payload_problems(choice, locale, here + "/choices")
    return problems


async def payloads(tree) -> list[dict]:
    return [await command.get_translated_payload(tree, tree.translator) for command in tree.get_commands()]


async def test_every_command_option_and_choice_is_localized_for_every_catalog(tree):
    found = await payloads(tree)
    assert {p["name"] for p in found} >= {"6nimmt", "leaderboard", "6nimmt-admin"}
    assert isinstance(tree.translator, CatalogTranslator)
    locales = [locale.value for language in languages() for locale in discord_locales(language)]
    assert "de" in locales
    problems = [problem for payload in found for locale in locales for problem in payload_problems(payload, locale)]
    assert problems == []


async def test_every_command_syncs_in_every_locale_within_discords_limits(tree, capsys):
    """What Discord checks on a sync (the stand-in's rules): names, 100-character descriptions, and
    4,000 characters a command with each field counted at its longest localization, every locale."""
    found = await payloads(tree)
    localized = {locale for payload in found for locale in payload.get("description_localizations") or {}}
    assert localized == {locale.value for language in languages() for locale in discord_locales(language)}
    assert [(payload["name"], problem) for payload in found for problem in command_problems(payload)] == []
    with capsys.disabled():
        print("\ncharacters of each command at its longest localization (Discord's limit: 4,000):")
        for payload in found:
            print(f"  /{payload['name']}: {command_size(payload):,}")


async def test_a_command_without_a_translation_is_reported(tree):
    from discord import app_commands

    @app_commands.command(name="untranslated", description="Not in the catalog on purpose")
    @app_commands.describe(level="Neither is this")
    async def untranslated_command(interaction: discord.Interaction, level: int) -> None: ...

    payload = await untranslated_command.get_translated_payload(tree, tree.translator)
    assert payload_problems(payload, "de") == [
        "/untranslated: no de name",
        "/untranslated: no de description of 1 to 100 characters",
        "/untranslated/level: no de name",
        "/untranslated/level: no de description of 1 to 100 characters",
    ]


@pytest.mark.parametrize("language", languages())
def test_messages_name_the_commands_as_that_language_shows_them(language):
    """A message citing `/6nimmt start` cites the names that language's Discord client lists, whatever
    the language calls the command group (`/6-qui-prend ouvrir`, `/toma6 abrir`, `/ニムト 卓を立てる`)."""
    catalog = catalog_of(language)
    problems = command_citation_problems(catalog)
    assert problems == [], f"{language}: {problems}"


#: The top-level commands: the groups and the one command of its own.
TOP_LEVEL = {"6nimmt", "6nimmt-admin", "leaderboard"}
#: A command cited in a message: "`/group sub`" or "`/command`" (an option may follow).
CITED = re.compile(r"`/([^`\s]+)(?: ([^`\s:=]+))?")


def command_citation_problems(catalog: Catalog) -> list[str]:
    names = {m.id: m.string for m in catalog if m.context == COMMAND_NAME}
    tops = {names.get(top, top) for top in TOP_LEVEL}
    problems = []
    for message in catalog:
        if not message.id or message.context == COMMAND_NAME:
            continue
        for form in [message.string] if isinstance(message.string, str) else message.string:
            for top, sub in CITED.findall(form):
                if top not in tops:
                    problems.append(f"{form!r} cites /{top}, not a command of this language")
                elif sub and top != names.get("leaderboard", "leaderboard") and sub not in names.values():
                    problems.append(f"{form!r} cites /{top} {sub}, not a subcommand of this language")
    return problems


def test_a_citation_of_the_english_command_is_found_out():
    german = catalog_of("de")
    broken = copy.deepcopy(german)
    broken.get("Choose one of: {choices}.").string = "Eröffne einen mit `/6nimmt start` oder `/sechs eröffnen`."
    assert command_citation_problems(german) == []
    assert len(command_citation_problems(broken)) == 2


# ---------------------------------------------------------------------------- the lookup


def test_tr_formats_in_german_and_falls_back_to_english(caplog):
    assert tr(GERMAN, "Choose one of: {choices}.", choices="a, b") == "Wähle eins von: a, b."
    assert tr(discord.Locale.american_english, "Choose one of: {choices}.", choices="a, b") == "Choose one of: a, b."
    assert tr("eo", "Wins") == "Wins"  # no Esperanto catalog: English
    assert tr(GERMAN, "Not in any catalog") == "Not in any catalog"
    assert "no de translation for 'Not in any catalog'" in caplog.text
    assert command_name(GERMAN, "start") == "eröffnen" and command_name(None, "start") == "start"


def test_the_forgotten_players_name_is_looked_up_as_the_store_keeps_it():
    assert DELETED_PLAYER == DELETED_PLAYER_NAME
    assert tr(GERMAN, DELETED_PLAYER) == "gelöschter Spieler"


def test_each_language_is_listed_by_the_name_its_speakers_read():
    assert language_name("de") == "Deutsch" and language_name("en") == "English"
    assert language_name("id") == "Bahasa Indonesia"  # CLDR says "Indonesia", the country
    assert language_name("zh_TW") == "中文 (繁體, 台灣)" and language_name("el") == "Ελληνικά"


def test_discords_locales_fall_back_as_their_players_expect():
    assert language_of(GERMAN) == "de" and language_of("de") == "de"
    assert language_of(discord.Locale.british_english) == language_of(discord.Locale.american_english) == "en"
    assert language_of(None) == "en" and language_of("xx-YY") == "en"
    # a regional Discord locale reads its language's catalog (Spanish, Portuguese, Chinese, once they exist)
    for regional, language in (
        ("es-419", "es"),
        ("es-ES", "es"),
        ("pt-BR", "pt_BR"),
        ("zh-CN", "zh_CN"),
        ("zh-TW", "zh_TW"),  # Traditional characters and Taiwan's words: a catalog of its own
        ("sv-SE", "sv"),
        ("no", "no"),
    ):
        assert language_of(regional) == (language if language in languages() else "en")


def test_a_regional_locale_reads_its_languages_catalog_whatever_the_catalogs_are_called(monkeypatch):
    import cogs.i18n

    monkeypatch.setattr(cogs.i18n, "languages", lambda: ("de", "es", "pt_BR", "zh_CN"))
    assert language_of(discord.Locale.brazil_portuguese) == "pt_BR" and language_of("pt") == "pt_BR"
    assert language_of(discord.Locale.taiwan_chinese) == language_of(discord.Locale.chinese) == "zh_CN"
    assert language_of(discord.Locale.latin_american_spanish) == language_of(discord.Locale.spain_spanish) == "es"
    assert language_of(discord.Locale.french) == "en"


def test_plural_forms_follow_each_language(monkeypatch):
    assert trn(None, "{count} game", "{count} games", 1, count=1) == "1 game"
    assert trn(None, "{count} game", "{count} games", 2, count=2) == "2 games"
    assert trn(GERMAN, "{count} game", "{count} games", 1, count=1) == "1 Partie"
    assert trn(GERMAN, "{count} game", "{count} games", 21, count=21) == "21 Partien"
    # Polish has three forms (1, 2-4 / 22-24, 5-21 / 25...): gettext's rule from Babel picks among them
    polish = Catalog(locale="pl")
    assert polish.num_plurals == 3 and "n%10>=2" in polish.plural_expr.replace(" ", "")


def test_figures_and_lists_are_written_as_each_language_writes_them():
    assert number(None, 2.5, 2) == "2.50" and number(GERMAN, 2.5, 2) == "2,50"
    assert number(GERMAN, 1234) == "1.234" and number(None, 1234) == "1,234"
    assert percent(None, 0.45) == "45%" and percent(GERMAN, 0.45) == "45\xa0%"
    assert join(None, ["a", "b", "c"]) == "a, b and c" and join(GERMAN, ["a", "b", "c"]) == "a, b und c"
    assert join(GERMAN, ["a"]) == "a"


def test_lists_read_as_players_write_them_not_as_cldr_s_formal_pattern():
    """Babel's CLDR patterns join with Korean's formal 및 and with no space before a Latin name in
    Chinese; each catalog words its own last join (its separator joins the rest)."""
    assert join(discord.Locale.korean, ["Anna", "Bartek", "Chloé"]) == "Anna, Bartek, Chloé"
    assert join(discord.Locale.chinese, ["Anna", "Bartek", "Chloé"]) == "Anna、Bartek 和 Chloé"
    assert join(discord.Locale.japanese, ["Anna", "Bartek"]) == "Anna、Bartek"
    assert join(GERMAN, ["Anna", "Bartek", "Chloé"]) == "Anna, Bartek und Chloé"
    assert join(discord.Locale.french, ["17", "23"]) == "17 et 23"
    assert join(None, ["Anna", "Bartek", "Chloé"]) == "Anna, Bartek and Chloé"  # CLDR's British English


def test_table_errors_and_notices_are_worded_in_the_readers_language():
    full = LobbyError(TABLE_FULL, players=4)
    assert str(full) == "The table is full (4 players)."  # logs and tests read English
    assert Text.from_data(Text(TABLE_FULL, players=1).to_data()) == Text(TABLE_FULL, players=1)  # saved with a post
    assert str(Text(TABLE_FULL, players=1)) == "The table is full (1 player)."
    assert error_text(GERMAN, full) == "Der Tisch ist voll (4 Spieler)."
    assert error_text(discord.Locale.british_english, full) == "The table is full (4 players)."
    left = Text("**{name}** left the table.", name="bob") + Text("An AI plays their seat from now on.")
    assert str(left) == "**bob** left the table. An AI plays their seat from now on."
    assert render(GERMAN, left) == "**bob** hat den Tisch verlassen. Eine KI spielt ab jetzt auf diesem Platz."


def test_every_engine_refusal_has_german_by_kind_and_english_keeps_the_detail():
    kinds, todo = [], [engine.IllegalAction]
    while todo:
        kind = todo.pop()
        kinds.append(kind)
        todo += kind.__subclasses__()
    assert {engine.CardNotInHand, engine.RowBlocked, engine.WrongPhase} <= set(kinds)
    german = {m.string for m in catalog_of("de") if m.id}
    for kind in kinds:
        refusal = error_text(GERMAN, kind("58 is not in your hand"))
        assert refusal != "58 is not in your hand" and refusal in german, kind
    assert error_text(GERMAN, engine.CardNotInHand("58 is not in your hand")) == "Diese Karte kannst du nicht spielen."
    assert error_text(GERMAN, engine.RowBlocked("row 2 is blocked")) == "Auf dieser Reihe liegt ein Stopp."
    assert (
        error_text(discord.Locale.american_english, engine.CardNotInHand("58 is not in your hand"))
        == "58 is not in your hand"
    )


# ---------------------------------------------------------------------------- what readers found


def test_command_names_are_the_words_a_native_would_type():
    """Polish players say "karty" for their hand, not "ręka", and "zapomnij o mnie"; Brazilians put the
    pronoun first (European Portuguese writes "esqueça-me"); the prompts setting names what it asks about."""
    polish, brazilian = discord.Locale.polish, discord.Locale.brazil_portuguese
    assert command_name(polish, "hand") == "karty" and command_name(polish, "forget-me") == "zapomnij-o-mnie"
    assert command_name(brazilian, "forget-me") == "me-esqueça"
    assert command_name(discord.Locale.turkish, "prompts") == "özel-kart-soruları"
    assert command_name(discord.Locale.russian, "prompts") == "вопросы-об-особых-картах"
    assert command_name(discord.Locale.ukrainian, "prompts") == "питання-про-особливі-карти"


def test_one_of_many_open_games_is_one_not_it_in_every_slavic_form():
    """21, 31 … games take Russian's and Ukrainian's form 0, which said "choose it"."""
    text = "This channel has {count} open game: choose one with the `table` option."
    plural = "This channel has {count} open games: choose one with the `table` option."
    for locale, one, it in ((discord.Locale.russian, "одну", "её"), (discord.Locale.ukrainian, "одну", "її")):
        for count in (1, 21, 31, 2, 5):
            chosen = trn(locale, text, plural, count, count=count)
            assert one in chosen and f" {it} " not in chosen, chosen


def test_the_seven_nimmt_card_speaks_of_capacity_in_chinese():
    """7 nimmt! lets a row hold up to six cards: it does not put six cards in it."""
    chinese = discord.Locale.chinese
    narration = tr(chinese, " on row {row}: it now holds six cards", row=2)
    reminder = tr(chinese, "your card's row holds six cards: the seventh takes it")
    assert "最多可放六张" in narration and "现在有六张" not in narration
    assert "最多可放六张" in reminder and "成为该排第六张" not in reminder
