"""The score chart: each player's bullheads added up round by round, as a PNG.

Pure Pillow like ``images.render_table`` (no discord imports): the final
standings and ``/6nimmt history`` attach it. Lines are drawn without
anti-aliasing in fixed colours, one per seat, so the picture stays flat and
small and each player's line can be found by its colour; the legend repeats
every name with its total, so the chart reads without telling colours apart.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.tables.text import N_

from .fonts import fitting_font, word_font
from .images import FELT, _font

__all__ = ["CHART_WORDS", "LINE_COLOURS", "chart_size", "render_score_chart"]

Colour = tuple[int, int, int]

#: One colour per seat (the variants seat at most ten), apart from the felt and from each other.
LINE_COLOURS: tuple[Colour, ...] = (
    (255, 99, 71),
    (100, 181, 246),
    (255, 213, 79),
    (129, 212, 132),
    (206, 120, 220),
    (255, 255, 255),
    (255, 160, 40),
    (77, 208, 225),
    (240, 98, 146),
    (174, 213, 129),
)
_GRID: Colour = (52, 102, 76)
_AXIS: Colour = (160, 196, 172)
_TEXT: Colour = (236, 242, 236)

#: Every English word drawn on the chart: ``render_score_chart(words=…)`` maps them to another language.
CHART_WORDS = (N_("Bullheads after each round"), N_("Round {round}"))

_W, _H = 720, 400  # the plot area
_LEFT, _TOP, _BOTTOM = 56, 44, 40  # margins: axis labels, title, round labels
_LEGEND_W = 220
_LINE_W = 4


def chart_size(players: int) -> tuple[int, int]:
    """(width, height) of a chart of ``players`` players."""
    legend_h = _TOP + players * 26 + 16
    return _LEFT + _W + _LEGEND_W, max(_TOP + _H + _BOTTOM, legend_h)


def _nice_step(top: int) -> int:
    """A grid step of 1, 2 or 5 × 10ⁿ giving four to ten lines up to ``top``."""
    step = 1
    while top / step > 10:
        for factor in (2, 5 / 2, 2):
            step = round(step * factor)
            if top / step <= 10:
                break
    return step


def _drawable(name: str, seat: int) -> str:
    """``name`` in what the built-in font draws (ASCII: "Jürgen" → "Jurgen", no emoji), ≤ 18 characters."""
    plain = unicodedata.normalize("NFKD", name.replace("ß", "ss"))
    kept = " ".join("".join(ch for ch in plain if " " <= ch <= "~").split())
    kept = kept or f"#{seat + 1}"
    return kept if len(kept) <= 18 else kept[:16] + "..."


def render_score_chart(
    names: Sequence[str],
    round_points: Sequence[Sequence[int]],
    words: Mapping[str, str] | None = None,
    language: str = "en",
) -> bytes:
    """PNG bytes: for seat ``p`` (named ``names[p]``), a line through its running total after each round.

    ``round_points[p][r]`` is what seat ``p`` took in round ``r + 1`` (as a
    ``SeatResult``'s ``round_points``); every seat has the same number of rounds.
    ``words`` maps the English of ``CHART_WORDS`` to the reader's language, whose catalog
    ``language`` names (the face its script is drawn in).
    """
    players = len(names)
    if players == 0 or players != len(round_points) or players > len(LINE_COLOURS):
        raise ValueError(f"a chart needs one list of round points for each of 1–{len(LINE_COLOURS)} names")
    rounds = len(round_points[0])
    if rounds == 0 or any(len(points) != rounds for points in round_points):
        raise ValueError("every player needs the points of the same rounds, at least one")

    def word(text: str) -> str:
        return (words or {}).get(text, text)

    totals = []
    for points in round_points:
        running, line = 0, [0]
        for taken in points:
            running += taken
            line.append(running)
        totals.append(line)
    top = max(max(max(line) for line in totals), 1)
    step = _nice_step(top)
    top = -(-top // step) * step  # round the axis up to a whole step

    width, height = chart_size(players)
    img = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(img)
    small, title = _font(14), word("Bullheads after each round")
    draw.text((_LEFT, 12), title, font=fitting_font(language, title, 18, width - 2 * _LEFT), fill=_TEXT)
    round_font = word_font(language, 14)

    def x_at(r: int) -> int:
        return _LEFT + round(r * _W / rounds)

    def y_at(value: int) -> int:
        return _TOP + _H - round(value * _H / top)

    for value in range(0, top + 1, step):
        y = y_at(value)
        draw.line([(_LEFT, y), (_LEFT + _W, y)], fill=_GRID if value else _AXIS, width=1)
        draw.text((_LEFT - 8, y), str(value), font=small, fill=_AXIS, anchor="rm")
    draw.line([(_LEFT, _TOP), (_LEFT, _TOP + _H)], fill=_AXIS, width=1)
    label_every = max(1, -(-rounds // 10))
    for r in range(1, rounds + 1):
        if r % label_every == 0 or r == rounds:
            draw.text(
                (x_at(r), _TOP + _H + 8),
                word("Round {round}").format(round=r),
                font=round_font,
                fill=_AXIS,
                anchor="mt",
            )
    for p, line in enumerate(totals):
        colour = LINE_COLOURS[p]
        vertices = [(x_at(r), y_at(v)) for r, v in enumerate(line)]
        draw.line(vertices, fill=colour, width=_LINE_W, joint="curve")
        for x, y in vertices[1:]:
            draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)
    legend_x = _LEFT + _W + 24
    for p, name in enumerate(names):
        y = _TOP + p * 26
        draw.rectangle([legend_x, y + 3, legend_x + 14, y + 17], fill=LINE_COLOURS[p])
        draw.text(
            (legend_x + 22, y + 10), f"{_drawable(name, p)}: {totals[p][-1]}", font=small, fill=_TEXT, anchor="lm"
        )
    buffer = io.BytesIO()
    img.save(buffer, "PNG", optimize=False, compress_level=6)
    return buffer.getvalue()
