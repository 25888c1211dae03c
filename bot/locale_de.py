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
    "prompts": "nachfragen",
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
    "when": "wann",
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
    "Play this many rounds instead of a target score (Anniversary: always 2)":
        "So viele Runden spielen statt bis zu einer Punktzahl (Jubiläum: immer 2)",
    "anniversary": "Jubiläum",
    # /6nimmt prompts (Anniversary special cards)
    "Anniversary: when to ask you about your special cards": "Jubiläum: wann du nach deinen Sonderkarten gefragt wirst",
    "always; only when your card would take a row; or never":
        "immer; nur wenn deine Karte eine Reihe nehmen würde; oder nie",
    "Always ask me": "Immer fragen",
    "Ask only when I take a row": "Nur fragen, wenn ich eine Reihe nehme",
    "Never ask me": "Nie fragen",
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
    # messages of cogs/stats.py
    "rating": "Wertungszahl",
    "wins": "Siege",
    "win rate": "Siegquote",
    "average points per round (fewest first)": "Hornochsen pro Runde (wenigste zuerst)",
    "games played": "gespielte Partien",
    "this server": "diesem Server",
    "all servers": "allen Servern",
    "1 game": "1 Partie",
    "{count} games": "{count} Partien",
    "1 player": "1 Spieler",
    "{count} players": "{count} Spieler",
    "{points}{bull}/round": "{points}{bull}/Runde",
    "rating {rating}": "Wertung {rating}",
    "{rate} win rate": "{rate} Siegquote",
    "{wins} wins": "{wins} Siege",
    "{wins}/{games} won ({rate})": "{wins}/{games} gewonnen ({rate})",
    "6 nimmt! leaderboard — {metric}": "6-nimmt!-Rangliste — {metric}",
    "Nobody qualifies yet (at least {games}). Start a game with `/6nimmt start`!":
        "Noch niemand ist dabei (mindestens {games}). Eröffne eine Partie mit `/6nimmt eröffnen`!",
    "Nobody qualifies yet. Start a game with `/6nimmt start`!":
        "Noch niemand ist dabei. Eröffne eine Partie mit `/6nimmt eröffnen`!",
    "{name}'s rank": "Rang von {name}",
    "{name} is not ranked here yet: it takes 1 finished game in {where}.":
        "{name} hat hier noch keinen Rang: dafür braucht es 1 beendete Partie auf {where}.",
    "{name} is not ranked here yet: it takes {count} finished games in {where}.":
        "{name} hat hier noch keinen Rang: dafür braucht es {count} beendete Partien auf {where}.",
    "Page {page} of {pages} · {players} · {where} · at least {games}":
        "Seite {page} von {pages} · {players} · {where} · mindestens {games}",
    "◀ Previous": "◀ Zurück",
    "Next ▶": "Weiter ▶",
    "6 nimmt! stats — {name}": "6-nimmt!-Statistik — {name}",
    "No finished games in {where} yet.": "Noch keine beendeten Partien auf {where}.",
    "Finished games in {where}.": "Beendete Partien auf {where}.",
    "Games": "Partien",
    "not rated yet": "noch nicht gewertet",
    "Points per round": "Hornochsen pro Runde",
    "Points per game": "Hornochsen pro Partie",
    "Best game": "Beste Partie",
    "Worst game": "Schlechteste Partie",
    "{points}{bull} in game #{game}": "{points}{bull} in Partie #{game}",
    "Rows taken": "Genommene Reihen",
    "Sixth-card takes": "Sechste Karte gelegt",
    "Low-card takes": "Zu niedrige Karte gelegt",
    "Favourite row": "Lieblingsreihe",
    "row {row} ({times}× taken)": "Reihe {row} ({times}× genommen)",
    "Game #{game} ({status}): {standings}. The full log is attached.":
        "Partie #{game} ({status}): {standings}. Das vollständige Protokoll hängt an.",
    "no results": "keine Ergebnisse",
    "6 nimmt! — last games in this server": "6 nimmt! — die letzten Partien auf diesem Server",
    "No finished games yet. Start one with `/6nimmt start`!":
        "Noch keine beendeten Partien. Eröffne eine mit `/6nimmt eröffnen`!",
    "Download a game's log: /6nimmt history game:<number>":
        "Protokoll einer Partie herunterladen: /6nimmt verlauf partie:<Nummer>",
    "This deletes your 6 nimmt! stats, ratings and name for good; your seats in past games will read "
    "“deleted player”. Other players' results stay as they were. Are you sure?":
        "Damit werden deine 6-nimmt!-Statistik, Wertungen und dein Name endgültig gelöscht; deine Plätze in "
        "früheren Partien heißen dann „gelöschter Spieler“. Die Ergebnisse der anderen bleiben, wie sie sind. "
        "Bist du sicher?",
    "Delete my data": "Meine Daten löschen",
    "Keep my data": "Meine Daten behalten",
    "This button is not yours: use `/6nimmt forget-me` yourself.":
        "Diese Schaltfläche gehört dir nicht: verwende selbst `/6nimmt vergiss-mich`.",
    "Nothing was deleted.": "Es wurde nichts gelöscht.",
    "Your 6 nimmt! data is deleted: your stats, ratings and name are gone, and your seats in past games now "
    "read “deleted player”.":
        "Deine 6-nimmt!-Daten sind gelöscht: Statistik, Wertungen und Name sind weg, und deine Plätze in "
        "früheren Partien heißen jetzt „gelöschter Spieler“.",
    "There was nothing stored about you.": "Über dich war nichts gespeichert.",
    "There is no server here: use `scope: All servers`.": "Hier ist kein Server: wähle `bereich: Alle Server`.",
    "That button is not valid any more. Run the command again.":
        "Diese Schaltfläche gilt nicht mehr. Verwende den Befehl noch einmal.",
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
