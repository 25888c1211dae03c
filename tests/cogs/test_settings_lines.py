"""A server's differing settings as the lobby shows them, in English and German."""

from __future__ import annotations

import discord

from bot.server_settings import ServerDefaults
from cogs.render.settings import settings_lines, settings_overview

DIFFERENCES = [("threads", False), ("pace", "24h"), ("turn_seconds", 90), ("ai_level", "hard"), ("turn_based", False)]


def test_each_differing_setting_is_a_short_line_in_field_order():
    assert settings_lines("en-US", DIFFERENCES) == [
        "threads off",
        "pace: turn-based, 24 h a turn",
        "turn timer 90 s",
        "AI level hard",
        "turn-based games off",
    ]
    assert settings_lines("en-US", []) == []


def test_german():
    german = discord.Locale.german
    assert settings_lines(german, [("pace", "live"), ("ai_level", "easy")]) == ["Tempo: live", "KI-Stärke leicht"]
    assert settings_lines(german, [("threads", True), ("turn_based", True)]) == [
        "Threads an",
        "rundenbasierte Partien erlaubt",
    ]


def test_the_overview_marks_what_differs():
    bot = ServerDefaults(threads=True, pace="live", turn_seconds=60, ai_level="medium", turn_based=True)
    mine = ServerDefaults(threads=True, pace="1h", turn_seconds=60, ai_level="medium", turn_based=True)
    lines = settings_overview("en-US", mine, bot).splitlines()
    assert [line for line in lines if line.endswith("✱")] == ["**Pace of a new game:** turn-based, 1 h a turn ✱"]
    assert lines[-1].startswith("✱ differs from the bot's defaults")
