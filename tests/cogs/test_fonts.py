"""The pictures' words are drawn in a face that has every character of every language's words."""

from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from cogs.i18n import languages, tr
from cogs.render.chart import CHART_WORDS, render_score_chart
from cogs.render.fonts import face_of, fitting_font
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
    faces = {language: face_of(language).name for language in ("ja", "ko", "zh_CN", "fr", "ru", "en")}
    assert len({faces["ja"], faces["ko"], faces["zh_CN"]}) == 3
    assert faces["fr"] == faces["ru"] == faces["en"] == "NotoSans-words.ttf"
    assert "Ж" not in "".join(WORDS) and ord("Ж") in TTFont(face_of("ru")).getBestCmap()


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
