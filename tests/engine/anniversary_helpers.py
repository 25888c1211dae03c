"""Shared helpers for the Anniversary tests: random legal play and card bookkeeping."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from engine import AnniversaryGame, DeclineSpecial, DeclineSwap, Game, GameConfig, Phase, Variant
from engine.ai import choose_action
from engine.anniversary import SPECIAL_DECK, Special


def random_anniversary_action(game: AnniversaryGame, rng: random.Random, eager: float = 0.7):
    """A random legal action; at a special-card pause, a special is played with chance ``eager``."""
    if game.phase is Phase.PICK:
        waiting = game.waiting_for
        player = rng.randrange(game.players) if rng.random() < 0.2 else rng.choice(waiting)
        return rng.choice(game.legal_actions(player))
    player = game.waiting_for[0]
    actions = game.legal_actions(player)
    if game.phase in (Phase.SPECIAL, Phase.SWAP):
        plays = [a for a in actions if not isinstance(a, (DeclineSpecial, DeclineSwap))]
        if plays and rng.random() < eager:
            return rng.choice(plays)
        return actions[-1]
    return rng.choice(actions)


def number_cards(game) -> list[int]:
    cards = [c for r in game.rows for c in r]
    cards += [c for h in game.hands for c in h]
    cards += [c for p in game.piles for c in p]
    cards += [c for c, _ in game.pending]
    return cards + list(game.set_aside)


def special_cards(game) -> Counter:
    found = Counter(s for h in game.specials for s in h)
    found.update(game.special_deck)
    found.update(game.special_discard)
    found[Special.SEVEN_NIMMT] += sum(game.sevens)
    found[Special.STOP] += sum(game.stops)
    found[Special.FIFTH_ROW] += len(game.rows) == 5
    return found


ALL_SPECIALS = Counter(SPECIAL_DECK)

PAUSES = (Phase.PICK, Phase.SPECIAL, Phase.CHOOSE_ROW, Phase.SWAP)


@cache
def pauses_of_seat_0(wanted: int = 3) -> dict:
    """At least ``wanted`` positions of each kind in ``PAUSES`` at which seat 0 decides, from
    medium games (shared by the tests: a decision copies the game, never changes it)."""
    found: dict = {}
    for seed in range(60):
        for phase, game in decision_positions(seed).items():
            found.setdefault(phase, []).append(game)
        if all(len(found.get(p, ())) >= wanted for p in PAUSES):
            return found
    raise AssertionError(f"only {sorted(found)} in 60 games")


def decision_positions(seed: int, seat: int = 0):
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


def redeal_hidden(game, seat: int, rng: random.Random):
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
