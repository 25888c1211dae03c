"""A server's settings in words: short lines for the lobby, a full overview for the admin command."""

from __future__ import annotations

from bot.server_settings import FIELDS, ServerDefaults
from bot.tables.table import TURN_BASED_SECONDS
from cogs.i18n import N_, LocaleLike, language_name, language_of, tr
from cogs.render.text import AI_LEVELS


def pace_text(locale, pace: str) -> str:
    if pace == "live":
        return tr(locale, "live")
    return tr(locale, "turn-based, {hours} h a turn", hours=TURN_BASED_SECONDS[pace] // 3600)


def setting_line(locale, name: str, value: object) -> str:
    """One setting as a short phrase: "threads off", "AI level hard", "turn-based games off"."""
    if name == "threads":
        return tr(locale, "threads on") if value else tr(locale, "threads off")
    if name == "pace":
        return tr(locale, "pace: {pace}", pace=pace_text(locale, str(value)))
    if name == "turn_seconds":
        return tr(locale, "turn timer {seconds} s", seconds=value)
    if name == "ai_level":
        return tr(locale, "AI level {level}", level=tr(locale, AI_LEVELS[str(value)]))
    if name == "turn_based":
        return tr(locale, "turn-based games allowed") if value else tr(locale, "turn-based games off")
    if name == "language":
        return tr(locale, "language: {language}", language=language_name(str(value)))
    raise ValueError(f"no such setting: {name}")


def settings_lines(locale, differences: list[tuple[str, object]]) -> list[str]:
    """The settings where a server differs from the bot's defaults (``ServerSettingsBook.differences``),
    one short phrase each, in field order."""
    return [setting_line(locale, name, value) for name, value in differences]


_LABELS = {
    "threads": N_("Threads"),
    "pace": N_("Pace of a new game"),
    "turn_seconds": N_("Turn timer (live games)"),
    "ai_level": N_("AI level"),
    "turn_based": N_("Turn-based games"),
    "language": N_("Language of public messages"),
}


def _value(locale, name: str, value: object, discord_language: LocaleLike = None) -> str:
    if name == "threads":
        return tr(locale, "each game in a thread of its own") if value else tr(locale, "games in the channel")
    if name == "pace":
        return pace_text(locale, str(value))
    if name == "turn_seconds":
        return tr(locale, "{seconds} s", seconds=value)
    if name == "ai_level":
        return tr(locale, AI_LEVELS[str(value)])
    if name == "language":
        if value is None:
            return tr(
                locale,
                "the server's Discord language ({language})",
                language=language_name(language_of(discord_language)),
            )
        return language_name(str(value))
    return tr(locale, "allowed") if value else tr(locale, "not allowed")


def settings_overview(
    locale, settings: ServerDefaults, bot_defaults: ServerDefaults, discord_language: LocaleLike = None
) -> str:
    """Every setting on a line, those that differ from the bot's defaults marked, with the key
    (``discord_language``: the server's Discord language, which public messages follow unless it chose one)."""
    lines = []
    for name in FIELDS:
        value = getattr(settings, name)
        own = value != getattr(bot_defaults, name)
        line = f"**{tr(locale, _LABELS[name])}:** {_value(locale, name, value, discord_language)}"
        lines.append(f"{line} ✱" if own else line)
    lines.append("")
    lines.append(tr(locale, "✱ differs from the bot's defaults; the rest follow them."))
    return "\n".join(lines)
