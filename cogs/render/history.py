"""A finished game's files for ``/6nimmt history``: its log as JSON and as text, and its score chart.

One function that a worker process runs (``game_files``): replaying a long game
for the text and drawing the chart would otherwise hold the event loop, and
every table's clicks with it.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.tables.records import GameExport, export_game, round_points_of
from data.models import DELETED_PLAYER_NAME, GameLog, forgotten

from .chart import render_score_chart
from .specials import narrate_special


def narrate_for_log(events: list, i: int, name) -> tuple[str | None, int]:
    """The exported log tells special cards as the table did (in English: it is a record)."""
    return narrate_special(events, i, name, None)


def game_files(log: GameLog, chart_words: Mapping[str, str], language: str = "en") -> tuple[GameExport, bytes | None]:
    """The game's export, and its score chart (None for a game without a finished round).

    ``chart_words`` holds the reader's words for the chart, and for a forgotten player's name."""
    export = export_game(log, narrate=narrate_for_log)
    points = round_points_of(log)
    deleted = chart_words.get(DELETED_PLAYER_NAME, DELETED_PLAYER_NAME)
    names = [deleted if forgotten(seat) else seat.display_name for seat in log.seats]
    chart = render_score_chart(names, points, chart_words, language) if points is not None else None
    return export, chart
