"""The AI's simulation kernel never disagrees with the rules engine."""

import random

from engine import BULLHEADS, Game, GameConfig, Phase, Variant
from engine.ai import kernel


def _kernel_round_matches_engine(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 10)
    game = Game.new(GameConfig(players, Variant.CLASSIC, target=None, rounds=1), seed=seed)
    rows = [list(r) for r in game.rows]
    pts = [sum(BULLHEADS[c] for c in r) for r in rows]
    hands = [list(h) for h in game.hands]
    pen = [0] * players
    piles = [[] for _ in range(players)]
    while hands[0]:
        cards = [h[rng.randrange(len(h))] for h in hands]
        choices = []  # the rows each low card takes, in order

        def choose(rows_, pts_, card, p, choices=choices):
            r = rng.randrange(4)
            choices.append((p, r))
            return r

        for p, c in enumerate(cards):
            hands[p].remove(c)
        kernel.resolve(rows, pts, sorted(zip(cards, range(players), strict=True)), pen, choose, piles)
        game.play_turn(cards)
        for p, r in choices:
            assert game.phase is Phase.CHOOSE_ROW and game.chooser == p
            game.choose_row(p, r)
        if game.is_over:
            assert game.totals == pen
            break
        assert game.phase is Phase.PICK
        assert game.rows == rows
        assert pts == [game.row_bullheads(i) for i in range(4)]
        assert game.piles == piles
        assert game.round_points == pen
        assert game.hands == hands
    assert game.is_over and game.totals == pen


def test_kernel_agrees_with_engine_on_random_rounds():
    for seed in range(2000):
        _kernel_round_matches_engine(seed)


def test_play_out_finishes_a_round_with_consistent_points():
    rng = random.Random(5)
    for seed in range(300):
        players = rng.randint(2, 10)
        game = Game.new(GameConfig(players, target=None, rounds=1), seed=seed)
        rows = [list(r) for r in game.rows]
        pts = [sum(BULLHEADS[c] for c in r) for r in rows]
        hands = [list(h) for h in game.hands]
        pen = [0] * players
        ptab = kernel.cost_table(players - 1)
        kernel.play_out(rows, pts, hands, pen, ptab, rng, 0.2)
        assert not any(hands)
        on_table = sum(pts)
        assert pts == [sum(BULLHEADS[c] for c in r) for r in rows]
        assert all(1 <= len(r) <= 5 for r in rows)
        # every bullhead dealt is either on the table or in someone's penalty
        dealt = sum(BULLHEADS[c] for r in game.rows for c in r) + sum(BULLHEADS[c] for h in game.hands for c in h)
        assert on_table + sum(pen) == dealt


def test_danger_table_covers_every_card():
    game = Game.new(GameConfig(5, target=None, rounds=1), seed=1)
    pts = [game.row_bullheads(i) for i in range(4)]
    tbl = kernel.danger_table(game.rows, pts, kernel.cost_table(4))
    assert len(tbl) == 105
    for c in range(1, 105):
        if c < min(r[-1] for r in game.rows):
            assert tbl[c] == min(pts)
        assert tbl[c] >= 0


def test_play_out_places_cards_as_the_checked_resolve_does():
    """play_out's merged placement against ``resolve`` (checked against the engine above):
    the same picks by the danger table, the same rows and points after every round."""
    rng = random.Random(9)
    for seed in range(500):
        players = rng.randint(2, 10)
        game = Game.new(GameConfig(players, target=None, rounds=1), seed=seed)
        ptab = kernel.cost_table(players - 1)
        fast = (
            [list(r) for r in game.rows],
            [game.row_bullheads(i) for i in range(4)],
            [list(h) for h in game.hands],
            [0] * players,
        )
        slow = ([list(r) for r in game.rows], list(fast[1]), [list(h) for h in game.hands], [0] * players)
        kernel.play_out(*fast, ptab)
        rows, pts, hands, pen = slow
        while hands[0]:
            cards = kernel.heuristic_picks(rows, pts, hands, ptab)
            for p, c in enumerate(cards):
                hands[p].remove(c)
            kernel.resolve(rows, pts, sorted(zip(cards, range(players), strict=True)), pen)
        assert fast == slow
