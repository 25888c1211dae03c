"""Rating helpers: placement from points and the direction of rating changes."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from data.rating import SkillRating, competition_ranks, rate_game

points_lists = st.lists(st.integers(min_value=0, max_value=120), min_size=2, max_size=10)


def test_competition_ranks_share_ties():
    assert competition_ranks([5, 3, 3, 10]) == [3, 1, 1, 4]


@given(points_lists)
@settings(max_examples=60, deadline=None)
def test_fewer_points_never_rate_worse_from_equal_start(points):
    after = rate_game([SkillRating()] * len(points), points)
    by_points = sorted(zip(points, after, strict=True), key=lambda pair: pair[0])
    for (p1, r1), (p2, r2) in itertools.pairwise(by_points):
        assert r1.mu >= r2.mu - 1e-9 if p1 < p2 else abs(r1.mu - r2.mu) < 1e-9


def test_single_player_is_not_rated():
    assert rate_game([SkillRating(30, 5)], [0]) == [SkillRating(30, 5)]
