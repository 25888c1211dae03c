"""load_unfinished: restores good tables, reports corrupt ones, never raises."""

from __future__ import annotations

import pytest

from data.models import Commit, CorruptTable, RestoredTable, SeatInfo

from .backends import raw
from .helpers import CHANNEL, GUILD, finish_game, game_result, start_game

TWO_HUMANS = [(1, 10), (2, 20)]


async def test_restores_lobbies_and_playing_tables_only(store):
    lobby = await store.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=1,
        variant="pro",
        options={"target": 66},
        seed=3,
        commit=Commit({}, {"lobby": True}, seats=[SeatInfo(seat=0, user_id=1, display_name="one")]),
    )
    await store.mark_shown(lobby, message_id=555)
    playing = await start_game(store, TWO_HUMANS)
    await store.commit(playing, Commit({"hands": [[1, 2]]}, {"deadline": 12.5}, [{"play": 1}]))
    finished = await start_game(store, TWO_HUMANS)
    await finish_game(store, finished, game_result(finished, TWO_HUMANS))
    cancelled = await start_game(store, TWO_HUMANS)
    await store.commit(cancelled, Commit({}, {}, status="cancelled"))

    tables = await store.load_unfinished()

    assert [t.game.game_id for t in tables] == [lobby, playing]
    assert all(isinstance(t, RestoredTable) for t in tables)
    lobby_table, playing_table = tables
    assert lobby_table.checkpoint.meta == {"lobby": True}
    assert lobby_table.game.options == {"target": 66}
    assert lobby_table.message_id == 555
    assert lobby_table.seats == [SeatInfo(seat=0, user_id=1, display_name="one")]
    assert playing_table.game.started_at is not None
    assert playing_table.checkpoint.state == {"hands": [[1, 2]]}
    assert playing_table.checkpoint.last_seq == 1
    assert [s.user_id for s in playing_table.seats] == [1, 2]


DAMAGE_ON_BOTH = [
    ("UPDATE checkpoints SET state = '{not json' WHERE game_id = ?", "state is not valid JSON"),
    ("UPDATE checkpoints SET meta = '[1, 2]' WHERE game_id = ?", "meta is not a JSON object"),
    ("UPDATE games SET options = 'null' WHERE game_id = ?", "options is not a JSON object"),
    ("DELETE FROM checkpoints WHERE game_id = ?", "has no checkpoint"),
]
# Damage only SQLite's loose typing lets in: PostgreSQL's column types and checks refuse it.
DAMAGE_ON_SQLITE = [
    ("UPDATE games SET channel_id = 'general' WHERE game_id = ?", "channel_id"),
    ("UPDATE seats SET seat = -1 WHERE game_id = ? AND seat = 1", "seat"),
    ("UPDATE checkpoints SET state = x'ff00' WHERE game_id = ?", "state is not JSON text"),
]


@pytest.mark.parametrize(
    ("backend", "damage", "reason"),
    [
        *[(backend, *case) for case in DAMAGE_ON_BOTH for backend in ("sqlite", "postgres")],
        *[("sqlite", *case) for case in DAMAGE_ON_SQLITE],
    ],
)
async def test_corrupt_table_is_reported_without_hiding_others(store, damage: str, reason: str):
    games = [await start_game(store, TWO_HUMANS) for _ in range(3)]
    for gid in games:
        await store.commit(gid, Commit({"ok": gid}, {}, [{"a": 1}]))
    victim = games[1]
    await raw(store, damage, victim)  # a foreign writer, or bit rot

    tables = await store.load_unfinished()

    assert [getattr(t, "game_id", None) or t.game.game_id for t in tables] == games
    corrupt = tables[1]
    assert isinstance(corrupt, CorruptTable)
    assert corrupt.game_id == victim
    assert reason in corrupt.reason
    assert f"game {victim}" in corrupt.reason
    assert [t.checkpoint.state for t in (tables[0], tables[2])] == [{"ok": games[0]}, {"ok": games[2]}]


@pytest.mark.parametrize("backend", ["sqlite"])  # PostgreSQL stores only valid UTF-8 text
async def test_invalid_utf8_text_does_not_break_the_restore(store):
    gid = await start_game(store, TWO_HUMANS)
    await store.commit(gid, Commit({}, {}))
    await raw(store, "UPDATE seats SET display_name = CAST(x'c328' AS TEXT) WHERE seat = 0")
    [table] = await store.load_unfinished()
    assert isinstance(table, RestoredTable)
    assert "\ufffd" in table.seats[0].display_name
