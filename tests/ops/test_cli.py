"""``python -m bot``: every bad setting or argument is one ``error:`` line and exit code 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA.secret-token.value"


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A clean environment (no settings from the machine) and an empty working directory."""
    from bot.config import ENV_NAMES

    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def errors(capsys) -> list[str]:
    return capsys.readouterr().err.splitlines()


def test_no_token_is_one_clear_line(env, capsys):
    assert main([]) == 2
    (line,) = errors(capsys)
    assert line.startswith("error: DISCORD_TOKEN is not set") and ".env.example" in line


def test_bad_settings_are_one_line_each_without_the_token(env, capsys):
    env.setenv("DISCORD_TOKEN", TOKEN)
    env.setenv("TURN_SECONDS", "soon")
    env.setenv("SHARD_COUNT", "none")
    assert main([]) == 2
    lines = errors(capsys)
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)
    assert any("TURN_SECONDS" in line for line in lines) and any("SHARD_COUNT" in line for line in lines)
    assert not any(TOKEN in line for line in lines)


def test_a_missing_env_file_is_named(env, capsys):
    assert main(["--env-file", "nowhere.env"]) == 2
    assert errors(capsys) == ["error: --env-file nowhere.env: no such file"]


def test_the_env_file_is_read_and_a_misspelt_name_is_pointed_out(env, capsys, tmp_path):
    (tmp_path / "bot.env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=chatty\nTURN_SECOND=30\nCOMPOSE_PROJECT_NAME=x\n")
    assert main(["--env-file", "bot.env"]) == 2
    assert errors(capsys) == [
        "warning: bot.env: TURN_SECOND is not a setting and is ignored (did you mean TURN_SECONDS?)",
        "error: LOG_LEVEL: must be DEBUG, INFO, WARNING, ERROR or CRITICAL (got 'chatty')",
    ]


@pytest.mark.parametrize(
    "target, message",
    [
        ("12ab", "--sync: '12ab' is not a guild id (a number), 'dev' or 'global'"),
        ("-5", "--sync: '-5' is not a guild id"),
        ("dev", "--sync dev: DEV_GUILD_IDS is empty"),
    ],
)
def test_a_bad_sync_target_is_refused_before_connecting(env, capsys, target, message):
    env.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["--sync", target]) == 2
    (line,) = errors(capsys)
    assert line.startswith(f"error: {message}")


def test_sync_and_health_do_not_mix(env, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--sync", "--health"])
    assert exited.value.code == 2 and "not allowed with" in capsys.readouterr().err


def test_health_needs_no_token_and_reads_the_heartbeat(env, capsys, tmp_path):
    env.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    assert main(["--health"]) == 1
    assert "no heartbeat at" in capsys.readouterr().err
    beat = tmp_path / "db.sqlite3.health"
    beat.write_text(json.dumps({"time": time.time(), "ready": True, "tables": 2}))
    assert main(["--health"]) == 0
    assert capsys.readouterr().out.startswith("healthy: connected, 2 table(s)")
    beat.write_text(json.dumps({"time": time.time(), "ready": False}))
    assert main(["--health"]) == 1
    assert "not connected" in capsys.readouterr().err
    beat.write_text(json.dumps({"time": time.time() - 600, "ready": True}))
    assert main(["--health"]) == 1
    assert "s old" in capsys.readouterr().err
    beat.write_text(json.dumps({"time": time.time(), "ready": True, "tables": 2}))
    env.setenv("HEALTH_FILE", str(tmp_path / "elsewhere"))
    assert main(["--health"]) == 1  # HEALTH_FILE wins over the database's (healthy) neighbour
    (tmp_path / "elsewhere").write_text(json.dumps({"time": time.time(), "ready": True, "tables": 0}))
    assert main(["--health"]) == 0


def test_python_dash_m_bot_without_a_token_exits_2_with_one_line(tmp_path):
    clean = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN"}}
    clean["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].startswith("error: DISCORD_TOKEN is not set")
    assert "Traceback" not in done.stderr
