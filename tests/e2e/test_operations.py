"""``python -m bot`` itself against the stand-in: --sync, --health, and a clean stop on SIGTERM.

The process runs the real ``bot.__main__.main``; the only difference from
production is that discord.py is pointed at the stand-in first.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.standin import DiscordStandin

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = (
    "import sys; from tests.standin import apply_env_overrides; apply_env_overrides(); "
    "from bot.__main__ import main; sys.exit(main(sys.argv[1:]))"
)

pytestmark = pytest.mark.slow


def bot_env(standin, tmp_path, **extra) -> dict[str, str]:
    return {
        **os.environ,
        **standin.env,
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "LOG_FORMAT": "json",
        "DEV_GUILD_IDS": "",
        "PYTHONPATH": str(ROOT),
        **extra,
    }


async def run_cli(env, *args, timeout=30) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCH,
        *args,
        env=env,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, out.decode(), err.decode()


async def test_sync_run_health_and_sigterm(tmp_path):
    async with DiscordStandin() as standin:
        guild = standin.add_guild("Bullpen")
        channel = standin.add_text_channel(guild, "games")
        alice = standin.add_member(guild, "alice")
        # A heartbeat every 0.2 s rather than 20: the health check below waits for the first
        # one written after the gateway is up.
        env = bot_env(standin, tmp_path, DEV_GUILD_IDS=str(guild.id), HEALTH_INTERVAL="0.2")

        # --sync dev: the commands reach the development guild, with their German names.
        code, out, err = await run_cli(env, "--sync", "dev")
        assert code == 0, err
        assert out.strip() == f"synced 3 command(s) to guild {guild.id} (they show there at once)"
        synced = standin.commands(guild)
        assert set(synced) == {"6nimmt", "leaderboard", "6nimmt-admin"}
        assert synced["leaderboard"]["name_localizations"]["de"] == "rangliste"
        assert standin.commands() == {}, "nothing was synced globally"

        # Before the bot runs, the health check fails.
        code, _, err = await run_cli(env, "--health")
        assert code == 1 and "no heartbeat" in err

        log_path = tmp_path / "bot.log"
        with open(log_path, "wb") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LAUNCH, env=env, cwd=ROOT, stdout=log, stderr=log
            )
        try:
            for _ in range(100):  # the heartbeat says "ready" once the gateway is up
                code, out, _ = await run_cli(env, "--health")
                if code == 0:
                    break
                assert proc.returncode is None, log_path.read_text()
                await asyncio.sleep(0.2)
            assert code == 0 and out.startswith("healthy: connected"), log_path.read_text()

            lobby = await (await standin.slash(alice, channel, "6nimmt start", rounds=1)).reply(timeout=10)
            assert lobby.button("Join")

            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 20) == 0, log_path.read_text()
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()

        records = [json.loads(line) for line in log_path.read_text().splitlines() if line.startswith("{")]
        messages = [r["message"] for r in records]
        assert "SIGTERM received: shutting down" in messages
        assert "table service stopped; 1 open table(s) saved" in messages
        assert messages[-1] == "shut down cleanly"
        assert standin.token not in log_path.read_text()
        assert not (tmp_path / "bot.sqlite3-wal").exists(), "the store was closed (SQLite removes its WAL)"
        assert not (tmp_path / "bot.sqlite3.health").exists()
        with sqlite3.connect(tmp_path / "bot.sqlite3") as db:
            (status,) = db.execute("SELECT status FROM games").fetchone()
        assert status == "lobby", "the open lobby is kept for the next start"
        code, _, err = await run_cli(env, "--health")
        assert code == 1


async def test_sync_reports_a_refused_token_or_guild(tmp_path):
    async with DiscordStandin() as standin:
        env = bot_env(standin, tmp_path, DISCORD_TOKEN="not-the-token")
        code, out, err = await run_cli(env, "--sync")
        assert code == 1 and out == ""
        assert err.strip().splitlines()[-1] == (
            "error: Discord refused the token: check DISCORD_TOKEN (it is on your application's Bot page)"
        )
        assert "Traceback" not in err
        code, out, err = await run_cli(bot_env(standin, tmp_path), "--sync", "4242")  # a guild without the bot
        assert code == 1 and out == ""
        assert err.strip().splitlines()[-1] == (
            "error: Discord refused (Missing Access): is the bot in that "
            "guild, invited with the applications.commands scope?"
        )


async def test_an_unusable_database_or_an_unreachable_discord_is_one_line(tmp_path):
    async with DiscordStandin() as standin:
        env = bot_env(standin, tmp_path)
        with sqlite3.connect(tmp_path / "bot.sqlite3") as db:
            db.execute("PRAGMA user_version = 999")  # written by a newer bot
        code, _, err = await run_cli(env)
        assert code == 1, err
        (line,) = [
            json.loads(line)["message"]
            for line in err.splitlines()
            if line.startswith("{") and json.loads(line)["level"] == "ERROR"
        ]
        assert line.startswith(f"the database {tmp_path / 'bot.sqlite3'} cannot be used: database schema version 999")
        assert "Traceback" not in err

        notes = tmp_path / "notes.txt"
        notes.write_text("these are my notes, not a database\n" * 200)
        before = notes.read_bytes()
        code, _, err = await run_cli(bot_env(standin, tmp_path, DATABASE_URL=f"sqlite:///{notes}"))
        assert code == 1, err
        (line,) = [
            json.loads(line)["message"]
            for line in err.splitlines()
            if line.startswith("{") and json.loads(line)["level"] == "ERROR"
        ]
        assert line == (
            f"the database sqlite:///{notes} cannot be used: {notes} is not an SQLite database file; "
            "point DATABASE_URL or DATABASE_PATH at the bot's database, or at a new file"
        )
        assert "Traceback" not in err and notes.read_bytes() == before

        nowhere = "postgresql://bot:s3cret@127.0.0.1:9/sixnimmt"  # nothing listens on port 9
        code, _, err = await run_cli(bot_env(standin, tmp_path, DATABASE_URL=nowhere))
        assert code == 1, err
        (line,) = [
            json.loads(line)["message"]
            for line in err.splitlines()
            if line.startswith("{") and json.loads(line)["level"] == "ERROR"
        ]
        assert line.startswith(
            "the database postgresql://bot:***@127.0.0.1:9/sixnimmt cannot be used: "
            "the database server cannot be reached"
        ), line
        assert "Traceback" not in err and "s3cret" not in err

        env = bot_env(
            standin,
            tmp_path,
            DATABASE_PATH=str(tmp_path / "new.sqlite3"),
            DISCORD_API_BASE="http://127.0.0.1:9/api/v10",
        )  # nothing listens on port 9
        code, _, err = await run_cli(env)
        assert code == 1, err
        assert "cannot reach Discord" in err and "Traceback" not in err
