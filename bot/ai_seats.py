"""How the table service asks an AI for a decision: one interface for every level.

The AI itself lives in ``engine.ai`` (pure and synchronous); this adapter is
the only place the service calls it, so a stronger AI or an executor for slow
levels changes nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Game

#: (game, seat, level, rng) -> an engine action that is legal for that seat now.
AIDecider = Callable[[Game, int, str, random.Random], object]


def default_decider(game: Game, seat: int, level: str, rng: random.Random):
    from engine.ai import choose_action

    return choose_action(game, seat, level, rng)
