"""Multi-player skill rating for finished games.

Uses openskill's Bradley-Terry "full pairing" model, a Bayesian,
TrueSkill-like rating that treats a free-for-all game as every pair of players
meeting (a tie is a draw): every player has a skill estimate ``mu`` and an
uncertainty ``sigma``; leaderboards rank by the conservative ``ordinal``
(mu - 3 sigma) so a lucky newcomer does not top the board after one game.

Placement comes from final points (lower is better, equal points tie).
Plackett-Luce was rejected: its tie handling rewards e.g. the 4th place of
ranks [1, 1, 1, 4, 5] more than the three tied winners, and shared places are
common in 6 nimmt!. ``beta`` (per-game performance noise) is twice openskill's
default because the game is luck-heavy; that also damps the large swings
full pairing produces at 10-player tables.

AI seats are deliberately *not* part of a rating update: their strength is a
fixed setting rather than a skill that evolves, and letting humans farm
rating off easy bots would inflate the scale. Consequently only games with at
least two human players change ratings; a human's placement is relative to
the other humans at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3
GLOBAL_SCOPE = 0  # ratings.scope_id for the bot-wide rating; guild ids are > 0

_MODEL = BradleyTerryFull(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=DEFAULT_SIGMA)


@dataclass(frozen=True)
class SkillRating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


DEFAULT_ORDINAL = SkillRating().ordinal


def competition_ranks(points: Sequence[int]) -> list[int]:
    """Rank by points, lower is better; equal points share a rank (1, 2, 2, 4)."""
    return [1 + sum(other < p for other in points) for p in points]


def rate_game(ratings: Sequence[SkillRating], points: Sequence[int]) -> list[SkillRating]:
    """Return updated ratings for the human players of one game, in input order."""
    if len(ratings) != len(points):
        raise ValueError("need exactly one points total per rating")
    if len(ratings) < 2:
        return list(ratings)
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    updated = _MODEL.rate(teams, ranks=[float(r) for r in competition_ranks(points)])
    return [SkillRating(mu=team[0].mu, sigma=team[0].sigma) for team in updated]
