"""Render the README's Pro draft picture: ``python scripts/demo_draft.py [out.png]``.

The public draft message exactly as the bot builds it (``table_embed`` of a real Pro
table, seeded, after seven picks), drawn in Discord's dark theme with Pillow: the
cards still to draft, each seat's drafted cards, the log of who took what, and
whose turn it is. Mentions are shown as the names Discord would show.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from PIL import Image, ImageDraw  # noqa: E402

from bot.tables.table import Seat, Table, TableOptions, TableStatus  # noqa: E402
from cogs.render.text import table_embed  # noqa: E402
from engine import Draft, Game  # noqa: E402
from scripts.demo_prompt import BACKGROUND, MUTED, PAD, TEXT, WIDTH, _plain, _text, font  # noqa: E402

NAMES = {1: "alice", 2: "bob", 3: "carol"}
EMBED = (43, 45, 49)
STRIPE = (46, 125, 50)


def demo_table() -> Table:
    options = TableOptions(variant="pro", rounds=1, target=None)
    seats = [Seat(user, name) for user, name in NAMES.items()]
    game = Game.new(options.game_config(len(seats)), seed=7)
    for _ in range(7):  # each drafter takes the lowest card still face up
        game.apply(Draft(game.drafter, min(game.draft_pool)))
    return Table(
        1, 1, 1, host_id=1, options=options, seats=seats, status=TableStatus.PLAYING, game=game, deadline=1_900_000_000
    )


def _readable(text: str) -> str:
    """What a Discord client shows: mentions as names, timestamps as words, no code fences."""
    text = re.sub(r"<@(\d+)>", lambda m: "@" + NAMES.get(int(m[1]), "someone"), text)
    return re.sub(r"<t:\d+:R>", "in 28 seconds", text).replace("```", "")


def _wrapped(text: str, face, width: int) -> list[str]:
    lines = []
    for paragraph in _readable(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if line and face.getlength(_plain(trial)) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return [line for line in lines if line.strip()]


def render(out: Path) -> None:
    embed = table_embed(demo_table(), None)
    body, bold, width = font(17), font(17, bold=True), WIDTH - 3 * PAD
    blocks = [(font(20, bold=True), TEXT, _wrapped(embed.title, font(20, bold=True), width))]
    blocks.append((body, TEXT, _wrapped(embed.description, body, width)))
    for field in embed.fields:
        blocks.append((bold, TEXT, _wrapped(field.name, bold, width)))
        blocks.append((body, TEXT, _wrapped(field.value, body, width)))
    blocks.append((font(14), MUTED, _wrapped(embed.footer.text, font(14), width)))
    height = 2 * PAD + 60 + sum(24 * len(lines) + 8 for _, _, lines in blocks)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), "6 nimmt! · the draft message, edited after every pick", font=font(15), fill=MUTED)
    top = PAD + 30
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, height - PAD), radius=6, fill=EMBED)
    draw.rectangle((PAD, top, PAD + 4, height - PAD), fill=STRIPE)
    y = top + 14
    for face, colour, lines in blocks:
        for line in lines:
            _text(draw, image, (2 * PAD, y), line, face, colour)
            y += 24
        y += 8
    image.save(out, optimize=True)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "draft.png"
    render(out)
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
