"""Shared helpers for the Anniversary tests: random legal play and card bookkeeping."""

from __future__ import annotations

import random
from collections import Counter

from engine import AnniversaryGame, DeclineSpecial, DeclineSwap, Phase
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
