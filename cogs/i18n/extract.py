"""Babel's extraction method for this project (``babel.cfg`` names it): every text the face shows.

Two sources, one method, so ``pybabel extract -F babel.cfg ...`` needs no keyword flags:

* the texts marked in the code — ``tr(locale, "…")``, ``trn(locale, "…", "…", n)``,
  ``N_("…")`` and ``Nn_("…", "…", field)`` — read by Babel's own Python extractor (with the ``# Translators:`` comment
  on the line before the call), and handed on as ``gettext``/``ngettext`` calls;
* the command tree: every command, group, option and choice name and description exactly
  as discord.py asks the translator for them (the tree is built once, without connecting),
  each at the file and line of the command that declares it. Names get the msgctxt
  ``command name``; choices are texts like any other.

The catalog check (tests/ops/test_i18n.py) extracts through the same method.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sys
import tempfile
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import discord
from babel.messages.extract import extract_python
from discord import app_commands

from bot.app import SixNimmtBot
from bot.config import Settings

from . import COMMAND_NAME, NAME_LOCATIONS

if TYPE_CHECKING:  # Babel declares its extractor options for type checkers only
    from babel.messages.extract import _PyOptions

#: The project's marker functions → the gettext call each stands for and where its texts are.
MARKERS: dict[str, tuple[str, tuple[int, ...]]] = {
    "tr": ("gettext", (1,)),  # tr(locale, text, **fields)
    "trn": ("ngettext", (1, 2)),  # trn(locale, singular, plural, n, **fields)
    "N_": ("gettext", (0,)),  # N_(text)
    "Nn_": ("ngettext", (0, 1)),  # Nn_(singular, plural, count field): a counted text of bot/
}

Result = tuple[int, str, str | tuple[str | None, ...], list[str]]

NAME_RULE = (
    "Translators: a Discord command or option name: lowercase letters, digits, - or _, "
    "no spaces, at most 32 characters."
)
LIMITS = {
    app_commands.TranslationContextLocation.command_description: 100,
    app_commands.TranslationContextLocation.group_description: 100,
    app_commands.TranslationContextLocation.parameter_description: 100,
    app_commands.TranslationContextLocation.choice_name: 100,
}


def extract(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: _PyOptions
) -> Iterator[Result]:
    """Babel's interface: (line, gettext function, message(s), comments) of every text in the file."""
    # Babel annotates extract_python with what ``extract`` yields (line, messages, comments, context),
    # but it yields (line, function name, messages, comments): read as that, untyped.
    found: Iterator[Any] = extract_python(fileobj, dict.fromkeys(MARKERS), comment_tags, options)
    for lineno, funcname, messages, comments in found:
        call, positions = MARKERS[funcname]
        args = messages if isinstance(messages, tuple) else (messages,)
        texts = [args[i] for i in positions if i < len(args) and isinstance(args[i], str)]
        if len(texts) != len(positions):
            continue  # not a literal (a constant's name, a field): marked where it is defined
        yield lineno, call, texts[0] if len(texts) == 1 else tuple(texts), comments
    path = os.path.realpath(getattr(fileobj, "name", ""))
    for entry in command_strings_by_file().get(path, ()):
        yield entry.lineno, *entry.babel()


@dataclass(frozen=True)
class CommandString:
    """One name or description the command tree hands the translator."""

    text: str
    location: app_commands.TranslationContextLocation
    where: str  # "/6nimmt start", "/6nimmt start variant", ...
    path: str  # the file of the command that declares it
    lineno: int

    @property
    def is_name(self) -> bool:
        return self.location in NAME_LOCATIONS

    def babel(self) -> tuple[str, str | tuple[str, str], list[str]]:
        what = self.location.name.replace("_", " ")
        comments = [f"Translators: {self.where} ({what})"]
        if self.is_name:
            return "pgettext", (COMMAND_NAME, self.text), [*comments, NAME_RULE]
        limit = LIMITS.get(self.location)
        if limit:
            comments.append(f"Translators: at most {limit} characters (Discord's limit).")
        return "gettext", self.text, comments


class _Recorder(app_commands.Translator):
    """Records what discord.py asks to translate, translating nothing."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, app_commands.TranslationContextLocation, object]] = []

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if locale is discord.Locale.german:  # once per string
            self.asked.append((string.message, context.location, context.data))
        return None


def _source(module: str | None) -> tuple[str, list[str]]:
    path = getattr(sys.modules.get(module or ""), "__file__", None) or ""
    path = os.path.realpath(path)
    try:
        return path, Path(path).read_text().splitlines()
    except OSError:
        return path, []


def _line_of(lines: list[str], text: str, default: int) -> int:
    quoted = f'"{text}"'
    return next((i + 1 for i, line in enumerate(lines) if quoted in line), default)


async def command_strings(tree: app_commands.CommandTree) -> list[CommandString]:
    """Every name and description of ``tree``'s commands, each once, at its command's file and line."""
    found: list[CommandString] = []
    seen: set[tuple[str, app_commands.TranslationContextLocation]] = set()

    async def record(command: app_commands.Command | app_commands.Group, where: str) -> None:
        recorder = _Recorder()
        await command.get_translated_payload(tree, recorder)
        path, lines = _source(command.module)
        callback = getattr(command, "callback", None)
        lineno = callback.__code__.co_firstlineno if callback is not None else _line_of(lines, command.name, 1)
        for text, location, data in recorder.asked:
            if (text, location) in seen:
                continue
            seen.add((text, location))
            here = where
            if isinstance(data, app_commands.Parameter):
                here = f"{where} {data.name}"
            found.append(CommandString(text, location, here, path, lineno))

    groups: list[app_commands.Group] = []
    for top in tree.get_commands():
        if isinstance(top, app_commands.Group):
            groups.append(top)
            for command in top.walk_commands():
                if isinstance(command, app_commands.Group):
                    groups.append(command)
                else:
                    await record(command, f"/{command.qualified_name}")
        elif isinstance(top, app_commands.Command):
            await record(top, f"/{top.qualified_name}")
    for group in groups:  # after their commands: what is left is the group's own name and description
        await record(group, f"/{group.qualified_name}")
    return found


async def _bot_command_strings() -> list[CommandString]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.model_validate(
            {"discord_token": "extract", "database_path": Path(folder) / "extract.sqlite3"}
        )
        bot = SixNimmtBot(settings, start_tables=False)
        async with bot:
            await bot.setup_hook()
            try:
                return await command_strings(bot.tree)
            finally:
                await bot.close()


@functools.cache
def command_strings_by_file() -> dict[str, list[CommandString]]:
    """The bot's command strings by the real path of the file that declares them (built once)."""
    by_file: dict[str, list[CommandString]] = {}
    for entry in asyncio.run(_bot_command_strings()):
        by_file.setdefault(entry.path, []).append(entry)
    return by_file
