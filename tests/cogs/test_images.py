"""The table image: a valid, small, deterministic PNG with the cards where and how they should be."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.i18n import tr
from cogs.render.images import (
    _EXACT,
    CARD_COLOURS,
    FELT,
    WORDS,
    _encode,
    bullhead_colour,
    card_box,
    image_size,
    render_table,
)

FOUR = [[5], [17, 18], [33, 34, 35, 36], [66]]
FIVE = [[3, 12, 25, 55, 60], [44, 77], [8, 10, 22, 31, 40, 41], [90], [100, 101, 102, 103, 104]]
FIVE_MARKERS = [["stop"], [], ["seven"], [], ["fifth"]]
FIVE_CAPACITIES = [5, 5, 6, 5, 5]  # the engine's: the 7 nimmt! row holds six


def _open(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")


def _inside(row: int, slot: int, scale: int = 1) -> tuple[int, int]:
    """A point on the card's plain face: left of the number, below the bull heads."""
    x0, y0, x1, y1 = card_box(row, slot, scale)
    return x0 + 7 * scale, (y0 + y1) // 2


def test_four_rows_is_a_small_png_of_the_expected_size():
    png = render_table(FOUR)
    img = _open(png)
    assert img.size == image_size(4)
    assert 600 <= img.width <= 1000 and 300 <= img.height <= 700
    assert len(png) <= 150_000
    assert img.getpixel((1, 1)) == FELT


def test_five_rows_with_a_seven_nimmt_row_is_wider_and_taller():
    four, five = _open(render_table(FOUR)), _open(render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES))
    assert five.height > four.height
    assert five.width > four.width  # the 7 nimmt! row has a seventh (taking) place
    assert five.width <= 1000


@pytest.mark.parametrize("slot, card", [(0, 3), (2, 25), (3, 55), (4, 60)])
def test_cards_are_coloured_by_bullheads(slot, card):
    img = _open(render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES))
    bulls = {3: 1, 25: 2, 55: 7, 60: 3}[card]
    assert img.getpixel(_inside(0, slot)) == bullhead_colour(bulls)


def test_the_55_is_purple_and_a_doublet_red():
    img = _open(render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES, highlight={55}))
    assert img.getpixel(_inside(0, 3)) == CARD_COLOURS[7]
    assert img.getpixel(_inside(1, 0)) == CARD_COLOURS[5]  # 44
    assert img.getpixel(_inside(1, 3)) == FELT  # an empty place


def test_colours_hold_at_scale_two():
    img = _open(render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES, scale=2))
    assert img.size == image_size(5, 7, 2)
    assert img.getpixel(_inside(0, 3, 2)) == CARD_COLOURS[7]


def test_highlight_glows_around_the_card():
    plain = _open(render_table(FOUR))
    lit = _open(render_table(FOUR, highlight={18}))
    x0, y0, x1, y1 = card_box(1, 1)
    beside = (x1 + 2, (y0 + y1) // 2)  # just right of the card, in the gap
    assert plain.getpixel(beside) == FELT
    r, g, b = lit.getpixel(beside)
    assert r > 150 and g > 150 and b < 120  # gold, not felt
    assert lit.getpixel(_inside(1, 1)) == plain.getpixel(_inside(1, 1))


def test_different_inputs_give_different_images():
    images = {
        render_table(FOUR),
        render_table([[5], [17, 18], [33, 34, 35, 36, 37], [66]]),
        render_table(FOUR, highlight={66}),
        render_table(FOUR, markers=[["stop"], [], [], []]),
        render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES),
        render_table(FIVE, markers=[[], [], ["seven"], [], ["fifth"]], capacities=FIVE_CAPACITIES),
    }
    assert len(images) == 6


def test_rendering_is_deterministic():
    a = render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES, highlight={55, 104})
    render_table(FOUR, highlight={5})  # caches warmed by something else in between
    b = render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES, highlight={55, 104})
    assert a == b


def test_full_and_empty_rows_render():
    full = [[1, 2, 3, 4, 5], [10, 20, 30, 40, 50], [11, 22, 33, 44, 55], [96, 97, 98, 99, 104]]
    img = _open(render_table(full, highlight=set(range(1, 105))))
    assert img.size == image_size(4)
    _open(render_table([[], [7], [], []], markers=[["custom"], [], ["seven", "stop"], []]))


@pytest.mark.parametrize(
    "rows, kwargs",
    [
        ([], {}),
        ([[1]] * 6, {}),
        ([[0], [1], [2], [3]], {}),
        ([[105], [1], [2], [3]], {}),
        (FOUR, {"markers": [[]] * 3}),
        (FOUR, {"scale": 0}),
    ],
)
def test_bad_input_is_refused(rows, kwargs):
    with pytest.raises(ValueError):
        render_table(rows, **kwargs)


def test_bullhead_colour_rejects_counts_no_card_has():
    with pytest.raises(ValueError):
        bullhead_colour(4)


def test_the_words_on_the_image_follow_the_given_language():
    english = render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES)
    assert (
        render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES, words={word: word for word in WORDS})
        == english
    )
    german = {word: tr("de", word) for word in WORDS}
    assert german["takes"] == "nimmt" and german["Row {row}"] == "Reihe {row}"
    assert render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES, words=german) != english
    # Only the words differ: same size, same cards.
    assert (
        _open(render_table(FIVE, markers=FIVE_MARKERS, capacities=FIVE_CAPACITIES, words=german)).size
        == _open(english).size
    )


def test_every_flat_colour_survives_the_palette_exactly():
    """Each flat colour of the picture (the felt, the card faces, the inks, the text) comes out of
    the palette as itself, however near another it lies (the text's and a white card's do)."""
    blocks = Image.new("RGB", (8 * len(_EXACT), 8))
    for i, colour in enumerate(_EXACT):
        blocks.paste(colour, (8 * i, 0, 8 * i + 8, 8))
    out = _open(_encode(blocks))
    assert [out.getpixel((8 * i + 4, 4)) for i in range(len(_EXACT))] == list(_EXACT)
