"""Render the table (the rows of cards) as a PNG, the way the physical game looks.

Pure Pillow, no discord imports: ``render_table`` takes the rows as card
numbers and returns PNG bytes to attach to a message. Each card is a rounded
rectangle coloured by its bullheads like the real cards (1: white, 2: light
blue, 3: yellow, 5: red, 7: purple) so the expensive ones stand out, with the
number large in the middle and one small bull-head glyph per bullhead. Each
row shows its label, its special-card badges, empty slots up to the card that
takes it (that slot outlined in red) and its bullhead total.

Only the font Pillow ships (``ImageFont.load_default(size=...)``, Pillow 10.1+)
is used, so rendering works on a fresh machine without system fonts. Per-card
tiles, masks and fonts are cached, so a render is mostly pastes plus the PNG
encoding.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.tables.text import N_
from engine.cards import BULLHEADS, HIGHEST_CARD, ROW_LIMIT, total_bullheads

from .fonts import fitting_font

__all__ = [
    "CARD_COLOURS",
    "FELT",
    "WORDS",
    "MAX_ROWS",
    "bullhead_colour",
    "card_box",
    "image_size",
    "render_table",
]

Colour = tuple[int, int, int]

MAX_ROWS = 5  # four rows, plus the Anniversary 5th Row
MAX_SCALE = 4

# -- colours --------------------------------------------------------------------

#: Card face colour by bullheads, after the printed cards.
CARD_COLOURS: dict[int, Colour] = {
    1: (242, 240, 232),  # white
    2: (128, 190, 240),  # light blue
    3: (250, 192, 52),  # yellow/orange
    5: (226, 64, 58),  # red
    7: (168, 64, 204),  # purple/magenta
}
FELT: Colour = (22, 66, 44)  # opaque dark-green felt, readable on Discord's dark theme
_DARK_INK: Colour = (28, 28, 40)
_LIGHT_INK: Colour = (255, 255, 255)
_SLOT_LINE: Colour = (74, 128, 98)
_TAKE_LINE: Colour = (236, 72, 64)
_TAKE_FILL: Colour = (84, 30, 30)
_GLOW: Colour = (255, 220, 70)
_TEXT: Colour = (236, 242, 236)
_MUTED: Colour = (160, 196, 172)
_BADGES: dict[str, tuple[str, Colour, Colour]] = {
    # marker: (text, background, ink)
    "stop": (N_("STOP"), (200, 36, 36), _LIGHT_INK),
    "seven": (N_("7 nimmt!"), (150, 52, 186), _LIGHT_INK),
    "fifth": (N_("5th row"), (32, 128, 150), _LIGHT_INK),
}
#: Every English word drawn on the image: ``render_table(words=…)`` maps them to another language.
WORDS = (
    N_("Row {row}"),
    # Translators: drawn on the slot where a card takes the row: "takes" over "the row".
    N_("takes"),
    N_("the row"),
    # Translators: drawn under a row's bullhead total (a number), "bullhead" for 1. Where your
    # language's noun takes more forms than these two, use a label that reads right under any number.
    N_("bullheads"),
    # Translators: drawn under a row's bullhead total of 1.
    N_("bullhead"),
    *(text for text, _, _ in _BADGES.values()),
)
_OTHER_BADGE: tuple[Colour, Colour] = ((90, 96, 110), _LIGHT_INK)


def bullhead_colour(n: int) -> Colour:
    """The face colour of a card printed with ``n`` bullheads."""
    try:
        return CARD_COLOURS[n]
    except KeyError:
        raise ValueError(f"no card carries {n} bullheads") from None


def _shade(c: Colour, f: float) -> Colour:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


def _ink(n: int) -> Colour:
    return _LIGHT_INK if n >= 5 else _DARK_INK


# -- layout (scale 1; everything is multiplied by ``scale``) -------------------

_MARGIN = 14
_LABEL_W = 92  # "Row 1" and the badges under it
_CARD_W = 78
_CARD_H = 106
_RADIUS = 9
_BORDER = 2
_GAP = 10  # between slots
_GLOW_PAD = 8  # how far a highlight glows around its card
_TOTAL_W = 92
_ROW_GAP = 12
_SS = 4  # supersampling for anti-aliased shapes


def _slots(cards: Sequence[int], capacity: int) -> int:
    """Slots drawn for a row: its places plus the one that takes it."""
    return max(capacity + 1, len(cards))


def image_size(rows: int, slots: int = ROW_LIMIT + 1, scale: int = 1) -> tuple[int, int]:
    """(width, height) of a table of ``rows`` rows at most ``slots`` slots wide."""
    w = 2 * _MARGIN + _LABEL_W + slots * (_CARD_W + _GAP) + _TOTAL_W
    h = 2 * _MARGIN + rows * _CARD_H + max(rows - 1, 0) * _ROW_GAP
    return w * scale, h * scale


def card_box(row: int, slot: int, scale: int = 1) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1), exclusive end, of the card at ``row``/``slot`` (0-based)."""
    x = _MARGIN + _LABEL_W + slot * (_CARD_W + _GAP)
    y = _MARGIN + row * (_CARD_H + _ROW_GAP)
    return x * scale, y * scale, (x + _CARD_W) * scale, (y + _CARD_H) * scale


# -- cached building blocks ----------------------------------------------------


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=64)
def _rounded_mask(w: int, h: int, r: int, inset: int = 0) -> Image.Image:
    """An anti-aliased mask of a w×h rounded rectangle, shrunk by ``inset`` on each side."""
    big = Image.new("L", (w * _SS, h * _SS), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (inset * _SS, inset * _SS, (w - inset) * _SS - 1, (h - inset) * _SS - 1),
        radius=max(r - inset, 1) * _SS,
        fill=255,
    )
    return big.resize((w, h), Image.Resampling.BOX)


@lru_cache(maxsize=16)
def _ring_mask(w: int, h: int, r: int, width: int, inset: int = 0) -> Image.Image:
    """An anti-aliased outline of a rounded rectangle, ``width`` thick."""
    big = Image.new("L", (w * _SS, h * _SS), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (inset * _SS, inset * _SS, (w - inset) * _SS - 1, (h - inset) * _SS - 1),
        radius=max(r - inset, 1) * _SS,
        outline=255,
        width=width * _SS,
    )
    return big.resize((w, h), Image.Resampling.BOX)


@lru_cache(maxsize=16)
def _bull_mask(size: int) -> Image.Image:
    """A small bull's head (horns, face, muzzle, eyes cut out), ``size`` px square."""
    n = size * _SS
    big = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(big)

    def p(x: float, y: float) -> tuple[float, float]:
        return x * n, y * n

    # horns: a curved crescent each side, rising from the brow
    for side in (-1, 1):
        cx = 0.5 + side * 0.18
        d.polygon(
            [
                p(cx, 0.40),
                p(0.5 + side * 0.44, 0.30),
                p(0.5 + side * 0.49, 0.02),
                p(0.5 + side * 0.36, 0.24),
                p(cx - side * 0.04, 0.26),
            ],
            fill=255,
        )
    # ears
    for side in (-1, 1):
        d.ellipse((*p(0.5 + side * 0.38 - 0.12, 0.34), *p(0.5 + side * 0.38 + 0.12, 0.50)), fill=255)
    # face and muzzle
    d.ellipse((*p(0.26, 0.22), *p(0.74, 0.80)), fill=255)
    d.ellipse((*p(0.22, 0.58), *p(0.78, 1.0)), fill=255)
    # eyes and nostrils cut out
    for side in (-1, 1):
        d.ellipse((*p(0.5 + side * 0.12 - 0.05, 0.40), *p(0.5 + side * 0.12 + 0.05, 0.50)), fill=0)
        d.ellipse((*p(0.5 + side * 0.13 - 0.05, 0.76), *p(0.5 + side * 0.13 + 0.05, 0.86)), fill=0)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def _glow_mask(scale: int) -> Image.Image:
    tw, th = (_CARD_W + 2 * _GLOW_PAD) * scale, (_CARD_H + 2 * _GLOW_PAD) * scale
    m = Image.new("L", (tw, th), 0)
    grow = 4
    inner = _rounded_mask((_CARD_W + 2 * grow) * scale, (_CARD_H + 2 * grow) * scale, (_RADIUS + grow) * scale)
    m.paste(inner, ((_GLOW_PAD - grow) * scale, (_GLOW_PAD - grow) * scale))
    m = m.filter(ImageFilter.GaussianBlur(2 * scale))
    # keep the glow solid right at the card's edge, fading beyond it
    return m.point(lambda v: min(255, v * 2))


# Pip rows (top to bottom) for each bullhead count: a pyramid like the cards.
_PIP_ROWS: dict[int, tuple[int, ...]] = {1: (1,), 2: (2,), 3: (3,), 5: (3, 2), 7: (4, 3)}


@lru_cache(maxsize=1024)
def _text_mask(
    text: str, anchor: str, size: int, language: str | None = None, width: int | None = None
) -> tuple[Image.Image, int, int]:
    """``text`` as an anti-aliased mask, and where the mask's corner lies from the point the text is
    anchored at. A row's label, its total and its unit repeat from one picture to the next: drawn
    once, each is pasted in its colour, where drawing the glyphs again was half of a picture's
    drawing. In ``language``'s word face shrunk to fit ``width``, or else in the figures' face."""
    font = _font(size) if language is None or width is None else fitting_font(language, text, size, width)
    left, top, right, bottom = (int(edge) for edge in font.getbbox(text, anchor=anchor))  # whole pixels here
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    return mask, left, top


def _text_centre(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font, fill, **kw) -> None:
    draw.text(xy, text, font=font, fill=fill, anchor="mm", **kw)


@lru_cache(maxsize=MAX_SCALE * (HIGHEST_CARD + 1))
def _card_tile(card: int, scale: int) -> Image.Image:
    """One card face, card-sized; paste it through ``_card_mask``. Never mutated."""
    s = scale
    cw, ch = _CARD_W * s, _CARD_H * s
    n = BULLHEADS[card]
    face = CARD_COLOURS[n]
    ink = _ink(n)
    tile = Image.new("RGB", (cw, ch), _shade(face, 0.55))
    tile.paste(face, (0, 0), _rounded_mask(cw, ch, _RADIUS * s, _BORDER * s))
    # a thin inner frame, like the printed cards
    frame = _shade(face, 0.82) if n < 5 else _shade(face, 1.25 if n == 5 else 1.3)
    tile.paste(frame, (0, 0), _ring_mask(cw, ch, _RADIUS * s, s, 5 * s))

    # one bull head per bullhead across the top, in a small pyramid
    bull, step = 12 * s, 14 * s
    for i, count in enumerate(_PIP_ROWS[n]):
        y = 9 * s + i * (bull + s)
        x0 = (cw - (count - 1) * step - bull) // 2
        for k in range(count):
            tile.paste(ink, (x0 + k * step, y), _bull_mask(bull))

    d = ImageDraw.Draw(tile)
    text = str(card)
    size = (34 if card < 100 else 30) * s
    _text_centre(d, (cw / 2, ch * 0.64), text, _font(size), ink, stroke_width=max(1, s // 2), stroke_fill=ink)
    small = _font(11 * s)
    d.text((8 * s, ch - 7 * s), text, font=small, fill=ink, anchor="ls")
    d.text((cw - 8 * s, ch - 7 * s), text, font=small, fill=ink, anchor="rs")
    return tile


def _card_mask(scale: int) -> Image.Image:
    return _rounded_mask(_CARD_W * scale, _CARD_H * scale, _RADIUS * scale)


@lru_cache(maxsize=4 * MAX_SCALE)
def _slot_tile(
    take: bool, full: bool, scale: int, takes: str = "takes", the_row: str = "the row", language: str = "en"
) -> Image.Image:
    """An empty place in a row, card-sized.

    ``take`` marks the place whose card takes the row; ``full`` (the row is
    full, so the next card to it takes it) fills that place dark red.
    """
    s = scale
    cw, ch = _CARD_W * s, _CARD_H * s
    tile = Image.new("RGB", (cw, ch), FELT)
    if take:
        if full:
            tile.paste(_TAKE_FILL, (0, 0), _rounded_mask(cw, ch, _RADIUS * s))
        tile.paste(_TAKE_LINE, (0, 0), _ring_mask(cw, ch, _RADIUS * s, 2 * s))
        d = ImageDraw.Draw(tile)
        tile.paste(_TAKE_LINE, (cw // 2 - 9 * s, 24 * s), _bull_mask(18 * s))
        room = cw - 8 * s
        _text_centre(d, (cw / 2, ch * 0.64), takes, fitting_font(language, takes, 16 * s, room), _TAKE_LINE)
        _text_centre(d, (cw / 2, ch * 0.80), the_row, fitting_font(language, the_row, 12 * s, room), _TAKE_LINE)
    else:
        tile.paste(_SLOT_LINE, (0, 0), _ring_mask(cw, ch, _RADIUS * s, s))
    return tile


@lru_cache(maxsize=64)
def _badge(marker: str, scale: int, words: tuple[tuple[str, str], ...] = (), language: str = "en") -> Image.Image:
    text, bg, ink = _BADGES.get(marker, (marker[:12], *_OTHER_BADGE))
    text = dict(words).get(text, text) if marker in _BADGES else text
    s = scale
    font = fitting_font(language, text, 12 * s, (_LABEL_W - 14) * s)
    left, _, right, _ = font.getbbox(text)
    w, h = int(right - left) + 14 * s, 18 * s  # whole pixels (a TrueType box is whole already)
    img = Image.new("RGB", (w, h), FELT)
    img.paste(bg, (0, 0), _rounded_mask(w, h, h // 2))
    _text_centre(ImageDraw.Draw(img), (w / 2, h / 2 + s / 2), text, font, ink)
    return img


# -- the table -----------------------------------------------------------------


def _validate(rows: Sequence[Sequence[int]], markers, scale: int) -> list[tuple[str, ...]]:
    if not 1 <= len(rows) <= MAX_ROWS:
        raise ValueError(f"a table has 1 to {MAX_ROWS} rows, not {len(rows)}")
    if not isinstance(scale, int) or not 1 <= scale <= MAX_SCALE:
        raise ValueError(f"scale must be an integer from 1 to {MAX_SCALE}")
    for row in rows:
        for c in row:
            if not isinstance(c, int) or not 1 <= c <= HIGHEST_CARD:
                raise ValueError(f"there is no card {c!r}: cards run from 1 to {HIGHEST_CARD}")
    if markers is None:
        return [()] * len(rows)
    if len(markers) != len(rows):
        raise ValueError(f"markers gives {len(markers)} rows for a table of {len(rows)}")
    return [tuple(m) if not isinstance(m, str) else (m,) for m in markers]


def render_table(
    rows: Sequence[Sequence[int]],
    *,
    markers: Sequence[Sequence[str]] | None = None,
    capacities: Sequence[int] | None = None,
    totals: Sequence[int] | None = None,
    highlight: set[int] | None = None,
    scale: int = 1,
    words: Mapping[str, str] | None = None,
    language: str = "en",
) -> bytes:
    """The rows of cards as PNG bytes.

    ``markers[i]`` lists badges for row ``i``: ``"stop"`` (a Stop card blocks
    it), ``"seven"`` (a 7 nimmt! lies there), ``"fifth"`` (the Anniversary 5th
    Row); other strings are shown as plain badges. ``capacities[i]`` is how
    many cards row ``i`` holds before the next one takes it, as the engine
    says (default ``ROW_LIMIT``; six under a 7 nimmt!). ``totals[i]`` is row
    ``i``'s bullheads as the view counts them (default: the engine's count of
    its cards). ``highlight`` holds the cards placed this turn, drawn
    with a glowing border. ``scale`` multiplies every dimension (2 for
    sharper images on high-density screens). ``words`` maps the English
    ``WORDS`` to the reader's language, whose catalog ``language`` names (the face its script is
    drawn in, ``cogs.render.fonts``).
    """
    return _encode(_draw(rows, markers, capacities, totals, highlight, scale, words or {}, language))


def _draw(
    rows: Sequence[Sequence[int]],
    markers: Sequence[Sequence[str]] | None,
    capacities: Sequence[int] | None,
    totals: Sequence[int] | None,
    highlight: set[int] | None,
    scale: int,
    words: Mapping[str, str],
    language: str,
) -> Image.Image:
    """The picture ``render_table`` encodes."""
    marks = _validate(rows, markers, scale)
    badge_words = tuple(sorted(words.items()))  # hashable, for the cached badges

    def word(text: str) -> str:
        return words.get(text, text)

    def put_text(xy: tuple[int, int], text: str, colour: Colour, anchor: str, size: int, width: int | None = None):
        mask, dx, dy = _text_mask(text, anchor, size, language if width is not None else None, width)
        img.paste(colour, (xy[0] + dx, xy[1] + dy), mask)

    hl = highlight or set()
    s = scale
    if capacities is not None and len(capacities) != len(rows):
        raise ValueError(f"capacities gives {len(capacities)} rows for a table of {len(rows)}")
    slots = [_slots(r, c) for r, c in zip(rows, capacities or [ROW_LIMIT] * len(rows), strict=True)]
    if totals is not None and len(totals) != len(rows):
        raise ValueError(f"totals gives {len(totals)} rows for a table of {len(rows)}")
    totals = totals if totals is not None else [total_bullheads(r) for r in rows]
    width, height = image_size(len(rows), max(slots), s)
    img = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(img)
    pad = _GLOW_PAD * s
    glow, card_mask = _glow_mask(s), _card_mask(s)
    total_x = width - _MARGIN * s - _TOTAL_W * s // 2

    for i, (row, m, n_slots, total) in enumerate(zip(rows, marks, slots, totals, strict=True)):
        x0, y0, _, y1 = card_box(i, 0, s)
        # label and badges
        lx = _MARGIN * s
        put_text((lx, y0 + 6 * s), word("Row {row}").format(row=i + 1), _TEXT, "lt", 20 * s, (_LABEL_W - 6) * s)
        by = y0 + 36 * s
        for marker in m:
            badge = _badge(marker, s, badge_words, language)
            img.paste(badge, (lx, by))
            by += badge.height + 5 * s
        # cards (a glow behind those just placed), the empty places, the place that takes it
        take_at = n_slots - 1
        for k in range(n_slots):
            bx, by_, _, _ = card_box(i, k, s)
            if k < len(row):
                if row[k] in hl:
                    img.paste(_GLOW, (bx - pad, by_ - pad), glow)
                img.paste(_card_tile(row[k], s), (bx, by_), card_mask)
            else:
                tile = _slot_tile(k == take_at, len(row) >= take_at, s, word("takes"), word("the row"), language)
                img.paste(tile, (bx, by_))
        # the row's bullhead total
        cy = (y0 + y1) // 2
        colour = _TEXT if total < 10 else ((255, 206, 84) if total < 20 else (255, 110, 96))
        bull = 22 * s
        img.paste(colour, (total_x - bull // 2, cy - 36 * s), _bull_mask(bull))
        put_text((total_x, cy + 4 * s), str(total), colour, "mm", 30 * s)
        unit = word("bullheads") if total != 1 else word("bullhead")
        put_text((total_x, cy + 30 * s), unit, _MUTED, "mm", 12 * s, (_TOTAL_W - 8) * s)
        # a faint rule between the cards and the total
        rx = total_x - _TOTAL_W * s // 2 + 2 * s
        draw.line((rx, y0 + 10 * s, rx, y1 - 10 * s), fill=_SLOT_LINE, width=max(1, s))

    return img


#: Colours of large flat areas, kept exact through palette reduction.
_EXACT: tuple[Colour, ...] = (
    FELT,
    *CARD_COLOURS.values(),
    _DARK_INK,
    _LIGHT_INK,
    _GLOW,
    _TAKE_LINE,
    _SLOT_LINE,
    _TEXT,
    _TAKE_FILL,
)


def _encode(img: Image.Image) -> bytes:
    """PNG bytes of ``img``, in the 256-colour palette of ``_palette``.

    The table is flat colours plus anti-aliased edges, so a palette loses
    nothing visible while making the file about a third the size. Mapping to a
    palette made once takes a fifth of the time of finding one for each picture
    (the octree search was most of a render).
    """
    q = img.quantize(palette=_palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


_SNAP = 6  # how far (in any channel) a palette entry next to a flat colour may lie before it becomes it


def _apart(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """How far two colours lie apart in their most different channel."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The palette every picture is drawn in: found once in a sample table that holds every colour a
    picture can hold (each card colour, plain and glowing, every badge, the three colours of a total,
    the take slot), its large flat colours snapped back to exact."""
    every_card = [[1, 2, 3, 4], [5, 11, 55, 10], [21, 33, 44, 97], [66, 77, 88, 99], [15, 25, 35, 45]]
    sample = _draw(
        every_card,
        [["stop"], ["seven"], ["fifth"], ["custom"], []],
        [5, 6, 5, 5, 5],
        [4, 15, 31, 9, 0],
        {2, 55, 44, 77, 25},
        1,
        {},
        "en",
    )
    q = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal = q.getpalette() or []
    pal += [0] * (768 - len(pal))
    entries = [tuple(pal[j : j + 3]) for j in range(0, 768, 3)]
    for c in _EXACT:
        if c not in entries:  # the nearest entry that is no flat colour itself becomes it
            j = min((j for j, e in enumerate(entries) if e not in _EXACT), key=lambda j: _apart(entries[j], c))
            pal[3 * j : 3 * j + 3] = c
            entries[j] = c
    # Pillow maps a colour to the palette through a cache of small colour boxes: an entry next to a
    # flat colour could take that colour's box, so such entries become the nearest flat colour.
    for j, e in enumerate(entries):
        if e in _EXACT:
            continue
        near = min(_EXACT, key=lambda c: _apart(e, c))
        if _apart(e, near) <= _SNAP:
            pal[3 * j : 3 * j + 3] = near
    palette = Image.new("P", (1, 1))
    palette.putpalette(pal)
    return palette
