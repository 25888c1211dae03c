"""The Anniversary rulebook's worked examples (shared/rules/003_…txt), as scenario tests.

The figures' numbers are mostly not in the text: every row below is
reconstructed to agree with what the text says (which card would go where,
which row would be taken) and is marked as such. Seat 0 is the example's
player; seat 1 plays a harmless high card so the turn completes.
"""

from engine import (
    AnniversaryGame,
    CardPlaced,
    ChooseRow,
    DeclineSpecial,
    GameConfig,
    Phase,
    PlaySpecial,
    RowChoiceRequired,
    RowTaken,
    Special,
    TakeReason,
)
from engine.anniversary import (
    BullheadsCancelled,
    CardInserted,
    CardReplaced,
    CardShifted,
    FifthRowClosed,
    FifthRowOpened,
    SevenNimmtPlaced,
    SevenNimmtRemoved,
    SpecialChoiceRequired,
    SpecialPlayed,
    StopPlaced,
    StopsRemoved,
)

CONFIG = GameConfig(2, "anniversary")


def position(rows, hands, specials, **kwargs) -> AnniversaryGame:
    return AnniversaryGame.from_position(CONFIG, rows=rows, hands=hands, specials=specials, **kwargs)


def test_alex_23_opens_a_fifth_row_and_the_next_take_closes_it():
    # Reconstructed: the 23 would go after the 21 of the full 4th row.
    rows = [[30, 35], [41, 50], [60, 66], [3, 8, 12, 17, 21]]
    game = position(rows, [[23, 99, 98], [90, 1, 100]], [[Special.FIFTH_ROW], []])
    events = game.play_turn([23, 90])
    assert events[-1] == SpecialChoiceRequired(0, 23)
    assert game.phase is Phase.SPECIAL and game.waiting_for == (0,)
    assert PlaySpecial(0, Special.FIFTH_ROW) in game.legal_actions(0)
    events = game.apply(PlaySpecial(0, Special.FIFTH_ROW))
    assert events[:2] == [SpecialPlayed(0, Special.FIFTH_ROW, 23), FifthRowOpened(0, 23, 4)]
    assert game.rows == [[30, 35], [41, 50], [60, 66, 90], [3, 8, 12, 17, 21], [23]]
    assert game.piles == [[], []] and game.view(None).row_markers[4] == ("fifth_row",)
    # Next turn seat 1's 1 fits no row: they choose the 5th row, take it *and* their 1,
    # and the table is back to four rows.
    events = game.play_turn([99, 1])
    assert events[-1] == RowChoiceRequired(1, 1)
    events = game.apply(ChooseRow(1, 4))
    assert events[:2] == [RowTaken(1, 4, (23,), 1, TakeReason.LOW_CARD), FifthRowClosed(1, 4, 1)]
    assert game.piles == [[], [23, 1]] and game.round_points == [0, 2]
    assert game.rows == [[30, 35], [41, 50], [60, 66, 90, 99], [3, 8, 12, 17, 21]]
    assert Special.FIFTH_ROW in game.special_discard


def test_bernd_20_with_7_nimmt_makes_the_row_hold_six():
    # Reconstructed: the 20 would be the sixth card of the full row ending in 18.
    rows = [[4, 9, 13, 16, 18], [40], [60], [80]]
    game = position(rows, [[20, 50], [21, 90]], [[Special.SEVEN_NIMMT], []])
    game.play_turn([20, 90])
    assert game.legal_actions(0) == [PlaySpecial(0, Special.SEVEN_NIMMT, row=0), DeclineSpecial(0)]
    events = game.apply(PlaySpecial(0, Special.SEVEN_NIMMT, row=0))
    assert events[1:3] == [SevenNimmtPlaced(0, 0), CardPlaced(0, 20, 0)]
    assert game.rows[0] == [4, 9, 13, 16, 18, 20] and game.piles == [[], []]
    assert game.capacity(0) == 6 and game.view(0).row_markers[0] == ("seven_nimmt",)
    # Whoever adds the seventh card takes the six.
    events = game.play_turn([50, 21])
    assert RowTaken(1, 0, (4, 9, 13, 16, 18, 20), 1 + 1 + 1 + 1 + 1 + 3, TakeReason.FULL_ROW) in events
    assert SevenNimmtRemoved(0) in events
    assert game.rows[0] == [21] and game.capacity(0) == 5 and game.sevens == [False] * 4


def test_christian_inserts_his_low_10_between_the_5_and_the_11():
    # Reconstructed: a row holds 5 and 11; every row ends above 10, so 10 is a low card.
    rows = [[5, 11, 28], [34], [45], [60]]
    game = position(rows, [[10, 50], [90, 91]], [[Special.INSERT], []])
    events = game.play_turn([10, 90])
    assert events[-1] == SpecialChoiceRequired(0, 10)  # before the row choice
    assert PlaySpecial(0, Special.INSERT, row=0, position=1) in game.legal_actions(0)
    events = game.apply(PlaySpecial(0, Special.INSERT, row=0, position=1))
    assert events[1] == CardInserted(0, 10, 0, 1)
    assert game.rows == [[5, 10, 11, 28], [34], [45], [60, 90]]
    assert game.piles == [[], []] and game.phase is Phase.PICK


def test_insert_into_a_full_row_takes_all_but_its_last_card():
    rows = [[5, 11, 28, 29, 31], [34], [45], [60]]
    game = position(rows, [[10, 50], [90, 91]], [[Special.INSERT], []])
    game.play_turn([10, 90])
    game.apply(PlaySpecial(0, Special.INSERT, row=0, position=1))
    assert game.piles[0] == [5, 10, 11, 28, 29] and game.rows[0] == [31]


def test_david_replaces_his_25_with_his_15():
    # Reconstructed: the 25 would go after the 17 of a full row; the 15 goes after the 10.
    rows = [[2, 6, 9, 14, 17], [10], [40, 44], [70]]
    game = position(rows, [[25, 15, 99], [71, 90, 91]], [[Special.REPLACE], []])
    game.play_turn([25, 71])
    assert {a.card for a in game.legal_actions(0) if isinstance(a, PlaySpecial)} == {15, 99}
    events = game.apply(PlaySpecial(0, Special.REPLACE, card=15))
    assert events[1:] == [CardReplaced(0, 25, 15), CardPlaced(0, 15, 1), CardPlaced(1, 71, 3)]
    assert game.rows == [[2, 6, 9, 14, 17], [10, 15], [40, 44], [70, 71]]
    assert game.hands == [[25, 99], [90, 91]] and game.piles == [[], []]


def test_a_replacement_is_placed_at_once_even_if_higher_than_the_next_card():
    rows = [[2, 6, 9, 14, 17], [10], [40, 44], [70]]
    game = position(rows, [[25, 80, 99], [71, 90, 91]], [[Special.REPLACE], []])
    game.play_turn([25, 71])
    events = game.apply(PlaySpecial(0, Special.REPLACE, card=80))
    assert events[2:] == [CardPlaced(0, 80, 3), CardPlaced(1, 71, 2)]  # 71 no longer fits row 3


def test_ekaterina_shifts_the_13_then_places_her_24_after_the_22():
    # Reconstructed: the full row ending in 22 holds the 13; another row holds 10 and 17.
    rows = [[8, 13, 19, 21, 22], [10, 17, 35], [50], [70]]
    game = position(rows, [[24, 60], [90, 91]], [[Special.SHIFT], []])
    game.play_turn([24, 90])
    assert PlaySpecial(0, Special.SHIFT, row=0, card=13, target_row=1) in game.legal_actions(0)
    events = game.apply(PlaySpecial(0, Special.SHIFT, row=0, card=13, target_row=1))
    assert events[1:3] == [CardShifted(0, 13, 0, 1, 1), CardPlaced(0, 24, 0)]
    assert game.rows == [[8, 19, 21, 22, 24], [10, 13, 17, 35], [50], [70, 90]]
    assert game.piles == [[], []]


def test_ekaterina_shifts_the_only_card_of_a_row_and_her_24_starts_it():
    # Shift example 2 (reconstructed): the 14 is alone in its row.
    rows = [[8, 19, 20, 21, 22], [10, 17, 35], [50], [14]]
    game = position(rows, [[24, 60], [90, 91]], [[Special.SHIFT], []])
    game.play_turn([24, 90])
    events = game.apply(PlaySpecial(0, Special.SHIFT, row=3, card=14, target_row=1))
    assert events[1:3] == [CardShifted(0, 14, 3, 1, 1), CardPlaced(0, 24, 3)]
    assert game.rows == [[8, 19, 20, 21, 22], [10, 14, 17, 35], [50, 90], [24]]
    assert game.piles == [[], []]


def test_frauke_stops_the_top_row_and_places_her_22_in_the_row_below():
    # Reconstructed: the full top row ends in 20; the row below ends in 18.
    rows = [[5, 9, 12, 16, 20], [7, 18], [40], [60]]
    game = position(rows, [[22, 1], [90, 91]], [[Special.STOP], []])
    game.play_turn([22, 90])
    events = game.apply(PlaySpecial(0, Special.STOP, row=0))
    assert events[1:3] == [StopPlaced(0, 0), CardPlaced(0, 22, 1)]
    assert game.rows == [[5, 9, 12, 16, 20], [7, 18, 22], [40], [60, 90]]
    assert game.stops == [True, False, False, False] and game.piles == [[], []]
    assert game.view(1).row_markers[0] == ("stop",)
    # The next take removes every Stop; a low card cannot choose the blocked row.
    game.play_turn([1, 91])
    assert game.legal_actions(0) == [ChooseRow(0, r) for r in (1, 2, 3)]
    events = game.apply(ChooseRow(0, 2))
    assert StopsRemoved((0,)) in events and game.stops == [False] * 4
    assert game.special_discard == [Special.STOP]


def test_gabi_cancels_the_3_5_13_and_17_with_the_11():
    # Reconstructed: Gabi's 20 must take the full row 3, 5, 11, 13, 17; her pile is empty.
    rows = [[3, 5, 11, 13, 17], [40], [60], [80]]
    game = position(rows, [[20, 50], [90, 91]], [[Special.NEGATIVE_POSITIVE], []])
    game.play_turn([20, 90])
    plays = [a for a in game.legal_actions(0) if isinstance(a, PlaySpecial)]
    assert plays == [PlaySpecial(0, Special.NEGATIVE_POSITIVE, row=0, card=c) for c in rows[0]]
    events = game.apply(PlaySpecial(0, Special.NEGATIVE_POSITIVE, row=0, card=11))
    assert RowTaken(0, 0, (3, 5, 11, 13, 17), 10, TakeReason.FULL_ROW) in events
    assert BullheadsCancelled(0, 11, (3, 5, 13, 17), 5, 0) in events
    assert game.rows[0] == [20]  # her 20 starts the row
    assert game.piles[0] == [] and game.round_points[0] == 0
    assert {3, 5, 11, 13, 17} <= set(game.set_aside)


def test_holger_takes_the_11_and_13_with_his_low_3():
    # Reconstructed: the row holds 11 and 13; Holger's pile holds 8, 20 and 55.
    rows = [[11, 13], [40], [60], [80]]
    game = position(rows, [[3, 50], [90, 91]], [[Special.NEGATIVE_POSITIVE], []], piles=[[8, 20, 55], []])
    events = game.play_turn([3, 90])
    assert events[-1] == SpecialChoiceRequired(0, 3)  # offered with the row choice
    events = game.apply(PlaySpecial(0, Special.NEGATIVE_POSITIVE, row=0, card=11))
    assert RowTaken(0, 0, (11, 13), 6, TakeReason.LOW_CARD) in events
    # five positive points: the 13 and four bullheads from the pile (the 20 and the 8)
    assert BullheadsCancelled(0, 11, (8, 13, 20), 5, 0) in events
    assert game.rows[0] == [3] and game.piles[0] == [55] and game.round_points[0] == 7
    assert {8, 11, 13, 20} <= set(game.set_aside)


def test_negative_positive_wastes_what_the_pile_cannot_cancel():
    rows = [[50, 51, 52, 53, 55], [60], [70], [80]]
    game = position(rows, [[56, 1], [90, 91]], [[Special.NEGATIVE_POSITIVE], []])
    game.play_turn([56, 90])
    events = game.apply(PlaySpecial(0, Special.NEGATIVE_POSITIVE, row=0, card=55))
    assert BullheadsCancelled(0, 55, (50, 51, 52, 53), 6, 1) in events
    assert game.piles[0] == [] and game.round_points[0] == 0
