"""The coach: hard's expected bullheads for every option and its choice, from what the player may see."""

import random

import pytest

from engine import Game, GameConfig, Phase
from engine.ai import choose_action
from engine.ai.coach import NoHint, hint

from .anniversary_helpers import pauses_of_seat_0, redeal_hidden

CONFIG = GameConfig(4, target=None, rounds=1)
ROWS = [[10], [30, 31, 32, 33, 34], [60], [90]]
HAND = [11, 35, 61, 91]


def _game(others: list[list[int]]) -> Game:
    return Game.from_position(CONFIG, [list(r) for r in ROWS], [list(HAND)] + others)


def test_a_hint_rates_every_card_and_warns_of_the_sixth_card():
    h = hint(_game([[2, 40, 70, 95], [3, 41, 71, 96], [4, 42, 72, 97]]), 0, random.Random(1), budget_sims=400)
    assert h.phase == "pick" and [card for card, _ in h.expected] == HAND
    costs = dict(h.expected)
    # 35 is the sixth card of a row of five: it takes the row's bullheads for sure
    assert costs[35] >= 5 and costs[35] == max(costs.values())
    assert h.choice in HAND and h.choice != 35
    assert all(v >= 0 for v in costs.values()) and h.simulations > 0


def test_the_hint_never_depends_on_cards_the_player_cannot_see():
    """The same table and hand, other hidden hands and a different face-down card: the same hint."""
    one = _game([[2, 40, 70, 95], [3, 41, 71, 96], [4, 42, 72, 97]])
    two = _game([[5, 50, 80, 99], [6, 51, 81, 100], [7, 52, 82, 101]])
    one.pick(1, 40)
    two.pick(1, 99)
    assert hint(one, 0, random.Random(7), budget_sims=200) == hint(two, 0, random.Random(7), budget_sims=200)


def test_a_low_card_hint_rates_every_row():
    game = Game.from_position(
        CONFIG, [[20], [30, 35], [40, 55], [50, 60, 70]], [[1, 80, 81], [82, 83, 84], [85, 86, 87], [88, 89, 90]]
    )
    game.play_turn([1, 82, 85, 88])
    assert game.phase is Phase.CHOOSE_ROW and game.chooser == 0
    h = hint(game, 0, random.Random(3), budget_sims=200)
    assert h.phase == "choose_row" and [r for r, _ in h.expected] == [0, 1, 2, 3]
    costs = dict(h.expected)
    assert costs[0] < costs[2]  # 1 bullhead against 9 now
    assert h.choice == choose_action(game, 0, "hard", random.Random(3), budget_sims=100).row


def test_no_hint_when_the_game_does_not_wait_for_the_player_to_pick_or_choose_a_row():
    game = _game([[2, 40, 70, 95], [3, 41, 71, 96], [4, 42, 72, 97]])
    game.pick(0, 11)
    with pytest.raises(NoHint):
        hint(game, 0, random.Random(0), budget_sims=50)
    # A special-card pause: the Decide prompt itself says what each answer does.
    with pytest.raises(NoHint):
        hint(pauses_of_seat_0()[Phase.SPECIAL][0], 0, random.Random(0), budget_sims=50)


@pytest.mark.parametrize("phase", [Phase.PICK, Phase.CHOOSE_ROW], ids=lambda p: p.value)
def test_an_anniversary_hint_rates_every_option_blind_to_hidden_cards_and_special_cards(phase):
    rng = random.Random(4)
    for game in pauses_of_seat_0()[phase][:2]:
        h = hint(game, 0, random.Random(9), budget_sims=120)
        options = sorted(game.hands[0]) if phase is Phase.PICK else game.open_rows()
        assert h.phase == phase.value and [o for o, _ in h.expected] == options
        assert h.choice in options and h.simulations > 0
        assert all(cost >= 0 for _, cost in h.expected)
        assert hint(redeal_hidden(game, 0, rng), 0, random.Random(9), budget_sims=120) == h
