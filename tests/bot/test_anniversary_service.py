"""The table service's Anniversary side: options, prompt preferences, the special-card timer."""

import pytest
from pydantic import ValidationError

from bot.tables import specials
from bot.tables.ai_seats import AISeats
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.specials import NotYourDecision
from bot.tables.table import DEFAULT_PROMPTS, Seat, Table, TableOptions
from engine import AnniversaryGame, GameConfig, Phase, Special
from engine.anniversary import special_outlook
from engine.errors import SpecialNotInHand
from tests.helpers import first_legal


def test_anniversary_options_always_play_two_rounds_without_a_target():
    options = TableOptions(variant="anniversary", target=66, rounds=5)
    assert (options.target, options.rounds, options.max_players) == (None, 2, 8)
    assert options.game_config(3) == GameConfig(3, "anniversary")
    with pytest.raises(ValidationError):
        TableOptions(variant="anniversary", ai_seats=8)  # eight seats at most, host included
    with pytest.raises(ValidationError):
        TableOptions(variant="anniversary", special_seconds=1)


def test_a_seat_keeps_its_prompt_preference_in_the_checkpoint():
    assert Seat(7, "alice").prompts == DEFAULT_PROMPTS == "big"
    seat = Seat(7, "alice", prompts="saving")
    assert Seat.from_dict(seat.to_dict()).prompts == "saving"
    assert Seat.from_dict({**seat.to_dict(), "prompts": "sometimes"}).prompts == DEFAULT_PROMPTS
    assert Seat.from_dict({"user_id": 7, "name": "alice"}).prompts == DEFAULT_PROMPTS  # older checkpoints


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
    table.game = AnniversaryGame.from_position(GameConfig(2, "anniversary"), rows=rows, hands=hands, specials=specials)


async def alice_takes_a_row_holding_a_stop(service, table, preference: str) -> None:
    """Alice plays 20 onto a full row (11 bullheads); Bob plays a harmless 90.

    Her Stop on that row would make the 20 a low card, costing the cheapest other row
    (3 bullheads): a saving of 8, a real one but not a big one.
    """
    await service.set_prompts(table.id, 100, preference)
    seat_game(table, [[10, 11, 12, 13, 14], [60], [70], [80]], [20, 1], [90, 91], [Special.STOP])
    await service.pick(table.id, 100, 20)
    await service.pick(table.id, 200, 90)


async def test_saving_asks_when_a_special_card_saves_bullheads(store, clock):
    service, table = await two_players(store, clock)
    await alice_takes_a_row_holding_a_stop(service, table, "saving")
    assert table.game.phase is Phase.SPECIAL and table.game.decider == table.seat_of(100)
    assert table.deadline == clock() + 9
    with pytest.raises(NotYourDecision):
        service.special_prompt(table.id, 200)
    prompt = service.special_prompt(table.id, 100, table.step)
    assert prompt.preview.takes and {p.special for p in prompt.plays} == {Special.STOP}
    assert prompt.outlook.best_saving == 8
    # Worked out once per pause: every click of the prompt asks for it again.
    assert service.special_prompt(table.id, 100, table.step).outlook is prompt.outlook
    # Declining and swapping a card she does not hold is refused by the rules, a card that does not
    # exist (a forged button) as no choice at all; neither changes anything.
    before = table.game.to_dict()
    with pytest.raises(SpecialNotInHand, match="you do not hold a 7 nimmt! card"):
        await service.decline_special(table.id, 100, table.step, then_swap="seven_nimmt")
    with pytest.raises(TableError, match="does not exist"):
        await service.decline_special(table.id, 100, table.step, then_swap="joker")
    assert table.game.to_dict() == before and table.queued_swap is None
    # Switching to "never" answers the waiting prompt at once.
    await service.set_prompts(table.id, 100, "never")
    alice = table.seat_of(100)
    assert table.game.phase is Phase.PICK and table.game.piles[alice] == [10, 11, 12, 13, 14]
    assert table.game.specials[alice] == [Special.STOP]  # neither played nor swapped
    await service.close()


async def test_big_savings_only_at_the_default_and_the_swap_only_when_always(store, clock):
    service, table = await two_players(store, clock)
    await alice_takes_a_row_holding_a_stop(service, table, "big")
    alice = table.seat_of(100)
    # 8 saved is not a big saving: declined for her, and so is the swap after her take.
    assert table.game.phase is Phase.PICK and table.game.piles[alice] == [10, 11, 12, 13, 14]
    assert table.game.specials[alice] == [Special.STOP]

    await alice_takes_a_row_holding_a_stop(service, table, "always")
    await service.decline_special(table.id, 100, table.step)
    assert table.game.phase is Phase.SWAP and table.game.decider == alice
    await service.decline_swap(table.id, 100, table.step)
    assert table.game.phase is Phase.PICK
    await service.close()


async def test_always_never_asks_when_nothing_can_change(store, clock):
    service, table = await two_players(store, clock)
    await service.set_prompts(table.id, 100, "always")
    # The game's last cards: a 7 nimmt! on the row Alice's 25 ends in would only mark a row
    # about to be cleared.
    seat_game(table, [[10, 20], [30], [40], [50]], [25], [90], [Special.SEVEN_NIMMT])
    table.game.round = 2
    await service.pick(table.id, 100, 25)
    await service.pick(table.id, 200, 90)
    assert table.game.is_over and table.game.sevens == [False] * 4
    assert table.game.specials[table.seat_of(100)] == [Special.SEVEN_NIMMT]
    await service.close()


async def test_preferences_refuse_nonsense_and_classic_tables(store, clock):
    service, table = await two_players(store, clock)
    with pytest.raises(TableError):
        await service.set_prompts(table.id, 100, "sometimes")
    with pytest.raises(TableError):
        await service.set_prompts(table.id, 100, "taking")  # a name no button has carried for months
    await service.set_prompts(table.id, 100, "saving")
    assert table.seats[table.seat_of(100)].prompts == "saving"
    classic = await service.open_lobby(1, 11, 100, "alice", TableOptions())
    with pytest.raises(TableError, match="only for the Anniversary"):
        await service.set_prompts(classic.id, 100, "never")
    await service.close()


async def test_a_pause_has_its_outlook_worked_out_by_the_ai_not_on_the_event_loop(store, clock, monkeypatch):
    """Up to 100 ms of plays at a table of eight: asked of the AI (its worker, in the bot) once as
    the pause begins; whether to ask and the prompt itself only read it."""
    service, table = await two_players(store, clock)
    asked = []
    worked_out = service.ai.outlook

    async def outlook(game):
        asked.append(game.decision_id)
        return await worked_out(game)

    monkeypatch.setattr(service.ai, "outlook", outlook)
    monkeypatch.setattr(specials, "special_outlook", lambda game: pytest.fail("worked out on the event loop"))
    await alice_takes_a_row_holding_a_stop(service, table, "saving")
    assert table.game.phase is Phase.SPECIAL and asked == [table.game.decision_id]
    prompt = service.special_prompt(table.id, 100, table.step)
    assert prompt.outlook.best_saving == 8 and len(asked) == 1
    await service.close()


async def test_the_worker_works_out_the_same_outlook_as_the_engine():
    seats = AISeats()
    seats.start()
    try:
        game = AnniversaryGame.from_position(
            GameConfig(2, "anniversary"),
            rows=[[10, 11, 12, 13, 14], [60], [70], [80]],
            hands=[[20, 1], [90, 91]],
            specials=[[Special.STOP], []],
        )
        game.pick(0, 20)
        game.pick(1, 90)
        assert game.phase is Phase.SPECIAL
        assert await seats.outlook(game) == special_outlook(game)
    finally:
        await seats.close()
