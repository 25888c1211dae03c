"""Random legal play, shared by the engine's property tests."""

from __future__ import annotations

import random

from engine import Game, Phase


def random_action(game: Game, rng: random.Random):
    """A random legal action of some player the game waits for."""
    waiting = game.waiting_for
    if game.phase is Phase.PICK:
        # Anyone may pick, including changing a pick already made.
        player = rng.randrange(game.players) if rng.random() < 0.2 else rng.choice(waiting)
    else:
        player = waiting[0]
    return rng.choice(game.legal_actions(player))


def cards_in_play(game: Game) -> list[int]:
    """Every number card the state knows of, wherever it lies."""
    cards = [c for r in game.rows for c in r]
    cards += [c for h in game.hands for c in h]
    cards += [c for p in game.piles for c in p]
    cards += [c for c, _ in game.pending]
    cards += game.set_aside + game.draft_pool
    return cards
