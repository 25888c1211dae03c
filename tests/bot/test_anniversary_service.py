"""The table service's Anniversary side: options, prompt preferences, the special-card timer."""

import pytest
from pydantic import ValidationError

from bot.errors import TableError
from bot.service import TableService
from bot.specials import NotYourDecision
from bot.table import Seat, Table, TableOptions
from engine import AnniversaryGame, GameConfig, Phase, Special


def first_legal(game, seat, level, rng):
    return game.legal_actions(seat)[0]


def test_anniversary_options_always_play_two_rounds_without_a_target():
    options = TableOptions(variant="anniversary", target=66, rounds=5)
    assert (options.target, options.rounds, options.max_players) == (None, 2, 8)
    assert options.game_config(3) == GameConfig(3, "anniversary")
    with pytest.raises(ValidationError):
        TableOptions(variant="anniversary", ai_seats=8)  # eight seats at most, host included
    with pytest.raises(ValidationError):
        TableOptions(variant="anniversary", special_seconds=1)


def test_a_seat_keeps_its_prompt_preference_in_the_checkpoint():
    seat = Seat(7, "alice", prompts="taking")
    assert Seat.from_dict(seat.to_dict()).prompts == "taking"
    assert Seat.from_dict({**seat.to_dict(), "prompts": "sometimes"}).prompts == "always"
    assert Seat.from_dict({"user_id": 7, "name": "alice"}).prompts == "always"  # older checkpoints


async def two_players(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(variant="anniversary", special_seconds=9))
    await service.join(table.id, 200, "bob")
    await service.begin(table.id, 100)
    return service, table


def seat_game(table: Table, rows, alice, bob, alice_specials, bob_specials=()):
    a, b = table.seat_of(100), table.seat_of(200)
    hands, specials = [None, None], [None, None]
    hands[a], hands[b], specials[a], specials[b] = alice, bob, list(alice_specials), list(bob_specials)
    table.game = AnniversaryGame.from_position(GameConfig(2, "anniversary"), rows=rows, hands=hands,
                                               specials=specials)


async def alice_takes_a_row_holding_a_stop(service, table) -> None:
    """Alice (preference "taking") plays 20 onto a full row; Bob plays a harmless 90."""
    await service.set_prompts(table.id, 100, "taking")
    seat_game(table, [[10, 11, 12, 13, 14], [60], [70], [80]], [20, 1], [90, 91], [Special.STOP])
    await service.pick(table.id, 100, 20)
    await service.pick(table.id, 200, 90)


async def test_taking_asks_only_when_the_card_takes_a_row(store, clock):
    service, table = await two_players(store, clock)
    await alice_takes_a_row_holding_a_stop(service, table)
    # Her 20 takes the full first row, so she is asked, with the special-card timer.
    assert table.game.phase is Phase.SPECIAL and table.game.decider == table.seat_of(100)
    assert table.deadline == clock() + 9
    with pytest.raises(NotYourDecision):
        service.special_prompt(table.id, 200)
    prompt = service.special_prompt(table.id, 100, table.step)
    assert prompt.preview.takes and {p.special for p in prompt.plays} == {Special.STOP}
    # Switching to "never" answers the waiting prompt at once.
    await service.set_prompts(table.id, 100, "never")
    alice = table.seat_of(100)
    assert table.game.phase is Phase.PICK and table.game.piles[alice] == [10, 11, 12, 13, 14]
    assert table.game.specials[alice] == [Special.STOP]  # neither played nor swapped
    await service.close()


async def test_taking_still_offers_the_swap_and_classic_tables_refuse_preferences(store, clock):
    service, table = await two_players(store, clock)
    await alice_takes_a_row_holding_a_stop(service, table)
    await service.decline_special(table.id, 100, table.step)
    assert table.game.phase is Phase.SWAP and table.game.decider == table.seat_of(100)
    await service.decline_swap(table.id, 100, table.step)
    assert table.game.phase is Phase.PICK
    with pytest.raises(TableError):
        await service.set_prompts(table.id, 100, "sometimes")
    classic = await service.open_lobby(1, 11, 100, "alice", TableOptions())
    with pytest.raises(TableError, match="only for the Anniversary"):
        await service.set_prompts(classic.id, 100, "never")
    await service.close()
