"""Properties of every game: random seeds, player counts and legal random play."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    BULLHEADS,
    PLAYER_LIMITS,
    ROW_LIMIT,
    Game,
    GameConfig,
    Phase,
    Variant,
    action_from_dict,
    action_to_dict,
)

from .helpers import cards_in_play, random_action

variants = st.sampled_from([Variant.CLASSIC, Variant.PRO])


@st.composite
def configs(draw):
    variant = draw(variants)
    low, high = PLAYER_LIMITS[variant]
    players = draw(st.integers(low, high))
    if draw(st.booleans()):
        return GameConfig(players, variant, target=draw(st.integers(10, 80)), rounds=None)
    return GameConfig(players, variant, target=None, rounds=draw(st.integers(1, 3)))


def check_invariants(game: Game) -> None:
    config = game.config
    cards = cards_in_play(game)
    assert sorted(cards) == list(range(1, config.deck_size + 1)), "cards are conserved"
    if game.phase is not Phase.DRAFT:
        assert len(game.rows) == 4
    assert all(1 <= len(r) <= ROW_LIMIT for r in game.rows)
    assert all(r == sorted(r) for r in game.rows), "rows ascend"
    for p in range(game.players):
        assert game.round_points[p] == sum(BULLHEADS[c] for c in game.piles[p])
        assert game.totals[p] == sum(h[p] for h in game.history)
        if game.is_over:
            assert game.scores[p] == game.totals[p], "the last round is counted once"
        else:
            assert game.scores[p] == game.totals[p] + game.round_points[p]
    sizes = {len(h) for h in game.hands}
    if game.phase is not Phase.DRAFT:
        assert len(sizes) == 1 or game.phase is Phase.CHOOSE_ROW


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=st.integers(0, 2**32 - 1), policy_seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(config, seed, policy_seed):
    game = Game.new(config, seed=seed)
    rng = random.Random(policy_seed)
    actions = []
    steps = 0
    while not game.is_over:
        check_invariants(game)
        assert Game.from_dict(game.to_dict()) == game
        action = random_action(game, rng)
        actions.append(action_to_dict(action))
        game.apply(action)
        steps += 1
        assert steps < 5000, "a game always terminates"
    check_invariants(game)
    outcome = game.outcome
    assert outcome.scores == tuple(game.totals) == game.scores
    assert set(outcome.winners) == {p for p, s in enumerate(outcome.scores) if s == min(outcome.scores)}
    if config.rounds is not None and (config.target is None or max(outcome.scores) < config.target):
        assert game.round == config.rounds

    # The seed and the action log replay the same game.
    replay = Game.new(config, seed=seed)
    for entry in actions:
        replay.apply(action_from_dict(entry))
    assert replay == game


@settings(max_examples=25, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_games_terminate_and_a_view_hides_other_hands(config, seed):
    game = Game.new(config, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        if game.phase is Phase.PICK:
            for p in range(game.players):
                view = game.view(p)
                assert view.hand == tuple(game.hands[p])
                public = game.view(None)
                assert public.hand is None and public.my_pick is None
                # a view names nobody's face-down card but the viewer's own
                assert view.my_pick in (None, game.picks[p])
        game.apply(random_action(game, rng))
    assert game.outcome is not None


def test_first_drafter_is_seeded_and_moves_one_seat_each_round():
    config = GameConfig(3, Variant.PRO, target=None, rounds=3)
    game = Game.new(config, seed=7)
    first = game.first_drafter
    assert game.drafter == first and game.draft_pool == list(range(1, 35))
    rng = random.Random(1)
    seen = [first]
    while not game.is_over:
        before = game.round
        game.apply(random_action(game, rng))
        if game.round != before and not game.is_over:
            seen.append(game.first_drafter)
    assert seen == [first, (first + 1) % 3, (first + 2) % 3]
    assert len({Game.new(config, seed=s).first_drafter for s in range(30)}) == 3  # drawn, not fixed
