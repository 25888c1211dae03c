"""Each language's glossary: one word for each of the game's and Discord's core concepts, used the same
way in every text of its catalog.

A glossary is ``cogs/i18n/locales/<language>/glossary.json``: for each concept below, the ``term``
the language uses, its ``forms`` (the stems or inflected forms that any text naming the concept
contains, matched case-insensitively), optionally words to ``avoid`` for it (a rival term that must
not creep in), and the ``exceptions``: the English texts that name the concept's word without
meaning it ("turn on helpers"), or whose translation rightly leaves it out, each with its reason.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from cogs.i18n import LOCALES, languages
from tests.ops.test_i18n import catalog_of, extracted

#: The concepts, and how an English text names them.
CONCEPTS: dict[str, re.Pattern[str]] = {
    "row": re.compile(r"\brows?\b", re.IGNORECASE),
    "bullhead": re.compile(r"\bbullheads?\b", re.IGNORECASE),
    "card": re.compile(r"\bcards?\b", re.IGNORECASE),
    "round": re.compile(r"\brounds?\b", re.IGNORECASE),
    "turn": re.compile(r"\bturns?\b", re.IGNORECASE),
    "thread": re.compile(r"\bthreads?\b", re.IGNORECASE),
    "server": re.compile(r"\bservers?\b", re.IGNORECASE),
}
#: The catalogs written before glossaries were kept as data (their glossaries are prose, in
#: docs/i18n/<language>.md); every catalog since has a glossary file.
#: A field of a template: the value filled in ("{card}" is 55 or a special card's name), not the word.
FIELD = re.compile(r"\{[a-z_]+\}")
PROSE_GLOSSARIES = frozenset({"de", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt_BR", "ru", "tr", "uk", "zh_CN"})


def glossary_path(language: str) -> Path:
    return LOCALES / language / "glossary.json"


def english_forms(message) -> tuple[str, ...]:
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def translated_forms(entry) -> tuple[str, ...]:
    if entry is None or not entry.string:
        return ()
    return (entry.string,) if isinstance(entry.string, str) else tuple(entry.string)


def glossary_problems(template: Catalog, catalog: Catalog, glossary: dict, language: str) -> list[str]:
    """Every text of ``catalog`` that names a concept without the glossary's word for it, uses a word to
    avoid, or is listed as an exception it is not; and every concept the glossary lacks."""
    problems = [f"{language}: the glossary has no {concept!r}" for concept in CONCEPTS if concept not in glossary]
    for concept, pattern in CONCEPTS.items():
        if concept not in glossary:
            continue
        entry = glossary[concept]
        forms = [form.casefold() for form in entry.get("forms") or []]
        avoid = [word.casefold() for word in entry.get("avoid") or []]
        exceptions = {str(text) for text in entry.get("exceptions") or {}}
        if not forms or any(FIELD.search(form) for form in forms):
            problems.append(f"{language}: {concept!r} needs forms of its word, not fields: {forms}")
            continue
        seen_exceptions = set()
        for message in template:
            if not message.id:
                continue
            english = english_forms(message)
            translated = translated_forms(catalog.get(message.id, context=message.context))
            names_it = any(pattern.search(FIELD.sub("", form)) for form in english)  # "{card}" is a value
            if english[0] in exceptions:
                seen_exceptions.add(english[0])
                if not names_it:
                    problems.append(f"{language}: {concept}: the exception {english[0]!r} does not name it")
                continue
            for form in translated:
                folded = form.casefold()
                if names_it and not any(word in folded for word in forms):
                    problems.append(f"{language}: {concept}: {english[0]!r} → {form!r} has none of {forms}")
                if any(word in folded for word in avoid):
                    problems.append(f"{language}: {concept}: {form!r} uses a word to avoid ({avoid})")
        for stale in sorted(exceptions - seen_exceptions):
            problems.append(f"{language}: {concept}: the exception {stale!r} is not a text of the code")
    return problems


def glossaried() -> list[str]:
    return [language for language in languages() if glossary_path(language).exists()]


def test_every_catalog_since_the_first_thirteen_has_a_glossary():
    assert [language for language in languages() if not glossary_path(language).exists()] == sorted(
        PROSE_GLOSSARIES & set(languages())
    )


@pytest.mark.parametrize("language", glossaried())
def test_each_concept_has_one_word_in_every_text(language):
    glossary = json.loads(glossary_path(language).read_text(encoding="utf-8"))
    assert glossary_problems(extracted(), catalog_of(language), glossary, language) == []


def test_the_glossary_check_finds_a_stray_word_and_a_false_exception():
    german = catalog_of("de")
    in_a_row = {  # the idiom, not the table's row
        "An AI plays your seat since you missed two turns in a row.": "hintereinander",
        "{player} missed two turns in a row, so an AI plays their seat now.": "hintereinander",
        "{player} missed a turn, so the bot played for them. {left} more in a row and an AI takes their seat.": "in Folge",
    }
    glossary = {"row": {"term": "Reihe", "forms": ["reihe"], "avoid": ["zeile"], "exceptions": in_a_row}}
    template = extracted()
    only_rows = {"row": glossary["row"]}
    rows = [p for p in glossary_problems(template, german, only_rows, "de") if ": row:" in p]
    assert rows == []  # German says Reihe wherever English says row (and the idiom is excepted)
    without_exceptions = {"row": {**glossary["row"], "exceptions": {}}}
    assert len([p for p in glossary_problems(template, german, without_exceptions, "de") if "in a row" in p]) == 4
    broken = copy.deepcopy(german)
    broken.get("Row {row}").string = "Zeile {row}"
    problems = glossary_problems(template, broken, only_rows, "de")
    assert any("'Row {row}'" in p and "has none of" in p for p in problems)
    assert any("Zeile {row}" in p and "avoid" in p for p in problems)
    false_exception = {"row": {**glossary["row"], "exceptions": {**in_a_row, "Join": "not a row"}}}
    assert any("does not name it" in p for p in glossary_problems(template, german, false_exception, "de"))
    assert "de: the glossary has no 'bullhead'" in glossary_problems(template, german, only_rows, "de")
