"""The Anniversary AI as it was before issue 19: the benchmark's "hard (before)".

Hard searched its card only while the table was plain (four rows, no Stop, no
7 nimmt!) and judged every other card by medium's one-step danger. Its other
decisions (rows, special cards, swaps) are unchanged, so they are the engine's.
Kept here, not in the engine, only so ``benchmarks/ai.py`` can measure the new
search against it.
"""

from __future__ import annotations

from engine.actions import Pick
from engine.ai import anniversary, heuristics, search
from engine.ai.info import information_set
from engine.game import Phase


def _old_pick(game, player, rng, budget) -> int:
    info = information_set(game, player)
    plain = len(game.rows) == 4 and not any(game.stops) and not any(game.sevens)
    if plain:
        return search.hard_pick(info, rng, budget)
    rows, pts, caps = anniversary._table(game)
    info.rows, info.row_points = rows, pts
    return heuristics.medium_pick(info, rng, rows, pts, caps)


def old_anniversary_decide(game, player, rng, hard_ms, hard_sims):
    budget = search.Budget(hard_sims, hard_ms)
    if game.phase is Phase.PICK:
        return Pick(player, _old_pick(game, player, rng, budget))
    return anniversary.decide(game, player, "hard", rng, budget)
