"""Hard's Anniversary search: it decides every pause, legally, from what its seat may see."""

import random

import pytest

from engine import Phase
from engine.ai import choose_action
from engine.ai.anniversary_search import hidden_specials

from .anniversary_helpers import ALL_SPECIALS, PAUSES, pauses_of_seat_0, redeal_hidden, special_cards


@pytest.fixture(scope="module")
def pauses():
    return pauses_of_seat_0()


@pytest.mark.parametrize("phase", PAUSES, ids=lambda p: p.value)
def test_hard_decides_every_pause_legally_and_blind_to_hidden_cards(pauses, phase):
    rng = random.Random(3)
    for game in pauses[phase][:3]:
        legal = game.legal_actions(0)
        action = choose_action(game, 0, "hard", random.Random(7), budget_sims=120)
        assert action in legal
        for _ in range(2):
            other = redeal_hidden(game, 0, rng)
            assert special_cards(other) == ALL_SPECIALS
            assert choose_action(other, 0, "hard", random.Random(7), budget_sims=120) == action


def test_the_hidden_special_cards_are_the_deck_and_the_other_hands(pauses):
    for game in pauses[Phase.SPECIAL]:
        pool = sorted(hidden_specials(game, 0))
        expected = sorted([s for p in range(1, 5) for s in game.specials[p]] + game.special_deck)
        assert pool == expected


def test_a_millisecond_budget_bounds_every_anniversary_decision(pauses):
    import time

    for phase in PAUSES:
        for game in pauses[phase]:
            started = time.perf_counter()
            choose_action(game, 0, "hard", random.Random(0), budget_ms=20)
            assert time.perf_counter() - started < 0.25, phase
