"""The public Pro draft in every view, its log in saves, and the played-card tracker."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig, Phase, Variant
from engine.tracker import seen_cards

from .helpers import random_action


def drafted_game(players: int = 3, picks: int = 5, seed: int = 4) -> Game:
    game = Game.new(GameConfig(players, Variant.PRO, rounds=2), seed=seed)
    rng = random.Random(seed)
    for _ in range(picks):
        game.draft(game.drafter, rng.choice(game.draft_pool))
    return game


def test_every_view_holds_every_seats_drafted_cards_and_the_log():
    game = drafted_game(players=3, picks=7)
    log = tuple(game.draft_log)
    assert len(log) == 7 and [seat for seat, _ in log] == [(game.first_drafter + i) % 3 for i in range(7)]
    for viewer in (None, 0, 1, 2):
        view = game.view(viewer)
        assert view.draft_log == log
        for seat in range(3):
            assert view.drafted[seat] == tuple(sorted(c for s, c in log if s == seat)) == tuple(game.hands[seat])
    # The hands stay private: only the viewer's own hand is in their view.
    assert game.view(1).hand == tuple(game.hands[1]) and game.view(None).hand is None


def test_the_log_outlives_the_draft_and_is_cleared_by_the_next_round():
    game = drafted_game(players=2, picks=0)
    while game.phase is Phase.DRAFT:
        game.draft(game.drafter, game.draft_pool[-1])
    drafted = game.view(0).drafted
    assert [len(d) for d in drafted] == [10, 10] and len(game.draft_log) == 20
    rng = random.Random(1)
    while game.round == 1:
        game.apply(random_action(game, rng))
    assert game.phase is Phase.DRAFT and game.draft_log == [] and game.view(0).drafted == ((), ())


def test_the_draft_log_is_saved_and_old_saves_still_load():
    game = drafted_game(players=3, picks=5)
    again = Game.from_dict(game.to_dict())
    assert again.draft_log == game.draft_log and again == game
    # A save from before the log: mid-draft it is rebuilt from the hands, in seat order.
    old = game.to_dict()
    del old["draft_log"]
    loaded = Game.from_dict(old)
    assert sorted(loaded.draft_log) == sorted(game.draft_log)
    assert [s for s, _ in loaded.draft_log] == [s for s, _ in game.draft_log]
    assert loaded.view(0).drafted == game.view(0).drafted
    # After the draft an old save has no log to rebuild, and still loads and plays.
    while game.phase is Phase.DRAFT:
        game.draft(game.drafter, game.draft_pool[0])
    old = game.to_dict()
    del old["draft_log"]
    loaded = Game.from_dict(old)
    assert loaded.draft_log == [] and loaded.hands == game.hands
    loaded.play_turn([h[0] for h in loaded.hands])
    classic = Game.new(GameConfig(4), seed=2).to_dict()
    del classic["draft_log"]
    assert Game.from_dict(classic).draft_log == []


def test_the_tracker_lists_the_rows_the_piles_and_the_revealed_cards():
    config = GameConfig(3, target=66)
    game = Game.from_position(
        config, rows=[[3], [20], [40], [60]], hands=[[1, 21, 41], [2, 22, 42], [50, 61, 70]], piles=[[10, 11], [], []]
    )
    game.pick(0, 1)
    game.pick(1, 22)
    game.pick(2, 61)  # 1 is lower than every row: the turn waits for seat 0's row choice
    assert game.phase is Phase.CHOOSE_ROW
    seen = seen_cards(game.view(1))
    assert seen.in_rows == (3, 20, 40, 60) and seen.in_piles == (10, 11)
    assert seen.revealed == (1, 22, 61)
    assert seen.seen == (1, 3, 10, 11, 20, 22, 40, 60, 61)
    # Never another hand's cards: 21 and 41 (seat 0's) and 50 and 70 (seat 2's) are unseen to seat 1.
    assert {21, 41, 50, 70} <= set(seen.unseen) and not {2, 42} & set(seen.unseen)
    assert seen.others_hands is None


def test_the_pro_tracker_knows_the_other_hands_from_the_draft():
    game = drafted_game(players=2, picks=0)
    while game.phase is Phase.DRAFT:
        game.draft(game.drafter, game.draft_pool[0])
    game.play_turn([game.hands[0][-1], game.hands[1][-1]])
    seen = seen_cards(game.view(0))
    assert seen.others_hands[0] == ()
    assert seen.others_hands[1] == tuple(game.hands[1])


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    steps=st.integers(0, 60),
    variant=st.sampled_from([Variant.CLASSIC, Variant.PRO, Variant.ANNIVERSARY]),
)
def test_the_tracker_shows_only_what_the_player_may_know(seed, players, steps, variant):
    # Anniversary fixes its own length (two rounds); the others play three here.
    rounds = 2 if variant is Variant.ANNIVERSARY else 3
    game = Game.new(GameConfig(players, variant, rounds=rounds), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(random_action(game, rng))
    if game.is_over:
        return
    viewer = rng.randrange(players)
    seen = seen_cards(game.view(viewer))
    hidden = {c for p, h in enumerate(game.hands) if p != viewer for c in h}
    hidden |= {c for p, c in enumerate(game.picks) if c and p != viewer}
    if variant is not Variant.PRO:  # a Pro hand was drafted in public: it is no secret
        assert not hidden & set(seen.seen)
    public = {c for r in game.rows for c in r} | {c for p in game.piles for c in p} | {c for c, _ in game.pending}
    assert set(seen.seen) == public
    assert not set(seen.unseen) & (public | set(game.hands[viewer]))
