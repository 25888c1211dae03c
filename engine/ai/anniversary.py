"""AI decisions for the Anniversary variant (special cards, swaps, Stops, a fifth row).

* **pick** — the heuristic levels judge cards on the open (unblocked) rows with
  each row's capacity (six under a 7 nimmt!).
* **special card / row on a low card** — every legal option is played out on a
  copy of the game until this player's card is placed (the other revealed
  cards are public, so this uses nothing hidden: the copy stops as soon as the
  game waits on someone else), scored by the bullheads it costs now, plus what
  the resulting table means for the rest of the hand, plus the worth of a
  special card spent (a card kept is an option later; at the end of the game
  it is worth nothing). The cheapest option wins; declining is one of them.
* **swap** — discard the weakest special card held if it is weaker than an
  average draw, else keep them.

Hard searches every one of these decisions (``anniversary_search``): the medium
choice is its prior, and the rest of the round is simulated with everyone's
special cards in play.
"""

from __future__ import annotations

import random

from ..actions import Action, ChooseRow, Pick
from ..anniversary.actions import PlaySpecial, Swap
from ..anniversary.game import AnniversaryGame
from ..anniversary.outlook import settle
from ..anniversary.specials import Special
from ..anniversary.specials import special as as_special
from ..phase import Phase
from . import anniversary_search, heuristics, search
from .anniversary_kernel import AVERAGE_WORTH, WORTH, worth_scale
from .info import information_set


def decide(game: AnniversaryGame, player: int, level: str, rng: random.Random, budget: search.Budget) -> Action:
    """The Anniversary decision of ``player`` at ``level`` (a ``Level``, or its value: a member
    equals its value)."""
    legal = game.legal_actions(player)
    if level == "random":
        return rng.choice(legal)
    phase = game.phase
    hard = level == "hard"
    if phase is Phase.PICK:
        if hard:
            prior = anniversary_search.prior_picks(game, player)
            return Pick(player, anniversary_search.hard_pick(game, player, prior, rng, budget))
        return Pick(player, _pick(game, player, level, rng))
    if phase is Phase.CHOOSE_ROW:
        if level == "easy":
            return ChooseRow(player, game.cheapest_row())
        ranked = _ranked_by_lookahead(game, player, legal, spend=False)
    elif phase is Phase.SPECIAL:
        if level == "easy" and rng.random() < 0.5:
            return legal[-1]  # DeclineSpecial comes last: a casual player forgets the card
        ranked = _ranked_by_lookahead(game, player, legal, spend=True)
        if hard:  # the look-ahead's best few, and always the decline
            top = ranked[: 1 + anniversary_search.TOPK_SPECIAL]
            ranked = top + [legal[-1]] if legal[-1] not in top else top
    elif phase is Phase.SWAP:
        choice = _swap(game, player, legal)
        ranked = [choice] + [a for a in legal if a != choice]
    else:
        return legal[-1]
    if hard:
        return anniversary_search.hard_choice(game, player, ranked, rng, budget)
    return ranked[0]


# -- pick ---------------------------------------------------------------------------


def _pick(game: AnniversaryGame, player: int, level: str, rng: random.Random) -> int:
    info = information_set(game, player)
    rows, pts, caps = anniversary_search.open_table(game)
    info.rows, info.row_points = rows, pts
    if level == "easy":
        return heuristics.easy_pick(info, rng)
    return heuristics.medium_pick(info, rng, rows, pts, caps)


# -- special cards and row choices, by lookahead -----------------------------------------------


def _worth(game: AnniversaryGame, kind: Special) -> float:
    """Bullheads a special card of ``kind`` is worth keeping for the turns to come."""
    turns_left = len(game.hands[0]) + anniversary_search.later_turns(game)
    return WORTH[as_special(kind)] * worth_scale(turns_left)


def _outlook(game: AnniversaryGame, player: int) -> float:
    """Half the mean danger of the better half of ``player``'s hand on ``game``'s table."""
    hand = game.hands[player]
    if not hand or game.phase is Phase.GAME_OVER:
        return 0.0
    info = information_set(game, player)
    rows, pts, caps = anniversary_search.open_table(game)
    dangers = sorted(heuristics.card_danger(info, rows, pts, c, caps) for c in hand)
    half = dangers[: max(1, len(dangers) // 2)]
    return 0.5 * sum(half) / len(half)


def _ranked_by_lookahead(game: AnniversaryGame, player: int, legal: list[Action], spend: bool) -> list[Action]:
    """``legal`` ranked by the look-ahead's cost: its cheapest first (the first of equals), then
    the others from the cheapest."""
    before = game.scores[player]
    same_round = game.round
    best, best_cost = legal[-1], None
    costs: list[float] = []
    for action in legal:
        copy = game.copy()
        copy.apply(action)
        settle(copy, player)
        cost = float(copy.scores[player] - before)
        if copy.round == same_round:
            cost += _outlook(copy, player)
        if spend and isinstance(action, (PlaySpecial, Swap)):
            cost += _worth(game, action.special)
        costs.append(cost)
        if best_cost is None or cost < best_cost - 1e-9:
            best, best_cost = action, cost
    others = sorted((c, i) for i, c in enumerate(costs) if legal[i] != best)
    return [best] + [legal[i] for _, i in others]


def _swap(game: AnniversaryGame, player: int, legal: list[Action]) -> Action:
    held = [a for a in legal if isinstance(a, Swap)]
    decline = [a for a in legal if not isinstance(a, Swap)]
    if not held:
        return legal[-1]
    worst = min(held, key=lambda a: WORTH[as_special(a.special)])
    if WORTH[as_special(worst.special)] < AVERAGE_WORTH - 0.2:
        return worst
    return decline[0] if decline else legal[-1]
