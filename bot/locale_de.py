"""German (``de``): the English text → its German text. See ``bot/i18n.py`` for how it is used.

Command and option names are translated too, short and lowercase (Discord's
rule ``^[-_\\p{L}\\p{N}]{1,32}$``), because a German client shows and completes
the localized names: ``/6nimmt eröffnen`` opens a table and ``/6nimmt beginnen``
begins the game, keeping that pair as distinct as start/begin. ``6nimmt`` is the
game's own name and stays. German messages that name a command use these names.
"""

#: Command, group and option names.
NAMES: dict[str, str] = {
    "6nimmt": "6nimmt",
    "6nimmt-admin": "6nimmt-admin",
    "start": "eröffnen",
    "join": "beitreten",
    "leave": "verlassen",
    "begin": "beginnen",
    "cancel": "abbrechen",
    "kick": "entfernen",
    "hand": "hand",
    "status": "status",
    "rules": "regeln",
    "stats": "statistik",
    "history": "verlauf",
    "forget-me": "vergiss-mich",
    "leaderboard": "rangliste",
    "sync": "synchronisieren",
    # options
    "variant": "variante",
    "target": "zielpunkte",
    "rounds": "runden",
    "timer": "zugzeit",
    "ai_players": "ki-spieler",
    "ai_level": "ki-stärke",
    "member": "mitglied",
    "scope": "bereich",
    "metric": "wertung",
    "min_games": "mindestspiele",
    "game": "partie",
}

#: Descriptions, choices and messages.
MESSAGES: dict[str, str] = {
    "…": "…",
    # /6nimmt (cogs/tables.py)
    "Play 6 nimmt! in this channel": "6 nimmt! in diesem Kanal spielen",
    "Open a table in this channel": "Einen Tisch in diesem Kanal eröffnen",
    "Which rules to play": "Nach welchen Regeln gespielt wird",
    "classic": "klassisch",
    "pro": "Profi",
    "End after the round in which someone reaches this score (default 66)":
        "Ende nach der Runde, in der jemand so viele Hornochsen hat (Standard 66)",
    "Play this many rounds instead of a target score": "So viele Runden spielen statt bis zu einer Punktzahl",
    "Seconds per turn (default 60)": "Sekunden pro Zug (Standard 60)",
    "AI players to seat now": "Wie viele KI-Spieler gleich Platz nehmen",
    "How strong the AI players are": "Wie stark die KI-Spieler sind",
    "easy": "leicht",
    "medium": "mittel",
    "hard": "schwer",
    "Sit down at this channel's table": "Am Tisch dieses Kanals Platz nehmen",
    "Leave this channel's table (an AI takes over a running game)":
        "Den Tisch dieses Kanals verlassen (in einer laufenden Partie übernimmt eine KI)",
    "Start the game (host only)": "Die Partie beginnen (nur Gastgeber)",
    "Close this channel's table (host or Manage Messages)":
        "Den Tisch dieses Kanals schließen (Gastgeber oder „Nachrichten verwalten“)",
    "Remove a player (host only); an AI takes over their seat mid-game":
        "Einen Spieler entfernen (nur Gastgeber); in einer laufenden Partie übernimmt eine KI",
    "Show your hand (only you can see it)": "Deine Handkarten zeigen (nur du siehst sie)",
    "Show this channel's table again": "Den Tisch dieses Kanals noch einmal zeigen",
    "A short summary of this table's rules": "Die Regeln dieses Tisches in Kürze",
    # /6nimmt stats, history, forget-me and /leaderboard (cogs/stats.py)
    "A player's 6 nimmt! record": "Die 6-nimmt!-Bilanz eines Spielers",
    "Whose stats (default: yours)": "Wessen Statistik (Standard: deine)",
    "This server or every server": "Dieser Server oder alle Server",
    "This server": "Dieser Server",
    "All servers": "Alle Server",
    "The last games in this server, or one game's log as files":
        "Die letzten Partien auf diesem Server oder das Protokoll einer Partie als Dateien",
    "A game number from the list: export its log as JSON and text files":
        "Eine Partienummer aus der Liste: ihr Protokoll als JSON- und Textdatei",
    "Delete everything the bot stores about you": "Alles löschen, was der Bot über dich speichert",
    "The best 6 nimmt! players": "Die besten 6-nimmt!-Spieler",
    "What to rank by": "Wonach sortiert wird",
    "Rating": "Wertungszahl",
    "Wins": "Siege",
    "Win rate": "Siegquote",
    "Average points per round": "Hornochsen pro Runde",
    "Games played": "Gespielte Partien",
    "Only rank players with at least this many finished games":
        "Nur Spieler mit mindestens so vielen beendeten Partien",
    # /6nimmt-admin (cogs/admin.py)
    "Tools for the bot's owner": "Werkzeuge für den Betreiber des Bots",
    "Send the slash commands to Discord (bot owner only)":
        "Die Slash-Befehle an Discord senden (nur der Betreiber des Bots)",
    "Where the commands should show": "Wo die Befehle erscheinen sollen",
    "This server (at once)": "Dieser Server (sofort)",
    "Every server (within an hour)": "Alle Server (innerhalb einer Stunde)",
    "Only the bot's owner can sync its commands.": "Nur der Betreiber des Bots kann seine Befehle synchronisieren.",
    "There is no server here: choose every server.": "Hier ist kein Server: wähle „Alle Server“.",
    "Synced {count} commands to every server; Discord shows them within an hour.":
        "{count} Befehle an alle Server gesendet; Discord zeigt sie innerhalb einer Stunde.",
    "Synced {count} commands to this server; they show at once.":
        "{count} Befehle an diesen Server gesendet; sie erscheinen sofort.",
    # the command tree's error handler (bot/app.py)
    "You cannot use that command here.": "Diesen Befehl kannst du hier nicht verwenden.",
    "That value does not work: {value}.": "Dieser Wert geht nicht: {value}.",
    "Something went wrong on our side; nothing was changed. Please try again.":
        "Bei uns ist etwas schiefgegangen; es wurde nichts geändert. Bitte versuche es noch einmal.",
}
