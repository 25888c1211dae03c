"""Render the README's score chart from a real, seeded game: ``python scripts/demo_chart.py [out.png]``.

Four players play a whole game to 66 through the engine (each plays a random
card of their hand; a low card takes the cheapest row), so the chart shows
totals the rules can reach, drawn as the final standings and
``/6nimmt history game:`` show them.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cogs.render.chart import render_score_chart  # noqa: E402
from engine import ChooseRow, Game, GameConfig, Phase  # noqa: E402

SEED = 2024
NAMES = ["alice", "bob", "carol", "🤖 Ada"]


def demo_round_points() -> list[list[int]]:
    """Each seat's points per round (``[seat][round]``) of a seeded game to 66."""
    game = Game.new(GameConfig(len(NAMES)), seed=SEED)
    rng = random.Random(SEED)
    while not game.is_over:
        if game.phase is Phase.CHOOSE_ROW:
            game.apply(ChooseRow(game.chooser, game.cheapest_row()))
        else:
            game.play_turn([rng.choice(hand) for hand in game.hands])
    return [[points[seat] for points in game.history] for seat in range(game.players)]


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "score-chart.png"
    out.write_bytes(render_score_chart(NAMES, demo_round_points()))
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
