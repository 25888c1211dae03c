"""``python -m bot``: start the 6 nimmt! bot, sync its commands, or check its health (``bot/cli.py``)."""

from __future__ import annotations

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
