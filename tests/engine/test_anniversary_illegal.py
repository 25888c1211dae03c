"""Illegal special plays raise a typed error a player can read, and change nothing;
plus the pauses: when the engine asks, and when it does not."""

import pytest

from engine import (
    AnniversaryGame,
    CardNotInHand,
    ChooseRow,
    CorruptState,
    DeclineSpecial,
    DeclineSwap,
    Game,
    GameConfig,
    IllegalAction,
    IllegalSpecial,
    InvalidConfig,
    NotYourTurn,
    Phase,
    Pick,
    PlaySpecial,
    RowBlocked,
    Special,
    SpecialNotInHand,
    Swap,
    UnknownPlayer,
    WrongPhase,
    action_from_dict,
    action_to_dict,
    new_game,
)
from engine.anniversary import SpecialChoiceRequired, SpecialDeckReshuffled, SpecialSwapped, SwapOffered

CONFIG = GameConfig(3, "anniversary")
S = Special


def paused(rows, card, specials, *, stops=None, sevens=None, other=(Special.STOP,)) -> AnniversaryGame:
    """Seat 0 plays ``card`` holding ``specials``; the game pauses for its special card."""
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=rows,
        hands=[[card, 1], [101, 2], [102, 3]],
        specials=[list(specials), list(other), []],
        stops=stops,
        sevens=sevens,
    )
    game.play_turn([card, 101, 102])
    assert game.phase is Phase.SPECIAL and game.waiting_for == (0,)
    return game


FOUR = [[10, 20], [30, 40], [50, 60], [70, 80]]
FIVE = FOUR + [[90]]


CASES = [
    (
        "5th Row with five rows",
        lambda: paused(FIVE, 45, [S.FIFTH_ROW, S.REPLACE]),
        PlaySpecial(0, S.FIFTH_ROW),
        IllegalSpecial,
    ),
    (
        "Shift into a Stop row",
        lambda: paused(FOUR, 45, [S.SHIFT], stops=[False, True, False, False]),
        PlaySpecial(0, S.SHIFT, row=0, card=10, target_row=1),
        RowBlocked,
    ),
    (
        "Shift out of a Stop row",
        lambda: paused(FOUR, 45, [S.SHIFT], stops=[False, True, False, False]),
        PlaySpecial(0, S.SHIFT, row=1, card=30, target_row=0),
        RowBlocked,
    ),
    (
        "Shift to the same row",
        lambda: paused(FOUR, 45, [S.SHIFT]),
        PlaySpecial(0, S.SHIFT, row=0, card=10, target_row=0),
        IllegalSpecial,
    ),
    (
        "Shift of a card not in that row",
        lambda: paused(FOUR, 45, [S.SHIFT]),
        PlaySpecial(0, S.SHIFT, row=0, card=30, target_row=2),
        IllegalSpecial,
    ),
    (
        "a third Stop",
        lambda: paused(FOUR, 45, [S.STOP, S.REPLACE], stops=[True, True, False, False]),
        PlaySpecial(0, S.STOP, row=2),
        IllegalSpecial,
    ),
    (
        "a Stop on a stopped row",
        lambda: paused(FOUR, 45, [S.STOP], stops=[True, False, False, False]),
        PlaySpecial(0, S.STOP, row=0),
        RowBlocked,
    ),
    (
        "Insert out of order",
        lambda: paused(FOUR, 45, [S.INSERT]),
        PlaySpecial(0, S.INSERT, row=0, position=0),
        IllegalSpecial,
    ),
    (
        "Insert where the card goes anyway",
        lambda: paused(FOUR, 45, [S.INSERT]),
        PlaySpecial(0, S.INSERT, row=1, position=2),
        IllegalSpecial,
    ),
    (
        "Insert into a Stop row",
        lambda: paused(FOUR, 45, [S.INSERT], stops=[False, True, False, False]),
        PlaySpecial(0, S.INSERT, row=1, position=1),
        RowBlocked,
    ),
    (
        "Negative = Positive when not taking a row",
        lambda: paused(FOUR, 45, [S.NEGATIVE_POSITIVE, S.REPLACE]),
        PlaySpecial(0, S.NEGATIVE_POSITIVE, row=1, card=40),
        IllegalSpecial,
    ),
    (
        "Negative = Positive on another row than the one taken",
        lambda: paused([[10, 20, 21, 22, 23], [30], [50], [70]], 25, [S.NEGATIVE_POSITIVE]),
        PlaySpecial(0, S.NEGATIVE_POSITIVE, row=1, card=30),
        IllegalSpecial,
    ),
    (
        "7 nimmt! on another row",
        lambda: paused(FOUR, 45, [S.SEVEN_NIMMT]),
        PlaySpecial(0, S.SEVEN_NIMMT, row=0),
        IllegalSpecial,
    ),
    (
        "a second 7 nimmt! on a row",
        lambda: paused(FOUR, 45, [S.SEVEN_NIMMT, S.REPLACE], sevens=[False, True, False, False]),
        PlaySpecial(0, S.SEVEN_NIMMT, row=1),
        IllegalSpecial,
    ),
    (
        "7 nimmt! for a low card",
        lambda: paused(FOUR, 5, [S.SEVEN_NIMMT, S.REPLACE]),
        PlaySpecial(0, S.SEVEN_NIMMT, row=0),
        IllegalSpecial,
    ),
    (
        "Replace with a card not in the hand",
        lambda: paused(FOUR, 45, [S.REPLACE]),
        PlaySpecial(0, S.REPLACE, card=2),
        CardNotInHand,
    ),
    ("a row that does not exist", lambda: paused(FOUR, 45, [S.STOP]), PlaySpecial(0, S.STOP, row=4), IllegalAction),
    (
        "a special the player does not hold",
        lambda: paused(FOUR, 45, [S.REPLACE]),
        PlaySpecial(0, S.STOP, row=0),
        SpecialNotInHand,
    ),
    (
        "something that is not a special card",
        lambda: paused(FOUR, 45, [S.REPLACE]),
        PlaySpecial(0, "joker"),
        SpecialNotInHand,
    ),
    (
        "a special by a player the game is not waiting for",
        lambda: paused(FOUR, 45, [S.REPLACE]),
        PlaySpecial(1, S.STOP, row=0),
        NotYourTurn,
    ),
    ("a decline by another player", lambda: paused(FOUR, 45, [S.REPLACE]), DeclineSpecial(1), NotYourTurn),
    (
        "a special by a seat that does not exist",
        lambda: paused(FOUR, 45, [S.REPLACE]),
        PlaySpecial(7, S.STOP, row=0),
        UnknownPlayer,
    ),
    ("a pick during the special pause", lambda: paused(FOUR, 45, [S.REPLACE]), Pick(1, 2), WrongPhase),
    ("a swap during the special pause", lambda: paused(FOUR, 45, [S.REPLACE]), Swap(0, S.REPLACE), WrongPhase),
    ("a special while everyone picks", lambda: new_game(CONFIG, seed=1), PlaySpecial(0, S.STOP, row=0), WrongPhase),
]


@pytest.mark.parametrize("name,make_game,action,error", CASES, ids=[c[0] for c in CASES])
def test_illegal_special_raises_and_changes_nothing(name, make_game, action, error):
    game = make_game()
    before = game.to_dict()
    with pytest.raises(error) as info:
        game.apply(action)
    assert isinstance(info.value, IllegalAction) and str(info.value)
    assert action not in game.legal_actions(action.player if 0 <= action.player < 3 else 0)
    assert game.to_dict() == before


def test_a_special_in_the_classic_game_is_refused():
    game = Game.new(GameConfig(3), seed=1)
    with pytest.raises(WrongPhase):
        game.apply(PlaySpecial(0, S.STOP, row=0))


def low_card_with_stop() -> AnniversaryGame:
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=FOUR,
        hands=[[5, 1], [101, 2], [102, 3]],
        specials=[[], [], []],
        stops=[True, False, False, False],
    )
    game.play_turn([5, 101, 102])
    assert game.phase is Phase.CHOOSE_ROW
    return game


def test_a_low_card_cannot_take_a_stopped_row():
    game = low_card_with_stop()
    before = game.to_dict()
    with pytest.raises(RowBlocked):
        game.apply(ChooseRow(0, 0))
    assert game.to_dict() == before
    assert game.legal_actions(0) == [ChooseRow(0, r) for r in (1, 2, 3)]


def test_a_card_that_fits_only_a_stopped_row_is_a_low_card():
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=[[10, 20], [30, 40], [50, 60], [70, 80]],
        hands=[[25, 1], [101, 2], [102, 3]],
        specials=[[], [], []],
        stops=[True, False, False, False],
    )
    game.play_turn([25, 101, 102])
    assert game.phase is Phase.CHOOSE_ROW and game.chooser == 0


def test_no_pause_when_no_special_is_legal():
    # Negative = Positive is the only special, and the 45 takes no row.
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=FOUR,
        hands=[[45, 1], [101, 2], [102, 3]],
        specials=[[S.NEGATIVE_POSITIVE], [S.NEGATIVE_POSITIVE], []],
    )
    events = game.play_turn([45, 101, 102])
    assert game.phase is Phase.PICK and not any(isinstance(e, SpecialChoiceRequired) for e in events)
    # Replace is not legal on the last card of the round either.
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=FOUR,
        hands=[[45], [101], [102]],
        specials=[[S.REPLACE], [], []],
    )
    game.play_turn([45, 101, 102])
    assert game.phase is not Phase.SPECIAL


def test_decline_places_the_card_without_asking_again():
    game = paused(FOUR, 45, [S.REPLACE])
    game.apply(DeclineSpecial(0))
    assert game.rows[1] == [30, 40, 45] and game.specials[0] == [S.REPLACE]


def test_swap_after_a_take_draws_the_top_card_and_discards_the_old_one():
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=[[10, 20, 21, 22, 23], [30], [50], [70]],
        hands=[[25, 1], [101, 2], [102, 3]],
        specials=[[S.NEGATIVE_POSITIVE, S.REPLACE], [], []],
        special_deck=[S.SHIFT, S.STOP],
        special_discard=[],
    )
    game.play_turn([25, 101, 102])
    game.apply(DeclineSpecial(0))
    assert game.phase is Phase.SWAP and game.waiting_for == (0,)
    assert game.legal_actions(0) == [Swap(0, S.REPLACE), Swap(0, S.NEGATIVE_POSITIVE), DeclineSwap(0)]
    before = game.to_dict()
    for bad, error in (
        (Swap(0, S.SHIFT), SpecialNotInHand),
        (Swap(1, S.REPLACE), NotYourTurn),
        (Pick(1, 2), WrongPhase),
        (DeclineSpecial(0), WrongPhase),
    ):
        with pytest.raises(error):
            game.apply(bad)
        assert game.to_dict() == before
    events = game.apply(Swap(0, S.REPLACE))
    assert events[0] == SpecialSwapped(0, S.REPLACE)
    assert game.specials[0] == [S.STOP, S.NEGATIVE_POSITIVE]
    # (from_position puts the special cards it was not told about on the discard pile)
    assert game.special_deck == [S.SHIFT] and game.special_discard[-1] == S.REPLACE
    assert game.phase is Phase.PICK


def test_an_empty_deck_is_rebuilt_from_the_discard_pile_for_a_swap():
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=[[10, 20, 21, 22, 23], [30], [50], [70]],
        hands=[[25, 1], [101, 2], [102, 3]],
        specials=[[S.REPLACE], [], []],
        special_deck=[],
    )
    assert len(game.special_discard) == 27
    game.play_turn([25, 101, 102])
    game.apply(DeclineSpecial(0))
    events = game.apply(Swap(0, S.REPLACE))
    assert events[0] == SpecialDeckReshuffled(27)  # drawn first, so the Replace is not among them
    assert len(game.specials[0]) == 1 and game.special_discard == [S.REPLACE]
    assert len(game.special_deck) == 26


def test_no_swap_offer_without_special_cards():
    game = AnniversaryGame.from_position(
        CONFIG,
        rows=[[10, 20, 21, 22, 23], [30], [50], [70]],
        hands=[[25, 1], [101, 2], [102, 3]],
        specials=[[], [], []],
    )
    events = game.play_turn([25, 101, 102])
    assert not any(isinstance(e, SwapOffered) for e in events) and game.phase is Phase.PICK


def test_new_actions_survive_the_action_log():
    for action in (
        PlaySpecial(0, S.SHIFT, row=1, card=30, target_row=2),
        PlaySpecial(2, S.FIFTH_ROW),
        DeclineSpecial(1),
        Swap(0, S.STOP),
        DeclineSwap(2),
    ):
        assert action_from_dict(action_to_dict(action)) == action
        assert type(action_from_dict(action_to_dict(action))) is type(action)
    for kind in ("play_special", "swap"):
        with pytest.raises(CorruptState):
            action_from_dict({"kind": kind, "player": 0, "special": "joker"})
    assert isinstance(Swap(0, "stop").special, S) and isinstance(PlaySpecial(0, "stop").special, S)


def test_corrupt_anniversary_saves_are_refused():
    good = new_game(CONFIG, seed=3).to_dict()
    for damage in (
        lambda d: d.pop("anniversary"),
        lambda d: d["anniversary"]["specials"][0].append("stop"),
        lambda d: d["anniversary"]["special_deck"].append("joker"),
        lambda d: d["anniversary"]["stops"].append(True),
        lambda d: d["anniversary"].__setitem__("decider", 9),
    ):
        data = new_game(CONFIG, seed=3).to_dict()
        damage(data)
        with pytest.raises(CorruptState):
            Game.from_dict(data)
    assert Game.from_dict(good) == new_game(CONFIG, seed=3)
    assert isinstance(AnniversaryGame.from_dict(good), AnniversaryGame)


def test_classic_from_position_with_an_anniversary_config_gives_an_anniversary_game():
    game = Game.from_position(CONFIG, rows=FOUR, hands=[[45], [101], [102]])
    assert isinstance(game, AnniversaryGame) and game.specials == [[], [], []]
    assert Game.from_dict(game.to_dict()) == game


@pytest.mark.parametrize("markers", [{"sevens": [False]}, {"stops": [False] * 5}])
def test_a_position_needs_one_marker_flag_per_row(markers):
    # A flag list of another length than the rows was once taken as it came: a game that later
    # failed reading the flag of a row that had none, or carried flags of rows that were not there.
    with pytest.raises(InvalidConfig, match="one 7 nimmt! flag and one Stop flag per row"):
        AnniversaryGame.from_position(CONFIG, rows=FOUR, hands=[[45], [101], [102]], **markers)
