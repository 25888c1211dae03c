"""Logging, set up once for the whole process (discord.py's loggers included).

``text`` is discord.py's own readable format; ``json`` writes one object per line
for log collectors. A filter blanks the token wherever it might appear, so not
even a library's debug line can leak it.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import TextIO

import discord

from .config import Settings

_configured = False


class JSONFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class RedactSecret(logging.Filter):
    """Replaces ``secret`` in every record's final message (arguments merged) with ``[redacted]``."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secret:
            message = record.getMessage()
            if self.secret in message:
                record.msg, record.args = message.replace(self.secret, "[redacted]"), None
        return True


def setup_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler | None:
    """Configure the root logger once; a second call changes nothing and returns None."""
    global _configured
    if _configured:
        return None
    _configured = True
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(RedactSecret(settings.discord_token.get_secret_value()))
    formatter = JSONFormatter() if settings.log_format == "json" else discord.utils.MISSING  # discord.py's own
    discord.utils.setup_logging(
        handler=handler, formatter=formatter, level=getattr(logging, settings.log_level), root=True
    )
    return handler
