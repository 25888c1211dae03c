"""A name a player chose, as Discord shows it: text, never a mention, never markup.

Display names, seat names and the host's name in a thread's name are typed by
players; a name such as ``@everyone``, ``<@&role id>`` or ``**bold** ||spoil||``
must read exactly like that and ping nobody. Every name the face shows goes
through one of these (``cogs.i18n.render`` applies ``shown_name`` to a
``Name`` field of a ``Text``):

* ``shown_name`` where Discord draws markdown: message content, embed
  descriptions, titles, field names and values. Markup is escaped with a
  backslash and mentions are broken with a zero-width space
  (``discord.utils.escape_markdown`` / ``escape_mentions``); ``<`` is escaped too,
  so ``<#channel>``, ``<t:…>`` or ``<:emoji:id>`` in a name stay text.
* ``isolated`` where Discord draws no markdown (a thread's name, an
  autocomplete choice, an embed footer): there a backslash would show, so only
  the writing direction is contained.

A right-to-left override (U+202E) in a name would reverse the rest of the line
after it. Unbalanced direction controls are dropped, and a name holding
right-to-left letters or direction controls is wrapped in FIRST STRONG ISOLATE
… POP DIRECTIONAL ISOLATE, so it cannot reorder the words around it. A name
with neither cannot reorder anything, and is left as it is (so it reads, copies
and searches as typed).

Pictures draw names with the built-in font, which keeps printable ASCII only
(``chart._drawable``), so no direction control ever reaches them.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import discord

#: First strong isolate and pop directional isolate (Unicode Bidirectional Algorithm, UAX #9).
FSI, PDI = "\u2068", "\u2069"
#: Embeddings and overrides (LRE, RLE, LRO, RLO), closed by PDF; isolates (LRI, RLI, FSI), closed by PDI.
EMBEDDINGS, PDF = frozenset("\u202a\u202b\u202d\u202e"), "\u202c"
ISOLATES = frozenset("\u2066\u2067\u2068")
#: Bidirectional classes that can reorder text around them: right-to-left letters, Arabic
#: numbers and the explicit controls.
REORDERING = frozenset({"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
#: Line and paragraph breaks: a name is one line (a paragraph break would also end an isolate).
BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


def balanced_bidi(text: str) -> str:
    """``text`` with every direction control that is not properly closed inside it dropped:
    a PDF or PDI with nothing to close, and an opener never closed. What is left is nested
    pairs, so nothing of ``text`` reaches past its end."""
    kept: list[str | None] = []
    open_at: list[int] = []  # indexes in ``kept`` of the openers not yet closed, innermost last
    for char in text:
        if char in EMBEDDINGS or char in ISOLATES:
            open_at.append(len(kept))
            kept.append(char)
        elif char == PDF:
            if open_at and kept[open_at[-1]] in EMBEDDINGS:
                open_at.pop()
                kept.append(char)
        elif char == PDI:
            if any(kept[i] in ISOLATES for i in open_at):
                while kept[open_at[-1]] in EMBEDDINGS:  # a PDI ends the embeddings opened inside its isolate
                    kept[open_at.pop()] = None
                open_at.pop()
                kept.append(char)
        else:
            kept.append(char)
    for index in open_at:
        kept[index] = None
    return "".join(char for char in kept if char is not None)


def isolated(name: str) -> str:
    """``name`` on one line, unable to reorder the text around it (for places without markdown)."""
    text = balanced_bidi(BREAKS.sub(" ", name))
    if any(unicodedata.bidirectional(char) in REORDERING for char in name):
        return f"{FSI}{text}{PDI}"
    return text


def escaped(text: str) -> str:
    """``text`` drawn literally where Discord draws markdown, and never a mention."""
    text = discord.utils.escape_markdown(text)
    return discord.utils.escape_mentions(text.replace("<", "\\<"))


@functools.lru_cache(maxsize=4096)
def shown_name(name: str) -> str:
    """A name a player chose, for message content and embeds: as typed, no markup, no mention.

    Cached: the same few names are drawn into every message of their tables (a few regular
    expressions each time was 2 % of the bot's time at 1,000 tables)."""
    return isolated(escaped(BREAKS.sub(" ", name)))
