"""Commits: one transaction per table action, group-committed, gap-free under concurrency."""

from __future__ import annotations

import asyncio
import random

import pytest

from data.errors import ConstraintViolation, GameNotActive, GameNotFound, InvalidPayload, InvalidTransition
from data.models import Commit, OutboxPost, SeatInfo
from data.sqlite import writes as sqlite_writes

from .backends import raw
from .helpers import CHANNEL, GUILD, finish_game, game_result, seat_infos, start_game

TWO_HUMANS = [(1, 10), (2, 20)]


def act(n, **extra) -> Commit:
    return Commit({"n": n}, {"deadline": n}, [{"card": n}], **extra)


@pytest.mark.parametrize("rows_per_statement", [200, 7])  # 7: a batch spans many multi-row statements
async def test_concurrent_commits_keep_sequences_gap_free(store, monkeypatch, rows_per_statement):
    monkeypatch.setattr(sqlite_writes, "ROWS_PER_STATEMENT", rows_per_statement)
    games = [await start_game(store, TWO_HUMANS) for _ in range(150)]
    moves = [(gid, n) for gid in games for n in range(4)]
    random.Random(7).shuffle(moves)

    async def move(gid: int, n: int) -> tuple[int, int | None]:
        return gid, await store.commit(
            gid, Commit({"n": n}, {"deadline": n}, [{"card": n}], posts=[OutboxPost(seq=n + 1, payload={"n": n})])
        )

    outcomes = await asyncio.gather(*(move(g, n) for g, n in moves))

    by_game: dict[int, list[int]] = {}
    for gid, seq in outcomes:
        by_game.setdefault(gid, []).append(seq)
    assert all(sorted(seqs) == [1, 2, 3, 4] for seqs in by_game.values())
    rows = await raw(store, "SELECT game_id, count(*), min(seq), max(seq) FROM actions GROUP BY game_id")
    assert {r[1:] for r in rows} == {(4, 1, 4)} and len(rows) == len(games)
    assert await raw(store, "SELECT DISTINCT last_seq FROM checkpoints") == [(4,)]
    assert (await raw(store, "SELECT count(*) FROM outbox"))[0][0] == 4 * len(games)


async def test_commit_keeps_latest_state_and_logs_actions_in_order(store):
    gid = await start_game(store, TWO_HUMANS)
    seqs = await asyncio.gather(*(store.commit(gid, act(n)) for n in range(5)))
    assert seqs == [1, 2, 3, 4, 5]
    assert await store.commit(gid, Commit({"n": "final"}, {"m": 1})) is None  # no action
    [table] = await store.load_unfinished()
    assert table.checkpoint.state == {"n": "final"}
    assert table.checkpoint.meta == {"m": 1}
    assert table.checkpoint.last_seq == 5
    log = await store.game_log(gid)
    assert [(a.seq, a.action["card"]) for a in log.actions] == [(i + 1, i) for i in range(5)]


async def test_a_bad_commit_does_not_spoil_its_batch(store):
    """Each commit's own error fails it alone, game changes included (their savepoint)."""
    gid = await start_game(store, TWO_HUMANS)
    other = await start_game(store, TWO_HUMANS)
    cancelled = await start_game(store, TWO_HUMANS)
    await store.commit(cancelled, Commit({}, {}, status="cancelled"))
    twice = [SeatInfo(seat=0, user_id=5, display_name="a"), SeatInfo(seat=1, user_id=5, display_name="a")]
    outcomes = await asyncio.gather(
        store.commit(gid, act(1)),
        store.commit(999_999, act(1)),
        store.commit(cancelled, act(1)),
        store.commit(other, act(1, status="lobby")),  # no way back
        store.commit(other, act(1, seats=twice)),  # one user in two seats: the database refuses
        store.commit(other, act(1, host_id=2)),
        store.commit(gid, act(2, status="abandoned")),
        store.commit(gid, Commit({"after": True}, {})),
        return_exceptions=True,
    )
    assert outcomes[0] == 1 and outcomes[5] == 1 and outcomes[6] == 2 and outcomes[7] is None
    assert isinstance(outcomes[1], GameNotFound)
    assert isinstance(outcomes[2], GameNotActive)
    assert isinstance(outcomes[3], InvalidTransition)
    assert isinstance(outcomes[4], ConstraintViolation)
    tables = {t.game.game_id: t for t in [await store.load_table(g) for g in (gid, other)]}
    assert tables[gid].game.status == "abandoned" and tables[gid].checkpoint.state == {"after": True}
    assert tables[other].game.status == "playing" and tables[other].game.host_id == 2
    assert [s.user_id for s in tables[other].seats] == [1, 2], "the refused seats left nothing behind"
    assert [a.seq for a in (await store.game_log(other)).actions] == [1]


async def test_an_ended_game_takes_a_final_state_but_no_more_actions(store):
    gid = await start_game(store, TWO_HUMANS)
    await store.commit(gid, act(1))
    await store.commit(gid, Commit({"closing": True}, {}, status="cancelled"))
    assert await store.commit(gid, Commit({"final": True}, {})) is None
    with pytest.raises(GameNotActive):
        await store.commit(gid, act(2))
    with pytest.raises(InvalidTransition):
        await store.commit(gid, Commit({}, {}, seats=seat_infos(TWO_HUMANS)))
    assert [a.seq for a in (await store.game_log(gid)).actions] == [1]
    assert (await store.load_table(gid)).checkpoint.state == {"final": True}


async def test_unserialisable_payload_is_rejected_before_writing(store):
    gid = await start_game(store, TWO_HUMANS)
    with pytest.raises(InvalidPayload):
        await store.commit(gid, Commit({"x": object()}, {}))
    with pytest.raises(InvalidPayload):
        await store.commit(gid, Commit({}, {}, [["not", "a", "dict"]]))  # type: ignore[list-item]
    with pytest.raises(InvalidPayload):
        await store.commit(gid, Commit({}, {}, posts=[OutboxPost(seq=1, payload={"x": float("nan")})]))
    assert await store.commit(gid, act(0)) == 1


async def test_close_flushes_queued_commits(store):
    gid = await start_game(store, TWO_HUMANS)
    pending = [asyncio.ensure_future(store.commit(gid, act(n))) for n in range(20)]
    await asyncio.sleep(0)
    await store.close()
    assert sorted(await asyncio.gather(*pending)) == list(range(1, 21))


async def test_one_commit_logs_several_actions_atomically(store):
    """A player's move and the AI moves it sets off land in one transaction, in order."""
    gid = await start_game(store, TWO_HUMANS)
    assert (
        await store.commit(gid, Commit({"n": 1}, {}, [{"who": "human"}, {"who": "ai", "i": 1}, {"who": "ai", "i": 2}]))
        == 3
    )
    assert await store.commit(gid, Commit({"n": 2}, {}, [{"who": "ai", "i": 3}])) == 4
    with pytest.raises(InvalidPayload):
        await store.commit(gid, Commit({"n": 3}, {}, [{"ok": 1}, {"bad": object()}]))
    log = await store.game_log(gid)
    assert [a.action.get("i", a.action["who"]) for a in log.actions] == ["human", 1, 2, 3]
    [table] = await store.load_unfinished()
    assert table.checkpoint.state == {"n": 2} and table.checkpoint.last_seq == 4


async def test_create_game_writes_row_seats_and_first_checkpoint_together(store):
    seats = seat_infos(TWO_HUMANS)
    gid = await store.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=1,
        variant="pro",
        options={"target": 66},
        seed=7,
        commit=Commit({}, {"lobby": 1}, seats=seats, posts=[OutboxPost(seq=1, payload={"kind": "lobby"})]),
    )
    table = await store.load_table(gid)
    assert (table.game.status, table.game.variant, table.game.options, table.game.seed) == (
        "lobby",
        "pro",
        {"target": 66},
        7,
    )
    assert table.seats == seats and table.checkpoint.meta == {"lobby": 1} and table.checkpoint.last_seq == 0
    assert table.posts == [OutboxPost(seq=1, payload={"kind": "lobby"})]
    players = await raw(store, "SELECT user_id, display_name FROM players ORDER BY user_id")
    assert players == [(1, "user1"), (2, "user2")]
    before = len(await raw(store, "SELECT game_id FROM games"))
    twice = [SeatInfo(seat=0, user_id=5, display_name="a"), SeatInfo(seat=1, user_id=5, display_name="a")]
    with pytest.raises(ConstraintViolation):
        await store.create_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=5,
            variant="classic",
            options={},
            seed=1,
            commit=Commit({}, {}, seats=twice),
        )
    assert len(await raw(store, "SELECT game_id FROM games")) == before, "no game row without its seats"


async def test_the_finishing_commit_writes_everything_once(store):
    """The last move, the result and the posts that announce it: one commit, applied once."""
    gid = await start_game(store, TWO_HUMANS)
    result = game_result(gid, TWO_HUMANS)
    final = Commit(
        {"over": True}, {"m": 1}, [{"card": 9}], posts=[OutboxPost(seq=3, payload={"kind": "end"})], result=result
    )
    assert await store.commit(gid, final) == 1
    table = await store.load_table(gid)
    assert table.game.status == "finished" and table.game.rounds == 2
    assert [t.game.game_id for t in await store.load_unshown()] == [gid]
    assert len(await raw(store, "SELECT * FROM results")) == 2
    # Sent again (as after a lost answer): the result is no second time, the log closed.
    with pytest.raises(GameNotActive):
        await store.commit(gid, final)
    assert await store.commit(gid, Commit({"over": True}, {"m": 2}, result=result)) is None
    assert len(await raw(store, "SELECT * FROM results")) == 2
    assert (await store.player_stats(1)).games == 1
    assert await finish_game(store, gid, result) is None
