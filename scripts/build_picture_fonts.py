"""Cut the pictures' word faces down to the characters the catalogs draw (see cogs/render/fonts.py).

    python scripts/build_picture_fonts.py [--noto DIR] [--cjk FILE]

Run it after a catalog's picture words change (tests/cogs/test_fonts.py says when). The sources
are Noto Sans, Noto Sans Thai, Noto Sans Devanagari and Noto Sans CJK (OFL), e.g. Debian's
fonts-noto-core and fonts-noto-cjk; the subsetter and merger are fontTools'.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTCollection, TTFont

from cogs.i18n import languages, tr
from cogs.render.chart import CHART_WORDS
from cogs.render.fonts import CJK_FACES, FONTS, SHAPED_FACES, WORD_FACE, face_of
from cogs.render.images import WORDS

#: What the Noto Sans face always holds, whatever the catalogs say today: ASCII, Latin-1, Latin
#: Extended-A, Romanian's Ș and Ț (comma below), Vietnamese's letters (Ơ, Ư and Latin Extended
#: Additional's tones), Greek and Cyrillic, so a new catalog in one of those scripts rarely needs
#: a rebuild.
ALWAYS = (
    {
        chr(c)
        for r in ((0x20, 0x7F), (0xA0, 0x180), (0x1A0, 0x1A2), (0x1AF, 0x1B1), (0x218, 0x21C), (0x370, 0x3D0))
        for c in range(*r)
    }
    | {chr(c) for c in range(0x400, 0x460)}
    | {
        chr(c)
        for r in ((0x490, 0x492), (0x300, 0x305), (0x309, 0x30A), (0x323, 0x324), (0x1EA0, 0x1EFA))
        for c in range(*r)
    }
)
ASCII = {chr(c) for c in range(0x20, 0x7F)}
#: Noto Sans CJK's collection: the index of each face.
CJK_INDEX = {"ja": 0, "ko": 1, "zh": 2, "zh_TW": 3}
#: The sources of the shaped scripts' faces, by the face's language, and the block each holds
#: whole (a few kilobytes: a new word rarely needs a rebuild, and every cluster shapes the same).
SHAPED_SOURCES = {"th": "NotoSansThai-Regular.ttf", "hi": "NotoSansDevanagari-Regular.ttf"}
SHAPED_BLOCKS = {"th": range(0x0E01, 0x0E5C), "hi": range(0x0900, 0x0980)}


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
        wanted.setdefault(face_of(language), set(ASCII)).update(picture_text(language))
    cut(TTFont(args.noto, recalcTimestamp=False), wanted[FONTS / WORD_FACE], FONTS / WORD_FACE)
    collection = TTCollection(args.cjk, recalcTimestamp=False)  # the same bytes for the same characters
    for base, name in CJK_FACES.items():
        if FONTS / name in wanted:
            cut(collection.fonts[CJK_INDEX[base]], wanted[FONTS / name], FONTS / name)
    for language, name in SHAPED_FACES.items():
        wanted.setdefault(FONTS / name, set(ASCII)).update(chr(c) for c in SHAPED_BLOCKS[language])
        merged(args.noto.parent / SHAPED_SOURCES[language], args.noto, wanted[FONTS / name], FONTS / name)


def merged(script_source: Path, latin_source: Path, characters: set[str], out: Path) -> None:
    """A face of a script's letters (with its shaping rules) and Noto Sans's ASCII, as one font:
    Pillow draws a text in one face, and a row's label holds both ("แถว 3")."""
    with tempfile.TemporaryDirectory() as work:
        script, latin = Path(work) / "script.ttf", Path(work) / "latin.ttf"
        source = TTFont(script_source, recalcTimestamp=False)
        cut(source, {c for c in characters - ASCII if ord(c) in source.getBestCmap()}, script)
        cut(TTFont(latin_source, recalcTimestamp=False), characters & ASCII, latin)
        font = Merger().merge([str(script), str(latin)])  # the script's face first: its metrics and name
        font["head"].created = font["head"].modified = TTFont(script)["head"].modified
        font.recalcTimestamp = False  # the same bytes for the same characters
        font.save(out)
    print(f"{out.name}: merged, {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
