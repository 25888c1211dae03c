"""The hard level's model of its opponents picks exactly as the medium level does."""

import random

from engine import Game, GameConfig, Phase
from engine.ai import heuristics, information_set
from engine.ai.medium_model import MediumModel


def _positions(count: int):
    """Games a few turns into a classic round, at random table sizes."""
    rng = random.Random(17)
    for seed in range(count):
        players = rng.randint(2, 10)
        game = Game.new(GameConfig(players, target=None, rounds=1), seed=seed)
        for _ in range(rng.randrange(9)):
            game.play_turn([rng.choice(h) for h in game.hands])
            while game.phase is Phase.CHOOSE_ROW:
                game.choose_row(game.chooser, rng.randrange(4))
        yield game


def test_the_fast_model_picks_what_medium_picks_for_every_opponent():
    compared = 0
    for game in _positions(400):
        mine = information_set(game, 0)
        universe = sorted(mine.unseen + mine.hand)  # built from seat 0's view only
        model = MediumModel(mine.rows, mine.row_points, universe, game.config.players - 1)
        for p in range(1, game.config.players):
            theirs = information_set(game, p)
            hand = theirs.hand
            keys = heuristics.pick_keys(theirs)
            assert model.keys(hand) == [keys[c] for c in hand]
            assert model.pick(hand) == heuristics.medium_pick(theirs, random.Random(0))
            compared += 1
    assert compared > 1000
