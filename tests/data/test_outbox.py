"""What the channel is still owed: posts in the outbox until marked shown, load_unshown,
load_table, and seats an AI finished for a player."""

from __future__ import annotations

import asyncio

from data.models import Commit, OutboxPost, RestoredTable, SeatResult

from .backends import raw
from .helpers import finish_game, game_result, start_game

TWO_HUMANS = [(1, 10), (2, 20)]


def post(seq: int, kind: str = "turn") -> OutboxPost:
    return OutboxPost(seq=seq, payload={"seq": seq, "kind": kind})


async def test_posts_are_owed_until_marked_shown(store):
    gid = await start_game(store, TWO_HUMANS)
    await store.commit(gid, Commit({"s": 1}, {"post_seq": 2}, posts=[post(1), post(2)]))
    await store.commit(gid, Commit({"s": 2}, {"post_seq": 3}, posts=[post(3)]))
    [table] = await store.load_unfinished()
    assert table.posts == [post(1), post(2), post(3)] and table.message_id is None
    before = await raw(store, "SELECT state, meta, updated_at FROM checkpoints")

    await store.mark_shown(gid, upto=2, message_id=77)
    await store.mark_shown(gid, upto=2, message_id=77)  # idempotent
    [table] = await store.load_unfinished()
    assert table.posts == [post(3)] and table.message_id == 77 == table.game.message_id
    assert await raw(store, "SELECT state, meta, updated_at FROM checkpoints") == before, "no re-checkpoint"
    await store.mark_shown(gid, message_id=78)
    await store.mark_shown(gid, upto=3)
    [table] = await store.load_unfinished()
    assert table.posts == [] and table.message_id == 78


async def test_marks_and_commits_of_one_game_apply_in_call_order(store):
    gid = await start_game(store, TWO_HUMANS)
    await asyncio.gather(
        store.commit(gid, Commit({}, {}, posts=[post(1), post(2)])),
        store.mark_shown(gid, upto=2),
        store.commit(gid, Commit({"last": True}, {}, [{"card": 1}], posts=[post(3)])),
        store.mark_shown(gid, upto=1, message_id=9),
    )
    table = await store.load_table(gid)
    assert table.posts == [post(3)] and table.message_id == 9
    assert table.checkpoint.state == {"last": True} and table.checkpoint.last_seq == 1


async def test_ended_tables_with_news_to_show_are_found_until_shown(store):
    finished = await start_game(store, TWO_HUMANS)
    await store.commit(
        finished, Commit({"s": 1}, {}, posts=[post(1, "standings")], result=game_result(finished, TWO_HUMANS))
    )
    shown = await start_game(store, TWO_HUMANS)
    await store.commit(shown, Commit({"s": 2}, {}, posts=[post(1)]))
    await finish_game(store, shown, game_result(shown, TWO_HUMANS))
    await store.mark_shown(shown, upto=1)
    cancelled = await start_game(store, TWO_HUMANS)
    await store.commit(cancelled, Commit({"s": 3}, {}, posts=[post(4, "closed")], status="cancelled"))
    playing = await start_game(store, TWO_HUMANS)
    await store.commit(playing, Commit({"s": 4}, {}, posts=[post(1, "reveal")]))

    owed = await store.load_unshown()
    # A playing table is restored by load_unfinished, not here.
    assert [t.game.game_id for t in owed] == [finished, cancelled]
    assert all(isinstance(t, RestoredTable) for t in owed)
    assert owed[0].posts == [post(1, "standings")] and owed[0].game.status == "finished"
    assert owed[1].posts == [post(4, "closed")] and owed[1].game.status == "cancelled"

    await store.mark_shown(finished, upto=1)
    assert [t.game.game_id for t in await store.load_unshown()] == [cancelled]


async def test_a_damaged_post_is_a_corrupt_table_not_a_crash(store):
    games = [await start_game(store, TWO_HUMANS) for _ in range(2)]
    for gid in games:
        await store.commit(gid, Commit({}, {}, posts=[post(1)]))
    await raw(store, "UPDATE outbox SET payload = '[1]' WHERE game_id = ?", games[0])
    tables = await store.load_unfinished()
    assert getattr(tables[0], "reason", "").startswith(f"game {games[0]} post 1 is not a JSON object")
    assert tables[1].posts == [post(1)]


async def test_load_table_reads_one_table_in_any_status(store):
    finished = await start_game(store, TWO_HUMANS)
    await store.commit(finished, Commit({"s": 1}, {"seats": "meta"}, result=game_result(finished, TWO_HUMANS)))
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
    await finish_game(store, game_id, result)

    stats = await store.player_stats(1)
    assert stats.games == 1 and stats.wins == 0 and stats.finished_by_ai == 1
    assert (await store.player_stats(2)).finished_by_ai == 0
    board = await store.leaderboard(None, "games")
    assert sorted(e.user_id for e in board.entries) == [1, 2]
    # Leaving is no way to dodge a loss: the rating counts the game too.
    assert stats.rating is not None and stats.rating.games == 1
