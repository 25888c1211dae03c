"""What the channel is still owed survives the end of a table: load_unshown, load_table,
and seats an AI finished for a player."""

from __future__ import annotations

from data.models import RestoredTable, SeatResult

from .helpers import game_result, start_game

TWO_HUMANS = [(1, 10), (2, 20)]


async def test_ended_tables_with_news_to_show_are_found_until_shown(store):
    finished = await start_game(store, TWO_HUMANS)
    await store.checkpoint(finished, {"s": 1}, {"outbox": ["standings"]}, unshown=True)
    await store.record_results(finished, game_result(finished, TWO_HUMANS))
    shown = await start_game(store, TWO_HUMANS)
    await store.checkpoint(shown, {"s": 2}, {"outbox": []}, unshown=False)
    await store.record_results(shown, game_result(shown, TWO_HUMANS))
    cancelled = await start_game(store, TWO_HUMANS)
    await store.update_game(cancelled, status="cancelled")
    await store.checkpoint(cancelled, {"s": 3}, {"outbox": ["closed"]}, unshown=True)
    playing = await start_game(store, TWO_HUMANS)
    await store.checkpoint(playing, {"s": 4}, {"outbox": ["reveal"]}, unshown=True)

    owed = await store.load_unshown()
    # A playing table is restored by load_unfinished, not here.
    assert [t.game.game_id for t in owed] == [finished, cancelled]
    assert all(isinstance(t, RestoredTable) for t in owed)
    assert owed[0].checkpoint.meta == {"outbox": ["standings"]}
    assert owed[0].game.status == "finished"

    # Once shown, the next checkpoint clears the mark.
    await store.checkpoint(finished, {"s": 1}, {"outbox": []}, unshown=False)
    assert [t.game.game_id for t in await store.load_unshown()] == [cancelled]


async def test_load_table_reads_one_table_in_any_status(store):
    finished = await start_game(store, TWO_HUMANS)
    await store.checkpoint(finished, {"s": 1}, {"seats": "meta"})
    await store.record_results(finished, game_result(finished, TWO_HUMANS))
    table = await store.load_table(finished)
    assert isinstance(table, RestoredTable)
    assert table.game.status == "finished" and table.checkpoint.meta == {"seats": "meta"}
    assert [s.user_id for s in table.seats] == [1, 2]
    assert await store.load_table(finished + 100) is None


async def test_a_seat_an_ai_finished_counts_for_its_player(store):
    specs = [(1, 30), (2, 20)]
    game_id = await start_game(store, specs)
    result = game_result(game_id, specs)
    taken_over = result.seats[0].model_copy(update={"ai_level": "medium"})
    assert isinstance(taken_over, SeatResult) and taken_over.finished_by_ai
    result = result.model_copy(update={"seats": [taken_over, result.seats[1]]})
    assert await store.record_results(game_id, result)

    stats = await store.player_stats(1)
    assert stats.games == 1 and stats.wins == 0 and stats.finished_by_ai == 1
    assert (await store.player_stats(2)).finished_by_ai == 0
    board = await store.leaderboard(None, "games")
    assert sorted(e.user_id for e in board.entries) == [1, 2]
    # Leaving is no way to dodge a loss: the rating counts the game too.
    assert stats.rating is not None and stats.rating.games == 1
