"""``Game.decision_id``: equal exactly while the game waits on the same decision."""

from engine import AnniversaryGame, Game, GameConfig, Phase, Special


def test_a_turn_is_one_decision_until_its_cards_are_revealed():
    game = Game.new(GameConfig(3, rounds=1, target=None), seed=4)
    seen = [game.decision_id]
    for seat in range(3):
        assert game.decision_id == seen[0]  # the picks of one turn answer one decision
        game.pick(seat, game.hands[seat][0])
    assert game.decision_id != seen[0]


def test_each_special_card_pause_of_a_turn_is_a_decision_of_its_own():
    game = AnniversaryGame.from_position(
        GameConfig(2, "anniversary"),
        rows=[[10, 11, 12, 13, 14], [60], [70], [80]],
        hands=[[20, 1], [90, 91]],
        specials=[[Special.STOP], [Special.STOP]],
    )
    before = game.decision_id
    game.pick(0, 20)
    game.pick(1, 90)
    assert game.phase is Phase.SPECIAL
    pause = game.decision_id
    assert pause != before and pause == game.copy().decision_id
    game.apply(game.legal_actions(game.decider)[-1])  # the decline
    assert game.decision_id != pause
