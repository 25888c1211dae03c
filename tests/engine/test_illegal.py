"""Illegal actions raise a typed ValueError a player can read, and change nothing."""

import base64
import random
import struct

import pytest

from engine import (
    CardNotInHand,
    ChooseRow,
    CorruptState,
    Draft,
    Game,
    GameConfig,
    IllegalAction,
    InvalidConfig,
    InvalidRow,
    NotYourTurn,
    Phase,
    Pick,
    UnknownPlayer,
    Variant,
    WrongPhase,
)


def low_card_game() -> Game:
    """Seat 1's 2 is lower than every row end: the game waits for seat 1's row choice."""
    game = Game.from_position(GameConfig(3), rows=[[10], [20], [30], [40]], hands=[[50, 51], [2, 52], [60, 61]])
    game.play_turn([50, 2, 60])
    assert game.phase is Phase.CHOOSE_ROW and game.chooser == 1
    return game


def draft_game() -> Game:
    game = Game.new(GameConfig(3, Variant.PRO), seed=3)
    assert game.phase is Phase.DRAFT
    return game


def fresh_game() -> Game:
    return Game.new(GameConfig(4), seed=11)


def someone_elses_card(game: Game, player: int) -> int:
    return game.hands[(player + 1) % game.players][0]


CASES = [
    ("a card not in the hand", fresh_game, lambda g: Pick(0, someone_elses_card(g, 0)), CardNotInHand),
    ("a card that does not exist", fresh_game, lambda g: Pick(0, 105), CardNotInHand),
    ("a seat that does not exist", fresh_game, lambda g: Pick(4, g.hands[0][0]), UnknownPlayer),
    ("a negative seat", fresh_game, lambda g: Pick(-1, g.hands[0][0]), UnknownPlayer),
    ("a row choice when nobody must choose", fresh_game, lambda g: ChooseRow(0, 0), WrongPhase),
    ("a pick while a row is being chosen", low_card_game, lambda g: Pick(0, 51), WrongPhase),
    ("a second pick after the reveal", low_card_game, lambda g: Pick(0, 50), WrongPhase),
    ("a row choice by the wrong player", low_card_game, lambda g: ChooseRow(0, 1), NotYourTurn),
    ("a row that does not exist", low_card_game, lambda g: ChooseRow(1, 4), InvalidRow),
    ("a negative row", low_card_game, lambda g: ChooseRow(1, -1), InvalidRow),
    ("a draft out of turn", draft_game, lambda g: Draft((g.drafter + 1) % 3, g.draft_pool[0]), NotYourTurn),
    ("a draft of a card not on the table", draft_game, lambda g: Draft(g.drafter, 35), CardNotInHand),
    ("a pick during the draft", draft_game, lambda g: Pick(g.drafter, 1), WrongPhase),
    ("a draft in the classic game", fresh_game, lambda g: Draft(0, 1), WrongPhase),
]


@pytest.mark.parametrize("name,make_game,make_action,error", CASES, ids=[c[0] for c in CASES])
def test_illegal_action_raises_and_changes_nothing(name, make_game, make_action, error):
    game = make_game()
    before = game.to_dict()
    with pytest.raises(error) as info:
        game.apply(make_action(game))
    assert isinstance(info.value, IllegalAction) and isinstance(info.value, ValueError)
    assert str(info.value)  # a message a player can read
    assert game.to_dict() == before


def test_play_turn_checks_every_card_before_changing_anything():
    game = fresh_game()
    before = game.to_dict()
    cards = [h[0] for h in game.hands]
    cards[3] = game.hands[0][1]  # seat 3 names seat 0's card
    with pytest.raises(CardNotInHand):
        game.play_turn(cards)
    with pytest.raises(UnknownPlayer):
        game.play_turn(cards[:3])
    assert game.to_dict() == before


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("wrong", ["taken", "missing", True, 5.0, "7"])
def test_play_turn_puts_back_the_cards_it_took_before_a_bad_one(seat, wrong):
    """play_turn takes each card as it checks it: a bad card at any seat undoes the seats before."""
    game = fresh_game()
    before = game.to_dict()
    cards = [h[-1] for h in game.hands]
    if wrong == "taken":  # a card of another seat's hand
        wrong = game.hands[(seat + 1) % 4][0]
    elif wrong == "missing":  # a card in no hand (set aside this round)
        wrong = game.set_aside[0]
    elif wrong is True or wrong == 5.0:  # equal to a card, but not an int card
        held = 1 if wrong is True else 5
        game = Game.from_position(
            GameConfig(4),
            rows=[[20], [30], [40], [50]],
            hands=[[held if p == seat else 60 + p, 70 + p] for p in range(4)],
        )
        before = game.to_dict()
        cards = [h[0] for h in game.hands]
    cards[seat] = wrong
    with pytest.raises(CardNotInHand, match=f"seat {seat}"):
        game.play_turn(cards)
    assert game.to_dict() == before


def test_a_pick_can_change_until_the_last_player_picks():
    game = fresh_game()
    first, second = game.hands[0][:2]
    game.pick(0, first)
    game.pick(0, second)
    assert game.picks[0] == second and game.waiting_for == (1, 2, 3)
    for p in (1, 2, 3):
        game.pick(p, game.hands[p][0])
    assert second not in game.hands[0] and first in game.hands[0]


def test_game_over_refuses_everything():
    game = Game.new(GameConfig(2, target=None, rounds=1), seed=5)
    rng = random.Random(5)
    while not game.is_over:
        player = game.waiting_for[0]
        game.apply(rng.choice(game.legal_actions(player)))
    assert game.legal_actions(0) == [] and game.waiting_for == ()
    with pytest.raises(WrongPhase, match="the game is over"):
        game.pick(0, 1)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"players": 11}, "2–10 players"),
        ({"players": 1}, "2–10 players"),
        ({"players": 7, "variant": "pro"}, "2–6 players"),
        ({"players": 9, "variant": "anniversary"}, "2–8 players"),
        ({"players": 4, "variant": "poker"}, "unknown variant"),
        ({"players": 4, "target": None, "rounds": None}, "target score or a number of rounds"),
        ({"players": 4, "target": 0}, "target score"),
        ({"players": 4, "rounds": 0}, "number of rounds"),
    ],
)
def test_bad_configs_are_refused_with_a_reason(kwargs, message):
    with pytest.raises(InvalidConfig, match=message):
        GameConfig(**kwargs)


def test_corrupt_saved_games_are_refused():
    good = fresh_game().to_dict()
    for damage in (
        lambda d: d.pop("rows"),
        lambda d: d.__setitem__("hands", "not a list"),
        lambda d: d.__setitem__("format", 99),
        lambda d: d.__setitem__("phase", "dancing"),
        lambda d: d["config"].__setitem__("players", 40),
        lambda d: d.__setitem__("picks", [0]),
        lambda d: d["rng"].__setitem__(1, "not base64!"),
        # whole words, one short of the generator's 625: setstate refuses it
        lambda d: d["rng"].__setitem__(1, base64.b64encode(struct.pack("<624I", *range(624))).decode()),
        lambda d: d["rng"].__setitem__(1, "QUJD"),  # three bytes: a partial word
    ):
        data = fresh_game().to_dict()
        damage(data)
        with pytest.raises(CorruptState):
            Game.from_dict(data)
    assert Game.from_dict(good) == fresh_game()


@pytest.mark.parametrize("field", ["chooser", "drafter", "first_drafter"])
@pytest.mark.parametrize("value", [9, -1, "0", True])
def test_a_save_whose_seat_is_no_seat_is_refused(field, value):
    # These were once taken as saved: a chooser of seat 9 made a game waiting for nobody there.
    data = fresh_game().to_dict()
    data[field] = value
    with pytest.raises(CorruptState, match=f"{field} must be a seat or null"):
        Game.from_dict(data)


def test_saves_with_the_generator_state_as_a_number_list_still_load():
    """Checkpoints written before the compact (base64) generator state keep working."""
    game = fresh_game()
    data = game.to_dict()
    version, _, gauss = data["rng"]
    old = dict(data, rng=[version, list(game.rng.getstate()[1]), gauss])
    restored = Game.from_dict(old)
    assert restored == game and restored.rng.getstate() == game.rng.getstate()
    assert restored.rng.random() == game.rng.random()
