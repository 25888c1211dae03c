"""Checkpoint writes: atomic with the action log, gap-free under concurrency."""

from __future__ import annotations

import asyncio
import random

import pytest

from data.sqlite import checkpoint_writer
from data.errors import GameNotActive, GameNotFound, InvalidPayload
from .backends import raw
from .helpers import start_game

TWO_HUMANS = [(1, 10), (2, 20)]


@pytest.mark.parametrize("rows_per_statement", [200, 7])  # 7: a batch spans many multi-row statements
async def test_concurrent_checkpoints_keep_sequences_gap_free(store, monkeypatch,
                                                              rows_per_statement):
    monkeypatch.setattr(checkpoint_writer, "ROWS_PER_STATEMENT", rows_per_statement)
    games = [await start_game(store, TWO_HUMANS) for _ in range(150)]
    moves = [(gid, n) for gid in games for n in range(4)]
    random.Random(7).shuffle(moves)

    async def move(gid: int, n: int) -> tuple[int, int | None]:
        return gid, await store.checkpoint(gid, {"n": n}, {"deadline": n}, {"card": n})

    outcomes = await asyncio.gather(*(move(g, n) for g, n in moves))

    by_game: dict[int, list[int]] = {}
    for gid, seq in outcomes:
        by_game.setdefault(gid, []).append(seq)
    assert all(sorted(seqs) == [1, 2, 3, 4] for seqs in by_game.values())
    rows = await raw(store, "SELECT game_id, count(*), min(seq), max(seq) FROM actions GROUP BY game_id")
    assert {r[1:] for r in rows} == {(4, 1, 4)} and len(rows) == len(games)
    assert await raw(store, "SELECT DISTINCT last_seq FROM checkpoints") == [(4,)]


async def test_checkpoint_keeps_latest_state_and_logs_actions_in_order(store):
    gid = await start_game(store, TWO_HUMANS)
    seqs = await asyncio.gather(*(store.checkpoint(gid, {"n": n}, {}, {"n": n}) for n in range(5)))
    assert seqs == [1, 2, 3, 4, 5]
    assert await store.checkpoint(gid, {"n": "final"}, {"m": 1}) is None  # no action
    [table] = await store.load_unfinished()
    assert table.checkpoint.state == {"n": "final"}
    assert table.checkpoint.meta == {"m": 1}
    assert table.checkpoint.last_seq == 5
    log = await store.game_log(gid)
    assert [(a.seq, a.action["n"]) for a in log.actions] == [(i + 1, i) for i in range(5)]


async def test_bad_checkpoint_does_not_spoil_its_batch(store):
    gid = await start_game(store, TWO_HUMANS)
    cancelled = await start_game(store, TWO_HUMANS)
    await store.update_game(cancelled, status="cancelled")
    outcomes = await asyncio.gather(
        store.checkpoint(gid, {}, {}, {"a": 1}),
        store.checkpoint(999_999, {}, {}, {"a": 1}),
        store.checkpoint(cancelled, {}, {}, {"a": 1}),
        store.checkpoint(gid, {}, {}, {"a": 2}),
        return_exceptions=True,
    )
    assert outcomes[0] == 1 and outcomes[3] == 2
    assert isinstance(outcomes[1], GameNotFound)
    assert isinstance(outcomes[2], GameNotActive)


async def test_ended_game_takes_a_final_state_but_no_more_actions(store):
    gid = await start_game(store, TWO_HUMANS)
    await store.checkpoint(gid, {}, {}, {"a": 1})
    await store.update_game(gid, status="cancelled")
    assert await store.checkpoint(gid, {"final": True}, {}) is None
    with pytest.raises(GameNotActive):
        await store.checkpoint(gid, {}, {}, {"a": 2})
    assert [a.seq for a in (await store.game_log(gid)).actions] == [1]


async def test_unserialisable_payload_is_rejected_before_writing(store):
    gid = await start_game(store, TWO_HUMANS)
    with pytest.raises(InvalidPayload):
        await store.checkpoint(gid, {"x": object()}, {})
    with pytest.raises(InvalidPayload):
        await store.checkpoint(gid, {}, {}, ["not", "a", "dict"])  # type: ignore[arg-type]
    assert await store.checkpoint(gid, {}, {}, {"ok": True}) == 1


async def test_close_flushes_queued_checkpoints(store):
    gid = await start_game(store, TWO_HUMANS)
    pending = [asyncio.ensure_future(store.checkpoint(gid, {}, {}, {"n": n})) for n in range(20)]
    await asyncio.sleep(0)
    await store.close()
    assert sorted(await asyncio.gather(*pending)) == list(range(1, 21))


async def test_one_checkpoint_can_log_several_actions_atomically(store):
    """A player's move and the AI moves it sets off land in one transaction, in order."""
    gid = await start_game(store, TWO_HUMANS)
    assert await store.checkpoint(gid, {"n": 1}, {}, {"who": "human"},
                                  actions=[{"who": "ai", "i": 1}, {"who": "ai", "i": 2}]) == 3
    assert await store.checkpoint(gid, {"n": 2}, {}, actions=[{"who": "ai", "i": 3}]) == 4
    with pytest.raises(InvalidPayload):
        await store.checkpoint(gid, {"n": 3}, {}, {"ok": 1}, actions=[{"bad": object()}])
    log = await store.game_log(gid)
    assert [a.action.get("i", a.action["who"]) for a in log.actions] == ["human", 1, 2, 3]
    [table] = await store.load_unfinished()
    assert table.checkpoint.state == {"n": 2} and table.checkpoint.last_seq == 4
