"""The coach: what the hard level expects each of a player's options to cost, and its choice.

``hint(game, player, rng)`` answers for a player whose decision the game waits
on — the card to play, or the row to take for a low card — in every variant (in
the Anniversary game with everyone's special cards in its simulations). Its only
input is what the player may know (the public table and the player's own hand
and special cards, never another hand, a face-down card or the special deck), so
two games that differ only in cards the player cannot see give the same hint for
the same ``rng`` seed. Half the time goes to hard's own search
(its choice, exactly as a hard seat would decide with that budget), half to
simulating every option on the same determinized deals, so each option gets
its expected bullheads for the rest of the round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import ChooseRow, Pick
from ..anniversary.game import AnniversaryGame
from ..game import Game
from . import DEFAULT_BUDGET_MS, anniversary, anniversary_search, search
from .info import information_set


class NoHint(ValueError):
    """The coach has nothing to say for this player now (not their decision, or a variant it
    does not cover)."""


@dataclass(frozen=True, slots=True)
class Hint:
    phase: str  # "pick": options are cards; "choose_row": options are row indices
    expected: tuple[tuple[int, float], ...]  # (option, expected bullheads to the end of the round)
    choice: int  # the option the hard level takes
    simulations: int  # simulated rounds behind the estimates


def hint(
    game: Game, player: int, rng: random.Random, budget_ms: float | None = None, budget_sims: int | None = None
) -> Hint:
    """The coach's hint for ``player`` now (see module doc); raises ``NoHint`` if there is none."""
    phase = game.phase.value
    if phase not in ("pick", "choose_row") or player not in game.waiting_for:
        raise NoHint(f"the game is not waiting for seat {player} to play a card or choose a row")
    if budget_ms is None and budget_sims is None:
        budget_ms = DEFAULT_BUDGET_MS
    half_ms = budget_ms / 2 if budget_ms is not None else None
    half_sims = budget_sims // 2 if budget_sims is not None else None
    if isinstance(game, AnniversaryGame):
        action = anniversary.decide(game, player, "hard", rng, search.Budget(half_sims, half_ms))
        budget = search.Budget(half_sims, half_ms)
        means = anniversary_search.estimates(game, player, rng, budget)
        if isinstance(action, Pick):
            choice = action.card
        elif isinstance(action, ChooseRow):
            choice = action.row
        else:  # a pick or a row choice is answered with a card or a row
            raise NoHint(f"the hard level answered with a {type(action).__name__}, not a card or a row")
        return Hint(phase, tuple(sorted(means.items())), choice, budget.used)
    info = information_set(game, player)
    if phase == "pick":
        choice = search.hard_pick(info, rng, search.Budget(half_sims, half_ms))
        simulate, options = search.pick_simulation(info, 0.0)
        options = sorted(options)
    elif not info.hand:  # a low card as the last of the round: the costs are exact
        costs = search.last_row_costs(info, 0.0)
        choice = search.hard_row(info, rng, search.Budget(half_sims, half_ms))
        return Hint(phase, tuple(enumerate(map(float, costs))), choice, 0)
    else:
        choice = search.hard_row(info, rng, search.Budget(half_sims, half_ms))
        simulate, options = search.row_simulation(info, 0.0)
        options = sorted(options)
    budget = search.Budget(half_sims, half_ms)
    means = search.estimates(info, rng, options, simulate, budget)
    return Hint(phase, tuple((o, means[o]) for o in options), choice, budget.used)
