"""The field's standard heuristic opponent (``heuristics.standard_pick``), on hand-made rows."""

from engine import BULLHEADS
from engine.ai.heuristics import standard_pick


def _pts(rows):
    return [sum(BULLHEADS[c] for c in r) for r in rows]


def _pick(rows, hand):
    return standard_pick(rows, _pts(rows), hand)


def test_the_smallest_gap_above_a_row_end():
    rows = [[10], [20], [30], [40]]
    assert _pick(rows, [12, 23, 45]) == 12
    assert _pick(rows, [45, 23, 33]) == 23  # unsorted hands too


def test_a_gap_tie_goes_to_the_lower_card():
    rows = [[10], [20], [30], [40]]
    assert _pick(rows, [23, 13, 50]) == 13


def test_a_sixth_card_is_never_played_while_another_card_takes_nothing():
    rows = [[5, 6, 7, 8, 9], [20], [30], [40]]
    # 10 is closest to a row end, but it is that full row's sixth card; 3 is lower than every row
    assert _pick(rows, [3, 10, 27]) == 27


def test_when_every_card_takes_a_row_the_cheapest_take():
    rows = [[20, 21, 22, 23, 24], [60, 61, 62, 63, 64], [80, 81, 82, 83, 84], [100, 101, 102, 103, 104]]
    pts = _pts(rows)
    assert pts == [11, 7, 7, 7]
    assert _pick(rows, [25, 65]) == 65  # a sixth card on 11 bullheads or on 7
    assert _pick(rows, [25, 10]) == 10  # a low card costs the cheapest row (7)
    assert _pick(rows, [65, 10]) == 10  # 7 either way: the lower card
    assert _pick(rows, [85, 65]) == 65  # 7 either way: the lower card


def test_a_low_card_costs_the_cheapest_row_not_the_row_it_would_follow():
    rows = [[30, 31, 32, 33, 34], [40, 41, 42, 43, 44], [50], [70]]
    pts = [9, 5, 2, 1]
    assert standard_pick(rows, pts, [35, 20]) == 20  # low: 1 bullhead, against 9 for the sixth card on row 0
    assert standard_pick(rows, [9, 5, 1, 1], [35, 45]) == 45  # sixth cards: 5 against 9
