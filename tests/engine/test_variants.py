"""The variant registry, the view's shared fields, and defects found on the way:
uneven hands, bools as seats, a silently replaced Anniversary target, ``cheapest_row``."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    BULLHEADS,
    PLAYER_LIMITS,
    AnniversaryGame,
    AnniversaryView,
    ChooseRow,
    DeclineSpecial,
    Draft,
    Game,
    GameConfig,
    InvalidConfig,
    Phase,
    Pick,
    PlayerView,
    Special,
    UnevenHands,
    UnknownPlayer,
    Variant,
    variant_spec,
)
from engine.variants import state_class

# -- the registry -----------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
def test_every_variant_is_registered_and_plays_as_its_state_class(variant):
    spec = variant_spec(variant)
    low, high = spec.players
    assert PLAYER_LIMITS[variant] == (low, high)
    game = Game.new(GameConfig(low, variant), seed=1)
    assert type(game) is spec.state
    if variant is not Variant.PRO:  # a Pro hand is drafted, card by card
        assert len(game.hands[0]) == spec.hand_size
    assert (game.config.target, game.config.rounds) == (spec.target, spec.rounds)
    assert type(Game.from_dict(game.to_dict())) is spec.state
    assert isinstance(game.view(0), PlayerView)


def test_variant_numbers_are_the_rulebooks():
    assert [variant_spec(v).players for v in Variant] == [(2, 10), (2, 6), (2, 8)]
    assert variant_spec("pro").deck_size(3) == 34 and variant_spec("classic").deck_size(3) == 104
    assert variant_spec(Variant.ANNIVERSARY).hand_size == 12


def test_an_unknown_variant_is_refused_with_the_choices():
    with pytest.raises(InvalidConfig, match="classic, pro, anniversary"):
        variant_spec("poker")


def test_a_save_loads_as_its_variants_class_whoever_reads_it():
    classic = Game.new(GameConfig(3), seed=2).to_dict()
    anniversary = Game.new(GameConfig(3, "anniversary"), seed=2).to_dict()
    assert type(AnniversaryGame.from_dict(classic)) is Game
    assert type(Game.from_dict(anniversary)) is AnniversaryGame

    class Custom(Game):
        __slots__ = ()

    assert state_class(Custom, Variant.CLASSIC) is Custom
    assert state_class(Custom, Variant.ANNIVERSARY) is AnniversaryGame


# -- GameConfig: the variant decides the Anniversary game's length ----------------------


def test_the_anniversary_length_is_the_variants_and_a_conflicting_one_is_refused():
    assert GameConfig(4, "anniversary") == GameConfig(4, "anniversary", target=None, rounds=2)
    for conflict in ({"target": 66}, {"rounds": 3}, {"target": 66, "rounds": None}):
        with pytest.raises(InvalidConfig, match="anniversary variant plays 2 rounds"):
            GameConfig(4, "anniversary", **conflict)


def test_the_classic_defaults_come_from_the_variant():
    config = GameConfig(4)
    assert (config.target, config.rounds) == (variant_spec("classic").target, None) == (66, None)
    assert GameConfig(4, target=None, rounds=3).rounds == 3


# -- from_position: hands of unequal length make a round that never ends --------------


@pytest.mark.parametrize(
    "make",
    [
        lambda hands: Game.from_position(GameConfig(3), rows=[[10], [20], [30], [40]], hands=hands),
        lambda hands: AnniversaryGame.from_position(
            GameConfig(3, "anniversary"), rows=[[10], [20], [30], [40]], hands=hands
        ),
    ],
)
def test_uneven_hands_are_refused(make):
    with pytest.raises(UnevenHands, match="same number of cards"):
        make([[50, 51], [52], [53, 54]])
    with pytest.raises(InvalidConfig):  # UnevenHands is an InvalidConfig, a ValueError
        make([[], [], []])
    assert make([[50], [52], [53]]).hands == [[50], [52], [53]]


# -- seats are ints, and a bool is no int here ----------------------------------------


def test_a_bool_is_no_seat_in_any_action():
    game = Game.from_position(GameConfig(3), rows=[[10], [20], [30], [40]], hands=[[50, 51], [2, 52], [60, 61]])
    before = game.to_dict()
    for action in (Pick(True, 2), Pick(False, 50)):
        with pytest.raises(UnknownPlayer):
            game.apply(action)
    with pytest.raises(UnknownPlayer):
        game.legal_actions(True)
    with pytest.raises(UnknownPlayer):
        game.view(False)
    assert game.to_dict() == before
    game.play_turn([50, 2, 60])
    assert game.phase is Phase.CHOOSE_ROW and game.chooser == 1
    with pytest.raises(UnknownPlayer):
        game.apply(ChooseRow(True, 0))
    assert game.phase is Phase.CHOOSE_ROW

    pro = next(g for g in (Game.new(GameConfig(3, Variant.PRO), seed=s) for s in range(50)) if g.drafter == 1)
    with pytest.raises(UnknownPlayer):
        pro.apply(Draft(True, pro.draft_pool[0]))
    assert len(pro.draft_pool) == 34


def test_a_bool_is_no_seat_for_a_special_card_decision():
    game = AnniversaryGame.from_position(
        GameConfig(3, "anniversary"),
        rows=[[10, 20], [30, 40], [50, 60], [70, 80]],
        hands=[[45, 1], [101, 2], [102, 3]],
        specials=[[Special.REPLACE], [], []],
    )
    game.play_turn([45, 101, 102])
    assert game.phase is Phase.SPECIAL and game.decider == 0
    with pytest.raises(UnknownPlayer):
        game.apply(DeclineSpecial(False))
    assert game.phase is Phase.SPECIAL
    game.apply(DeclineSpecial(0))


# -- cheapest_row: fast, and the same row as before on every tie ------------------------


def cheapest_row_before(rows) -> int:
    """The implementation it replaced: sums, min, index."""
    costs = [sum(BULLHEADS[c] for c in row) for row in rows]
    return costs.index(min(costs))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), count=st.sampled_from([4, 5]))
def test_cheapest_row_matches_the_former_rule(data, count):
    cards = data.draw(st.permutations(range(1, 105)))
    sizes = data.draw(st.lists(st.integers(1, 6), min_size=count, max_size=count))
    rows, start = [], 0
    for size in sizes:
        rows.append(sorted(cards[start : start + size]))
        start += size
    game = Game.new(GameConfig(2), seed=0)
    game.rows = rows
    assert game.cheapest_row() == cheapest_row_before(rows)


def test_cheapest_row_takes_the_lowest_index_on_a_tie():
    game = Game.new(GameConfig(2), seed=0)
    game.rows = [[55], [11, 22], [1, 2, 3, 4, 5, 6, 7], [12, 13]]  # 7, 10, 8, 2 … then a tie
    assert game.cheapest_row() == 3
    game.rows = [[12, 13], [1, 2], [55], [3, 4]]
    assert game.cheapest_row() == 0


# -- the view carries what a table shows, with neutral values where a variant has none -----


@pytest.mark.parametrize("variant", list(Variant))
def test_every_view_carries_row_costs_capacities_markers_and_the_decision(variant):
    rng = random.Random(5)
    game = Game.new(GameConfig(3, variant), seed=5)
    for _ in range(400):
        for seat in range(3):
            view = game.view(seat)
            assert [r.bullheads for r in view.rows] == [game.row_bullheads(i) for i in range(len(game.rows))]
            assert len(view.row_capacities) == len(view.row_markers) == len(view.rows)
            assert view.to_decide == (game.phase if seat in game.waiting_for else None)
        assert game.view(None).to_decide is None
        assert game.view(None).history == tuple(tuple(points) for points in game.history)
        if game.is_over:
            break
        seat = game.waiting_for[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    view = game.view(0)
    if variant is Variant.ANNIVERSARY:
        assert isinstance(view, AnniversaryView) and view.specials is not None and view.special_cards
    else:
        assert view.row_capacities == (5,) * len(view.rows) and all(m == () for m in view.row_markers)
        assert (
            not view.special_cards
            and view.specials is None
            and view.decider is None
            and view.special_counts == (0, 0, 0)
        )
