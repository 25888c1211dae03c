"""``special_outlook``: where each answer to a special-card pause leads, agreeing with the rules.

It decides whether a player is asked at all, so: an option said to change
nothing must lead exactly where declining does, and the bullheads it names
must be what playing it really costs.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import AnniversaryGame, DeclineSpecial, GameConfig, Phase, Special
from engine.anniversary import SwapOffered, special_outlook
from engine.anniversary.outlook import settle
from engine.errors import WrongPhase
from tests.engine.anniversary_helpers import random_anniversary_action

CONFIG = GameConfig(2, "anniversary")
S = Special


def paused(rows, alice_card, specials, bob_card=90, round_=1, hands=None, **kwargs) -> AnniversaryGame:
    """Alice (seat 0) and Bob reveal; the game pauses for Alice's special card on ``alice_card``."""
    alice_hand, bob_hand = hands or ([alice_card, 1], [bob_card, 91])
    game = AnniversaryGame.from_position(
        CONFIG, rows=rows, hands=[alice_hand, bob_hand], specials=[specials, []], **kwargs
    )
    game.round = round_
    game.pick(0, alice_card)
    game.pick(1, bob_card)
    assert game.phase is Phase.SPECIAL and game.decider == 0
    return game


def test_the_stop_example_saves_the_take_only_on_the_row_taken():
    # Alice's 22 takes row 1 (8 bullheads). A Stop on row 1 sends it to row 2; a Stop anywhere
    # else is removed again by her take, so it changes nothing.
    game = paused([[5, 9, 12, 16, 20], [7, 18], [40], [60]], 22, [S.STOP])
    before = game.to_dict()
    outlook = special_outlook(game)
    assert game.to_dict() == before, "a query only"
    assert (outlook.decline.bullheads, outlook.decline.taken_row, outlook.decline.placed) == (8, 0, (22, 0))
    assert outlook.decline.swap_offered, "her take is followed by a swap offer"
    by_row = {o.action.row: o for o in outlook.options}
    assert not by_row[0].swap_offered
    assert (by_row[0].bullheads, by_row[0].taken_row, by_row[0].placed, by_row[0].changes) == (0, None, (22, 1), True)
    assert [by_row[r].changes for r in (1, 2, 3)] == [False, False, False]
    assert outlook.changes_anything and outlook.best_saving == 8
    assert outlook.outcome_of(by_row[0].action) is by_row[0]
    assert outlook.outcome_of(DeclineSpecial(0)) is outlook.decline


def test_a_low_card_is_priced_at_the_cheapest_row_and_marked_as_a_row_choice():
    game = paused([[10, 11], [55], [30], [40]], 3, [S.INSERT])  # 8, 7, 3, 3 bullheads
    outlook = special_outlook(game)
    assert outlook.decline.row_choice and outlook.decline.bullheads == 3 and outlook.decline.taken_row == 2
    inserted = [o for o in outlook.options if o.action.row == 0]
    assert inserted and inserted[0].bullheads == 0 and not inserted[0].row_choice and inserted[0].changes


def test_seven_nimmt_on_the_games_last_placement_changes_nothing():
    # Round 2, last cards: Alice's 25 goes to row 1 without a take; a 7 nimmt! there only marks
    # a row the game is about to clear, so there is nothing to ask.
    rows = [[10, 20], [30], [40], [50]]
    last = paused(rows, 25, [S.SEVEN_NIMMT], round_=2, hands=([25], [90]))
    outlook = special_outlook(last)
    assert [o.action.special for o in outlook.options] == [S.SEVEN_NIMMT]
    assert not outlook.changes_anything and outlook.best_saving == 0
    # Earlier in the game the marker stays on the table: that is a change.
    assert special_outlook(paused(rows, 25, [S.SEVEN_NIMMT])).changes_anything


def test_negative_positive_can_cost_less_than_nothing():
    game = paused([[51, 52, 53, 54, 55], [60], [70], [80]], 57, [S.NEGATIVE_POSITIVE], piles=[[22, 33], []])
    outlook = special_outlook(game)
    named = {o.action.card: o for o in outlook.options}
    assert outlook.decline.bullheads == 1 + 1 + 1 + 1 + 7
    # Naming the 55 sets it aside and cancels 7 bullheads of the pile (22, 51, 52): 11 - 7 - 7.
    assert named[55].bullheads == -3 and outlook.saving(named[55]) == 14 == outlook.best_saving
    assert named[51].bullheads == 11 - 1 - 1


def test_the_outlook_is_only_for_a_special_card_pause():
    game = AnniversaryGame.new(CONFIG, seed=1)
    try:
        special_outlook(game)
    except WrongPhase:
        pass
    else:
        raise AssertionError("a picking game has no special-card pause")


def _state(game):
    return (
        [list(r) for r in game.rows],
        list(game.sevens),
        list(game.stops),
        [sorted(p) for p in game.piles],
        list(game.scores),
    )


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6))
def test_every_outcome_is_what_playing_it_does(seed, players):
    """At every pause of random games: each option's bullheads are what it costs, and an
    option "changing nothing" leads to exactly the table, piles and scores of declining."""
    game = AnniversaryGame.new(GameConfig(players, "anniversary"), seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over and checked < 25:
        if game.phase is Phase.SPECIAL:
            outlook = special_outlook(game)
            player = game.decider
            ends: dict = {}
            for outcome in (outlook.decline, *outlook.options):
                copy = game.copy()
                copy.apply(outcome.action)
                settle(copy, player)
                assert copy.scores[player] - game.scores[player] == outcome.bullheads
                same_round = copy.round == game.round and not copy.is_over
                ends[outcome.action] = _state(copy) if same_round else list(copy.scores)
            base = ends[outlook.decline.action]
            for outcome in outlook.options:
                assert outcome.changes == (ends[outcome.action] != base)
            assert outlook.best_saving == max([0] + [outlook.saving(o) for o in outlook.options])
            checked += 1
        game.apply(random_anniversary_action(game, rng))


def _swap_offered(round_: int) -> bool:
    game = AnniversaryGame.from_position(
        CONFIG, rows=[[10, 11, 12, 13, 14], [60], [70], [80]], hands=[[20], [90]], specials=[[S.STOP], []]
    )
    game.round = round_
    game.pick(0, 20)
    events = game.pick(1, 90)
    events += game.decline_special(0)
    return any(isinstance(e, SwapOffered) for e in events) and game.phase is Phase.SWAP


def test_no_swap_at_the_last_turn_of_the_last_round():
    assert _swap_offered(1), "after round 1 the new card is kept for round 2"
    assert not _swap_offered(2), "a card swapped on the game's last turn could never be played"
