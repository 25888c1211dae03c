"""The Anniversary simulation kernel: the engine's rules for the table, and special cards
that leave a legal table."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BULLHEADS, AnniversaryGame, GameConfig, Phase, Variant
from engine.ai import kernel
from engine.ai.anniversary_kernel import Table
from engine.anniversary import Special


def _position(rng: random.Random, players: int):
    """A random position: four or five rows, some under a 7 nimmt! or a Stop, equal hands."""
    deck = list(range(1, 105))
    rng.shuffle(deck)
    nrows = rng.choice((4, 5))
    sevens = [rng.random() < 0.25 for _ in range(nrows)]
    sevens[0] = sevens[0] and not all(sevens)  # four 7 nimmt! cards in all
    rows = []
    for r in range(nrows):
        length = rng.randint(1, 6 if sevens[r] else 5)
        rows.append(sorted(deck.pop() for _ in range(length)))
    stops = [False] * nrows
    for r in rng.sample(range(nrows), rng.randint(0, 2)):
        stops[r] = True
    size = rng.randint(1, min(10, (len(deck)) // players))
    hands = [sorted(deck.pop() for _ in range(size)) for _ in range(players)]
    return rows, sevens, stops, hands


def _engine_and_kernel_agree(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 8)
    rows, sevens, stops, hands = _position(rng, players)
    game = AnniversaryGame.from_position(
        GameConfig(players, Variant.ANNIVERSARY),
        rows,
        hands,
        sevens=sevens,
        stops=stops,
        specials=[[] for _ in range(players)],
    )
    caps = [6 if s else 5 for s in sevens]
    table = Table(rows, caps, stops, [[] for _ in range(players)], [list(h) for h in hands])
    while game.phase is Phase.PICK and game.round == 1:
        cards = [h[rng.randrange(len(h))] for h in table.hands]
        for p, c in enumerate(cards):
            table.hands[p].remove(c)
        table.play_turn(list(zip(cards, range(players), strict=True)), 0.0)
        game.play_turn(cards)
        while game.phase is Phase.CHOOSE_ROW:  # the kernel takes the cheapest open row
            game.choose_row(game.chooser, game.cheapest_row())
        if game.round > 1 or game.is_over:
            assert list(game.totals) == table.pen
            return
        assert game.phase is Phase.PICK
        assert game.rows == table.rows
        assert [game.capacity(r) for r in range(len(game.rows))] == table.caps
        assert game.stops == table.stops
        assert table.pts == [sum(BULLHEADS[c] for c in r) for r in game.rows]
        assert list(game.round_points) == table.pen
        assert game.hands == table.hands


def test_the_kernel_places_cards_as_the_engine_does():
    for seed in range(1500):
        _engine_and_kernel_agree(seed)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8))
def test_special_cards_in_a_simulated_round_leave_a_legal_table(seed, players):
    rng = random.Random(seed)
    rows, sevens, stops, hands = _position(rng, players)
    held = [rng.sample(list(Special), rng.randint(0, 3)) for _ in range(players)]
    table = Table(rows, [6 if s else 5 for s in sevens], stops, held, hands)
    before = sorted(c for r in rows for c in r) + sorted(c for h in hands for c in h)
    spent = sum(len(h) for h in held)
    table.play_out(kernel.cost_table(players - 1), rng.random, [0.3] * players, rng.choice((0, 12)))
    assert not any(table.hands)
    assert len(table.rows) in (4, 5) and sum(table.stops) <= 2
    for row, cap in zip(table.rows, table.caps, strict=True):
        assert row == sorted(row) and 1 <= len(row) <= cap <= 6
    assert table.pts == [sum(BULLHEADS[c] for c in r) for r in table.rows]
    assert all(p >= 0 for p in table.pen)
    on_table = [c for r in table.rows for c in r]
    assert len(set(on_table)) == len(on_table) and set(on_table) <= set(before)
    assert sum(len(h) for h in table.held) <= spent


def test_each_special_card_turns_a_take_away():
    # Row 2 is full: 60 would be its sixth card and take 11 bullheads (7 of them the 55's).
    rows = [[10], [21, 31, 41, 51, 55], [70], [80]]
    for kind, check in [
        (Special.SEVEN_NIMMT, lambda t: t.rows[1][-1] == 60 and t.caps[1] == 6),
        (Special.FIFTH_ROW, lambda t: t.rows[4] == [60]),
        (Special.INSERT, lambda t: 60 in t.rows[0] and t.rows[0] == sorted(t.rows[0])),
        (Special.SHIFT, lambda t: t.rows[1][-1] == 60 and len(t.rows[1]) == 5),
        (Special.STOP, lambda t: t.stops[1] and t.rows[0] == [10, 60]),
        (Special.REPLACE, lambda t: t.hands[0] == [60] and 90 in t.rows[3]),
    ]:
        t = Table(rows, [5] * 4, [False] * 4, [[kind], []], [[90], [95]])
        t.place(0, 60, scale=0.0)
        assert t.pen[0] == 0 and t.held[0] == [] and check(t), kind
    t = Table(rows, [5] * 4, [False] * 4, [[Special.NEGATIVE_POSITIVE], []], [[90], [95]])
    t.place(0, 60, scale=0.0)
    # The 55 (7 bullheads) cancels itself and the rest of the row: nothing is left to count.
    assert t.rows[1] == [60] and t.pen[0] == 0 and t.held[0] == []


def test_a_special_card_is_kept_when_the_take_is_cheaper_than_its_worth():
    rows = [[12], [13, 14], [16], [17]]  # the low card 5 takes a row of one bullhead
    t = Table(rows, [5] * 4, [False] * 4, [[Special.INSERT], []], [[90], [95]])
    t.place(0, 5, scale=4.0)  # an Insert is worth 4 bullheads here: keep it
    assert t.pen[0] == 1 and t.held[0] == [Special.INSERT] and t.rows[0] == [5]
    t = Table(rows, [5] * 4, [False] * 4, [[Special.INSERT], []], [[90], [95]])
    t.place(0, 5, scale=0.5)
    assert t.pen[0] == 0 and t.held[0] == [] and t.rows[0] == [5, 12]
