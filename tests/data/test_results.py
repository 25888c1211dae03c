"""record_results: exactly once, all-or-nothing, validated, rated."""

from __future__ import annotations

import asyncio

import pytest

from data.postgres import writes as postgres_writes
from data.sqlite import writes as sqlite_writes
from data.errors import GameNotFound, InvalidTransition, ResultMismatch
from data.models import SeatInfo

from .backends import raw
from .helpers import CHANNEL, GUILD, game_result, start_game

SPECS = [(1, 12), (2, 30), (None, 12)]  # user 1 ties the AI for the win
RESULT_TABLES = ("results", "round_scores", "seat_stats", "seat_row_takes", "ratings")


async def row_counts(store) -> dict[str, int]:
    return {t: (await raw(store, f"SELECT count(*) FROM {t}"))[0][0] for t in RESULT_TABLES}


async def game_status(store, game_id: int) -> str:
    return (await raw(store, "SELECT status FROM games WHERE game_id = ?", game_id))[0][0]


async def test_results_are_recorded_exactly_once(store):
    gid = await start_game(store, SPECS)
    result = game_result(gid, SPECS)
    assert await store.record_results(gid, result) is True
    counts = await row_counts(store)
    assert counts["results"] == 3 and counts["round_scores"] == 6
    assert counts["ratings"] == 4  # 2 humans x (global + guild); the AI is not rated

    assert await store.record_results(gid, result) is False
    assert await row_counts(store) == counts
    assert await game_status(store, gid) == "finished"

    log = await store.game_log(gid)
    assert [(r.seat, r.rank, r.won) for r in log.results] == [
        (0, 1, True), (2, 1, True), (1, 3, False)
    ]
    assert log.game.rounds == 2 and log.game.finished_at is not None


async def test_crash_mid_transaction_leaves_nothing_and_retry_succeeds(
    store, monkeypatch
):
    gid = await start_game(store, SPECS)
    result = game_result(gid, SPECS)

    def crash(*args, **kwargs):
        raise RuntimeError("process killed after results were inserted")

    monkeypatch.setattr(sqlite_writes, "update_ratings", crash)
    monkeypatch.setattr(postgres_writes, "update_ratings", crash)
    with pytest.raises(RuntimeError):
        await store.record_results(gid, result)
    assert await row_counts(store) == dict.fromkeys(RESULT_TABLES, 0)
    assert await game_status(store, gid) == "playing"

    monkeypatch.undo()
    assert await store.record_results(gid, result) is True
    assert (await row_counts(store))["results"] == 3


async def test_results_must_fit_a_playing_game(store):
    with pytest.raises(GameNotFound):
        await store.record_results(404, game_result(404, SPECS))
    lobby = await store.create_game(guild_id=GUILD, channel_id=CHANNEL, host_id=1,
                                    variant="classic")
    with pytest.raises(InvalidTransition):
        await store.record_results(lobby, game_result(lobby, SPECS))
    gid = await start_game(store, SPECS)
    with pytest.raises(ResultMismatch):
        await store.record_results(gid, game_result(gid, SPECS[:2]))
    with pytest.raises(ResultMismatch):
        await store.record_results(gid, game_result(gid + 1, SPECS))


async def test_update_game_cannot_finish_or_revive(store):
    gid = await start_game(store, SPECS)
    with pytest.raises(InvalidTransition):
        await store.update_game(gid, status="finished")
    await store.update_game(gid, status="abandoned")
    with pytest.raises(InvalidTransition):
        await store.update_game(gid, status="playing")
    with pytest.raises(InvalidTransition):
        await store.update_game(gid, seats=[SeatInfo(seat=0, user_id=5, display_name="x")])
    await store.update_game(gid, message_ids={"table": 1})  # bookkeeping stays allowed


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
    outcomes = await asyncio.gather(*(store.record_results(gid, result) for _ in range(5)))
    assert sorted(outcomes) == [False] * 4 + [True]
    assert (await row_counts(store))["results"] == 3
