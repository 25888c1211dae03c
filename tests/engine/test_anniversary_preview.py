"""``preview_placement``: what a card does without a special card, agreeing with the rules."""

import random

from engine import BULLHEADS, AnniversaryGame, CardPlaced, DeclineSpecial, GameConfig, Phase, RowTaken
from engine.anniversary import FifthRowClosed, PlacementPreview
from tests.engine.anniversary_helpers import random_anniversary_action

CONFIG = GameConfig(2, "anniversary")


def position(rows, **kwargs) -> AnniversaryGame:
    return AnniversaryGame.from_position(CONFIG, rows=rows, hands=[[101], [102]], **kwargs)


def test_a_card_that_fits_goes_after_the_closest_lower_end_and_takes_nothing():
    game = position([[10, 20], [30], [40], [50]])
    before = game.to_dict()
    assert game.preview_placement(35) == PlacementPreview(35, 1, False, 0)
    assert game.to_dict() == before  # a query only


def test_the_sixth_card_takes_the_row_and_a_seven_nimmt_makes_room_for_one_more():
    rows = [[10, 11, 12, 13, 55], [60], [70], [80]]
    assert position(rows).preview_placement(57) == PlacementPreview(57, 0, True, 3 + 5 + 1 + 1 + 7)
    assert position(rows, sevens=[True, False, False, False]).preview_placement(57) == PlacementPreview(57, 0, False, 0)


def test_a_low_card_costs_the_cheapest_row_a_stop_does_not_block():
    rows = [[5], [55], [11, 12], [40]]  # 2, 7, 6 and 3 bullheads
    assert position(rows).preview_placement(3) == PlacementPreview(3, None, True, 2)
    stopped = position(rows, stops=[True, False, False, False])
    assert stopped.preview_placement(3) == PlacementPreview(3, None, True, 3)
    # Behind a Stop the card goes elsewhere: 7 fits after 5 only while row 1 is open.
    assert stopped.preview_placement(7) == PlacementPreview(7, None, True, 3)


def test_with_five_rows_the_played_card_goes_to_the_pile_too():
    rows = [[1, 2, 3, 4, 6], [60], [70], [80], [90]]  # row 1: 5 bullheads
    assert position(rows).preview_placement(55) == PlacementPreview(55, 0, True, 5 + 7)


def test_the_preview_is_what_declining_the_special_card_does():
    checked = 0
    for seed in range(40):
        game = AnniversaryGame.new(GameConfig(4, "anniversary"), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.phase is Phase.SPECIAL:
                player, card = game.decider, game.special_card
                preview = game.preview_placement(card)
                copy = game.copy()
                events = copy.apply(DeclineSpecial(player))
                if preview.row is None:
                    assert copy.phase is Phase.CHOOSE_ROW and copy.chooser == player
                    cheapest = min(game.row_bullheads(r) for r in game.open_rows())
                    own = BULLHEADS[card] if len(game.rows) == 5 else 0
                    assert preview.takes and preview.bullheads == cheapest + own
                else:
                    takes = [e for e in events if isinstance(e, RowTaken) and e.player == player]
                    placed = [e for e in events if isinstance(e, (CardPlaced, FifthRowClosed)) and e.card == card]
                    assert bool(takes) == preview.takes
                    assert placed and placed[0].row == preview.row
                    if takes:
                        assert takes[0].row == preview.row
                        assert copy.round_points[player] - game.round_points[player] == preview.bullheads
                checked += 1
            game.apply(random_anniversary_action(game, rng))
    assert checked > 100
