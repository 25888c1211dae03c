"""AI decisions for the Anniversary variant (special cards, swaps, Stops, a fifth row).

* **pick** — the heuristic levels judge cards on the open (unblocked) rows with
  each row's capacity (six under a 7 nimmt!). Hard runs the classic search
  (``search.hard_pick``) on every table — four or five rows, Stops, 7 nimmt! —
  over the open rows (a row that holds six shown one card shorter), treating
  everyone's special cards as unused for the rest of the round (an approximation:
  its rollouts do not play special cards).
* **special card / row on a low card** — every legal option is played out on a
  copy of the game until this player's card is placed (the other revealed
  cards are public, so this uses nothing hidden: the copy stops as soon as the
  game waits on someone else), scored by the bullheads it costs now, plus what
  the resulting table means for the rest of the hand, plus the worth of a
  special card spent (a card kept is an option later; at the end of the game
  it is worth nothing). The cheapest option wins; declining is one of them.
* **swap** — discard the weakest special card held if it is weaker than an
  average draw, else keep them.
"""

from __future__ import annotations

import random

from ..actions import ChooseRow, Pick
from ..anniversary.outlook import settle
from ..cards import BULLHEADS, ROW_LIMIT
from ..game import Phase
from . import heuristics, search
from .info import information_set

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
    rows, pts, caps = _table(game)
    info.row_points = pts
    if level == "hard":
        # The classic search on the open rows; a row that holds six (7 nimmt!) is shown one card
        # shorter, so its seventh card takes it as a sixth would. Special cards are not simulated.
        info.rows = [r[1:] if cap > ROW_LIMIT and len(r) > 1 else list(r) for r, cap in zip(rows, caps)]
        return search.hard_pick(info, rng, budget)
    info.rows = rows
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
        settle(copy, player)
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
