"""The score chart: its size, one line per player in that player's colour, higher totals higher up."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.render.chart import LINE_COLOURS, chart_size, render_score_chart


def image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def rows_with(img: Image.Image, colour) -> list[int]:
    """The y of every pixel row holding ``colour`` (left of the legend)."""
    width, height = img.size
    pixels = img.load()
    return [y for y in range(height) if any(pixels[x, y] == colour for x in range(60, width - 230))]


def test_the_chart_has_its_size_and_a_line_for_each_player():
    names = ["alice", "bob", "🤖 Ada", "carol"]
    points = [[3, 10, 0], [12, 20, 30], [0, 0, 0], [7, 7, 7]]
    img = image(render_score_chart(names, points))
    assert img.size == chart_size(4)
    for p in range(4):
        assert rows_with(img, LINE_COLOURS[p]), f"no line for player {p}"
    assert not rows_with(img, LINE_COLOURS[4]), "only the seats' colours are drawn"
    # Bob (62 in all) ends highest, Ada (0) stays on the zero line at the bottom.
    assert (
        min(rows_with(img, LINE_COLOURS[1]))
        < min(rows_with(img, LINE_COLOURS[3]))
        < min(rows_with(img, LINE_COLOURS[2]))
    )
    ada = rows_with(img, LINE_COLOURS[2])
    assert max(ada) - min(ada) <= 10, "a player who took nothing draws a flat line"


def test_words_are_translated_and_bad_input_is_refused():
    english = render_score_chart(["a", "b"], [[1], [2]])
    german = render_score_chart(
        ["a", "b"],
        [[1], [2]],
        words={"Bullheads after each round": "Hornochsen je Runde", "Round {round}": "Runde {round}"},
    )
    assert english != german
    with pytest.raises(ValueError):
        render_score_chart(["a", "b"], [[1, 2], [2]])
    with pytest.raises(ValueError):
        render_score_chart(["a"], [[]])
    with pytest.raises(ValueError):
        render_score_chart([f"p{i}" for i in range(11)], [[1]] * 11)


def test_a_long_game_keeps_its_size():
    img = image(render_score_chart(["a", "b"], [[5] * 20, [1] * 20]))
    assert img.size == chart_size(2)
    assert rows_with(img, LINE_COLOURS[0]) and rows_with(img, LINE_COLOURS[1])
