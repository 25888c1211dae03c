"""What Discord accepts as an application command, from its documentation (Application Commands).

* A CHAT_INPUT command's and option's ``name``: 1-32 characters matching
  ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where the script has case.
  ``name_localizations``: "Values follow the same restrictions as name".
* ``description``: 1-100 characters for CHAT_INPUT; ``description_localizations`` the same.
* Localization dictionaries are keyed by Discord's locales (Reference, "Locales").
* At most 25 options per command or subcommand, and 25 choices per option; a choice's name is
  1-100 characters, its ``name_localizations`` too.
* Options of one parent need distinct names, in the default and in every locale.
* "Maximum of 4000 characters for combined name, description, and value properties for each
  command, its options (including subcommands and groups), and choices. When localization fields
  are present, only the longest localization for each field (including the default value) is
  counted towards the size limit." (APPLICATION_COMMAND_TOO_LARGE)

A payload that breaks one of these is refused with 400 / 50035 "Invalid Form Body" and the
path of the first field at fault, as Discord answers.
"""

from __future__ import annotations

import unicodedata
from typing import Any

# Reference.md, "Locales": the only keys a localization dictionary may have.
LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
        "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
        "zh-CN", "ja", "zh-TW", "ko",
    }
)  # fmt: skip
CHAT_INPUT = 1
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
MAX_OPTIONS = MAX_CHOICES = 25
MAX_COMMAND_SIZE = 4000


def _name_problem(name: object) -> str | None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return "APPLICATION_COMMAND_INVALID_NAME"
    for char in name:
        devanagari_or_thai = "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"
        if char not in "-_" and unicodedata.category(char)[0] not in "LN" and not devanagari_or_thai:
            return "APPLICATION_COMMAND_INVALID_NAME"
    if name != name.lower():
        return "APPLICATION_COMMAND_INVALID_NAME"  # "must be all lowercase"
    return None


def _length_problem(text: object, low: int, high: int) -> str | None:
    if not isinstance(text, str) or not low <= len(text) <= high:
        return "BASE_TYPE_BAD_LENGTH"
    return None


def _localized(data: dict[str, Any], key: str, check, path: str) -> list[tuple[str, str]]:
    found = data.get(key) or {}
    problems = []
    for locale, text in found.items():
        if locale not in LOCALES:
            problems.append((f"{path}.{key}.{locale}", "INVALID_LOCALE"))
        elif why := check(text):
            problems.append((f"{path}.{key}.{locale}", why))
    return problems


def _names_and_description(data: dict[str, Any], path: str) -> list[tuple[str, str]]:
    problems = []
    if why := _name_problem(data.get("name")):
        problems.append((f"{path}.name", why))
    problems += _localized(data, "name_localizations", _name_problem, path)
    description = lambda text: _length_problem(text, 1, 100)  # noqa: E731
    if why := description(data.get("description")):
        problems.append((f"{path}.description", why))
    problems += _localized(data, "description_localizations", description, path)
    return problems


def _options_problems(options: list[dict[str, Any]], path: str) -> list[tuple[str, str]]:
    problems = []
    if len(options) > MAX_OPTIONS:
        problems.append((f"{path}.options", "BASE_TYPE_MAX_LENGTH"))
    seen: dict[str, set[str]] = {}
    for index, option in enumerate(options):
        here = f"{path}.options.{index}"
        problems += _names_and_description(option, here)
        named = {"": option.get("name")} | dict(option.get("name_localizations") or {})
        for locale, name in named.items():
            if name in seen.setdefault(locale, set()):
                problems.append((f"{here}.name", "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"))
            seen[locale].add(name)
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append((f"{here}.choices", "BASE_TYPE_MAX_LENGTH"))
        for number, choice in enumerate(choices):
            choice_name = lambda text: _length_problem(text, 1, 100)  # noqa: E731
            if why := choice_name(choice.get("name")):
                problems.append((f"{here}.choices.{number}.name", why))
            problems += _localized(choice, "name_localizations", choice_name, f"{here}.choices.{number}")
        if option.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
            problems += _options_problems(option.get("options") or [], here)
    return problems


def command_size(data: dict[str, Any]) -> int:
    """What counts towards a command's 4,000 characters: each name, description and string value
    at its longest among the default and the localizations, over its options and choices."""
    size = 0
    for key in ("name", "description"):
        if isinstance(data.get(key), str):
            size += max(len(text) for text in [data[key], *(data.get(f"{key}_localizations") or {}).values()])
    if isinstance(data.get("value"), str):
        size += len(data["value"])
    return size + sum(command_size(child) for child in [*(data.get("options") or []), *(data.get("choices") or [])])


def command_problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Each field of a command payload Discord would refuse, as (path, error code); [] if none."""
    if data.get("type", CHAT_INPUT) != CHAT_INPUT:
        problems = []
        if _length_problem(data.get("name"), 1, 32):
            problems.append(("name", "BASE_TYPE_BAD_LENGTH"))
        return problems
    problems = [
        (path.lstrip("."), why)
        for path, why in _names_and_description(data, "") + _options_problems(data.get("options") or [], "")
    ]
    if command_size(data) > MAX_COMMAND_SIZE:
        problems.append(("_size", "APPLICATION_COMMAND_TOO_LARGE"))
    return problems


def form_errors(problems: list[tuple[str, str]]) -> dict[str, Any]:
    """Discord's nested ``errors`` object for an Invalid Form Body, one entry per field at fault."""
    errors: dict[str, Any] = {}
    for path, code in problems:
        node = errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": f"Invalid value at {path}: {code}"})
    return errors
