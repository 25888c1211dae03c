"""Two bot processes, one shard each, on one PostgreSQL database, against the Discord stand-in.

Each process serves and restores only its own guild's tables; /leaderboard and
/6nimmt stats in either count the games of both; kill -9 of one and its
restart bring its table back and leave the other process's table untouched.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.e2e.driver import highest, pick, play_game
from tests.e2e.test_crash import processes_with_env
from tests.standin import DiscordStandin
from tests.standin.fixtures import WINDOW_SCALE

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


class ShardProcess:
    """``tests/e2e/bot_process.py`` running shard ``shard`` of two."""

    def __init__(self, standin: DiscordStandin, database_url: str, shard: int, log: Path) -> None:
        self.standin, self.database_url, self.shard, self.log = standin, database_url, shard, log
        self.tag = f"SIXNIMMT_SHARD_PROCESS={os.getpid()}-{shard}-{id(self)}"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, *, sync: bool = False) -> None:
        gateway = self.standin.server.gateway
        before = len([s for s in gateway.live_sessions if s.shard and s.shard[0] == self.shard])
        name, value = self.tag.split("=")
        env = {
            **os.environ,
            **self.standin.env,
            "DATABASE_URL": self.database_url,
            "SHARD_COUNT": "2",
            "SHARD_IDS": str(self.shard),
            "SIXNIMMT_SYNC": "1" if sync else "",
            name: value,
            "HEALTH_FILE": str(self.log.with_suffix(".health")),
        }  # not next to a database file
        with open(self.log, "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "tests" / "e2e" / "bot_process.py"),
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=log,
            )
        await self.standin.world.wait_until(
            lambda: (
                self.proc.returncode is not None
                or len([s for s in gateway.live_sessions if s.shard and s.shard[0] == self.shard]) > before
            ),
            30,
            f"shard {self.shard} did not connect; see {self.log}",
        )
        assert self.proc.returncode is None, self.log.read_text()

    async def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self.proc.wait(), 10)
        await self.standin.world.wait_until(
            lambda: not processes_with_env(self.tag), 10, "a process of the killed bot is still running"
        )

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


async def play_alone(standin, channel, player) -> None:
    """One human (and an easy AI) play a one-round game to its standings: highest card, first row
    when asked. Its messages may come no faster than Discord's bucket for a channel lets them (about
    one a second under the stand-in's limits): each move may wait 10 s for the next."""
    await play_game(standin, channel, [player], card=highest, timeout=10)


async def checkpoint_row(url: str, game_id: int):
    conn = await asyncpg.connect(url)
    try:
        return tuple(
            await conn.fetchrow("SELECT last_seq, state, meta, updated_at FROM checkpoints WHERE game_id = $1", game_id)
        )
    finally:
        await conn.close()


async def game_in(url: str, channel_id: int) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT max(game_id) FROM games WHERE channel_id = $1", channel_id)
    finally:
        await conn.close()


async def test_two_shard_processes_share_one_postgresql_database(tmp_path, postgres_url):
    async with DiscordStandin(ack_deadline=10, rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        guilds = []
        while len({(g.id >> 22) % 2 for g in guilds}) < 2:  # a guild on each shard
            guilds.append(standin.add_guild(f"g{len(guilds)}"))
        guild = {(g.id >> 22) % 2: g for g in guilds}
        channel = {shard: standin.add_text_channel(g, "games") for shard, g in guild.items()}
        first = standin.add_member(guild[0], "dana")
        dana = {0: first, 1: standin.add_member(guild[1], first.user)}  # one user, in both servers
        processes = {
            shard: ShardProcess(standin, postgres_url, shard, tmp_path / f"shard{shard}.log") for shard in (0, 1)
        }
        try:
            await processes[0].start(sync=True)
            await standin.wait_for_commands("6nimmt", "leaderboard", timeout=10)
            await processes[1].start()

            # A game in each server, each served by its own process.
            for shard in (0, 1):
                lobby = await (
                    await standin.slash(
                        dana[shard], channel[shard], "6nimmt start", rounds=1, ai_players=1, ai_level="easy"
                    )
                ).reply(timeout=10)
                started = await standin.click(dana[shard], lobby, lobby.button("Start")["custom_id"])
                assert await started.ack() == 6, started.original and started.original.content
            await asyncio.gather(*(play_alone(standin, channel[s], dana[s]) for s in (0, 1)))

            # Either process sees the games of both.
            for shard in (0, 1):
                board = await (
                    await standin.slash(dana[shard], channel[shard], "leaderboard", scope="global", metric="games")
                ).reply(timeout=10)
                assert "dana" in board.embed["description"] and "2 games" in board.embed["description"], board.embed
                here = await (await standin.slash(dana[shard], channel[shard], "leaderboard", metric="games")).reply(
                    timeout=10
                )
                assert "1 game" in here.embed["description"], here.embed
                stats = await (await standin.slash(dana[shard], channel[shard], "6nimmt stats", scope="global")).reply(
                    timeout=10
                )
                assert any(
                    f["value"].startswith("2") for f in stats.embed["fields"] if f["name"].lower().startswith("games")
                ), stats.embed

            # A running table in each server; then shard 0's process is killed and restarted.
            live = {}
            for shard in (0, 1):
                lobby = await (
                    await standin.slash(
                        dana[shard], channel[shard], "6nimmt start", rounds=1, ai_players=1, ai_level="easy"
                    )
                ).reply(timeout=10)
                await (await standin.click(dana[shard], lobby, lobby.button("Start")["custom_id"])).ack()
                live[shard] = await standin.wait_for_message(  # the earlier games' messages keep their buttons
                    lambda m, c=channel[shard], after=lobby.id: (
                        m.channel.id == c.id
                        and not m.ephemeral
                        and m.id > after
                        and any(i.startswith("6n:h:") for i in m.custom_ids)
                    ),
                    10,
                )
            games = {shard: await game_in(postgres_url, channel[shard].id) for shard in (0, 1)}
            other_before = await checkpoint_row(postgres_url, games[1])

            await processes[0].kill()
            await processes[0].start()

            restored = [line for line in processes[0].log.read_text().splitlines() if line.startswith("RESTORED")]
            assert restored[-1] == f"RESTORED {[games[0]]}", "the restarted process took only its own table back"
            assert await checkpoint_row(postgres_url, games[1]) == other_before, (
                "the restarted process wrote the other shard's table"
            )
            for shard in (0, 1):  # both tables play on, through the buttons of their messages
                answer = await pick(standin, dana[shard], standin.message(live[shard].id), highest, timeout=10)
                assert "face down" in answer.content or "You played" in answer.content, answer.content
            assert (await checkpoint_row(postgres_url, games[0]))[0] >= 1
            assert (await checkpoint_row(postgres_url, games[1]))[0] >= 1
            standin.assert_no_errors()
            # The limit is the bot token's: two processes, each keeping to its share, stay under it together.
            figures = standin.rate_limits.figures()
            assert figures.bot_requests > 0 and max(figures.per_second) <= 45, figures.per_second
            assert sum(figures.too_many.values()) == 0 and figures.invalid == 0, figures
        finally:
            for process in processes.values():
                await process.stop()
