"""``python -m bot``: start the 6 nimmt! bot, sync its commands, or check its health (``bot/cli.py``).

The bot's worker process (the searching AI, pictures, the history export) is spawned, and a
spawned process runs this main module again: it imports nothing, so the worker loads only what
its jobs need, not the 40 MB the command line's settings, stores and checks would add.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from bot.cli import main as command_line  # not for the spawned workers: see above

    return command_line(argv)


if __name__ == "__main__":
    sys.exit(main())
