"""The faces the pictures' words are drawn in, one per script, shipped with the bot.

Pillow's built-in font draws ASCII only: "Rangée", "Ряд" or "列" came out as boxes. The words
are drawn in Noto Sans (Latin, Cyrillic) and in Noto Sans CJK's Japanese, Korean or Simplified
Chinese face, each the way that market prints its characters. Each face is cut down to the
characters the catalogs' picture words use (``scripts/build_picture_fonts.py``; OFL, see
``fonts/OFL.txt``), a few kilobytes rather than the CJK font's 20 MB;
tests/cogs/test_fonts.py fails when a catalog's picture word needs a character a face lacks.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"
#: A language's face, by the language of its catalog (``zh_CN`` → ``zh``); any other: Noto Sans.
CJK_FACES = {"ja": "NotoSansCJKjp-words.otf", "ko": "NotoSansCJKkr-words.otf", "zh": "NotoSansCJKsc-words.otf"}
WORD_FACE = "NotoSans-words.ttf"


def face_of(language: str) -> Path:
    """The font file ``language``'s picture words are drawn in."""
    return FONTS / CJK_FACES.get(language.split("_", 1)[0], WORD_FACE)


@lru_cache(maxsize=64)
def word_font(language: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(face_of(language)), size)


def fitting_font(language: str, text: str, size: int, width: float) -> ImageFont.FreeTypeFont:
    """``language``'s word font at ``size``, or smaller until ``text`` fits ``width`` pixels (at
    least half the size: a longer word than that is a catalog's to shorten)."""
    font = word_font(language, size)
    while font.getlength(text) > width and size > 1 and font.size > size // 2:
        font = word_font(language, font.size - 1)
    return font
