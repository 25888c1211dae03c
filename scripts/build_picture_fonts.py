"""Cut the pictures' word faces down to the characters the catalogs draw (see cogs/render/fonts.py).

    python scripts/build_picture_fonts.py [--noto DIR] [--cjk FILE]

Run it after a catalog's picture words change (tests/cogs/test_fonts.py says when). The sources
are Noto Sans and Noto Sans CJK (OFL), e.g. Debian's fonts-noto-core and fonts-noto-cjk; the
subsetter is fontTools' (``pip install fonttools``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from cogs.i18n import languages, tr
from cogs.render.chart import CHART_WORDS
from cogs.render.fonts import CJK_FACES, FONTS, WORD_FACE, face_of
from cogs.render.images import WORDS

#: What the Latin/Cyrillic face always holds, whatever the catalogs say today: ASCII, Latin-1,
#: Latin Extended-A and Cyrillic, so a new Latin or Cyrillic catalog rarely needs a rebuild.
ALWAYS = {chr(c) for r in ((0x20, 0x7F), (0xA0, 0x180), (0x400, 0x460), (0x490, 0x492)) for c in range(*r)}
#: Noto Sans CJK's collection: the index of each face.
CJK_INDEX = {"ja": 0, "ko": 1, "zh": 2}


def picture_text(language: str) -> str:
    return "".join(tr(language, word) for word in (*WORDS, *CHART_WORDS))


def cut(font: TTFont, characters: set[str], out: Path) -> None:
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False  # drawn at 12-40 px with anti-aliasing: hints add bytes, not legibility
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes={ord(c) for c in characters})
    subsetter.subset(font)
    font.save(out)
    print(f"{out.name}: {len(characters)} characters, {out.stat().st_size:,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--noto", type=Path, default=Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"))
    parser.add_argument("--cjk", type=Path, default=Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"))
    args = parser.parse_args()
    wanted: dict[Path, set[str]] = {FONTS / WORD_FACE: set(ALWAYS)}
    for language in ("en", *languages()):
        wanted.setdefault(face_of(language), {chr(c) for c in range(0x20, 0x7F)}).update(picture_text(language))
    cut(TTFont(args.noto, recalcTimestamp=False), wanted[FONTS / WORD_FACE], FONTS / WORD_FACE)
    collection = TTCollection(args.cjk, recalcTimestamp=False)  # the same bytes for the same characters
    for base, name in CJK_FACES.items():
        if FONTS / name in wanted:
            cut(collection.fonts[CJK_INDEX[base]], wanted[FONTS / name], FONTS / name)


if __name__ == "__main__":
    main()
