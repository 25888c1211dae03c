import asyncio

from bot.service import TableService
from bot.table import TableOptions
from engine import Phase


def first_legal(game, seat, level, rng):
    return game.legal_actions(seat)[0]


async def test_two_humans_play_a_round(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    updates = []
    service.add_listener(updates.append)
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1))
    await service.join(table.id, 200, "bob")
    await service.begin(table.id, 100)
    game = table.game
    seats = {table.seat_of(user): user for user in (100, 200)}
    assert table.seats[1].is_ai  # AI seats sit down with the host, before later joiners
    for _ in range(200):
        if game.is_over:
            break
        if game.phase is Phase.PICK:
            for seat, user in seats.items():
                if not game.picks[seat] and game.phase is Phase.PICK:
                    await service.pick(table.id, user, game.hands[seat][0], table.step)
        else:
            await service.choose_row(table.id, seats[game.chooser], 0, table.step)
    assert table.status.value == "finished"
    assert [u.kind for u in updates][-1] == "finished"
    await service.close()
