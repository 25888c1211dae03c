"""Render the README's Anniversary prompt picture: ``python scripts/demo_prompt.py [out.png]``.

A text mock-up of the ephemeral prompt exactly as the bot builds it (``prompt_text`` and
``prompt_view`` on a real ``SpecialPrompt``), then the choices its **Stop ×2…** button
opens, drawn in Discord's dark theme with Pillow. Alice's 22 would take row 1; she
holds two Stops and a 7 nimmt!. Emoji other than the bullhead (drawn as the table
picture draws it) are left out: the fonts a fresh machine has do not carry them.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import discord  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from bot.tables.specials import SpecialPrompt  # noqa: E402
from bot.tables.table import Seat, Table, TableOptions  # noqa: E402
from cogs.render.images import _bull_mask  # noqa: E402
from cogs.render.specials import kind_prompt_text, prompt_text  # noqa: E402
from cogs.ui.specials import choices_view, kind_choices, prompt_view  # noqa: E402
from engine import AnniversaryGame, GameConfig, Special  # noqa: E402
from engine.anniversary import special_outlook  # noqa: E402

WIDTH, PAD, LINE = 900, 24, 26
BACKGROUND, TEXT, MUTED = (49, 51, 56), (219, 222, 225), (148, 155, 164)
STYLES = {
    discord.ButtonStyle.primary: (88, 101, 242),
    discord.ButtonStyle.secondary: (78, 80, 88),
    discord.ButtonStyle.success: (36, 128, 70),
}
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
BULL = "🐮"


def font(size: int, bold: bool = False):
    path = DEJAVU.with_name("DejaVuSans-Bold.ttf") if bold else DEJAVU
    return ImageFont.truetype(str(path), size) if path.exists() else ImageFont.load_default(size=size)


def demo_prompt() -> SpecialPrompt:
    config = GameConfig(2, "anniversary")
    game = AnniversaryGame.from_position(
        config,
        rows=[[5, 9, 12, 16, 20], [7, 18], [40], [60]],
        hands=[[22, 1], [90, 91]],
        specials=[[Special.STOP, Special.STOP, Special.SEVEN_NIMMT], []],
    )
    game.pick(0, 22)
    game.pick(1, 90)
    table = Table(
        1,
        1,
        1,
        host_id=1,
        options=TableOptions(variant="anniversary"),
        seats=[Seat(1, "alice"), Seat(2, "bob")],
        game=game,
    )
    plays = [a for a in game.legal_actions(0) if hasattr(a, "special")]
    return SpecialPrompt(table, 0, game.view(0), game.phase, game.preview_placement(22), plays, special_outlook(game))


def _plain(text: str) -> str:
    """Markdown's stars and the emoji (but the bullhead) taken out."""
    text = re.sub(r"\d\uFE0F?\u20E3", "", text)  # keycaps such as 7️⃣
    text = re.sub(r"[\u2600-\u27ff\U0001F300-\U0001FAFF\uFE0F](?<!🐮)", "", text).replace("**", "")
    return re.sub(r"  +", " ", text).lstrip()


def _text(draw: ImageDraw.ImageDraw, image: Image.Image, xy, text: str, face, fill) -> None:
    """``text`` with each 🐮 drawn as the table picture's bullhead."""
    x, y = xy
    size = face.size
    for i, part in enumerate(_plain(text).split(BULL)):
        if i:
            mask = _bull_mask(size).resize((size, size))
            image.paste(Image.new("RGB", mask.size, fill), (int(x), int(y + 2)), mask)
            x += size + 2
        draw.text((x, y), part, font=face, fill=fill)
        x += draw.textlength(part, font=face)


def _panel(title: str, content: str, view: discord.ui.View) -> Image.Image:
    body = font(18)
    lines = []
    for paragraph in content.split("\n"):
        words, line = paragraph.split(" "), ""
        for word in words:  # wrap to the panel's width
            trial = f"{line} {word}".strip()
            if line and body.getlength(_plain(trial)) > WIDTH - 2 * PAD:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    rows: dict[int, list] = {}
    for item in view.children:
        rows.setdefault(getattr(item, "row", None) or 0, []).append(item.item if hasattr(item, "item") else item)
    height = PAD * 2 + 30 + LINE * len(lines) + 50 * sum(len(r) for r in rows.values()) + 10
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title, font=font(15), fill=MUTED)
    y = PAD + 30
    for line in lines:
        _text(draw, image, (PAD, y), line, body, TEXT)
        y += LINE
    y += 10
    for _, items in sorted(rows.items()):
        for item in items:  # one button a line, so long labels stay readable
            label = _plain(item.label or "")
            box = (PAD, y, PAD + 24 + body.getlength(label), y + 40)
            draw.rounded_rectangle(box, radius=6, fill=STYLES.get(item.style, STYLES[discord.ButtonStyle.secondary]))
            _text(draw, image, (PAD + 12, y + 9), item.label or "", body, (255, 255, 255))
            y += 50
    return image


async def render(out: Path) -> None:
    prompt = demo_prompt()
    first = _panel(
        "Only you can see this · alice presses Decide", prompt_text(prompt, None, None), prompt_view(prompt, None)
    )
    stop = kind_choices(prompt, Special.STOP, None)
    second = _panel("… then Stop ×2…", kind_prompt_text(Special.STOP, None), choices_view(prompt, stop, None))
    image = Image.new("RGB", (WIDTH, first.height + second.height + 8), (30, 31, 34))
    image.paste(first, (0, 0))
    image.paste(second, (0, first.height + 8))
    image.save(out, optimize=True)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "anniversary_prompt.png"
    asyncio.run(render(out))
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
