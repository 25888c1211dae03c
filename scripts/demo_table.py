"""Render the README's table picture from a real, seeded game: ``python scripts/demo_table.py [out.png]``.

Four players play five turns (each plays their lowest card) through the
engine, so the picture shows a position the rules can reach, with the last
turn's cards highlighted as the bot shows them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cogs.render.images import render_table  # noqa: E402
from engine import Game, GameConfig, Phase  # noqa: E402

SEED = 2024
TURNS = 5


def demo_position() -> tuple[list[list[int]], set[int]]:
    game = Game.new(GameConfig(4, target=None, rounds=1), seed=SEED)
    played: set[int] = set()
    for _ in range(TURNS):
        played = set()
        for seat in range(game.players):
            pick = min(game.legal_actions(seat), key=lambda action: action.card)
            played.add(pick.card)
            game.apply(pick)
        while game.phase is Phase.CHOOSE_ROW:  # a low card: its player takes the first row
            game.apply(game.legal_actions(game.chooser)[0])
    return [list(row) for row in game.rows], played


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "table.png"
    rows, last = demo_position()
    out.write_bytes(render_table(rows, highlight=last))
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
