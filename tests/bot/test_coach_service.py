"""The coach through the table service: a hint only at a table with helpers, thought out in the worker."""

import pytest

from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import TableOptions


async def _table(store, clock, helpers: bool):
    service = TableService(store, clock=clock)  # the real AI, its worker included
    await service.start()
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=3, ai_level="medium", helpers=helpers)
    )
    await service.begin(table.id, 100)
    return service, table


async def test_a_hint_rates_the_hand_and_changes_nothing(store, clock):
    service, table = await _table(store, clock, helpers=True)
    try:
        before = table.game.to_dict()
        hint = await service.hint(table.id, 100)
        hand = table.game.hands[0]
        assert [card for card, _ in hint.expected] == hand and hint.choice in hand
        assert all(cost >= 0 for _, cost in hint.expected) and hint.simulations > 0
        assert table.game.to_dict() == before
        await service.pick(table.id, 100, hand[0], table.step)  # the AI seats have picked: a new turn
        game = table.game
        options = list(range(len(game.rows))) if game.phase.value == "choose_row" else game.hands[0]
        assert [option for option, _ in (await service.hint(table.id, 100)).expected] == options
        with pytest.raises(TableError, match="not at this table"):
            await service.hint(table.id, 555)
    finally:
        await service.close()


async def test_no_hint_without_helpers(store, clock):
    service, table = await _table(store, clock, helpers=False)
    try:
        with pytest.raises(TableError, match="Hints are off"):
            await service.hint(table.id, 100)
    finally:
        await service.close()
