"""Earlier Anniversary AIs, kept so ``benchmarks/ai.py`` can measure the search against them.

* ``hard-old`` — hard before issue 19: it searched its card only while the table was
  plain (four rows, no Stop, no 7 nimmt!) and judged every other card by medium's
  one-step danger; its rows, special cards and swaps were medium's.
* ``hard-cards`` — hard when it searched every card but nothing else: the classic
  search on the open rows (a row of a 7 nimmt! shown one card shorter), no special
  card in its simulations; its rows, special cards and swaps were medium's.

Kept here, not in the engine: nothing but the benchmark plays them.
"""

from __future__ import annotations

from engine.actions import Pick
from engine.ai import anniversary, anniversary_search, heuristics, search
from engine.ai.info import information_set
from engine.cards import ROW_LIMIT
from engine.phase import Phase


def _old_pick(game, player, rng, budget) -> int:
    info = information_set(game, player)
    plain = len(game.rows) == 4 and not any(game.stops) and not any(game.sevens)
    if plain:
        return search.hard_pick(info, rng, budget)
    rows, pts, caps = anniversary_search.open_table(game)
    info.rows, info.row_points = rows, pts
    return heuristics.medium_pick(info, rng, rows, pts, caps)


def _cards_pick(game, player, rng, budget) -> int:
    info = information_set(game, player)
    rows, pts, caps = anniversary_search.open_table(game)
    info.row_points = pts
    info.rows = [r[1:] if cap > ROW_LIMIT and len(r) > 1 else list(r) for r, cap in zip(rows, caps, strict=True)]
    return search.hard_pick(info, rng, budget)


def reference_decide(name, game, player, rng, hard_ms, hard_sims):
    """The decision of the reference AI ``name`` (``hard-old`` or ``hard-cards``)."""
    budget = search.Budget(hard_sims, hard_ms)
    if game.phase is Phase.PICK:
        pick = _old_pick if name == "hard-old" else _cards_pick
        return Pick(player, pick(game, player, rng, budget))
    return anniversary.decide(game, player, "medium", rng, budget)
