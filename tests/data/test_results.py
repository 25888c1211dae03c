"""A game's result: written exactly once, all-or-nothing with its commit, validated, rated."""

from __future__ import annotations

import asyncio

import pytest

from data import writes
from data.errors import GameNotFound, InvalidTransition, ResultMismatch
from data.models import Commit, OutboxPost, SeatInfo

from .backends import raw
from .helpers import CHANNEL, GUILD, finish_game, game_result, seat_infos, start_game

SPECS = [(1, 12), (2, 30), (None, 12)]  # user 1 ties the AI for the win
RESULT_TABLES = ("results", "round_scores", "seat_stats", "seat_row_takes", "ratings")


async def row_counts(store) -> dict[str, int]:
    return {t: (await raw(store, f"SELECT count(*) FROM {t}"))[0][0] for t in RESULT_TABLES}


async def game_status(store, game_id: int) -> str:
    return (await raw(store, "SELECT status FROM games WHERE game_id = ?", game_id))[0][0]


async def test_results_are_recorded_exactly_once(store):
    gid = await start_game(store, SPECS)
    result = game_result(gid, SPECS)
    await finish_game(store, gid, result)
    counts = await row_counts(store)
    assert counts["results"] == 3 and counts["round_scores"] == 6
    assert counts["ratings"] == 4  # 2 humans x (global + guild); the AI is not rated

    await finish_game(store, gid, result)  # a no-op: the game is finished
    assert await row_counts(store) == counts
    assert await game_status(store, gid) == "finished"

    log = await store.game_log(gid)
    assert [(r.seat, r.rank, r.won) for r in log.results] == [(0, 1, True), (2, 1, True), (1, 3, False)]
    assert log.game.rounds == 2 and log.game.finished_at is not None


async def test_crash_mid_transaction_leaves_nothing_and_retry_succeeds(store, monkeypatch):
    gid = await start_game(store, SPECS)
    result = game_result(gid, SPECS)

    def crash(*args, **kwargs):
        raise RuntimeError("process killed after results were inserted")

    monkeypatch.setattr(writes, "update_ratings", crash)
    final = Commit({"over": True}, {}, [{"card": 1}], posts=[OutboxPost(seq=1, payload={"end": 1})], result=result)
    with pytest.raises(RuntimeError):
        await store.commit(gid, final)
    assert await row_counts(store) == dict.fromkeys(RESULT_TABLES, 0)
    assert await game_status(store, gid) == "playing"
    assert await raw(store, "SELECT count(*) FROM outbox") == [(0,)]
    assert await raw(store, "SELECT count(*) FROM actions") == [(0,)]

    monkeypatch.undo()
    assert await store.commit(gid, final) == 1
    assert (await row_counts(store))["results"] == 3


async def test_results_must_fit_a_playing_game(store):
    with pytest.raises(GameNotFound):
        await finish_game(store, 404, game_result(404, SPECS))
    lobby = await store.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=1,
        variant="classic",
        options={},
        seed=1,
        commit=Commit({}, {}, seats=seat_infos(SPECS)),
    )
    with pytest.raises(InvalidTransition):
        await finish_game(store, lobby, game_result(lobby, SPECS))
    gid = await start_game(store, SPECS)
    with pytest.raises(ResultMismatch):
        await finish_game(store, gid, game_result(gid, SPECS[:2]))
    with pytest.raises(ResultMismatch):
        await finish_game(store, gid, game_result(gid + 1, SPECS))
    assert await game_status(store, gid) == "playing" and await row_counts(store) == dict.fromkeys(RESULT_TABLES, 0)


async def test_a_commit_cannot_finish_without_result_or_revive(store):
    gid = await start_game(store, SPECS)
    with pytest.raises(InvalidTransition):
        await store.commit(gid, Commit({}, {}, status="finished"))
    await store.commit(gid, Commit({}, {}, status="abandoned"))
    with pytest.raises(InvalidTransition):
        await store.commit(gid, Commit({}, {}, status="playing"))
    with pytest.raises(InvalidTransition):
        await store.commit(gid, Commit({}, {}, seats=[SeatInfo(seat=0, user_id=5, display_name="x")]))
    await store.mark_shown(gid, message_id=1)  # bookkeeping stays allowed
    await store.commit(gid, Commit({}, {}, host_id=2))
    assert (await store.load_table(gid)).game.host_id == 2


async def test_ratings_reward_fewer_points_and_skip_solo_games(store, play_game):
    await play_game([(1, 5), (2, 40), (3, 40)])
    winner, loser = await store.player_stats(1), await store.player_stats(2)
    assert winner.rating.mu > 25 > loser.rating.mu
    assert winner.rating.ordinal > loser.rating.ordinal

    await play_game([(9, 0), (None, 50)])  # a lone human against the AI: unrated
    assert (await store.player_stats(9)).rating is None
    assert (await store.player_stats(9)).wins == 1


async def test_racing_duplicate_results_write_once(store):
    gid = await start_game(store, SPECS)
    result = game_result(gid, SPECS)
    outcomes = await asyncio.gather(*(finish_game(store, gid, result) for _ in range(5)))
    assert outcomes == [None] * 5
    assert (await row_counts(store))["results"] == 3
    assert (await store.player_stats(1)).rating.games == 1
