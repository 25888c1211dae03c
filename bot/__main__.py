"""``python -m bot``: start the 6 nimmt! bot."""

from __future__ import annotations

import argparse
import sys

from .config import ConfigError, load_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the 6 nimmt! Discord bot.")
    parser.add_argument("--env-file", default=".env", help="settings file to read (default: .env)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.env_file)
    except ConfigError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    from .app import run

    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
