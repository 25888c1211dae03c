"""The Anniversary AI as it was before issue 19, frozen: the benchmark's "hard (before)".

Hard searched only while the table was plain (four rows, no Stop, no 7 nimmt!)
and judged every other decision by medium's one-step look-ahead. Kept here, not
in the engine, only so ``benchmarks/ai.py`` can measure the new search against it.
"""

from __future__ import annotations


import random

from engine.actions import ChooseRow, Pick
from engine.cards import BULLHEADS
from engine.game import Phase
from engine.ai import heuristics, search
from engine.ai.info import information_set

#: How useful a special card is to hold, relative to the others (an average draw ≈ 1).
WORTH = {
    "negative_positive": 1.3, "seven_nimmt": 1.1, "replace": 1.1, "insert": 1.0, "shift": 1.0,
    "stop": 1.0, "fifth_row": 0.6,
}
AVERAGE_WORTH = sum(WORTH.values()) / len(WORTH)
HAND = 12  # number cards per round


def decide(game, player: int, level, rng: random.Random, budget) -> object:
    """The Anniversary decision of ``player`` at ``level`` (a ``Level`` value)."""
    level = getattr(level, "value", level)
    legal = game.legal_actions(player)
    if level == "random":
        return rng.choice(legal)
    phase = game.phase
    if phase is Phase.PICK:
        return Pick(player, _pick(game, player, level, rng, budget))
    if phase is Phase.CHOOSE_ROW:
        if level == "easy":
            return ChooseRow(player, game.cheapest_row())
        return _best_by_lookahead(game, player, legal, spend=False)
    if phase is Phase.SPECIAL:
        if level == "easy" and rng.random() < 0.5:
            return legal[-1]  # DeclineSpecial comes last: a casual player forgets the card
        return _best_by_lookahead(game, player, legal, spend=True)
    if phase is Phase.SWAP:
        return _swap(game, player, legal)
    return legal[-1]


# -- pick ---------------------------------------------------------------------------


def _table(game):
    """The open rows, their bullheads and capacities."""
    open_rows = game.open_rows()
    rows = [game.rows[r] for r in open_rows]
    pts = [sum(BULLHEADS[c] for c in r) for r in rows]
    caps = [game.capacity(r) for r in open_rows]
    return rows, pts, caps


def _pick(game, player, level, rng, budget) -> int:
    info = information_set(game, player)
    plain = len(game.rows) == 4 and not any(game.stops) and not any(game.sevens)
    if level == "hard" and plain:
        return search.hard_pick(info, rng, budget)
    rows, pts, caps = _table(game)
    info.rows, info.row_points = rows, pts
    if level == "easy":
        return heuristics.easy_pick(info, rng)
    return heuristics.medium_pick(info, rng, rows, pts, caps)


# -- special cards and row choices, by lookahead -----------------------------------------------


def _turns_left(game) -> int:
    left = len(game.hands[0])
    if game.round < (game.config.rounds or 2):
        left += HAND
    return left


def _worth(game, kind) -> float:
    """Bullheads a special card of ``kind`` is worth keeping for the turns to come."""
    value = getattr(kind, "value", kind)
    return WORTH.get(value, 1.0) * min(4.0, 0.2 * _turns_left(game))


def _settle(game, player: int) -> None:
    """Finish ``player``'s own decisions of this placement (cheapest row, no swap)."""
    for _ in range(8):
        if player not in game.waiting_for or game.phase in (Phase.PICK, Phase.GAME_OVER):
            return
        if game.phase is Phase.CHOOSE_ROW:
            game.choose_row(player, game.cheapest_row())
        elif game.phase is Phase.SWAP:
            game.decline_swap(player)
        elif game.phase is Phase.SPECIAL:
            game.decline_special(player)
        else:
            return


def _outlook(game, player: int) -> float:
    """Half the mean danger of the better half of ``player``'s hand on ``game``'s table."""
    hand = game.hands[player]
    if not hand or game.phase is Phase.GAME_OVER:
        return 0.0
    info = information_set(game, player)
    rows, pts, caps = _table(game)
    dangers = sorted(heuristics.card_danger(info, rows, pts, c, caps) for c in hand)
    half = dangers[: max(1, len(dangers) // 2)]
    return 0.5 * sum(half) / len(half)


def _best_by_lookahead(game, player: int, legal: list, spend: bool):
    before = game.scores[player]
    same_round = game.round
    best, best_cost = legal[-1], None
    for action in legal:
        copy = game.copy()
        copy.apply(action)
        _settle(copy, player)
        cost = float(copy.scores[player] - before)
        if copy.round == same_round:
            cost += _outlook(copy, player)
        special = getattr(action, "special", None)
        if spend and special is not None:
            cost += _worth(game, special)
        if best_cost is None or cost < best_cost - 1e-9:
            best, best_cost = action, cost
    return best


def _swap(game, player: int, legal: list):
    held = [a for a in legal if getattr(a, "special", None) is not None]
    decline = [a for a in legal if getattr(a, "special", None) is None]
    if not held:
        return legal[-1]
    worst = min(held, key=lambda a: WORTH.get(getattr(a.special, "value", a.special), 1.0))
    if WORTH.get(getattr(worst.special, "value", worst.special), 1.0) < AVERAGE_WORTH - 0.2:
        return worst
    return decline[0] if decline else legal[-1]


def old_anniversary_decide(game, player, rng, hard_ms, hard_sims):
    return decide(game, player, "hard", rng, search.Budget(hard_sims, hard_ms))
