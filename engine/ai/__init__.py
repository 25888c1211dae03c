"""AI players for 6 nimmt!: one entry point for every level and every phase.

    from engine.ai import choose_action, Level
    action = choose_action(game, player, Level.HARD, rng, budget_ms=50)

``choose_action`` returns a legal action of ``player`` in whatever phase the
game waits on them (Pro draft, pick, row choice on a low card, and the
phases of the Anniversary game, decided in ``anniversary``; an unknown phase falls back to a
legal default — a "decline"/"pass" action if there is one, else the first
legal action). The AI only uses what that player may know: its input is the
player's information set (``information_set``), never another hand or a
face-down card of the classic game.

Levels: ``random`` (benchmarks, tests), ``easy`` (a casual player: mostly
safe-looking cards, sometimes a blunder), ``medium`` (a sound one-turn
heuristic: the card with the fewest expected bullheads, the row that costs
least now and leaves the table best for its hand, a Pro draft that avoids
runs and bullheads — every level drafts this way),
``hard`` (determinized Monte Carlo search over the rest of the round with
heuristic opponents; see ``search``). ``coach.hint`` tells a player what hard
expects each of their options to cost.
"""

from __future__ import annotations

import enum
import random

from ..actions import Action, ChooseRow, Draft, Pick
from ..anniversary.game import AnniversaryGame
from ..game import Game
from ..phase import Phase
from . import anniversary, heuristics, search
from .info import InfoSet, information_set

__all__ = [
    "Level",
    "choose_action",
    "information_set",
    "InfoSet",
    "DEFAULT_BUDGET_MS",
]


class Level(str, enum.Enum):
    RANDOM = "random"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


#: The hard level's time per decision when the caller gives no budget: 32 ms of search leaves
#: room for the worker's round trip and a busy machine within 50 ms a decision (p95; at 40 ms
#: the p95 beside two busy processes on two shared cores was 58 ms).
DEFAULT_BUDGET_MS = 32.0


def choose_action(
    game: Game,
    player: int,
    level: str | Level = Level.MEDIUM,
    rng: random.Random | None = None,
    budget_ms: float | None = None,
    budget_sims: int | None = None,
) -> Action:
    """The action ``player`` takes now at ``level``.

    ``rng`` supplies all randomness (a fresh ``Random(0)`` if omitted).
    ``budget_ms`` / ``budget_sims`` bound the hard level's search (simulated
    rounds); with only ``budget_sims`` the choice is deterministic for a fixed
    ``rng`` seed. Without either, hard uses ``DEFAULT_BUDGET_MS``.
    """
    level = Level(level)
    rng = rng if rng is not None else random.Random(0)
    legal = game.legal_actions(player)
    if not legal:
        raise ValueError(f"the game is not waiting for seat {player}")
    phase = game.phase
    if isinstance(game, AnniversaryGame):
        return anniversary.decide(game, player, level, rng, _budget(budget_sims, budget_ms))
    if phase not in (Phase.PICK, Phase.CHOOSE_ROW, Phase.DRAFT):
        return default_action(legal)
    if level is Level.RANDOM:
        return rng.choice(legal)
    info = information_set(game, player)
    if phase is Phase.DRAFT:
        # Every level drafts alike: a casual player's weakness is in the play (for an easy seat a
        # partly random draft was measured no better than a random one).
        return Draft(player, heuristics.medium_draft(info, rng))
    if phase is Phase.PICK:
        if level is Level.EASY:
            card = heuristics.easy_pick(info, rng)
        elif level is Level.MEDIUM:
            card = heuristics.medium_pick(info, rng)
        else:
            card = search.hard_pick(info, rng, _budget(budget_sims, budget_ms))
        return Pick(player, card)
    if level is Level.EASY:
        row = heuristics.easy_row(info, rng)
    elif level is Level.MEDIUM:
        row = heuristics.medium_row(info, rng)
    else:
        row = search.hard_row(info, rng, _budget(budget_sims, budget_ms))
    return ChooseRow(player, row)


def _budget(sims: int | None, ms: float | None) -> search.Budget:
    if sims is None and ms is None:
        ms = DEFAULT_BUDGET_MS
    return search.Budget(sims, ms)


def default_action(legal: list[Action]) -> Action:
    """A legal default for a decision the AI does not know: decline if it may, else the first."""
    for action in legal:
        name = type(action).__name__.lower()
        if any(word in name for word in ("decline", "pass", "skip", "none")):
            return action
        if getattr(action, "card", 0) is None or getattr(action, "special", 0) is None:
            return action
    return legal[0]
