"""Every entry of a catalog filled as players read it, beside the English: the review's "render, don't read".

    python scripts/render_catalog.py --language fr [--po path/to/messages.po] [--only TEXT]

Each template is filled once with one of everything (one player, one card, a count of 1) and once
with many (three players, a count of 2, 5 and 22 for a text that counts, the forms Slavic plural
rules tell apart), with a mention, a chosen name, a special card's name where the translator's
comment says ``{card}`` is one, and a Discord timestamp. A field that the code fills with another
translated fragment (a reason, a status...) is shown as ``⟪field⟫``: read its call site (the
``#:`` line) for the fragments that go there.
"""

from __future__ import annotations

import argparse
import sys
from gettext import c2py
from pathlib import Path

from babel.messages.pofile import read_po

from cogs.i18n import LOCALES, fields_of, join, number

MENTION = "@Anna"
NAMES = ["Anna", "Bartek", "Chloé"]
#: What each field holds, with one and with many; None: a translated fragment, shown as ⟪field⟫.
SAMPLES: dict[str, tuple[str, str]] = {
    "bull": ("🐮", "🐮"),
    "card": ("55", "55"),
    "cards": ("17", "17, 23, 104"),
    "cancelled": ("55", "55, 66"),
    "channel": ("#games", "#games"),
    "thread": ("#6-nimmt-42", "#6-nimmt-42"),
    "link": ("https://discord.com/channels/1/2/3", "https://discord.com/channels/1/2/3"),
    "game": ("42", "1234"),
    "table": ("42", "1234"),
    "host": ("Anna", "Anna"),
    "name": ("Anna", "Anna"),
    "last": ("Anna", "Anna"),
    "winner": ("Anna", "Anna"),
    "player": (MENTION, MENTION),
    "players": (MENTION, "@Anna, @Bartek, @Chloé"),
    "language": ("Deutsch", "Deutsch"),
    "when": ("<t:1900000000:R> (in 5 minutes)", "<t:1900000000:R> (in 5 minutes)"),
    "row": ("3", "3"),
    "rows": ("2", "1, 2, 4"),
    "high": ("104", "104"),
    "low": ("3", "3"),
    "replacement": ("56", "56"),
    "source": ("2", "2"),
    "target": ("66", "66"),
    "deck": ("1", "22"),
    "discard": ("Stop", "Stop, 7 nimmt!"),  # the discarded special cards by name (or "empty")
    "size": ("1", "28"),
}
#: Fields the code fills with a count (the n of a text that counts, or a figure).
COUNTED = frozenset(
    {
        "count",
        "games",
        "wins",
        "times",
        "seconds",
        "hours",
        "seats",
        "seated",
        "left",
        "most",
        "points",
        "round",
        "rounds",
        "turn",
        "page",
        "pages",
        "place",
    }
)
COUNTS = (1, 2, 5, 22)
SPECIAL_CARD = "{card} is a special card's name"


def value(field: str, language: str, n: int, special_card: str | None, counts: bool) -> str:
    if counts and field in COUNTED | {"players"}:
        return number(language, n)  # in a text that counts, "{players}" is the number of players
    if field == "card" and special_card:
        return special_card
    if field in ("names", "winners"):
        return join(language, NAMES[: 1 if n == 1 else 3])
    sample = SAMPLES.get(field)
    if sample is not None:
        return sample[0] if n == 1 else sample[1]
    if field in COUNTED:
        return number(language, n)
    return f"⟪{field}⟫"  # a fragment of another text: see the call site


def fill(template: str, language: str, n: int, special_card: str | None, counts: bool = False) -> str:
    fields = fields_of(template)
    if not fields:
        return template
    return template.format(**{f: value(f, language, n, special_card, counts) for f in fields})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--language", required=True, help="the catalog's code: fr, es, pt_BR, zh_CN ...")
    parser.add_argument("--po", type=Path, help="the catalog to read (default: the checkout's)")
    parser.add_argument("--only", help="only entries whose English contains this")
    args = parser.parse_args()
    po = args.po or LOCALES / args.language / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as file:
        catalog = read_po(file, locale=args.language)
    with (LOCALES / "messages.pot").open("rb") as file:
        template = read_po(file)
    plural_index = c2py(catalog.plural_expr)
    try:
        from cogs.render.specials import label
        from engine import Special

        special = label(Special.SEVEN_NIMMT, args.language)
    except Exception:  # noqa: BLE001 - a sample only
        special = "7 nimmt!"
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id, context=message.context)
        english = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        translated = (
            ()
            if entry is None or not entry.string
            else ((entry.string,) if isinstance(entry.string, str) else tuple(entry.string))
        )
        if args.only and args.only not in english[0]:
            continue
        special_card = special if SPECIAL_CARD in " ".join(message.auto_comments) else None
        where = ", ".join(f"{f}:{line}" for f, line in message.locations)
        print(f"── {where}" + (f"  [{message.context}]" if message.context else ""))
        for comment in message.auto_comments:
            print(f"   # {comment}")
        if not translated:
            print(f"   EN  {english[0]!r}\n   !!  not translated")
            continue
        if message.pluralizable:
            for n in COUNTS:
                index = plural_index(n)
                form = translated[min(index, len(translated) - 1)]
                print(f"   n={n:<3} EN  {fill(english[0] if n == 1 else english[1], 'en', n, special_card, True)}")
                print(f"         {args.language:<3} {fill(form, args.language, n, special_card, True)}")
        else:
            for n in (1, 3) if fields_of(english[0]) & ({"players", "names", "winners", "cards", "rows"}) else (1,):
                print(f"   EN  {fill(english[0], 'en', n, special_card)}")
                print(f"   {args.language:<3} {fill(translated[0], args.language, n, special_card)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
