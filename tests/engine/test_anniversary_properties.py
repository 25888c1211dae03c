"""Properties of random Anniversary games that play random legal special cards."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    BULLHEADS,
    AnniversaryGame,
    AnniversaryView,
    Game,
    GameConfig,
    Phase,
    Variant,
    action_from_dict,
    action_to_dict,
    new_game,
)
from engine.anniversary import PlaySpecial, SpecialsDealt

from .anniversary_helpers import ALL_SPECIALS, number_cards, random_anniversary_action, special_cards


def check_invariants(game: AnniversaryGame) -> None:
    assert sorted(number_cards(game)) == list(range(1, 105)), "number cards are conserved"
    assert special_cards(game) == ALL_SPECIALS, "the 28 special cards are conserved"
    assert len(game.rows) in (4, 5), "never more than five rows"
    assert len(game.sevens) == len(game.stops) == len(game.rows)
    assert sum(game.stops) <= 2, "never more than two Stops"
    for r, row in enumerate(game.rows):
        assert 1 <= len(row) <= game.capacity(r), "rows within their current capacity"
        assert row == sorted(row), "rows ascend"
    for p in range(game.players):
        assert game.round_points[p] == sum(BULLHEADS[c] for c in game.piles[p])
        assert game.totals[p] == sum(h[p] for h in game.history)
    if game.phase is Phase.PICK:
        assert len({len(h) for h in game.hands}) == 1
        assert not game.pending and game.decider is None
    if game.phase in (Phase.SPECIAL, Phase.SWAP):
        assert game.waiting_for == (game.decider,)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32 - 1),
    policy_seed=st.integers(0, 2**32 - 1),
    eager=st.sampled_from([0.3, 0.9, 1.0]),
)
def test_random_anniversary_games_keep_every_invariant(players, seed, policy_seed, eager):
    config = GameConfig(players, Variant.ANNIVERSARY)
    game = Game.new(config, seed=seed)
    assert isinstance(game, AnniversaryGame)
    rng = random.Random(policy_seed)
    actions = []
    steps = 0
    while not game.is_over:
        check_invariants(game)
        if steps % 7 == 0:
            data = json.loads(json.dumps(game.to_dict()))
            assert Game.from_dict(data) == game
        action = random_anniversary_action(game, rng, eager)
        actions.append(action_to_dict(action))
        game.apply(action)
        steps += 1
        assert steps < 3000, "a game always terminates"
    check_invariants(game)
    assert game.round == 2 and game.outcome.scores == tuple(game.totals)
    best = min(game.totals)
    assert set(game.outcome.winners) == {p for p, s in enumerate(game.totals) if s == best}

    # The seed and the JSON action log replay the same game.
    replay = new_game(config, seed=seed)
    for entry in json.loads(json.dumps(actions)):
        replay.apply(action_from_dict(entry))
    assert replay == game


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32 - 1))
def test_views_show_own_specials_only_and_every_legal_play_applies(players, seed):
    game = new_game(GameConfig(players, Variant.ANNIVERSARY), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        public = game.view(None)
        assert isinstance(public, AnniversaryView) and public.specials is None and public.hand is None
        assert public.special_counts == tuple(len(h) for h in game.specials)
        assert public.special_deck_size == len(game.special_deck)
        assert len(public.row_markers) == len(game.rows)
        for p in range(players):
            assert game.view(p).specials == tuple(s.value for s in game.specials[p])
        if game.phase is Phase.SPECIAL:
            # every offered special play is accepted (on a copy)
            for action in game.legal_actions(game.decider):
                if isinstance(action, PlaySpecial):
                    game.copy().apply(action)
        game.apply(random_anniversary_action(game, rng))


def test_specials_are_dealt_three_each_and_again_in_round_two():
    game = new_game(GameConfig(8, Variant.ANNIVERSARY), seed=4)
    assert [len(h) for h in game.specials] == [3] * 8 and len(game.special_deck) == 4
    assert [len(h) for h in game.hands] == [12] * 8
    rng = random.Random(4)
    dealt = None
    while game.round == 1:
        for event in game.apply(random_anniversary_action(game, rng, eager=0.0)):
            if isinstance(event, SpecialsDealt):
                dealt = event
    # nobody played a special card: 4 left in the deck cannot give anyone a card
    assert dealt == SpecialsDealt(2, (0,) * 8)
    game = new_game(GameConfig(4, Variant.ANNIVERSARY), seed=4)
    while game.round == 1:
        for event in game.apply(random_anniversary_action(game, rng, eager=0.0)):
            if isinstance(event, SpecialsDealt):
                dealt = event
    assert dealt == SpecialsDealt(2, (3,) * 4)  # 16 left: three each
    assert all(len(h) == 6 for h in game.specials)
