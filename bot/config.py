"""The bot's settings: one pydantic model read from the environment and ``.env``.

Every bad or missing value becomes one clear line naming the setting; the
token is a ``SecretStr`` so it never shows in a log line or an error.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path

from dotenv import dotenv_values
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PositiveInt,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from bot.tables.table import CHOICE_SECONDS_RANGE, PACES, SPECIAL_SECONDS_RANGE, TURN_SECONDS_RANGE
from data import sqlite_path

from .health import INTERVAL, heartbeat_path

#: Environment variable → field name. The environment wins over ``.env``.
ENV_NAMES = {
    "DISCORD_TOKEN": "discord_token",
    "DATABASE_URL": "database_url",
    "DATABASE_PATH": "database_path",
    "DATABASE_POOL_SIZE": "database_pool_size",
    "LOG_LEVEL": "log_level",
    "LOG_FORMAT": "log_format",
    "HEALTH_FILE": "health_file",
    "HEALTH_INTERVAL": "health_interval",
    "TURN_SECONDS": "turn_seconds",
    "CHOICE_SECONDS": "choice_seconds",
    "SPECIAL_SECONDS": "special_seconds",
    "LOBBY_MINUTES": "lobby_minutes",
    "DEFAULT_AI_LEVEL": "default_ai_level",
    "THREADS": "threads",
    "DEFAULT_PACE": "default_pace",
    "TURN_BASED": "turn_based",
    "DEV_GUILD_IDS": "dev_guild_ids",
    "OWNER_IDS": "owner_ids",
    "SHARD_COUNT": "shard_count",
    "SHARD_IDS": "shard_ids",
    "REQUESTS_PER_SECOND": "requests_per_second",
    "PROCESS_REQUESTS_PER_SECOND": "process_requests_per_second",
    "METRICS_PORT": "metrics_port",
    "METRICS_HOST": "metrics_host",
}
FIELD_TO_ENV = {field: env for env, field in ENV_NAMES.items()}


class ConfigError(Exception):
    """Settings that cannot start the bot; ``str()`` is one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def _id_list(value: object) -> object:
    if isinstance(value, str):
        return [part for part in value.replace(" ", ",").split(",") if part]
    return value


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    discord_token: SecretStr = Field(min_length=1)
    database_url: str | None = None  # wins over database_path; sqlite:///path or postgresql://…
    database_path: Path = Path("sixnimmt.sqlite3")
    database_pool_size: int = Field(10, ge=1, le=1000)
    log_level: str = "INFO"
    log_format: str = "text"
    health_file: Path | None = None  # None: next to the database (see ``health.heartbeat_path``)
    # Seconds between heartbeats; at most INTERVAL, so that `--health` (which calls a heartbeat
    # older than MAX_AGE stale) never fails a running bot. Shorter only where a test waits for one.
    health_interval: float = Field(INTERVAL, gt=0, le=INTERVAL)
    turn_seconds: int = Field(60, ge=TURN_SECONDS_RANGE[0], le=TURN_SECONDS_RANGE[1])
    choice_seconds: int = Field(30, ge=CHOICE_SECONDS_RANGE[0], le=CHOICE_SECONDS_RANGE[1])
    special_seconds: int = Field(20, ge=SPECIAL_SECONDS_RANGE[0], le=SPECIAL_SECONDS_RANGE[1])
    lobby_minutes: int = Field(30, ge=1, le=24 * 60)
    default_ai_level: str = "medium"
    threads: bool = True  # each game in a thread of its own (a server may choose otherwise)
    default_pace: str = "live"  # live, or turn-based with 1h, 8h or 24h a turn
    turn_based: bool = True  # whether turn-based games are allowed
    dev_guild_ids: list[PositiveInt] = []
    owner_ids: list[PositiveInt] = []
    shard_count: int | None = Field(None, ge=1)
    shard_ids: list[int] | None = None
    # Discord allows a bot token 50 requests a second in all; a margin below it (large bots get more).
    requests_per_second: float = Field(45.0, gt=0, le=100_000)
    process_requests_per_second: float | None = Field(None, gt=0, le=100_000)  # None: its shards' share
    metrics_port: int | None = Field(None, ge=1, le=65535)  # None: no metrics endpoint
    metrics_host: str = "0.0.0.0"  # every interface, as exporters listen; 127.0.0.1 keeps it on the machine

    _split_ids = field_validator("dev_guild_ids", "owner_ids", "shard_ids", mode="before")(lambda cls, v: _id_list(v))

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("database_path")
    @classmethod
    def _writable_folder(cls, value: Path) -> Path:
        return _sqlite_folder_usable(value)

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str | None) -> str | None:
        if value is None:
            return None
        path = sqlite_path(value)  # raises ValueError for an unknown scheme
        if path is not None:
            _sqlite_folder_usable(Path(path))
        return value

    @property
    def database(self) -> str:
        """What ``open_store`` opens: DATABASE_URL, else the DATABASE_PATH file."""
        return self.database_url or str(self.database_path)

    @property
    def database_label(self) -> str:
        """The database for a message or log line: a server's password never shows."""
        return redacted(self.database)

    @field_validator("discord_token")
    @classmethod
    def _bare_token(cls, value: SecretStr) -> SecretStr:
        if value.get_secret_value().lower().startswith("bot "):
            raise ValueError("paste the token alone, without the 'Bot ' in front")
        return value

    @field_validator("log_format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value.lower() not in {"text", "json"}:
            raise ValueError("must be text or json")
        return value.lower()

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT: say how many shards there are in all")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SHARD_IDS lists a shard twice")
        outside = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if outside:
            raise ValueError(
                f"SHARD_IDS {outside} are not shards of SHARD_COUNT={self.shard_count} "
                f"(they are numbered 0 to {self.shard_count - 1})"
            )
        return self

    @property
    def sharded(self) -> bool:
        """Run as an ``AutoShardedBot``: only when the deployment says how to shard."""
        return self.shard_count is not None

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (Discord's formula)."""
        if self.shard_ids is None or self.shard_count is None or guild_id is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @property
    def request_budget(self) -> float:
        """The requests a second this process may make with the token: PROCESS_REQUESTS_PER_SECOND, else
        REQUESTS_PER_SECOND shared among the shards (the token's limit holds for all processes together)."""
        if self.process_requests_per_second is not None:
            return self.process_requests_per_second
        if self.shard_ids is None or self.shard_count is None:
            return self.requests_per_second
        return self.requests_per_second * len(self.shard_ids) / self.shard_count

    @property
    def heartbeat_path(self) -> Path:
        return heartbeat_path(sqlite_path(self.database) or self.database_path, self.health_file)

    @field_validator("threads", "turn_based", mode="before")
    @classmethod
    def _yes_or_no(cls, value: object) -> object:
        if isinstance(value, str):
            word = value.strip().lower()
            if word in {"true", "yes", "on", "1"}:
                return True
            if word in {"false", "no", "off", "0"}:
                return False
            raise ValueError("must be true or false")
        return value

    @field_validator("default_pace")
    @classmethod
    def _known_pace(cls, value: str) -> str:
        pace = value.strip().lower()
        if pace not in PACES:
            raise ValueError("must be live, 1h, 8h or 24h (hours a turn of a turn-based game)")
        return pace

    @model_validator(mode="after")
    def _pace_allowed(self) -> Settings:
        if self.default_pace != "live" and not self.turn_based:
            raise ValueError(
                f"DEFAULT_PACE={self.default_pace} is a turn-based pace, but TURN_BASED=false "
                "allows no turn-based games: set DEFAULT_PACE=live or TURN_BASED=true"
            )
        return self

    @field_validator("default_ai_level")
    @classmethod
    def _known_ai_level(cls, value: str) -> str:
        level = value.lower()
        if level not in {"easy", "medium", "hard"}:
            raise ValueError("must be easy, medium or hard")
        return level


def _sqlite_folder_usable(path: Path) -> Path:
    folder = path.parent.resolve()
    if not folder.is_dir():
        raise ValueError(f"the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"the folder {folder} is not writable (SQLite writes its journal next to the file)")
    return path


def redacted(url: str) -> str:
    """``url`` without the password of ``user:password@host``."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.partition(":")[0]
    return f"{scheme}://{user}:***@{host}" if ":" in credentials else url


def read_environment(
    env_file: str | os.PathLike[str] | None = ".env", environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The raw settings: ``env_file`` (if it exists) overlaid with the environment; empty values dropped."""
    raw: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        raw.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    raw.update(os.environ if environ is None else environ)
    return {env: raw[env] for env in ENV_NAMES if raw.get(env, "").strip() != ""}


def unknown_names(env_file: str | os.PathLike[str] | None) -> list[str]:
    """A line for each name in ``env_file`` that is no setting, e.g. a typo that would be silently ignored.

    Only the file: the environment holds many other variables. Not an error,
    since docker compose reads the same file for its own COMPOSE_* and POSTGRES_* variables.
    """
    if env_file is None or not Path(env_file).is_file():
        return []
    lines = []
    for name in dotenv_values(env_file):
        if name in ENV_NAMES or name.startswith(("COMPOSE_", "POSTGRES_")):  # compose's own
            continue
        close = difflib.get_close_matches(name.upper(), ENV_NAMES, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"{env_file}: {name} is not a setting and is ignored{hint}")
    return lines


def load_settings(
    env_file: str | os.PathLike[str] | None = ".env", environ: Mapping[str, str] | None = None
) -> Settings:
    """Read and check every setting; a ``ConfigError`` says what is wrong, one line per setting."""
    raw = read_environment(env_file, environ)
    values = {ENV_NAMES[env]: value.strip() for env, value in raw.items()}
    if "discord_token" not in values:
        where = f"in {Path(env_file).resolve()}" if env_file is not None else "in the environment"
        raise ConfigError(
            [
                f"DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> {where} "
                "(copy .env.example to .env) or export it; the token is on your application's "
                "Bot page at https://discord.com/developers/applications"
            ]
        )
    try:
        return Settings.model_validate(values)
    except ValidationError as exc:
        raise ConfigError([_problem(error, raw) for error in exc.errors()]) from None


def _problem(error: ErrorDetails, raw: dict[str, str]) -> str:
    message = error["msg"].removeprefix("Value error, ")
    if not error["loc"]:  # a check across settings names them itself
        return message
    env = FIELD_TO_ENV.get(str(error["loc"][0]), str(error["loc"][0]))
    # The raw value helps find a typo; the token's never appears anywhere.
    shown = "" if env == "DISCORD_TOKEN" else f" (got {raw.get(env, '')!r})"
    return f"{env}: {message}{shown}"
