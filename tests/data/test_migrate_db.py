"""``python -m bot migrate-db``: a database filled by real games answers alike after the move."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from bot.__main__ import main
from data.models import Commit, Metric, OutboxPost, SeatResult
from data.postgres import PostgresStore
from data.sqlite import SQLiteStore

from .backends import all_rows, raw
from .helpers import GUILD, TickingClock, finish_game, game_result, start_game

OTHER_GUILD = 3000
USERS = list(range(1, 9))
ROOT = Path(__file__).resolve().parents[2]


async def fill(store: SQLiteStore) -> list[int]:
    """Finished games in two guilds (AI seats, a seat an AI finished, ties), a forgotten player,
    action logs, a lobby, a running table and a cancelled one whose news is still unshown."""
    rng = random.Random(18)
    games = []
    for n in range(30):
        players = rng.sample(USERS, rng.randint(1, 4)) + [None] * rng.randint(0, 2)  # a human first
        specs = [(uid, rng.choice([0, 5, 5, 12, 30, 66])) for uid in players]
        if len(specs) < 2:
            specs.append((None, 40))
        guild = GUILD if n % 3 else OTHER_GUILD
        gid = await start_game(store, specs, guild)
        for turn in range(rng.randint(0, 6)):
            await store.commit(
                gid,
                Commit(
                    {"turn": turn},
                    {"host_id": specs[0][0], "seats": []},
                    [{"seat": 0, "card": turn + 1}],
                    posts=[OutboxPost(seq=turn + 1, payload={"turn": turn})],
                ),
            )
        result = game_result(gid, specs, rounds=rng.randint(1, 3))
        if n % 7 == 0:  # an AI finished the first player's game
            seats = [SeatResult(**{**s.model_dump(), "ai_level": "hard"}) if s.seat == 0 else s for s in result.seats]
            result = result.model_copy(update={"seats": seats})
        await finish_game(store, gid, result)
        await store.mark_shown(gid, upto=rng.randint(0, 6), message_id=700 + n)
        games.append(gid)
    await store.forget_player(8)
    games.append(
        await store.create_game(
            guild_id=GUILD, channel_id=5, host_id=1, variant="classic", options={}, seed=3, commit=Commit({}, {})
        )
    )
    running = await start_game(store, [(1, 0), (None, 0)])
    await store.commit(running, Commit({"turn": 3}, {"seats": []}, [{"card": 9}]))
    cancelled = await start_game(store, [(2, 0), (3, 0)], OTHER_GUILD)
    await store.commit(
        cancelled, Commit({"end": True}, {}, posts=[OutboxPost(seq=1, payload={"k": "closed"})], status="cancelled")
    )
    for guild, name in ((GUILD, "Bullpen"), (OTHER_GUILD, "Paddock")):  # named by an earlier release
        await raw(store, "UPDATE guilds SET name = ? WHERE guild_id = ?", name, guild)
    return games + [running, cancelled]


async def answers(store, games: list[int]) -> dict:
    """Every leaderboard (each metric, each scope), rank, stats, history and game log."""
    out: dict = {}
    for scope in (GUILD, OTHER_GUILD, None):
        for metric in get_args(Metric):
            out[("board", scope, metric)] = (await store.leaderboard(scope, metric, limit=100)).model_dump()
            out[("board2", scope, metric)] = (
                await store.leaderboard(scope, metric, min_games=3, limit=3, offset=2)
            ).model_dump()
            for user in USERS:
                rank = await store.rank_of(user, scope, metric)
                out[("rank", scope, metric, user)] = rank and rank.model_dump()
        for user in USERS:
            out[("stats", scope, user)] = (await store.player_stats(user, scope)).model_dump()
        out[("history", scope)] = [h.model_dump() for h in await store.history(scope, limit=100)]
    for gid in games:
        out[("log", gid)] = (await store.game_log(gid)).model_dump()
        out[("table", gid)] = (await store.load_table(gid)).model_dump()
    out["unfinished"] = [t.model_dump() for t in await store.load_unfinished()]
    out["unshown"] = [t.model_dump() for t in await store.load_unshown()]
    return out


async def test_a_filled_database_answers_alike_after_the_move(tmp_path, postgres_cluster):
    source = tmp_path / "bot.sqlite3"
    async with await SQLiteStore.open(source, clock=TickingClock()) as store:
        games = await fill(store)
        before = await answers(store, games)
        rows = {table: len(r) for table, r in (await all_rows(store)).items() if table != "sqlite_sequence"}
    assert before[("stats", None, 1)]["games"] > 3 and any(
        before[("stats", None, u)]["finished_by_ai"] for u in USERS
    ), "the data covers what it claims"
    assert rows["outbox"] and len(before["unshown"]) > 1
    target = await postgres_cluster.empty_database()

    assert await asyncio.to_thread(main, ["migrate-db", "--from", f"sqlite:///{source}", "--to", target]) == 0

    async with await PostgresStore.open(target) as moved:
        assert await answers(moved, games) == before
        assert {t: len(r) for t, r in (await all_rows(moved)).items() if t != "schema_version"} == rows
        new = await moved.create_game(
            guild_id=GUILD, channel_id=1, host_id=None, variant="classic", options={}, seed=1, commit=Commit({}, {})
        )
        assert new == max(games) + 1, "new games continue after the copied ones"


async def test_both_schemas_have_the_same_tables_and_columns_and_the_copy_knows_them_all(tmp_path, postgres_url):
    from data.postgres.schema import TABLES

    async with await SQLiteStore.open(tmp_path / "bot.sqlite3") as lite, await PostgresStore.open(postgres_url) as pg:
        lite_columns = {
            t: [c[1] for c in await raw(lite, f"PRAGMA table_info({t})")]
            for t in await all_rows(lite)
            if t != "sqlite_sequence"
        }
        pg_columns = {
            t: [
                c[0]
                for c in await raw(
                    pg,
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
                    t,
                )
            ]
            for t in await all_rows(pg)
            if t != "schema_version"
        }
    assert lite_columns == pg_columns
    assert set(TABLES) == set(lite_columns)


async def test_a_target_with_games_is_refused_and_left_alone(tmp_path, postgres_cluster, capsys):
    source = tmp_path / "bot.sqlite3"
    async with await SQLiteStore.open(source) as store:
        await start_game(store, [(1, 0), (2, 0)])
    target = await postgres_cluster.fresh_database()
    async with await PostgresStore.open(target) as pg:
        await start_game(pg, [(5, 0), (6, 0)])
        before = await all_rows(pg)
    assert await asyncio.to_thread(main, ["migrate-db", "--from", f"sqlite:///{source}", "--to", target]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: migrate-db: the target database is not empty (")
    async with await PostgresStore.open(target) as pg:
        assert await all_rows(pg) == before


@pytest.mark.parametrize(
    "source, target, message",
    [
        ("sqlite:///{tmp}/missing.sqlite3", "postgresql://nobody@127.0.0.1:1/x", "no such database file"),
        ("postgresql://a@b/c", "sqlite:///x.sqlite3", "copy from an SQLite database"),
        ("sqlite:///{tmp}/notes.txt", "postgresql://nobody@127.0.0.1:1/x", "is not an SQLite database file"),
    ],
)
def test_bad_arguments_are_one_line_and_a_non_zero_exit(tmp_path, source, target, message):
    (tmp_path / "notes.txt").write_text("not a database\n" * 100)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--from", source.format(tmp=tmp_path), "--to", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: migrate-db: ") and message in line
