"""The pictures' words are drawn in a face that has every character of every language's words."""

from __future__ import annotations

import io
import unicodedata

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

import cogs.render.fonts
from cogs.i18n import languages, tr
from cogs.render.chart import CHART_WORDS, render_score_chart
from cogs.render.fonts import face_of, fitting_font, word_font
from cogs.render.images import WORDS, render_table

ROWS = [[3, 17], [44], [55, 56, 57, 58, 59], [90]]


def missing(language: str) -> set[str]:
    cmap = TTFont(face_of(language)).getBestCmap()
    drawn = "".join(tr(language, word) for word in (*WORDS, *CHART_WORDS))
    return {char for char in drawn if ord(char) not in cmap}


@pytest.mark.parametrize("language", ["en", *languages()])
def test_every_picture_word_has_its_glyphs(language):
    """Fails after a catalog's picture words change: run scripts/build_picture_fonts.py."""
    assert missing(language) == set()


def test_each_cjk_language_has_its_own_face_and_the_rest_noto_sans():
    faces = {
        language: face_of(language).name
        for language in ("ja", "ko", "zh_CN", "zh_TW", "th", "hi", "fr", "ru", "el", "vi", "bg", "en")
    }
    assert len({faces["ja"], faces["ko"], faces["zh_CN"], faces["zh_TW"], faces["th"], faces["hi"]}) == 6
    assert (
        faces["fr"] == faces["ru"] == faces["el"] == faces["vi"] == faces["bg"] == faces["en"] == "NotoSans-words.ttf"
    )
    assert "Ж" not in "".join(WORDS) and ord("Ж") in TTFont(face_of("ru")).getBestCmap()
    words = TTFont(face_of("en")).getBestCmap()
    assert all(ord(char) in words for char in "ȘșȚțΩωΆƠơƯưệữ")  # Romanian, Greek, Vietnamese: any word


def test_a_face_without_a_character_is_found_out(monkeypatch):
    cmap = TTFont(face_of("fr")).getBestCmap()
    assert ord("行") not in cmap and ord("é") in cmap
    monkeypatch.setattr("tests.cogs.test_fonts.tr", lambda language, word: "行" + word)  # a word the face cannot draw
    assert missing("fr") == {"行"}


def test_a_long_word_is_drawn_smaller_to_fit():
    assert fitting_font("en", "Row 1", 20, 86).size == 20
    squeezed = fitting_font("en", "Reihenhornochsenzahl 5", 20, 150)
    assert 10 <= squeezed.size < 20 and squeezed.getlength("Reihenhornochsenzahl 5") <= 150
    assert fitting_font("en", "Reihenhornochsenzahl 5", 20, 20).size == 10  # never below half: shorten it


@pytest.mark.parametrize("language", ["en", *languages()])
def test_the_table_and_chart_draw_in_each_language(language):
    table = render_table(
        ROWS, markers=[["stop"], [], ["seven"], ["fifth"]], words={w: tr(language, w) for w in WORDS}, language=language
    )
    chart = render_score_chart(["Anna", "Ben"], [[3, 5], [7, 1]], {w: tr(language, w) for w in CHART_WORDS}, language)
    assert Image.open(io.BytesIO(table)).size[0] > 0 and Image.open(io.BytesIO(chart)).size[0] > 0


# ---------------------------------------------------------------------------- shaped scripts

#: Languages whose letters combine into clusters that only a shaping engine places.
SHAPED = ("th", "hi")
#: A cluster of each that comes out wrong unshaped: Devanagari's vowel sign i stands before the
#: consonant it follows in the text (कि), and a conjunct joins two consonants (क्त); Thai's tone mark
#: moves left of a tall consonant's stem and up over an upper vowel (ปั้น).
NEEDS_SHAPING = {"hi": ("कि", "क्ति"), "th": ("ปั้น",)}


def drawn(text: str, font: ImageFont.FreeTypeFont) -> Image.Image:
    image = Image.new("L", (40 * len(text) + 40, 90), 0)
    ImageDraw.Draw(image).text((10, 10), text, font=font, fill=255)
    return image


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def unshaped(language: str, words: list[str]) -> list[str]:
    """The words (those with a combining mark) that the bot's word font draws as the basic layout
    does, code point after code point, rather than as shaped by HarfBuzz."""
    face = str(face_of(language))
    shaped_font = ImageFont.truetype(face, 48, layout_engine=ImageFont.Layout.RAQM)
    basic_font = ImageFont.truetype(face, 48, layout_engine=ImageFont.Layout.BASIC)
    found = []
    for word in words:
        if not any(unicodedata.category(char) in ("Mn", "Mc") for char in word):
            continue
        bots = drawn(word, word_font(language, 48))
        if not same(bots, drawn(word, shaped_font)) or (
            not same(drawn(word, shaped_font), drawn(word, basic_font)) and same(bots, drawn(word, basic_font))
        ):
            found.append(word)
    return found


def test_pillow_shapes_text_here():
    """Raqm (HarfBuzz and FriBiDi) is what shapes: Pillow's wheels bundle it, FriBiDi comes from the system."""
    assert features.check("raqm"), "Pillow has no Raqm layout: install FriBiDi (Debian's libfribidi0)"


@pytest.mark.parametrize("language", [language for language in SHAPED if language in languages()])
def test_each_shaped_scripts_picture_words_come_out_shaped(language):
    words = [tr(language, word) for word in (*WORDS, *CHART_WORDS)]
    assert any(any(unicodedata.category(c) in ("Mn", "Mc") for c in word) for word in words)  # something to shape
    assert unshaped(language, words) == []


@pytest.mark.parametrize("language", SHAPED)
def test_a_cluster_drawn_unshaped_is_found_out(language, monkeypatch):
    """The clusters that need shaping: drawn by Raqm they differ from the basic layout, so a word font
    that lost its shaping fails the check above."""
    font = word_font(language, 48)
    cmap = TTFont(face_of(language)).getBestCmap()
    clusters = [c for c in NEEDS_SHAPING[language] if all(ord(char) in cmap for char in c)]
    assert clusters, f"the {language} face holds none of {NEEDS_SHAPING[language]}: rebuild the fonts"
    assert unshaped(language, clusters) == []
    monkeypatch.setattr(cogs.render.fonts, "LAYOUT", ImageFont.Layout.BASIC)
    word_font.cache_clear()
    try:
        assert font is not word_font(language, 48)
        assert unshaped(language, clusters) == clusters
    finally:
        monkeypatch.undo()
        word_font.cache_clear()
