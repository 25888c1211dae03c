"""The array kernel (``engine.ai.batch``) plays rounds exactly as the list kernel does."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import BULLHEADS, Game, GameConfig
from engine.ai import batch, kernel, search
from engine.ai.info import information_set
from engine.ai.medium_model import MediumModel

np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[2]


def _positions(seed: int, count: int):
    """``count`` classic positions of one player count, a few random turns into a round."""
    rng = random.Random(seed)
    players = rng.randint(2, 10)
    out = []
    for i in range(count):
        game = Game.new(GameConfig(players, target=None, rounds=1), seed=seed * 1000 + i)
        rows = [list(r) for r in game.rows]
        pts = [sum(BULLHEADS[c] for c in r) for r in rows]
        hands = [sorted(h) for h in game.hands]
        pen = [0] * players
        for _ in range(seed % 6):
            cards = [h[rng.randrange(len(h))] for h in hands]
            for h, c in zip(hands, cards, strict=True):
                h.remove(c)
            kernel.resolve(rows, pts, sorted(zip(cards, range(players), strict=True)), pen)
        out.append((rows, pts, hands, pen))
    return players, out


def test_a_batch_ends_every_round_as_the_list_kernel_does():
    for seed in range(60):
        players, positions = _positions(seed, 25)
        ends = np.array([[r[-1] for r in rows] for rows, _, _, _ in positions])
        lens = np.array([[len(r) for r in rows] for rows, _, _, _ in positions])
        pts = np.array([p for _, p, _, _ in positions])
        pen = np.array([p for _, _, _, p in positions])
        hands = np.array([h for _, _, h, _ in positions])
        batch.play_out(ends, lens, pts, pen, hands, None, None, players - 1)
        ctab = kernel.cost_table(players - 1)
        for b, (rows, p, h, pn) in enumerate(positions):
            kernel.play_out(rows, p, h, pn, ctab)
            assert pen[b].tolist() == pn
            assert pts[b].tolist() == p
            assert ends[b].tolist() == [r[-1] for r in rows]
            assert lens[b].tolist() == [len(r) for r in rows]


def test_random_cards_keep_every_bullhead_accounted_for():
    players, positions = _positions(7, 200)
    ends = np.array([[r[-1] for r in rows] for rows, _, _, _ in positions])
    lens = np.array([[len(r) for r in rows] for rows, _, _, _ in positions])
    pts = np.array([p for _, p, _, _ in positions])
    pen = np.array([p for _, _, _, p in positions])
    hands = np.array([h for _, _, h, _ in positions])
    before = pts.sum(axis=1) + pen.sum(axis=1) + np.array([sum(BULLHEADS[c] for c in x.ravel()) for x in hands])
    eps = np.full(players, 0.7)
    batch.play_out(ends, lens, pts, pen, hands, eps, np.random.default_rng(3), players - 1)
    assert (pts.sum(axis=1) + pen.sum(axis=1) == before).all()
    assert ((lens >= 1) & (lens <= 5)).all()


def test_the_batch_medium_keys_are_medium_models():
    for seed in range(40):
        players, positions = _positions(seed, 1)
        rows, pts, hands, _ = positions[0]
        if len(hands[0]) < 2:
            continue
        seen = {c for r in rows for c in r} | set(hands[0])
        unseen = [c for c in range(1, 105) if c not in seen]
        model = MediumModel(rows, pts, sorted(unseen + hands[0]), players - 1)
        keys = batch.MediumKeys(model, len(hands[1]))
        got = keys.keys(np.array([hands[1:]]))[0]
        for h, k in zip(hands[1:], got, strict=True):
            assert model.keys(h) == k.tolist()


def test_a_batched_pick_is_legal_and_repeats_for_a_seed():
    game = Game.new(GameConfig(5, target=66), seed=4)
    info = information_set(game, 2)
    assert batch.PickBatch.fits(info)
    picks = {search.hard_pick(info, random.Random(9), search.Budget(600, None)) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(info.hand)


def test_a_seat_of_the_standard_style_plays_the_standard_heuristic():
    from engine.ai.heuristics import standard_pick

    flat, _ = batch._tables(4)
    for seed in range(80):
        _, positions = _positions(seed * 7 + 1, 1)
        rows, pts, hands, _ = positions[0]
        n = len(hands)
        if not hands[0]:
            continue
        keys = batch._danger(
            np.array([[r[-1] for r in rows]]),
            np.array([[len(r) for r in rows]]),
            np.array([pts]),
            np.array([hands]),
            flat,
            np.full(n, batch.SPAN),
        )[0]
        assert [h[int(k.argmin())] for h, k in zip(hands, keys, strict=True)] == [
            standard_pick(rows, pts, h) for h in hands
        ]


def test_numpy_is_imported_by_the_first_search_that_uses_it_not_by_importing_the_ai():
    """The bot's own process imports the AI for its easy and medium seats but leaves the hard
    searches to its worker: it must not hold numpy (some 10 MB) for them."""
    script = (
        "import sys, random\n"
        "import engine.ai, engine.ai.batch\n"
        "from engine import Game, GameConfig\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('numpy.'))\n"
        "assert loaded() == [], loaded()[:5]\n"
        "game = Game.new(GameConfig(4, target=None, rounds=1), seed=3)\n"
        "engine.ai.choose_action(game, 0, 'medium', random.Random(0))\n"
        "assert loaded() == [], loaded()[:5]\n"
        "assert engine.ai.batch.PickBatch.fits(engine.ai.information_set(game, 0))\n"
        "engine.ai.choose_action(game, 0, 'hard', random.Random(0), budget_sims=8)\n"
        "print(len(loaded()))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 0  # the hard search ran as arrays: numpy is there now


def test_a_numpy_that_will_not_import_leaves_the_hard_ai_on_the_list_kernel(tmp_path):
    """numpy is imported on first use, so an install that is there but broken is found only
    then: the hard AI must still pick a card, with the list kernel, not fail every pick."""
    broken = tmp_path / "numpy"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('numpy built for another Python')\n")
    script = (
        "import random\n"
        "import engine.ai, engine.ai.batch\n"
        "from engine import Game, GameConfig\n"
        "game = Game.new(GameConfig(4, target=None, rounds=1), seed=3)\n"
        "assert engine.ai.batch.AVAILABLE  # installed, as far as finding it goes\n"
        "action = engine.ai.choose_action(game, 0, 'hard', random.Random(0), budget_sims=8)\n"
        "assert not engine.ai.batch.PickBatch.fits(engine.ai.information_set(game, 0))\n"
        "print(action.card in game.hands[0])\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
