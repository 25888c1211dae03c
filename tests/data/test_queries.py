"""Leaderboards, own rank, player statistics, history and game logs."""

from __future__ import annotations

import pytest

from data.errors import GameNotFound, PlayerInActiveGame, UnknownMetric
from data.models import DELETED_PLAYER_NAME, Commit, OutboxPost

from .backends import all_rows
from .helpers import GUILD, start_game

OTHER_GUILD = 3000


@pytest.fixture
async def season(play_game) -> list[int]:
    """In GUILD, (games, wins): user1 (3, 2), user2 (4, 2), user3 (2, 1), user4 (2, 0),
    user5 (1, 0). User 3 also plays user 9 in OTHER_GUILD. Lowest points win."""
    return [
        await play_game([(1, 5), (2, 20), (4, 30)]),
        await play_game([(2, 3), (1, 9), (4, 40)]),
        await play_game([(1, 0), (3, 10)]),
        await play_game([(3, 2), (2, 8), (5, 60)]),
        await play_game([(2, 1), (None, 50)]),
        await play_game([(9, 1), (3, 5)], guild_id=OTHER_GUILD),
    ]


async def test_wins_leaderboard_shares_ranks_on_ties(store, season):
    page = await store.leaderboard(GUILD, "wins")
    assert [(e.rank, e.user_id, e.wins) for e in page.entries] == [
        (1, 1, 2),
        (1, 2, 2),
        (3, 3, 1),
        (4, 4, 0),
        (4, 5, 0),
    ]
    assert page.total == 5
    everywhere = await store.leaderboard(None, "wins")
    assert {e.user_id for e in everywhere.entries} == {1, 2, 3, 4, 5, 9}


async def test_min_games_pagination_and_own_rank(store, season):
    page = await store.leaderboard(GUILD, "games", min_games=2, limit=1, offset=1)
    assert page.total == 4  # user 5 has played only once
    assert [(e.rank, e.user_id, e.games) for e in page.entries] == [(2, 1, 3)]
    own = await store.rank_of(4, GUILD, "games", min_games=2)  # off the page
    assert (own.rank, own.games) == (3, 2)  # shared with user 3
    assert await store.rank_of(5, GUILD, "games", min_games=2) is None
    assert (await store.rank_of(5, GUILD, "wins")).rank == 4
    empty = await store.leaderboard(GUILD, "wins", limit=10, offset=50)
    assert empty.entries == [] and empty.total == 5


async def test_metrics_order_in_the_right_direction(store, season):
    by_points = await store.leaderboard(GUILD, "avg_points_per_round")
    values = [e.value for e in by_points.entries]
    assert values == sorted(values)  # fewer points per round ranks higher
    assert by_points.entries[0].user_id == 1  # (5+9+0) / 6 rounds
    assert by_points.entries[0].avg_points_per_round == pytest.approx(14 / 6)

    by_rate = await store.leaderboard(GUILD, "win_rate")
    assert [(e.rank, e.user_id) for e in by_rate.entries][:3] == [(1, 1), (2, 2), (2, 3)]
    assert by_rate.entries[0].win_rate == pytest.approx(2 / 3)

    by_rating = await store.leaderboard(GUILD, "rating")
    ratings = [e.rating for e in by_rating.entries]
    assert ratings == sorted(ratings, reverse=True)
    assert by_rating.entries[-1].user_id in (4, 5)
    with pytest.raises(UnknownMetric):
        await store.leaderboard(GUILD, "elo")  # type: ignore[arg-type]


async def test_player_stats(store, season):
    stats = await store.player_stats(2, GUILD)
    assert (stats.games, stats.wins) == (4, 2)
    assert stats.win_rate == 0.5
    assert stats.avg_points_per_game == pytest.approx((20 + 3 + 8 + 1) / 4)
    assert stats.avg_points_per_round == pytest.approx(32 / 8)
    assert stats.best_game.points == 1 and stats.worst_game.points == 20
    assert stats.rows_taken == 2 and stats.sixth_card_takes == 4
    assert stats.favourite_row == 1 and stats.row_takes == {1: 2}
    assert stats.display_name == "user2"
    assert stats.rating is not None and stats.rating.games == 3  # the AI game is unrated

    unknown = await store.player_stats(12345)
    assert unknown.games == 0 and unknown.best_game is None and unknown.rating is None
    elsewhere = await store.player_stats(3, OTHER_GUILD)
    assert elsewhere.games == 1 and elsewhere.wins == 0


async def test_history_is_newest_first_and_scoped(store, season):
    recent = await store.history(GUILD, limit=2)
    assert [h.game.game_id for h in recent] == [season[4], season[3]]
    assert [(r.user_id, r.rank, r.won) for r in recent[1].results] == [(3, 1, True), (2, 2, False), (5, 3, False)]
    assert [h.game.game_id for h in await store.history(OTHER_GUILD)] == [season[5]]
    assert len(await store.history(None, limit=100)) == 6


async def test_game_log_returns_the_replayable_record(store):
    gid = await start_game(store, [(1, 0), (2, 0)])
    for n in range(30):
        await store.commit(gid, Commit({"turn": n}, {}, [{"seat": n % 2, "card": n + 1}]))
    log = await store.game_log(gid)
    assert log.game.seed == 42 and log.game.variant == "classic"
    assert [a.seq for a in log.actions] == list(range(1, 31))
    assert [a.action["card"] for a in log.actions] == list(range(1, 31))
    assert [s.user_id for s in log.seats] == [1, 2]
    assert log.results == []
    assert '"card":30' in log.model_dump_json()  # exportable as JSON as is
    with pytest.raises(GameNotFound):
        await store.game_log(gid + 100)


async def test_forget_player_anonymises_past_games(store, season):
    assert await store.forget_player(2) is True

    assert all(e.user_id != 2 for e in (await store.leaderboard(None, "wins")).entries)
    gone = await store.player_stats(2)
    assert gone.games == 0 and gone.display_name is None and gone.rating is None
    log = await store.game_log(season[0])
    assert [s.display_name for s in log.seats if s.user_id is None] == [DELETED_PLAYER_NAME]
    assert [(r.user_id, r.display_name, r.points, r.rank) for r in log.results] == [
        (1, "user1", 5, 1),
        (None, DELETED_PLAYER_NAME, 20, 2),
        (4, "user4", 30, 3),
    ]
    assert (await store.player_stats(1)).games == 3  # others keep their record
    assert await store.forget_player(2) is False


async def test_forget_player_refuses_while_seated_at_an_open_table(store):
    await start_game(store, [(7, 0), (8, 0)])
    with pytest.raises(PlayerInActiveGame):
        await store.forget_player(7)


async def test_forget_player_leaves_neither_id_nor_name_in_any_row(store, play_game):
    """Every table and column, checkpoints' and owed posts' JSON included, is searched for the player."""
    user, name = 918273645546372819, "Zebediah Quux"
    gid = await play_game([(user, 5), (2, 20), (None, 30)])
    await store.mark_shown(gid, message_id=1)
    seats = [
        {"user_id": user, "name": name, "ai_level": None, "stats": {"rows_taken": 1}},
        {"user_id": 2, "name": "user2", "ai_level": None},
        {"user_id": None, "name": "bot2", "ai_level": "easy"},
    ]
    post = OutboxPost(seq=1, payload={"kind": "finished", "seats": seats})
    await store.commit(gid, Commit({"scores": [5, 20, 30]}, {"host_id": user, "seats": seats}, posts=[post]))
    assert f"{user}" in repr(await all_rows(store)) and name in repr(await all_rows(store))

    assert await store.forget_player(user) is True

    rows = await all_rows(store)
    assert rows["checkpoints"] and rows["outbox"], "the scan reads the checkpoints and the outbox"
    found = [
        (table, row)
        for table, table_rows in rows.items()
        for row in table_rows
        if any(f"{user}" in str(value) or name in str(value) for value in row)
    ]
    assert found == []
    log = await store.game_log(gid)
    assert [s.display_name for s in log.seats] == [DELETED_PLAYER_NAME, "user2", "bot2"]
    assert "user2" in repr(rows["checkpoints"]), "other players keep their names"
