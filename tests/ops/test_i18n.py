"""German: every command string and every marked message has a German entry that fits.

Two sources of strings: the command tree (names, descriptions, options and
choices, as the translator hands them to Discord) and the source code (every
literal passed to ``tr(locale, "…")`` or ``N_("…")`` in bot/ and cogs/).
Each check is also shown to fail on a deliberately untranslated string.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import discord
from discord import app_commands

import engine
from bot.tables.errors import LobbyError
from cogs.i18n import CATALOGS, CatalogTranslator, error_text, fields_of, render, tr
from cogs.i18n.de import MESSAGES, NAMES
from bot.tables.text import Text

ROOT = Path(__file__).resolve().parents[2]
GERMAN = discord.Locale.german
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")  # Discord's ^[-_\p{L}\p{N}]{1,32}$, lowercase


def marked_strings(source: str, filename: str = "<src>") -> list[tuple[str, int, str]]:
    """(file, line, text) of every literal given to tr(…, "text") or N_("text")."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        position = {"tr": 1, "N_": 0}.get(node.func.id)
        if position is None or len(node.args) <= position:
            continue
        arg = node.args[position]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.append((filename, node.lineno, arg.value))
    return found


def all_marked_strings() -> list[tuple[str, int, str]]:
    found = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += marked_strings(path.read_text(), str(path.relative_to(ROOT)))
    return found


def untranslated(strings, messages=MESSAGES) -> list[str]:
    problems = []
    for filename, line, text in strings:
        german = messages.get(text)
        if german is None:
            problems.append(f"{filename}:{line}: no German for {text!r}")
        elif fields_of(german) != fields_of(text):
            problems.append(f"{filename}:{line}: the German of {text!r} has fields {fields_of(german)}")
    return problems


def payload_problems(payload: dict, path: str = "") -> list[str]:
    """Every name or description of a synced command payload that has no German (or a bad name)."""
    problems = []
    here = f"{path}/{payload['name']}"
    german_name = (payload.get("name_localizations") or {}).get("de")
    if german_name is None:
        problems.append(f"{here}: no German name")
    elif "choices" not in path and (german_name != german_name.lower() or not NAME_RULE.match(german_name)):
        problems.append(f"{here}: {german_name!r} breaks Discord's name rule")
    if "description" in payload and not (payload.get("description_localizations") or {}).get("de"):
        problems.append(f"{here}: no German description")
    children = payload.get("options") or []
    names = [(c.get("name_localizations") or {}).get("de") for c in children]
    if len(set(names)) != len(names):
        problems.append(f"{here}: two options share a German name: {names}")
    for child in children:
        problems += payload_problems(child, here)
    for choice in payload.get("choices") or []:
        problems += payload_problems(choice, here + "/choices")
    return problems


async def payloads(tree) -> list[dict]:
    return [await command.get_translated_payload(tree, tree.translator) for command in tree.get_commands()]


async def test_every_command_option_and_choice_has_german(tree):
    found = await payloads(tree)
    assert {p["name"] for p in found} >= {"6nimmt", "leaderboard", "6nimmt-admin"}
    assert isinstance(tree.translator, CatalogTranslator)
    problems = [problem for payload in found for problem in payload_problems(payload)]
    assert problems == []


async def test_a_command_without_german_is_reported(tree):
    @app_commands.command(name="untranslated", description="Not in the catalog on purpose")
    @app_commands.describe(level="Neither is this")
    async def untranslated_command(interaction: discord.Interaction, level: int) -> None: ...

    payload = await untranslated_command.get_translated_payload(tree, tree.translator)
    assert payload_problems(payload) == [
        "/untranslated: no German name", "/untranslated: no German description",
        "/untranslated/level: no German name", "/untranslated/level: no German description",
    ]


def test_every_marked_message_has_german_with_the_same_fields():
    strings = all_marked_strings()
    assert len(strings) > 40, "the scan finds the marked strings"
    assert untranslated(strings) == []


def test_a_marked_message_without_german_is_reported():
    source = 'x = tr(locale, "Nobody wrote German for this, {name}.", name=n)\ny = N_("Nor this")\n'
    assert untranslated(marked_strings(source)) == [
        "<src>:1: no German for 'Nobody wrote German for this, {name}.'", "<src>:2: no German for 'Nor this'"]
    wrong_fields = {"Hello {name}": "Hallo {nmae}"}
    assert len(untranslated([("f", 1, "Hello {name}")], wrong_fields)) == 1


async def test_the_catalog_has_no_entry_nobody_uses(tree):
    strings: set[str] = {text for _, _, text in all_marked_strings()}
    names: set[str] = set()

    def collect(payload):
        names.add(payload["name"])
        if "description" in payload:
            strings.add(payload["description"])
        for choice in payload.get("choices") or []:
            strings.add(choice["name"])
        for child in payload.get("options") or []:
            collect(child)

    for payload in await payloads(tree):
        collect(payload)
    assert sorted(set(MESSAGES) - strings) == []
    assert sorted(set(NAMES) - names) == []


def test_german_messages_name_the_german_commands():
    german_commands = {f"/6nimmt {name}" for name in NAMES.values()} | {f"/{name}" for name in NAMES.values()}
    for english, german in MESSAGES.items():
        for mention in re.findall(r"/6nimmt [-\w]+|/(?!6nimmt)[a-z][-\w]+", german):
            assert mention in german_commands, f"{german!r} names {mention}, which German Discord does not show"


def test_tr_formats_in_german_and_falls_back_to_english(caplog):
    assert tr(GERMAN, "Synced {count} commands to this server; they show at once.", count=3) == \
        "3 Befehle an diesen Server gesendet; sie erscheinen sofort."
    assert tr(discord.Locale.american_english, "Synced {count} commands to this server; they show at once.",
              count=3) == "Synced 3 commands to this server; they show at once."
    assert tr(discord.Locale.french, "Wins") == "Wins"  # no French catalog: English
    assert tr(GERMAN, "Not in any catalog") == "Not in any catalog"
    assert "no de translation for 'Not in any catalog'" in caplog.text
    assert set(CATALOGS) == {"de"}


def test_table_errors_and_notices_are_worded_in_the_readers_language():
    full = LobbyError("The table is full ({players} players).", players=4)
    assert str(full) == "The table is full (4 players)."  # logs and tests read English
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
    for kind in kinds:
        german = error_text(GERMAN, kind("58 is not in your hand"))
        assert german != "58 is not in your hand" and german in MESSAGES.values(), kind
    assert error_text(GERMAN, engine.CardNotInHand("58 is not in your hand")) == "Diese Karte kannst du nicht spielen."
    assert error_text(GERMAN, engine.RowBlocked("row 2 is blocked")) == "Auf dieser Reihe liegt ein Stopp."
    assert error_text(discord.Locale.american_english, engine.CardNotInHand("58 is not in your hand")) == \
        "58 is not in your hand"
