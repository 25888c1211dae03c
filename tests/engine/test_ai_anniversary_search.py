"""Hard's Anniversary search: it decides every pause, legally, from what its seat may see."""

import random

import pytest

from engine import Game, GameConfig, Phase, Variant
from engine.ai import choose_action
from engine.ai.anniversary_search import hidden_specials
from engine.anniversary import Special

from .anniversary_helpers import ALL_SPECIALS, special_cards

PAUSES = (Phase.PICK, Phase.SPECIAL, Phase.CHOOSE_ROW, Phase.SWAP)


def _positions(seed: int, seat: int = 0):
    """Every position of a medium game at which ``seat`` decides, by phase (the first of each)."""
    game = Game.new(GameConfig(5, Variant.ANNIVERSARY), seed=seed)
    rng = random.Random(seed)
    found = {}
    while not game.is_over:
        player = game.waiting_for[0] if game.phase is not Phase.PICK else seat
        if player == seat and game.phase in PAUSES and game.phase not in found:
            found[game.phase] = game.copy()
        if game.phase is Phase.PICK:
            game.play_turn([choose_action(game, p, "medium", rng).card for p in range(5)])
        else:
            game.apply(choose_action(game, player, "medium", rng))
    return found


def _shuffle_hidden(game, seat: int, rng: random.Random):
    """The same game as ``seat`` sees it, with every hidden card dealt anew: the others' number
    cards (with the cards set aside), the others' special cards and the special deck's order."""
    other = game.copy()
    seats = [p for p in range(len(other.hands)) if p != seat]
    numbers = [c for p in seats for c in other.hands[p]] + other.set_aside
    rng.shuffle(numbers)
    specials = [s for p in seats for s in other.specials[p]] + other.special_deck
    rng.shuffle(specials)
    for p in seats:
        k = len(other.hands[p])
        other.hands[p], numbers = sorted(numbers[:k]), numbers[k:]
        k = len(other.specials[p])
        other.specials[p], specials = sorted(specials[:k], key=list(Special).index), specials[k:]
    other.set_aside, other.special_deck = numbers, specials
    return other


@pytest.fixture(scope="module")
def pauses():
    found = {}
    for seed in range(40):
        for phase, game in _positions(seed).items():
            found.setdefault(phase, []).append(game)
        if all(len(found.get(p, ())) >= 3 for p in PAUSES):
            break
    assert all(found.get(p) for p in PAUSES), sorted(found)
    return found


@pytest.mark.parametrize("phase", PAUSES, ids=lambda p: p.value)
def test_hard_decides_every_pause_legally_and_blind_to_hidden_cards(pauses, phase):
    rng = random.Random(3)
    for game in pauses[phase][:3]:
        legal = game.legal_actions(0)
        action = choose_action(game, 0, "hard", random.Random(7), budget_sims=120)
        assert action in legal
        for _ in range(2):
            other = _shuffle_hidden(game, 0, rng)
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
