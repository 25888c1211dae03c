"""Per language: how many texts its catalog has, and its longest label against Discord's limit.

    python scripts/catalog_figures.py

Each text is measured as tests/ops/test_i18n.py measures it: every field at its longest real
value (a 32-character name, a mention, the language's longest special-card name ...). "Label"
is every text with a limit below a message's 2,000 characters (buttons, select options, command
names and descriptions, label parts); the closest to its limit is shown, as a share of it, then
the longest button label (of 80) and the longest message (of 2,000).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the measures are the catalog check's own

from cogs.i18n import COMMAND_NAME, languages  # noqa: E402
from tests.ops.test_i18n import MESSAGE_LIMIT, catalog_of, extracted, limit_of, longest  # noqa: E402


def main() -> None:
    template = extracted()
    print(f"{'language':<9} {'texts':>5}  {'closest to its limit':<57} {'button':>7} {'message':>9}")
    for language in languages():
        catalog = catalog_of(language)
        texts, tightest, message_max, button_max = 0, (0.0, "", 0, 0), 0, 0
        for message in template:
            if not message.id:
                continue
            entry = catalog.get(message.id, context=message.context)
            forms = [entry.string] if isinstance(entry.string, str) else list(entry.string)
            texts += 1
            limit = 32 if message.context == COMMAND_NAME else limit_of(message)
            for form in forms:
                size = len(form if message.context == COMMAND_NAME else longest(form, message, language))
                if "a button label (at most 80" in " ".join(message.auto_comments):
                    button_max = max(button_max, size)
                if limit < MESSAGE_LIMIT and size / limit > tightest[0]:
                    tightest = (size / limit, form, size, limit)
                elif limit == MESSAGE_LIMIT:
                    message_max = max(message_max, size)
        share, form, size, limit = tightest
        shown = form if len(form) <= 34 else form[:31] + "..."
        print(
            f"{language:<9} {texts:>5}  {size:>3}/{limit:<3} ({share:4.0%}) {shown!r:<44} {button_max:>4}/80"
            f" {message_max:>4}/2000"
        )


if __name__ == "__main__":
    main()
