"""The fast paths of random play agree with the plain ones.

``play_turn`` and ``n`` single picks are the same turn; shared (cached) events
are ordinary events of the right type; a card goes where ``row_for`` says.
"""

from __future__ import annotations

import random

import pytest

from engine import CardPlaced, CardsRevealed, Game, GameConfig, Phase, RowChoiceRequired, RowTaken


@pytest.mark.parametrize("players", [2, 5, 10])
@pytest.mark.parametrize("seed", range(4))
def test_play_turn_and_single_picks_make_the_same_game(players, seed):
    config = GameConfig(players, target=None, rounds=3)
    joint, single = Game.new(config, seed=seed), Game.new(config, seed=seed)
    rng = random.Random(seed)
    while not joint.is_over:
        if joint.phase is Phase.PICK:
            cards = [rng.choice(hand) for hand in joint.hands]
            expected = {r: joint.row_for(c) for r, c in enumerate(cards)}
            events = joint.play_turn(cards)
            picked = []
            for p in reversed(range(players)):  # any order gives the same reveal
                picked = single.pick(p, cards[p])
            assert picked == events
            assert type(events[0]) is CardsRevealed
            first = events[0].cards[0]
            for event in events[1:]:
                if type(event) is CardPlaced and event.card != first[0]:
                    assert event.row == expected[event.player]  # Rules 1 and 2
        else:
            row = rng.randrange(4)
            assert joint.choose_row(joint.chooser, row) == single.choose_row(single.chooser, row)
        assert joint.to_dict() == single.to_dict()


def test_shared_events_are_plain_events():
    game = Game.new(GameConfig(5), seed=11)
    rng = random.Random(11)
    seen = set()
    while not game.is_over:
        if game.phase is Phase.PICK:
            events = game.play_turn([rng.choice(hand) for hand in game.hands])
        else:
            events = game.choose_row(game.chooser, rng.randrange(4))
        for event in events:
            rebuilt = type(event)(*event)
            assert rebuilt == event and hash(rebuilt) == hash(event) and repr(rebuilt) == repr(event)
            seen.add(type(event))
    assert {CardPlaced, RowTaken, RowChoiceRequired} <= seen
