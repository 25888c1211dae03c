"""``python -m bot``: start the 6 nimmt! bot, sync its commands, or check its health (``bot/cli.py``).

The bot's worker processes (pictures, the searching AI, the history export) are spawned, and a
spawned process runs this main module again: it imports nothing, so a worker loads only what
its jobs need (a picture worker some 20 MB, not the 40 MB the command line's settings, stores
and checks would add to each).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from bot.cli import main as command_line  # not for the spawned workers: see above

    return command_line(argv)


if __name__ == "__main__":
    sys.exit(main())
