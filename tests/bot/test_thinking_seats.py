"""Hard AI seats pick after the click that opened the turn is answered, and every game still
reaches its standings: straight through, across a stop while they think, and with a seat
taken back just as a turn opens."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.tables.ai_seats import AISeats
from bot.tables.service import TableService
from bot.tables.table import TableOptions
from engine import Phase
from engine.ai import choose_action
from tests.helpers import play_to_the_end

THINK = 0.3  # seconds a hard seat thinks here: longer than any answer may wait
HARD_TABLE = TableOptions(rounds=1, target=None, ai_seats=2, ai_level="hard")


@pytest.fixture
def slow_hard(monkeypatch):
    """Hard seats think ``THINK`` seconds over a pick, then play medium's move (no worker process
    needed). A row choice in the middle of a reveal is part of that reveal and stays quick here."""
    asked = []

    async def decide(self, game, seat, level, seed):
        if self.searches(level) and game.phase is Phase.PICK:
            asked.append(seat)
            await asyncio.sleep(THINK)
            level = "medium"
        return choose_action(game, seat, level, random.Random(seed))

    monkeypatch.setattr(AISeats, "decide", decide)
    return asked


async def finished_in_store(store, table_id) -> bool:
    return any(g.game.game_id == table_id and g.results for g in await store.history(1))


async def test_a_click_is_answered_before_the_hard_seats_think_and_the_game_ends(store, slow_hard):
    service = TableService(store)  # the real clock
    await service.start()
    table = await service.open_lobby(1, 10, 100, "alice", HARD_TABLE)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await service.begin(table.id, 100)
    assert loop.time() - started < THINK / 2, "the Start click did not wait for the AI"
    assert not any(table.game.picks), "the AI seats pick after the answer"
    waits = await play_to_the_end(service, table, [100])
    await service.close()
    assert len(waits) >= 10 and max(waits) < THINK / 2, waits
    assert table.status.value == "finished" and await finished_in_store(store, table.id)
    assert len(slow_hard) >= 20  # two seats, ten turns


async def test_a_stop_while_the_seats_think_loses_nothing_and_the_next_start_goes_on(store, slow_hard):
    first = TableService(store)
    await first.start()
    table = await first.open_lobby(1, 10, 100, "alice", HARD_TABLE)
    await first.begin(table.id, 100)
    await asyncio.sleep(THINK / 3)  # the seats are thinking
    await first.close()  # waits for them, applies nothing
    assert not any(table.game.picks)

    second = TableService(store)
    await second.start()  # restores the table, and its seats think again
    restored = second.tables[table.id]
    await second.play.after_thinking(restored)
    assert restored.game.picks[1] and restored.game.picks[2]
    await play_to_the_end(second, restored, [100])
    await second.close()
    assert restored.status.value == "finished" and await finished_in_store(store, table.id)


async def test_a_seat_taken_back_as_a_turn_opens_keeps_the_ai_pick_and_plays_on(store, slow_hard):
    service = TableService(store)
    await service.start()
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(rounds=1, target=None))
    await service.join(table.id, 200, "bob")
    await service.begin(table.id, 100)
    await service.leave(table.id, 200)  # an AI (medium by default) takes bob's seat
    seat = table.taken_over_seat(200)
    table.seats[seat].ai_level = "hard"  # ...and thinks a while
    game = table.game
    await service.pick(table.id, 100, game.hands[0][0], table.step)
    while game.phase is Phase.CHOOSE_ROW:  # alice's card was low
        await service.choose_row(table.id, 100, game.legal_actions(0)[0].row, table.step)
    assert game.phase is Phase.PICK and game.turn == 2 and not game.picks[seat]
    await service.reclaim_seat(table.id, 200)  # as the seat's AI thinks over turn 2
    assert table.game.picks[seat], "the AI's pick for the turn came first, and stands"
    assert not table.seats[seat].is_ai
    # Bob plays from the next turn on; alice and bob play the game to its end.
    while not game.is_over:
        for user in (100, 200):
            s = table.seat_of(user)
            if game.is_over or s not in game.waiting_for:
                continue
            if table.seats[s].back_from_step > table.step:
                continue
            if game.phase is Phase.PICK:
                await service.pick(table.id, user, game.hands[s][0], table.step)
            else:
                await service.choose_row(table.id, user, game.legal_actions(s)[0].row, table.step)
    await service.close()
    assert await finished_in_store(store, table.id)
