"""The bot's settings: one pydantic model read from the environment and ``.env``.

Every bad or missing value becomes one clear line naming the setting; the
token is a ``SecretStr`` so it never shows in a log line or an error.
"""

from __future__ import annotations

import os
from pathlib import Path

from dotenv import dotenv_values
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

#: Environment variable → field name. The environment wins over ``.env``.
ENV_NAMES = {
    "DISCORD_TOKEN": "discord_token",
    "DATABASE_PATH": "database_path",
    "LOG_LEVEL": "log_level",
    "TURN_SECONDS": "turn_seconds",
    "CHOICE_SECONDS": "choice_seconds",
    "SPECIAL_SECONDS": "special_seconds",
    "LOBBY_MINUTES": "lobby_minutes",
    "DEFAULT_AI_LEVEL": "default_ai_level",
    "DEV_GUILD_IDS": "dev_guild_ids",
    "OWNER_IDS": "owner_ids",
    "SHARD_COUNT": "shard_count",
    "SHARD_IDS": "shard_ids",
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
    database_path: Path = Path("sixnimmt.sqlite3")
    log_level: str = "INFO"
    turn_seconds: int = Field(60, ge=10, le=3600)
    choice_seconds: int = Field(30, ge=5, le=600)
    special_seconds: int = Field(20, ge=5, le=300)
    lobby_minutes: int = Field(30, ge=1, le=24 * 60)
    default_ai_level: str = "medium"
    dev_guild_ids: list[int] = []
    owner_ids: list[int] = []
    shard_count: int | None = Field(None, ge=1)
    shard_ids: list[int] | None = None

    _split_ids = field_validator("dev_guild_ids", "owner_ids", "shard_ids", mode="before")(
        lambda cls, v: _id_list(v)
    )

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("default_ai_level")
    @classmethod
    def _known_ai_level(cls, value: str) -> str:
        level = value.lower()
        if level not in {"easy", "medium", "hard"}:
            raise ValueError("must be easy, medium or hard")
        return level


def load_settings(env_file: str | os.PathLike | None = ".env", environ: dict | None = None) -> Settings:
    """Read settings from ``env_file`` (if it exists) overlaid with the environment."""
    raw: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        raw.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    raw.update(os.environ if environ is None else environ)
    values = {field: raw[env] for env, field in ENV_NAMES.items() if raw.get(env, "") != ""}
    if "discord_token" not in values:
        where = f"in {Path(env_file).resolve()}" if env_file is not None else "in the environment"
        raise ConfigError([
            f"DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> {where} "
            "(copy .env.example to .env) or export it; the token is on your application's "
            "Bot page at https://discord.com/developers/applications"
        ])
    try:
        return Settings(**values)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else "?"
            # pydantic echoes the input in some messages: never echo the token.
            shown = "" if field == "discord_token" else f" (got {raw.get(FIELD_TO_ENV.get(field, ''), '')!r})"
            problems.append(f"{FIELD_TO_ENV.get(field, field)}: {error['msg']}{shown}")
        raise ConfigError(problems) from None
