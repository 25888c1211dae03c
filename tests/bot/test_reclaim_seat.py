"""Taking back a seat an AI took over: from the next decision point on, checkpointed, never after a kick."""

from __future__ import annotations

import pytest

from bot.tables.errors import BackNextTurn, SeatTakenOver, TableError
from bot.tables.service import TableService
from bot.tables.table import Table, TableOptions
from engine import Phase
from tests.helpers import first_legal


async def running(store, clock, players=3):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(rounds=1, target=None))
    for user in range(200, 100 + 100 * players, 100):
        await service.join(table.id, user, f"p{user}")
    await service.begin(table.id, 100)
    return service, table


async def test_a_player_who_left_takes_the_seat_back_from_the_next_turn(store, clock):
    service, table = await running(store, clock)
    game = table.game
    await service.leave(table.id, 200)
    seat = 1
    assert table.seats[seat].takeover == "left"
    ai_pick = game.picks[seat]
    assert ai_pick, "the AI picked for the seat at once"
    with pytest.raises(SeatTakenOver) as refused:
        service.hand(table.id, 200)
    assert refused.value.can_reclaim and "left the table" in str(refused.value)

    updates = []
    service.add_listener(updates.append)
    step = table.step
    await service.reclaim_seat(table.id, 200)
    assert not table.seats[seat].is_ai and table.seats[seat].missed_turns == 0
    assert updates[-1].kind == "notice" and "took their seat back" in str(table.outbox[-1].notices[0])
    # Mid-turn: the AI's pick stands; the player cannot change it, but may look at the hand.
    with pytest.raises(BackNextTurn):
        await service.pick(table.id, 200, game.hands[seat][-1], step)
    assert game.picks[seat] == ai_pick and table.step == step
    service.hand(table.id, 200)
    # The checkpoint holds the change: a restart keeps the player in their seat.
    saved = [e for e in await store.load_unfinished() if e.game.game_id == table.id][0].checkpoint
    restored = Table.from_checkpoint(table.id, 1, 10, saved.meta, saved.state)
    assert not restored.seats[seat].is_ai and restored.seats[seat].back_from_step == step + 1
    # Once the others have picked, the next decision point is the player's own.
    await service.pick(table.id, 100, game.hands[0][0], step)
    await service.pick(table.id, 300, game.hands[2][0], step)
    assert table.step > step
    if game.phase is Phase.PICK:
        assert not game.picks[seat]  # nobody picked for the player this time
        await service.pick(table.id, 200, game.hands[seat][0], table.step)
        assert game.picks[seat]
    with pytest.raises(TableError, match="already"):
        await service.reclaim_seat(table.id, 200)
    await service.close()


async def test_a_kicked_player_cannot_take_the_seat_back(store, clock):
    service, table = await running(store, clock)
    await service.kick(table.id, 100, 300)
    with pytest.raises(SeatTakenOver) as refused:
        service.hand(table.id, 300)
    assert not refused.value.can_reclaim
    with pytest.raises(TableError, match="removed you"):
        await service.reclaim_seat(table.id, 300)
    assert table.seats[2].is_ai
    # Someone who never sat here is refused as an outsider.
    with pytest.raises(TableError, match="not at this table"):
        await service.reclaim_seat(table.id, 999)
    await service.close()


async def test_a_game_whose_seat_an_ai_still_plays_records_its_results(store, clock):
    service, table = await running(store, clock, players=2)
    await service.leave(table.id, 200)
    game = table.game
    for _ in range(100):
        if game.is_over:
            break
        if game.phase is Phase.PICK:
            await service.pick(table.id, 100, game.hands[0][0], table.step)
        else:
            await service.choose_row(table.id, 100, 0, table.step)
    assert table.status.value == "finished"
    assert (await store.player_stats(200)).finished_by_ai == 1  # counted for the player who left
    await service.close()
