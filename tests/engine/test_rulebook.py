"""The AMIGO rulebook's worked examples (shared/rules/003_…txt), as scenario tests.

Each checks the exact rows and bull piles the rulebook describes.
"""

from engine import (
    BULLHEADS,
    CardPlaced,
    CardsRevealed,
    Game,
    GameConfig,
    Phase,
    RowChoiceRequired,
    RowTaken,
    TakeReason,
    bullheads,
    total_bullheads,
)


def test_bullheads_follow_the_rulebook():
    assert bullheads(55) == 7  # doublet and ends in 5
    assert [bullheads(c) for c in (11, 22, 33, 44, 66, 77, 88, 99)] == [5] * 8
    assert [bullheads(c) for c in (10, 20, 50, 100)] == [3] * 4
    assert [bullheads(c) for c in (5, 15, 25, 45, 95)] == [2] * 5
    assert bullheads(52) == 1  # a web summary says "contains a 5": the rulebook says "ends in 5"
    assert bullheads(1) == bullheads(104) == 1
    assert total_bullheads(range(1, 105)) == 171
    assert sum(BULLHEADS) == 171


def _sequence_game() -> Game:
    """Fig. 1: rows start 12, 37, 43, 58; four players hold the cards the examples play."""
    hands = [
        [14, 21, 3, 100],  # seat 0
        [15, 26, 9, 101],  # seat 1
        [44, 30, 68, 102],  # seat 2 ("you" play the 30)
        [61, 36, 83, 103],  # seat 3
    ]  # the fourth card keeps the round going, so piles are still on the table
    return Game.from_position(GameConfig(4), rows=[[12], [37], [43], [58]], hands=hands)


def test_rule_1_and_2_first_play():
    game = _sequence_game()
    events = game.play_turn([14, 15, 44, 61])
    assert game.rows == [[12, 14, 15], [37], [43, 44], [58, 61]]  # Fig. 2
    assert events[0] == CardsRevealed(((14, 0), (15, 1), (44, 2), (61, 3)))
    assert [e for e in events if isinstance(e, CardPlaced)] == [
        CardPlaced(0, 14, 0),
        CardPlaced(1, 15, 0),
        CardPlaced(2, 44, 2),
        CardPlaced(3, 61, 3),
    ]
    assert game.piles == [[], [], [], []]


def test_rule_3_sixth_card_takes_the_row():
    game = _sequence_game()
    game.play_turn([14, 15, 44, 61])
    events = game.play_turn([21, 26, 30, 36])
    assert game.rows == [[30, 36], [37], [43, 44], [58, 61]]  # Fig. 3
    assert game.piles[2] == [12, 14, 15, 21, 26]
    assert game.round_points == [0, 0, 6, 0]
    assert RowTaken(2, 0, (12, 14, 15, 21, 26), 6, TakeReason.FULL_ROW) in events


def test_rule_4_low_card_player_chooses_the_row():
    game = _sequence_game()
    game.play_turn([14, 15, 44, 61])
    game.play_turn([21, 26, 30, 36])
    events = game.play_turn([3, 9, 68, 83])
    # The engine stops and waits for the 3's player; it does not choose for them.
    assert events[-1] == RowChoiceRequired(0, 3)
    assert game.phase is Phase.CHOOSE_ROW and game.waiting_for == (0,)
    assert game.rows == [[30, 36], [37], [43, 44], [58, 61]]
    events = game.choose_row(0, 1)  # "You pick the 2nd row and take the 37"
    assert game.rows == [[30, 36], [3, 9], [43, 44], [58, 61, 68, 83]]  # Fig. 4
    assert game.piles[0] == [37]
    assert events[:2] == [RowTaken(0, 1, (37,), 1, TakeReason.LOW_CARD), CardPlaced(0, 3, 1)]
    assert game.phase is Phase.PICK


def test_example_1_lowest_difference_beats_hope():
    # Fig. 5 (numbers reconstructed from the text): the 3rd row ends in 41,
    # the 4th is full and ends in 42; the 45 must go after the 42.
    rows = [[3, 8], [50], [27, 33, 41], [12, 19, 28, 36, 42]]
    game = Game.from_position(GameConfig(2), rows=rows, hands=[[45, 1], [97, 2]])
    events = game.play_turn([45, 97])
    assert game.piles[0] == [12, 19, 28, 36, 42]
    assert game.rows[3] == [45]
    assert game.rows[2] == [27, 33, 41]
    assert RowTaken(0, 3, (12, 19, 28, 36, 42), 5, TakeReason.FULL_ROW) in events


def test_example_2_a_low_card_spoils_a_safe_play():
    # Fig. 6 (reconstructed): you expect the 62 to go after the 60 of row 1, but
    # another player's 29 is lower than every row end and takes row 1 first.
    rows = [[52, 60], [65, 70], [75, 80], [31, 35, 40, 47, 50]]
    game = Game.from_position(GameConfig(2), rows=rows, hands=[[62, 1], [29, 2]])
    events = game.play_turn([62, 29])
    assert events[-1] == RowChoiceRequired(1, 29)
    game.choose_row(1, 0)
    assert game.rows == [[29], [65, 70], [75, 80], [62]]
    assert game.piles == [[31, 35, 40, 47, 50], [52, 60]]
    assert game.round_points == [total_bullheads([31, 35, 40, 47, 50]), total_bullheads([52, 60])]
