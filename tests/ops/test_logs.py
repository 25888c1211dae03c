"""Logging: one setup per process, JSON lines on request, and the token never written."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot import logs
from bot.config import Settings

TOKEN = "MTA.secret-token.value"


@pytest.fixture
def fresh_logging(monkeypatch):
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    monkeypatch.setattr(logs, "_configured", False)
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_lines_without_the_token_and_only_one_setup(fresh_logging, tmp_path):
    settings = Settings(discord_token=TOKEN, database_path=tmp_path / "db", log_format="json", log_level="INFO")
    stream = io.StringIO()
    handler = logs.setup_logging(settings, stream=stream)
    assert handler is not None and handler in logging.getLogger().handlers
    assert logs.setup_logging(settings, stream=io.StringIO()) is None, "a second setup changes nothing"
    assert logging.getLogger().handlers.count(handler) == 1

    log = logging.getLogger("discord.http")
    log.info("sending %s to Discord", f"Bot {TOKEN}")
    log.debug("not shown at INFO")
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("bot.test").exception("it failed")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["message"] for line in lines] == ["sending Bot [redacted] to Discord", "it failed"]
    assert lines[0]["logger"] == "discord.http" and lines[0]["level"] == "INFO"
    assert "ValueError: boom" in lines[1]["exception"]
    assert TOKEN not in stream.getvalue()
