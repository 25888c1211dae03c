"""The command line of ``python -m bot``: start the 6 nimmt! bot, sync its commands, or check its health.

Every failure is one ``error:`` line on stderr and a non-zero exit: 2 for
a bad setting or argument, 1 when Discord refuses, or the bot is unhealthy.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from data import StoreError, copy_database, sqlite_path

from .config import ConfigError, Settings, load_settings, read_environment, redacted, unknown_names
from .health import check, heartbeat_path

# discord.py (through .sync and .app) is imported only where it is used: --health and
# migrate-db have no use for it.


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the 6 nimmt! Discord bot.",
        epilog="python -m bot migrate-db --help: move the database to PostgreSQL",
    )
    p.add_argument("--env-file", default=".env", help="settings file to read (default: .env; the environment wins)")
    action = p.add_mutually_exclusive_group()
    action.add_argument(
        "--sync",
        nargs="?",
        const="global",
        metavar="GUILD_ID|dev|global",
        help="send the slash commands to Discord and exit: to one guild (or several, comma-"
        "separated) at once, to every DEV_GUILD_IDS guild with 'dev', or globally "
        "(the default; takes up to an hour to show)",
    )
    action.add_argument(
        "--health",
        action="store_true",
        help="exit 0 if the running bot's heartbeat is fresh and connected, else 1 (for HEALTHCHECK)",
    )
    return p


def fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def migrate_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot migrate-db",
        description="Copy every game, log, result, rating and setting from the SQLite database into an "
        "empty PostgreSQL database, in one transaction. Stop the bot first.",
    )
    p.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="sqlite:///PATH",
        help="the SQLite database (sqlite:///relative or sqlite:////absolute path)",
    )
    p.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="postgresql://…",
        help="an empty PostgreSQL database; its tables are created",
    )
    return p


def migrate_main(argv: list[str]) -> int:
    args = migrate_parser().parse_args(argv)
    try:
        copied = asyncio.run(copy_database(args.source, args.target))
    except (StoreError, ValueError, OSError) as exc:
        return fail(f"migrate-db: {exc}", 1)
    print(f"copied {copied.summary()} into {redacted(args.target)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["migrate-db"]:
        return migrate_main(argv[1:])
    args = parser().parse_args(argv)
    if args.env_file != ".env" and not Path(args.env_file).is_file():
        return fail(f"--env-file {args.env_file}: no such file", 2)
    if args.health:
        # The health check needs no token: it only reads the heartbeat file.
        raw = read_environment(args.env_file)
        default = Settings.model_fields["database_path"].default
        try:
            database = sqlite_path(raw.get("DATABASE_URL") or raw.get("DATABASE_PATH") or default) or default
        except ValueError:  # an unknown URL: the bot itself says so; the heartbeat is where it would be
            database = default
        healthy, line = check(heartbeat_path(database, raw.get("HEALTH_FILE")))
        print(line, file=sys.stdout if healthy else sys.stderr)
        return 0 if healthy else 1
    for line in unknown_names(args.env_file):
        print(f"warning: {line}", file=sys.stderr)
    try:
        settings = load_settings(args.env_file)
    except ConfigError as exc:
        for problem in exc.problems:
            fail(problem, 2)
        return 2
    if args.sync is not None:
        from .sync import SyncTargetError, parse_sync_target  # discord: see the note above

        try:
            guild_ids = parse_sync_target(args.sync, settings.dev_guild_ids)
        except SyncTargetError as exc:
            return fail(str(exc), 2)
        return sync_main(settings, guild_ids)
    from .app import run  # discord: see the note above

    return run(settings)


def sync_main(settings: Settings, guild_ids: list[int] | None) -> int:
    from .app import startup_problem, sync_once  # discord: see the note above
    from .sync import describe_sync

    try:
        results = asyncio.run(sync_once(settings, guild_ids))
    except Exception as exc:
        problem = startup_problem(exc, settings)
        if problem is None:
            raise
        return fail(problem, 1)
    for line in describe_sync(results):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
