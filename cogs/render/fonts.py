"""The faces the pictures' words are drawn in, one per script, shipped with the bot.

Pillow's built-in font draws ASCII only: "Rangée", "Ряд" or "列" came out as boxes. The words
are drawn in Noto Sans (Latin, Cyrillic) and in Noto Sans CJK's Japanese, Korean or Simplified
Chinese face, each the way that market prints its characters. Each face is cut down to the
characters the catalogs' picture words use (``scripts/build_picture_fonts.py``; OFL, see
``fonts/OFL.txt``), a few kilobytes rather than the CJK font's 20 MB;
tests/cogs/test_fonts.py fails when a catalog's picture word needs a character a face lacks.

Thai and Devanagari are drawn in Noto Sans Thai and Noto Sans Devanagari, each merged with Noto
Sans's ASCII (a row's number, "7 nimmt!"). Their letters combine: a Thai vowel or tone mark sits
above or below its consonant, a Devanagari vowel sign may stand before the consonant it follows
in the text, and consonants join into conjuncts. Only a shaping engine places them, so words are
laid out with Pillow's Raqm layout (HarfBuzz, with FriBiDi), which Pillow's wheels bundle; its
basic layout draws the code points one after another, as a reader of those scripts would not
write them.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont, features

FONTS = Path(__file__).resolve().parent / "fonts"
#: A language's face, by its catalog (``zh_TW``) or else its language (``zh_CN`` → ``zh``), each in
#: the way its market prints the script; any other language: Noto Sans.
CJK_FACES = {
    "ja": "NotoSansCJKjp-words.otf",
    "ko": "NotoSansCJKkr-words.otf",
    "zh": "NotoSansCJKsc-words.otf",
    "zh_TW": "NotoSansCJKtc-words.otf",
}
#: Scripts whose letters combine, each face merged with Noto Sans's ASCII.
SHAPED_FACES = {"th": "NotoSansThai-words.ttf", "hi": "NotoSansDevanagari-words.ttf"}
WORD_FACE = "NotoSans-words.ttf"
#: Raqm where Pillow has it (its wheels do, with FriBiDi from the system), else the basic layout,
#: which cannot shape Thai or Devanagari.
LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
if LAYOUT is ImageFont.Layout.BASIC:
    logging.getLogger(__name__).warning(
        "Pillow has no Raqm layout (install FriBiDi: Debian's libfribidi0): Thai and Hindi picture words are unshaped"
    )


def face_of(language: str) -> Path:
    """The font file ``language``'s picture words are drawn in."""
    base = language.split("_", 1)[0]
    for key in (language, base):
        if key in CJK_FACES:
            return FONTS / CJK_FACES[key]
        if key in SHAPED_FACES:
            return FONTS / SHAPED_FACES[key]
    return FONTS / WORD_FACE


@lru_cache(maxsize=64)
def word_font(language: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(face_of(language)), size, layout_engine=LAYOUT)


def fitting_font(language: str, text: str, size: int, width: float) -> ImageFont.FreeTypeFont:
    """``language``'s word font at ``size``, or smaller until ``text`` fits ``width`` pixels (at
    least half the size: a longer word than that is a catalog's to shorten)."""
    font = word_font(language, size)
    while font.getlength(text) > width and size > 1 and font.size > size // 2:
        font = word_font(language, font.size - 1)
    return font
