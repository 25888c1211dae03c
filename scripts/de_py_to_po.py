"""Fold the entries of an old-style German dict catalog (``cogs/i18n/de.py``) into ``de.po``.

German used to be a Python dict keyed by the English text (``MESSAGES``, and ``NAMES`` for
command and option names). A branch written before the move to gettext may still add its
German there; this puts those entries into the .po::

    git show BRANCH:cogs/i18n/de.py > /tmp/de.py
    pybabel extract ...      # and pybabel update ...: the README's "Languages" part
    python scripts/de_py_to_po.py /tmp/de.py

Only entries the .po has but lacks a translation for (new, or fuzzy after ``pybabel update``)
are filled: a German text already in the .po (the reviewed one) is kept unless ``--overwrite``.
Names go to the msgctxt ``command name``. It prints what it filled and every dict entry the
.po has no msgid for (an English text the code no longer uses, or one to re-extract).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from babel.messages.pofile import read_po, write_po

from cogs.i18n import COMMAND_NAME

PO = ROOT / "cogs" / "i18n" / "locales" / "de" / "LC_MESSAGES" / "messages.po"


def load_dicts(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(NAMES, MESSAGES) of a de.py file."""
    spec = importlib.util.spec_from_file_location("old_german_catalog", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(getattr(module, "NAMES", {})), dict(getattr(module, "MESSAGES", {}))


def fold(names: dict[str, str], messages: dict[str, str], po_path: Path, overwrite: bool) -> list[str]:
    with po_path.open("rb") as file:
        catalog = read_po(file, locale="de")
    report: list[str] = []
    used: set[tuple[str | None, str]] = set()
    for message in catalog:
        if not message.id or message.pluralizable:
            continue  # the header; plural entries have no dict counterpart
        source = names if message.context == COMMAND_NAME else messages if message.context is None else {}
        german = source.get(message.id)
        if german is None:
            continue
        used.add((message.context, message.id))
        if message.string and not message.fuzzy and not overwrite:
            continue
        if message.string != german or message.fuzzy:
            message.string = german
            message.flags.discard("fuzzy")
            report.append(f"filled: {message.id!r}")
    plural = {form for message in catalog if message.pluralizable for form in message.id}
    report += [f"not in the .po (command name): {name!r}" for name in names if (COMMAND_NAME, name) not in used]
    report += [
        f"a plural text in the .po now (give it each form there): {text!r}"
        if text in plural
        else f"not in the .po: {text!r}"
        for text in messages
        if (None, text) not in used
    ]
    with po_path.open("wb") as file:
        write_po(file, catalog)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("de_py", type=Path, help="the old de.py")
    parser.add_argument("--po", type=Path, default=PO, help=f"the .po to fill (default {os.path.relpath(PO)})")
    parser.add_argument("--overwrite", action="store_true", help="replace German the .po has already")
    args = parser.parse_args()
    names, messages = load_dicts(args.de_py)
    for line in fold(names, messages, args.po, args.overwrite):
        print(line)


if __name__ == "__main__":
    main()
