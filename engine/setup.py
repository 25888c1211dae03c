"""Setting up a classic or Pro game: the random deal, and a game at a chosen position.

Kept apart from ``game.py`` so the rules module stays short; ``Game`` uses both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import floor
from typing import TypeVar

from .cards import BULLHEADS, HIGHEST_CARD, ROW_COUNT, ROW_LIMIT
from .config import GameConfig
from .errors import InvalidConfig, UnevenHands
from .phase import Phase
from .state import GameState

S = TypeVar("S", bound=GameState)

_DECK = tuple(range(1, HIGHEST_CARD + 1))
# (position, cards left) for each step of the deal, the count a float so that
# ``random() * count`` multiplies two floats (the same product, no int conversion).
_STEPS = tuple((n - 1, float(n)) for n in range(HIGHEST_CARD, 0, -1))


def deal(rng: random.Random, count: int) -> list[int]:
    """The 104 cards with ``count`` random ones moved to the end, in random order.

    A partial Fisher–Yates shuffle with ``floor(random() * n)`` (the formula the
    standard library's own ``shuffle`` used for years): dealing is a fair
    draw and costs a third of ``rng.sample`` on the hot path. ``floor`` is
    ``int`` for these non-negative numbers at a third of the call's cost.
    """
    deck = list(_DECK)
    random_ = rng.random
    for n, left in _STEPS[:count]:
        j = floor(random_() * left)
        deck[j], deck[n] = deck[n], deck[j]
    return deck


def game_at_position(
    cls: type[S],
    config: GameConfig,
    rows: list[list[int]],
    hands: list[list[int]],
    piles: list[list[int]] | None,
    totals: list[int] | None,
    seed: int,
) -> S:
    """``cls.from_position`` for classic and Pro configs (see ``Game.from_position``)."""
    n = config.players
    piles = piles if piles is not None else [[] for _ in range(n)]
    if len(hands) != n or len(piles) != n:
        raise InvalidConfig(f"a position for {n} players needs {n} hands and piles")
    check_even_hands(hands)
    if len(rows) != ROW_COUNT or any(not r or r != sorted(r) or len(r) > ROW_LIMIT for r in rows):
        raise InvalidConfig("a position needs four ascending rows of one to five cards")
    used = [c for group in (rows, hands, piles) for cards in group for c in cards]
    if len(set(used)) != len(used) or not all(1 <= c <= config.deck_size for c in used):
        raise InvalidConfig("a position may use each card once, from the cards in play")
    game = cls(config, random.Random(seed))
    game.round, game.turn, game.phase = 1, 1, Phase.PICK
    game.rows = [list(r) for r in rows]
    game.hands = [sorted(h) for h in hands]
    game.piles = [list(p) for p in piles]
    game.round_points = [sum(BULLHEADS[c] for c in p) for p in piles]
    game.totals = list(totals) if totals is not None else [0] * n
    in_play = set(used)
    game.set_aside = [c for c in range(1, config.deck_size + 1) if c not in in_play]
    return game


def check_even_hands(hands: Sequence[Sequence[int]]) -> None:
    """Everyone plays one card a turn, so hands of unequal length make a round that never ends."""
    sizes = {len(h) for h in hands}
    if len(sizes) > 1 or 0 in sizes:
        raise UnevenHands(
            f"every hand of a position must hold the same number of cards (at least one), "
            f"not {', '.join(str(len(h)) for h in hands)}"
        )
