"""Texts the service hands up untranslated: English templates with their fields.

``bot/`` speaks no language of its own: an error or a notice carries the
English template (marked with ``N_`` for the catalog) and its fields, and the
Discord face renders it in the reader's language (``cogs.i18n.render``).
``str()`` of a ``Text`` is its English, for logs and tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeAlias


def N_(text: str) -> str:
    """Mark ``text`` for the catalog (tests/ops/test_i18n.py); it is returned unchanged."""
    return text


#: A sentence's ``str.format`` fields: numbers, names, mentions, texts of their own.
Fields: TypeAlias = dict[str, Any]


class Plural(NamedTuple):
    """A text that counts, in its English singular and plural, and the field holding the count:
    the face picks the reader's form (languages have one to three, Babel knows which)."""

    singular: str
    plural: str
    counted: str  # the name of the field whose number picks the form (``count`` is a tuple method)

    def english(self, fields: Fields) -> str:
        return self.singular if fields.get(self.counted) == 1 else self.plural


def Nn_(singular: str, plural: str, count: str) -> Plural:
    """Mark a counted text for the catalog (as ``ngettext``); ``count`` names the field that counts."""
    return Plural(singular, plural, count)


#: What a ``Text`` sentence is made of: an English template, or a counted one.
Template = str | Plural


class Mention(int):
    """A Discord user named in a ``Text`` field: the face writes it as a mention."""

    __slots__ = ()


class ChannelMention(int):
    """A Discord channel named in a ``Text`` field: the face writes it as a channel link."""

    __slots__ = ()


class Name(str):
    """A name a player chose, in a ``Text`` field: the face shows it as text, never as markup or a mention."""

    __slots__ = ()


#: How ``to_data`` tags each kind of typed field, so ``from_data`` gives the same type back.
_TYPED_FIELDS: dict[str, type[int | str]] = {"mention": Mention, "channel": ChannelMention, "name": Name}


def _field_to_data(value: object) -> object:
    for tag, kind in _TYPED_FIELDS.items():
        if type(value) is kind and isinstance(value, int | str):
            return {tag: str(value) if isinstance(value, str) else int(value)}
    return value


def _template_from_data(template: object) -> Template:
    return Plural(*template) if isinstance(template, list) else str(template)


def _field_from_data(value: object) -> object:
    if isinstance(value, dict) and len(value) == 1:
        ((tag, plain),) = value.items()
        if tag in _TYPED_FIELDS:
            return _TYPED_FIELDS[tag](plain)
    return value


class Text:
    """One or more sentences, each an English template (or a counted ``Plural``) and its
    ``str.format`` fields."""

    __slots__ = ("parts",)

    def __init__(self, template: Template, /, **fields: Any) -> None:
        self.parts: tuple[tuple[Template, Fields], ...] = ((template, fields),)

    def __add__(self, other: Text) -> Text:
        joined = Text("")
        joined.parts = self.parts + other.parts
        return joined

    def render(self, translate: Callable[[Template, Fields], str]) -> str:
        """The sentences as ``translate(template, fields)`` words them, joined by spaces."""
        return " ".join(translate(template, fields) for template, fields in self.parts)

    def __str__(self) -> str:
        # Formatted only with fields, as ``cogs.i18n.tr`` does: a template without any may hold braces.
        def english(template: Template, fields: Fields) -> str:
            text = template.english(fields) if isinstance(template, Plural) else template
            return text.format(**fields) if fields else text

        return self.render(english)

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and self.parts == other.parts

    __hash__ = None  # type: ignore[assignment]  # unhashable: its fields are dicts

    def to_data(self) -> list[Any]:
        """JSON-ready, so a notice can be saved with the post that shows it."""
        return [
            [
                list(template) if isinstance(template, Plural) else template,
                {k: _field_to_data(v) for k, v in fields.items()},
            ]
            for template, fields in self.parts
        ]

    @classmethod
    def from_data(cls, data: list[Any]) -> Text:
        text = cls("")
        text.parts = tuple(
            (_template_from_data(template), {k: _field_from_data(v) for k, v in fields.items()})
            for template, fields in data
        )
        return text
