"""German (``de``): the English text → its German text. See ``cogs/i18n/__init__.py`` for how it is used.

Command and option names are translated too, short and lowercase (Discord's
rule ``^[-_\\p{L}\\p{N}]{1,32}$``), because a German client shows and completes
the localized names: ``/6nimmt eröffnen`` opens a table and ``/6nimmt beginnen``
begins the game, keeping that pair as distinct as start/begin. ``6nimmt`` is the
game's own name and stays. German messages that name a command use these names.

One file, longer than a module usually is, on purpose: it is data, and a translator
reads and checks the whole catalog in one place.
"""

from engine import Variant, variant_spec

# The option help names the variants' numbers as the engine's registry gives them.
_TARGET, _ROUNDS = variant_spec(Variant.CLASSIC).target, variant_spec(Variant.ANNIVERSARY).rounds

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
    "settings": "einstellungen",
    "prompts": "nachfragen",
    # options
    "variant": "variante",
    "target": "zielpunkte",
    "rounds": "runden",
    "timer": "zugzeit",
    "pace": "tempo",
    "ai_players": "ki-spieler",
    "helpers": "hilfen",
    "ai_level": "ki-stärke",
    "member": "mitglied",
    "scope": "bereich",
    "metric": "wertung",
    "min_games": "mindestspiele",
    "game": "partie",
    "when": "wann",
    "table": "tisch",
    "games": "partien",
    "threads": "threads",
    "turn_based": "rundenbasiert",
    "reset": "zurücksetzen",
}

#: Descriptions, choices and messages.
MESSAGES: dict[str, str] = {
    # /6nimmt (cogs/tables.py)
    "Play 6 nimmt! in this channel": "6 nimmt! in diesem Kanal spielen",
    "Open a table in this channel": "Einen Tisch in diesem Kanal eröffnen",
    "Which rules to play": "Nach welchen Regeln gespielt wird",
    "classic": "klassisch",
    "pro": "Profi",
    f"End after the round in which someone reaches this score (default {_TARGET})":
        f"Ende nach der Runde, in der jemand so viele Hornochsen hat (Standard {_TARGET})",
    f"Play this many rounds instead of a target score (Anniversary: always {_ROUNDS})":
        f"So viele Runden spielen statt bis zu einer Punktzahl (Jubiläum: immer {_ROUNDS})",
    "anniversary": "Jubiläum",
    # /6nimmt prompts (Anniversary special cards)
    "Anniversary: when to ask you about your special cards": "Jubiläum: wann du nach deinen Sonderkarten gefragt wirst",
    "always; when a special card saves you bullheads; only for big savings; or never":
        "immer; wenn dir eine Sonderkarte Hornochsen spart; nur bei großer Ersparnis; oder nie",
    "Always ask me": "Immer fragen",
    "Ask when it saves me bullheads": "Fragen, wenn es mir Hornochsen spart",
    "Ask only for big savings (over 10🐮)": "Nur bei großer Ersparnis fragen (über 10🐮)",
    "Never ask me": "Nie fragen",
    # Games in threads, turn-based games (#25)
    "Seconds per turn in a live game (default 60)": "Sekunden pro Zug in einer Live-Partie (Standard 60)",
    "Live, or turn-based with hours for each move (the server's default otherwise)":
        "Live oder rundenbasiert mit Stunden für jeden Zug (sonst die Vorgabe des Servers)",
    "Live: everyone plays now (the timer below)": "Live: alle spielen jetzt (mit der Zugzeit)",
    "Turn-based: 1 hour for each move": "Rundenbasiert: 1 Stunde für jeden Zug",
    "Turn-based: 8 hours for each move": "Rundenbasiert: 8 Stunden für jeden Zug",
    "Turn-based: 24 hours for each move": "Rundenbasiert: 24 Stunden für jeden Zug",
    "Turn-based games are turned off on this server: start a live one.":
        "Rundenbasierte Partien sind auf diesem Server ausgeschaltet: eröffne eine Live-Partie.",
    "The timer is for live games: a turn-based game gives every move the hours of its pace.":
        "Die Zugzeit gilt für Live-Partien: eine rundenbasierte Partie gibt jedem Zug die Stunden ihres Tempos.",
    "This is a thread (or a forum post) already, so the game runs right here.":
        "Dies ist schon ein Thread (oder ein Forumsbeitrag), also läuft die Partie gleich hier.",
    "This kind of channel has no threads, so the game runs right here.":
        "Diese Art Kanal hat keine Threads, also läuft die Partie gleich hier.",
    "Create Public Threads": "Öffentliche Threads erstellen",
    "Send Messages in Threads": "Nachrichten in Threads senden",
    " and ": " und ",
    "I lack the {permissions} permission here, so the game runs in this channel.":
        "Mir fehlt hier die Berechtigung {permissions}, also läuft die Partie in diesem Kanal.",
    "I may not start threads here, so the game runs in this channel.":
        "Ich darf hier keine Threads erstellen, also läuft die Partie in diesem Kanal.",
    "Discord would not start a thread just now, so the game runs in this channel.":
        "Discord hat gerade keinen Thread erstellt, also läuft die Partie in diesem Kanal.",
    "6 nimmt! · {host}'s table · #{table}": "6 nimmt! · Tisch von {host} · #{table}",
    "This server's settings cannot be read right now, so no table was opened. Please try again in a moment.":
        "Die Einstellungen dieses Servers lassen sich gerade nicht lesen, also wurde kein Tisch eröffnet. "
        "Bitte versuche es gleich noch einmal.",
    "This thread's game is still open: {link}. Start the next one once it is over.":
        "Die Partie dieses Threads läuft noch: {link}. Eröffne die nächste, wenn sie vorbei ist.",
    "No thread could be started for this game, and this channel already has a game played in the channel "
    "itself, so this table was closed. Open it again once that game is over.":
        "Für diese Partie ließ sich kein Thread erstellen, und in diesem Kanal selbst läuft schon eine Partie, "
        "also wurde dieser Tisch geschlossen. Eröffne ihn wieder, wenn jene Partie vorbei ist.",
    "The new table is open: {link}": "Der neue Tisch ist offen: {link}",
    "Where": "Wo",
    "The game will be played in its thread: {thread}": "Die Partie wird in ihrem Thread gespielt: {thread}",
    "Server settings": "Servereinstellungen",
    "Playing in {thread} — [open the game]({link})": "Gespielt in {thread} — [zur Partie]({link})",
    "🏆 {winners}": "🏆 {winners}",
    "[The final standings]({link})": "[Der Endstand]({link})",
    "Won": "Gewonnen",
    "{variant} · {low}–{high} players · {goal} · turn-based: {hours} h for each move":
        "{variant} · {low}–{high} Spieler · {goal} · rundenbasiert: {hours} h für jeden Zug",
    "⏰ {players}: your move — time runs out {when}.": "⏰ {players}: ihr seid am Zug — die Zeit läuft {when} ab.",
    "⏰ Your move in your 6 nimmt! game (table #{table}) — time runs out {when}: {link}":
        "⏰ Du bist am Zug in deiner 6-nimmt!-Partie (Tisch #{table}) — die Zeit läuft {when} ab: {link}",
    "Remind me by direct message": "Per Direktnachricht erinnern",
    "Remind me in the channel": "Im Kanal erinnern",
    "Your reminders come as a direct message now.": "Deine Erinnerungen kommen jetzt als Direktnachricht.",
    "Your reminders come as a mention in the game's channel now.":
        "Deine Erinnerungen kommen jetzt als Erwähnung im Kanal der Partie.",
    "Reminders are for turn-based games; this one is played live.":
        "Erinnerungen gibt es in rundenbasierten Partien; diese wird live gespielt.",
    "The game's thread was deleted, so the game was abandoned.":
        "Der Thread der Partie wurde gelöscht, also wurde die Partie abgebrochen.",
    "The table's channel was deleted, so the game was abandoned.":
        "Der Kanal des Tisches wurde gelöscht, also wurde die Partie abgebrochen.",
    "A moderator locked the game's thread and it stayed locked for a day, so the game was abandoned.":
        "Ein Moderator hat den Thread der Partie gesperrt und er blieb einen Tag lang gesperrt, also wurde die "
        "Partie abgebrochen.",
    "This game is paused because a moderator locked its thread. It goes on when the thread is unlocked; "
    "nothing was changed.":
        "Diese Partie ruht, weil ein Moderator ihren Thread gesperrt hat. Sie geht weiter, sobald der Thread "
        "entsperrt ist; es wurde nichts geändert.",
    "⏸️ Paused": "⏸️ Pausiert",
    "A moderator locked this game's thread, so the game is paused: no timer runs and no seat is taken. It "
    "goes on when the thread is unlocked; still locked after a day, the game is abandoned.":
        "Ein Moderator hat den Thread dieser Partie gesperrt, also ruht sie: kein Timer läuft und kein Platz "
        "wird übernommen. Sie geht weiter, sobald der Thread entsperrt ist; ist er nach einem Tag noch gesperrt, "
        "wird die Partie abgebrochen.",
    "AI players to seat now": "Wie viele KI-Spieler gleich Platz nehmen",
    "Player aids for everyone: each hand can show the cards seen this round (default off)":
        "Hilfen für alle: jede Hand kann die in dieser Runde gesehenen Karten zeigen (Standard: aus)",
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
    "The player to remove": "Wer den Tisch verlassen muss",
    "**This table:** {limits}": "**Dieser Tisch:** {limits}",
    "Show your hand (only you can see it)": "Deine Handkarten zeigen (nur du siehst sie)",
    "Show this channel's table again": "Den Tisch dieses Kanals noch einmal zeigen",
    "A short summary of this table's rules": "Die Regeln dieses Tisches in Kürze",
    # the table option and /6nimmt games (cogs/choose.py, cogs/games.py)
    "Which game (only needed when this channel has several)":
        "Welche Partie (nur nötig, wenn dieser Kanal mehrere hat)",
    "That game is not open in this channel; nothing was changed. Choose one from the `table` option's list.":
        "Diese Partie ist in diesem Kanal nicht offen; es wurde nichts geändert. Wähle eine aus der Liste "
        "der Option `tisch`.",
    "This channel has {count} open games: choose one with the `table` option.":
        "Dieser Kanal hat {count} offene Partien: wähle eine mit der Option `tisch`.",
    "There is no open 6 nimmt! table here. Start one with `/6nimmt start`.":
        "Hier gibt es keinen offenen 6-nimmt!-Tisch. Eröffne einen mit `/6nimmt eröffnen`.",
    "Pro": "Profi",
    "Anniversary": "Jubiläum",
    "lobby {seated}/{most}": "Lobby {seated}/{most}",
    "playing, round {round}": "läuft, Runde {round}",
    "playing": "läuft",
    "{name}'s table": "Tisch von {name}",
    "List the open games you play on this server": "Deine offenen Partien auf diesem Server auflisten",
    "waiting for players ({seated}/{most})": "wartet auf Mitspieler ({seated}/{most})",
    "**your move**": "**du bist dran**",
    "waiting for {names}": "wartet auf {names}",
    "the game is moving on": "die Partie geht weiter",
    "time runs out {when}": "Zeit läuft ab {when}",
    "turn-based: {pace} per move": "rundenbasiert: {pace} pro Zug",
    "You are not playing at any open game on this server. Open one with `/6nimmt start`, "
    "or join one with `/6nimmt join`.":
        "Du spielst auf diesem Server in keiner offenen Partie. Eröffne eine mit `/6nimmt eröffnen` "
        "oder tritt einer bei mit `/6nimmt beitreten`.",
    "Your open games on this server:": "Deine offenen Partien auf diesem Server:",
    "… and {count} more.": "… und {count} weitere.",
    "Use this command in a server: it lists your games there.":
        "Nutze diesen Befehl auf einem Server: er listet deine Partien dort auf.",
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
    "({count} finished by an AI)": "({count} von einer KI zu Ende gespielt)",
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
    # refusals of bot/tables/records.py
    "You are seated at an open 6 nimmt! table in {channel}. Leave it with `/6nimmt leave` (or let the game end) "
    "before deleting your data.":
        "Du sitzt an einem offenen 6-nimmt!-Tisch in {channel}. Verlasse ihn mit `/6nimmt verlassen` (oder lass "
        "die Partie zu Ende gehen), bevor du deine Daten löschst.",
    "You are seated at an open 6 nimmt! table. Leave it with `/6nimmt leave` (or let the game end) before "
    "deleting your data.":
        "Du sitzt an einem offenen 6-nimmt!-Tisch. Verlasse ihn mit `/6nimmt verlassen` (oder lass die Partie zu "
        "Ende gehen), bevor du deine Daten löschst.",
    "`{text}` is not a game number: use the number shown in `/6nimmt history`, e.g. `game:12`.":
        "`{text}` ist keine Partienummer: verwende die Nummer aus `/6nimmt verlauf`, z. B. `partie:12`.",
    "There is no game #{game}. `/6nimmt history` lists this server's games.":
        "Es gibt keine Partie #{game}. `/6nimmt verlauf` listet die Partien dieses Servers.",
    "Game #{game} was not played in this server.": "Partie #{game} wurde nicht auf diesem Server gespielt.",
    "Game #{game} is still open; its log can be exported once it has ended.":
        "Partie #{game} läuft noch; ihr Protokoll gibt es, sobald sie beendet ist.",
    # /6nimmt-admin (cogs/admin.py)
    "Server settings and the bot owner's tools": "Servereinstellungen und Werkzeuge für den Betreiber des Bots",
    "Show or change this server's defaults for new games":
        "Die Voreinstellungen dieses Servers für neue Partien zeigen oder ändern",
    "Play each game in a thread of its own": "Jede Partie in einem eigenen Thread spielen",
    "How a new game is played: live, or turn-based with this long a turn":
        "Wie eine neue Partie gespielt wird: live oder rundenbasiert mit so viel Zeit pro Zug",
    "Seconds a turn of a live game, 15-600": "Sekunden pro Zug einer Live-Partie, 15–600",
    "Whether turn-based games are allowed": "Ob rundenbasierte Partien erlaubt sind",
    "Back to the bot's defaults (before any other option here)":
        "Zurück zu den Voreinstellungen des Bots (vor allen anderen Optionen hier)",
    "Live": "Live",
    "Turn-based: 1 hour a turn": "Rundenbasiert: 1 Stunde pro Zug",
    "Turn-based: 8 hours a turn": "Rundenbasiert: 8 Stunden pro Zug",
    "Turn-based: 24 hours a turn": "Rundenbasiert: 24 Stunden pro Zug",
    "Settings belong to a server: use this command in one.":
        "Einstellungen gehören zu einem Server: verwende diesen Befehl dort.",
    "Only members with the Manage Server permission can see or change this server's settings.":
        "Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Einstellungen dieses Servers sehen "
        "oder ändern.",
    "A turn-based pace needs turn-based games allowed: allow them, or choose the live pace. Nothing was changed.":
        "Ein rundenbasiertes Tempo braucht erlaubte rundenbasierte Partien: erlaube sie oder wähle das "
        "Live-Tempo. Nichts wurde geändert.",
    "Those settings do not work together; nothing was changed.":
        "Diese Einstellungen passen nicht zusammen; nichts wurde geändert.",
    "Saved. This server's settings for new games:": "Gespeichert. Die Einstellungen dieses Servers für neue Partien:",
    "This server's settings for new games:": "Die Einstellungen dieses Servers für neue Partien:",
    # a server's settings in words (cogs/render/settings.py)
    "live": "live",
    "turn-based, {hours} h a turn": "rundenbasiert, {hours} h pro Zug",
    "threads on": "Threads an",
    "threads off": "Threads aus",
    "pace: {pace}": "Tempo: {pace}",
    "turn timer {seconds} s": "Zugzeit {seconds} s",
    "AI level {level}": "KI-Stärke {level}",
    "turn-based games allowed": "rundenbasierte Partien erlaubt",
    "turn-based games off": "rundenbasierte Partien aus",
    "Threads": "Threads",
    "Pace of a new game": "Tempo einer neuen Partie",
    "Turn timer (live games)": "Zugzeit (Live-Partien)",
    "AI level": "KI-Stärke",
    "Turn-based games": "Rundenbasierte Partien",
    "each game in a thread of its own": "jede Partie in einem eigenen Thread",
    "games in the channel": "Partien im Kanal",
    "{seconds} s": "{seconds} s",
    "allowed": "erlaubt",
    "not allowed": "nicht erlaubt",
    "✱ differs from the bot's defaults; the rest follow them.":
        "✱ weicht von den Voreinstellungen des Bots ab; der Rest folgt ihnen.",
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
    # the command tree's error handler (cogs/errors.py)
    "You cannot use that command here.": "Diesen Befehl kannst du hier nicht verwenden.",
    "That value does not work: {value}.": "Dieser Wert geht nicht: {value}.",
    "Your action was saved, but something went wrong on our side while answering it. The table message shows "
    "where the game stands.":
        "Deine Aktion wurde gespeichert, aber beim Antworten ist bei uns etwas schiefgegangen. Die Tischnachricht "
        "zeigt, wo die Partie steht.",
    "Your move could not be saved because the database is not reachable right now; nothing was changed. "
    "Please try again in a moment.":
        "Dein Zug konnte nicht gespeichert werden, weil die Datenbank gerade nicht erreichbar ist; es wurde "
        "nichts geändert. Bitte versuche es gleich noch einmal.",
    "That did not go through because the database is not reachable right now; nothing was changed. "
    "Please try again in a moment.":
        "Das ging nicht durch, weil die Datenbank gerade nicht erreichbar ist; es wurde nichts geändert. "
        "Bitte versuche es gleich noch einmal.",
    "Something went wrong on our side; nothing was changed. Please try again.":
        "Bei uns ist etwas schiefgegangen; es wurde nichts geändert. Bitte versuche es noch einmal.",
    # errors and notices of the table service (bot/tables/: errors, lobby, play, specials, service)
    "There is no 6 nimmt! table in this channel. Start one with `/6nimmt start`.":
        "In diesem Kanal gibt es keinen 6-nimmt!-Tisch. Eröffne einen mit `/6nimmt eröffnen`.",
    "This channel already has a 6 nimmt! table.": "Dieser Kanal hat schon einen 6-nimmt!-Tisch.",
    # the coach's hint (bot/service.py)
    "Hint": "Tipp",
    "row {row}": "Reihe {row}",
    "💡 **Coach** — what the hard AI expects each choice to cost you by the end of the round (only you see this):":
        "💡 **Coach** — was die starke KI erwartet, dass dich jede Wahl bis zum Ende der Runde kostet "
        "(nur du siehst das):",
    "It would play {choice}.": "Sie würde {choice} spielen.",
    "Hints are off at this table; the host can turn on helpers for the next one.":
        "An diesem Tisch gibt es keine Tipps; wer den nächsten eröffnet, kann die Helfer einschalten.",
    "There is nothing to hint right now: it is not your turn to choose a card or a row.":
        "Gerade gibt es keinen Tipp: Du bist nicht dran, eine Karte oder eine Reihe zu wählen.",
    "The coach could not think just now; nothing was changed. Please try again.":
        "Der Coach konnte gerade nicht nachdenken; es wurde nichts geändert. Bitte versuche es noch einmal.",
    "The table has moved on: {link}": "Der Tisch ist weitergezogen: {link}",
    "Still to pick: {players}": "Noch nicht gewählt: {players}",
    "🎲 The game begins: {players}": "🎲 Das Spiel beginnt: {players}",
    "That button is from an earlier turn. Use the newest table message.":
        "Diese Schaltfläche stammt aus einem früheren Zug. Verwende die neueste Tisch-Nachricht.",
    "That table has ended. Start a new one with `/6nimmt start`.":
        "Dieser Tisch ist beendet. Eröffne einen neuen mit `/6nimmt eröffnen`.",
    "A table is being set up in this channel right now.": "In diesem Kanal wird gerade ein Tisch eröffnet.",
    "You are already at this table.": "Du sitzt schon an diesem Tisch.",
    "The table is full ({players} players).": "Der Tisch ist voll ({players} Spieler).",
    "**{name}** left the table.": "**{name}** hat den Tisch verlassen.",
    "Only the host can kick a player.": "Nur der Gastgeber kann Spieler entfernen.",
    "You cannot kick yourself: use Leave or Cancel.":
        "Du kannst dich nicht selbst entfernen: verwende „Verlassen“ oder „Abbrechen“.",
    "That member is not playing at this table.": "Dieses Mitglied spielt nicht an diesem Tisch.",
    "**{name}** was removed by the host.": "**{name}** wurde vom Gastgeber entfernt.",
    "Only the host can start the game.": "Nur der Gastgeber kann die Partie beginnen.",
    "This game needs at least {players} players: invite a friend or add an AI.":
        "Diese Partie braucht mindestens {players} Spieler: lade jemanden ein oder füge eine KI hinzu.",
    "Only the host (or a member who can Manage Messages) can cancel the table.":
        "Nur der Gastgeber (oder ein Mitglied mit „Nachrichten verwalten“) kann den Tisch schließen.",
    "The table was cancelled.": "Der Tisch wurde geschlossen.",
    "That game is too old for a rematch: start a new one with `/6nimmt start`.":
        "Diese Partie ist zu alt für eine Revanche: eröffne eine neue mit `/6nimmt eröffnen`.",
    "The game has already started.": "Die Partie hat schon begonnen.",
    "Nobody is left, so the table closed.": "Niemand ist mehr da, also wurde der Tisch geschlossen.",
    "An AI plays their seat from now on.": "Eine KI spielt ab jetzt auf diesem Platz.",
    "That choice does not exist.": "Diese Auswahl gibt es nicht.",
    "Nobody started the game in time, so the lobby closed.":
        "Niemand hat die Partie rechtzeitig begonnen, also wurde der Tisch geschlossen.",
    "{player} missed a turn, so the bot played for them. {left} more in a row and an AI takes their seat.":
        "{player} hat einen Zug verpasst, der Bot hat für sie gespielt. Noch {left} in Folge, und eine KI "
        "übernimmt ihren Platz.",
    "{player} ran out of time, so row {row} was taken for them (the cheapest).":
        "{player} hatte keine Zeit mehr, also wurde Reihe {row} für sie genommen (die billigste).",
    "{player} missed two turns in a row, so an AI plays their seat now.":
        "{player} hat zwei Züge hintereinander verpasst, also spielt jetzt eine KI auf diesem Platz.",
    "Every player has left, so the game was abandoned.":
        "Alle Spieler sind gegangen, also wurde die Partie abgebrochen.",
    "Nobody is left, so the game was abandoned.": "Niemand ist mehr da, also wurde die Partie abgebrochen.",
    "The game has not started yet.": "Die Partie hat noch nicht begonnen.",
    "That game is over.": "Diese Partie ist vorbei.",
    "Nobody is deciding on a special card right now.": "Gerade entscheidet niemand über eine Sonderkarte.",
    "This decision is not yours: the game is waiting for **{name}**.":
        "Diese Entscheidung ist nicht deine: die Partie wartet auf **{name}**.",
    "Choose one of: {choices}.": "Wähle eins von: {choices}.",
    "this variant seats at most {players} players, so at most {seats} AI seats beside you":
        "diese Variante hat höchstens {players} Plätze, also höchstens {seats} KI-Spieler neben dir",
    "choose a target score or a number of rounds": "wähle eine Zielpunktzahl oder eine Anzahl Runden",
    "Special-card prompts are only for the Anniversary variant.":
        "Nachfragen zu Sonderkarten gibt es nur in der Jubiläumsvariante.",
    # the engine's refusals, by kind (cogs/i18n)
    "You do not hold that special card.": "Diese Sonderkarte hast du nicht.",
    "You cannot play that card.": "Diese Karte kannst du nicht spielen.",
    "A Stop blocks that row.": "Auf dieser Reihe liegt ein Stopp.",
    "You cannot choose that row.": "Diese Reihe kannst du nicht wählen.",
    "It is not your turn.": "Du bist nicht an der Reihe.",
    "That is not possible right now.": "Das geht gerade nicht.",
    "You are not playing in this game.": "Du spielst in dieser Partie nicht mit.",
    "The rules do not allow that special card here.": "Diese Sonderkarte erlauben die Regeln hier nicht.",
    "The rules do not allow that right now.": "Das erlauben die Regeln gerade nicht.",
    # the table in the channel (cogs/render/text.py, cogs/presenter.py, cogs/ui/)
    "Classic": "Klassisch",
    "Pro (drafted hands)": "Profi (Karten werden ausgewählt)",
    "Anniversary (special cards)": "Jubiläum (Sonderkarten)",
    "{name} (AI)": "{name} (KI)",
    "first to {target} points ends it": "wer zuerst {target} Hornochsen hat, beendet die Partie",
    "1 round": "1 Runde",
    "{rounds} rounds": "{rounds} Runden",
    "{first} or {second}": "{first} oder {second}",
    "{variant} · {low}–{high} players · {goal} · {seconds}s per turn":
        "{variant} · {low}–{high} Spieler · {goal} · {seconds} s pro Zug",
    ", {seconds}s for a special card": ", {seconds} s für eine Sonderkarte",
    "6 nimmt! — table open": "6 nimmt! — Tisch offen",
    "Players ({count}/{most})": "Spieler ({count}/{most})",
    "Closes": "Schließt",
    "{when} unless the host starts": "{when}, wenn der Gastgeber nicht beginnt",
    "This table is closed.": "Dieser Tisch ist geschlossen.",
    "Row {row}": "Reihe {row}",
    "6 nimmt! — round {round}": "6 nimmt! — Runde {round}",
    "6 nimmt! — round {round}, turn {turn}": "6 nimmt! — Runde {round}, Zug {turn}",
    "The rows are laid when the draft is over.": "Die Reihen werden gelegt, wenn alle Karten ausgewählt sind.",
    "Players (points)": "Spieler (Hornochsen)",
    "📝 {name} drafts **{card}**.": "📝 {name} zieht **{card}**.",
    "📝 The draft is over: the four cards left start the rows.":
        "📝 Die Auswahl ist vorbei: die vier übrigen Karten beginnen die Reihen.",
    "Players (points) · drafted cards": "Spieler (Hornochsen) · gezogene Karten",
    "Draft so far": "Bisher gezogen",
    "**Still to draft** ({count} cards, the last four start the rows):":
        "**Noch zu ziehen** ({count} Karten, die letzten vier beginnen die Reihen):",
    "empty": "leer",
    "Special cards": "Sonderkarten",
    "Deck: {deck} · discard pile: {discard}": "Stapel: {deck} · Ablage: {discard}",
    "Now": "Jetzt",
    "News": "Neuigkeiten",
    "{now} — time runs out {when}": "{now} — die Zeit läuft ab {when}",
    "Everyone picks a card face down: press **Play a card**":
        "Alle wählen verdeckt eine Karte: drücke **Karte spielen**",
    "{name}'s **{card}** fits no row: they choose a row to take":
        "{name} hat mit der **{card}** in keine Reihe gepasst und wählt eine Reihe, die genommen wird",
    "Draft: {name} takes a face-up card ({left} left)":
        "Auswahl: {name} nimmt eine offene Karte ({left} übrig)",
    "{name} may play a special card on their **{card}**: they press **Decide**":
        "{name} darf eine Sonderkarte auf die eigene **{card}** spielen: dafür **Entscheiden** drücken",
    "{name} took a row and may swap a special card: they press **Decide**":
        "{name} hat eine Reihe genommen und darf eine Sonderkarte tauschen: dafür **Entscheiden** drücken",
    "Waiting": "Warten",
    "🃏 Revealed: {cards}": "🃏 Aufgedeckt: {cards}",
    "full row": "volle Reihe",
    "low card": "zu niedrige Karte",
    "🐂 {name} takes row {row} ({why}): {cards} — **{points}**{bull}":
        "🐂 {name} nimmt Reihe {row} ({why}): {cards} — **{points}**{bull}",
    "{card} → row {row}": "{card} → Reihe {row}",
    "⚠️ {name}'s **{card}** is lower than every row: they choose a row to take.":
        "⚠️ {name} hat die **{card}** gespielt, niedriger als jede Reihe, und wählt eine Reihe, die genommen "
        "wird.",
    "📋 **Round {round} is over.**": "📋 **Runde {round} ist vorbei.**",
    "🏆 **Game over!** {winner} wins with {points}.": "🏆 **Partie vorbei!** {winner} gewinnt mit {points}.",
    "🏆 **Game over!** {winners} win with {points}.": "🏆 **Partie vorbei!** {winners} gewinnen mit {points}.",
    "{names} and {last}": "{names} und {last}",
    "The table was closed.": "Der Tisch wurde geschlossen.",
    "The game is over.": "Die Partie ist vorbei.",
    "The rows; the text above says the same": "Die Reihen; der Text darüber sagt dasselbe",
    "**6 nimmt! — classic rules**\n"
    "• Everyone picks a card face down; cards are revealed together and placed lowest first.\n"
    "• A card goes after the row end closest below it.\n"
    "• The sixth card in a row takes the five before it.\n"
    "• A card lower than every row end takes a row of its player's choice.\n"
    "• Every card you take costs its bullheads (55 → 7; 11, 22 … → 5; 10, 20 … → 3; 5, 15 … → 2; "
    "others → 1). Fewest points win.":
        "**6 nimmt! — klassische Regeln**\n"
        "• Alle wählen verdeckt eine Karte; die Karten werden gemeinsam aufgedeckt und die niedrigste zuerst "
        "angelegt.\n"
        "• Eine Karte kommt an die Reihe, deren letzte Karte knapp darunter liegt.\n"
        "• Die sechste Karte einer Reihe nimmt die fünf davor.\n"
        "• Eine Karte, die niedriger ist als jedes Reihenende, nimmt eine Reihe nach Wahl ihres Spielers.\n"
        "• Jede genommene Karte kostet ihre Hornochsen (55 → 7; 11, 22 … → 5; 10, 20 … → 3; "
        "5, 15 … → 2; sonst → 1). Wer die wenigsten hat, gewinnt.",
    "**6 nimmt! — Pro variant**\nAll classic rules, plus: only cards 1 … 10·players+4 are used, "
    "laid face up; players draft them one at a time until each holds ten, and the four left over "
    "start the rows. You know every card in the game.":
        "**6 nimmt! — Profivariante**\nAlle klassischen Regeln, dazu: nur die Karten 1 … 10·Spieler+4 "
        "werden verwendet und offen ausgelegt; reihum nimmt jeder eine, bis alle zehn haben, und die vier "
        "übrigen beginnen die Reihen. Du kennst jede Karte im Spiel.",
    "**6 nimmt! — Anniversary variant**\nAll classic rules, two rounds, twelve cards each and three "
    "special cards (5th Row, 7 nimmt!, Insert, Replace, Shift, Stop, Negative = Positive): just "
    "before your card is placed you may play one, and after taking a row you may swap one. When "
    "the game waits on you, press **Decide**; `/6nimmt prompts` sets when you are asked.":
        "**6 nimmt! — Jubiläumsvariante**\nAlle klassischen Regeln, zwei Runden, je zwölf Karten und drei "
        "Sonderkarten (5. Reihe, 7 nimmt!, Einfügen, Ersetzen, Verschieben, Stopp, Minus = Plus): kurz "
        "bevor deine Karte angelegt wird, darfst du eine spielen, und nachdem du eine Reihe genommen hast, "
        "darfst du eine tauschen. Wartet die Partie auf dich, drücke **Entscheiden**; mit "
        "`/6nimmt nachfragen` legst du fest, wann du gefragt wirst.",
    # words drawn on the table image (cogs/render/images.py)
    "takes": "nimmt",
    "the row": "die Reihe",
    "bullheads": "Hornochsen",
    "bullhead": "Hornochse",
    "STOP": "STOPP",
    "5th row": "5. Reihe",
    # buttons, the hand and confirmations (cogs/ui/, cogs/tables.py)
    "Join": "Beitreten",
    "Leave": "Verlassen",
    "Add AI": "KI hinzufügen",
    "Start": "Beginnen",
    "Cancel": "Abbrechen",
    "Play a card": "Karte spielen",
    "Rematch": "Revanche",
    "Draft a card ({low}–{high})": "Karte auswählen ({low}–{high})",
    "There is nothing to pick right now: {reason}": "Gerade gibt es nichts zu wählen: {reason}",
    "wait for the next turn.": "warte auf den nächsten Zug.",
    "a player is choosing a row.": "jemand wählt eine Reihe.",
    "the cards are being drafted.": "die Karten werden ausgewählt.",
    "a player is deciding on a special card.": "jemand entscheidet über eine Sonderkarte.",
    "a player who took a row may swap a special card.":
        "jemand hat eine Reihe genommen und darf eine Sonderkarte tauschen.",
    "You play **{card}** face down — you can change it until everyone has picked.":
        "Du spielst verdeckt die **{card}** — du kannst sie ändern, bis alle gewählt haben.",
    "**Your hand** — pick a card to play face down. Only you can see this.":
        "**Deine Hand** — wähle eine Karte, die du verdeckt spielst. Nur du siehst das.",
    "The buttons below the cards set when I ask you about them.":
        "Mit den Schaltflächen unter den Karten legst du fest, wann ich dich nach ihnen frage.",
    "You played **{card}**. Everyone has picked: see the reveal in the channel.":
        "Du hast die **{card}** gespielt. Alle haben gewählt: das Aufdecken steht im Kanal.",
    "That table cannot be set up — {problem}.": "Dieser Tisch lässt sich so nicht eröffnen — {problem}.",
    "This channel already has a 6 nimmt! table: {link}": "Dieser Kanal hat schon einen 6-nimmt!-Tisch: {link}",
    "You joined the table.": "Du sitzt jetzt am Tisch.",
    "You left the table.": "Du hast den Tisch verlassen.",
    "The game is on!": "Die Partie läuft!",
    "The table is closed.": "Der Tisch ist geschlossen.",
    "{name} was removed.": "{name} wurde entfernt.",
    "That button is not valid. Use the newest table message.":
        "Diese Schaltfläche gilt nicht. Verwende die neueste Tisch-Nachricht.",
    # the Anniversary special cards (cogs/render/specials.py, cogs/ui/specials.py). The names follow
    # the German edition's style: short German words, "7 nimmt!" stays as printed.
    "5th Row": "5. Reihe",
    "7 nimmt!": "7 nimmt!",
    "Insert": "Einfügen",
    "Replace": "Ersetzen",
    "Shift": "Verschieben",
    "Stop": "Stopp",
    "Negative = Positive": "Minus = Plus",
    "your card starts a fifth row (until the next row is taken)":
        "deine Karte beginnt eine fünfte Reihe (bis die nächste Reihe genommen wird)",
    "your card's row holds six cards: the seventh takes it":
        "die Reihe deiner Karte fasst sechs Karten: erst die siebte nimmt sie",
    "put your card anywhere a row stays in ascending order":
        "lege deine Karte an jede Stelle, an der eine Reihe aufsteigend bleibt",
    "place another card from your hand instead": "lege stattdessen eine andere Karte aus deiner Hand",
    "first move one card of the table to another row": "verschiebe zuerst eine Karte vom Tisch in eine andere Reihe",
    "block a row: nothing goes in or out until a row is taken":
        "sperre eine Reihe: nichts kommt hinein oder heraus, bis eine Reihe genommen wird",
    "when you take a row, one card's bullheads cancel others in your pile":
        "wenn du eine Reihe nimmst, heben die Hornochsen einer Karte andere in deinem Stapel auf",
    "You hold no special cards.": "Du hast keine Sonderkarten.",
    "**Your special cards** (played when your card is about to be placed):":
        "**Deine Sonderkarten** (gespielt, kurz bevor deine Karte angelegt wird):",
    "🎴 **Round {round}**: new number cards, and you drew new special cards to go with the ones you kept.":
        "🎴 **Runde {round}**: neue Zahlenkarten, und zu den behaltenen hast du neue Sonderkarten gezogen.",
    "Without a special card your **{card}** is lower than every open row: you choose a row to take "
    "(the cheapest costs {points}{bull}).":
        "Ohne Sonderkarte ist deine **{card}** niedriger als jede offene Reihe: du wählst eine Reihe, die du "
        "nimmst (die billigste kostet {points}{bull}).",
    "Without a special card your **{card}** goes to row {row} and you take it: **{points}**{bull}.":
        "Ohne Sonderkarte kommt deine **{card}** in Reihe {row} und du nimmst sie: **{points}**{bull}.",
    "Without a special card your **{card}** goes to row {row}.":
        "Ohne Sonderkarte kommt deine **{card}** in Reihe {row}.",
    "Time runs out {when}: then no special card is played.":
        "Die Zeit läuft ab {when}: dann wird keine Sonderkarte gespielt.",
    "**You took a row**: you may swap one special card for the top card of the special deck.":
        "**Du hast eine Reihe genommen**: du darfst eine Sonderkarte gegen die oberste des Sonderkartenstapels "
        "tauschen.",
    "Play a special card on it, or press **No special card**.":
        "Spiele eine Sonderkarte darauf oder drücke **Keine Sonderkarte**.",
    "at the start": "am Anfang",
    "at the end": "am Ende",
    "between {low} and {high}": "zwischen {low} und {high}",
    "5th Row: {card} starts row {row}": "5. Reihe: {card} beginnt Reihe {row}",
    "7 nimmt! on row {row}": "7 nimmt! auf Reihe {row}",
    "Insert into row {row} {place}": "In Reihe {row} {place} einfügen",
    "Place {card} instead": "Stattdessen {card} legen",
    "Move {card} to row {row}": "{card} in Reihe {row} verschieben",
    "Stop on row {row}": "Stopp auf Reihe {row}",
    "Take row {row}, cancel with {card}": "Reihe {row} nehmen, mit {card} aufheben",
    "Move {card} (row {row})": "{card} verschieben (Reihe {row})",
    "**{name}**: where does the **{card}** go?": "**{name}**: wohin kommt die **{card}**?",
    "**{name}**: which card do you move first?": "**{name}**: welche Karte verschiebst du zuerst?",
    "**{name}**: {reminder}. Choose:": "**{name}**: {reminder}. Wähle:",
    " on row {row}": " auf Reihe {row}",
    " on row {row}: it now holds six cards": " auf Reihe {row}: sie fasst jetzt sechs Karten",
    ": {card} starts row {row}": ": {card} beginnt Reihe {row}",
    ": {card} goes into row {row} at place {place}": ": {card} kommt in Reihe {row} an Platz {place}",
    ": {card} goes back to the hand, {replacement} is placed instead":
        ": {card} geht zurück auf die Hand, stattdessen wird {replacement} gelegt",
    ": {card} moves from row {source} to row {target}": ": {card} wandert von Reihe {source} in Reihe {target}",
    "✨ {name} plays **{card}**": "✨ {name} spielt **{card}**",
    " with {card}": " mit {card}",
    ", then places {card} in row {row}": ", dann kommt {card} in Reihe {row}",
    "nothing": "nichts",
    "➖ {name}'s {card} cancels {cancelled} from their pile (−{points}{bull}, and the {card} itself is set aside).":
        "➖ Die {card} von {name} hebt {cancelled} im eigenen Stapel auf (−{points}{bull}, und die {card} selbst "
        "wird beiseitegelegt).",
    "🧹 {name} also takes the {card} and row {row} is gone: four rows again, the 5th Row card is discarded.":
        "🧹 {name} nimmt auch die {card}, und Reihe {row} ist weg: wieder vier Reihen, die Karte 5. Reihe kommt "
        "auf die Ablage.",
    "The Stops on rows {rows} are discarded.": "Die Stopp-Karten auf den Reihen {rows} kommen auf die Ablage.",
    "The Stop on row {rows} is discarded.": "Die Stopp-Karte auf Reihe {rows} kommt auf die Ablage.",
    "The 7 nimmt! on row {row} is discarded.": "Die 7 nimmt! auf Reihe {row} kommt auf die Ablage.",
    "🔄 {name} swaps a **{card}** for the top card of the deck.":
        "🔄 {name} tauscht eine **{card}** gegen die oberste Karte des Stapels.",
    "🎴 Everyone draws 1 special card (press **Play a card** to see yours).":
        "🎴 Alle ziehen 1 Sonderkarte (drücke **Karte spielen**, um deine zu sehen).",
    "🎴 Everyone draws {count} special cards (press **Play a card** to see yours).":
        "🎴 Alle ziehen {count} Sonderkarten (drücke **Karte spielen**, um deine zu sehen).",
    "🔀 The special discard pile is shuffled into a new deck ({size} cards).":
        "🔀 Die Ablage der Sonderkarten wird zu einem neuen Stapel gemischt ({size} Karten).",
    "🔄 {name}: you took a row — press **Decide** to swap a special card or keep yours.":
        "🔄 {name}: du hast eine Reihe genommen — drücke **Entscheiden**, um eine Sonderkarte zu tauschen oder "
        "deine zu behalten.",
    "✨ {name}: your **{card}** is next — press **Decide** to play a special card or not.":
        "✨ {name}: deine **{card}** ist dran — drücke **Entscheiden**, um eine Sonderkarte zu spielen oder nicht.",
    "Decide": "Entscheiden",
    "No special card": "Keine Sonderkarte",
    "Keep my cards": "Meine Karten behalten",
    "Swap {card}": "{card} tauschen",
    "Choose…": "Wähle…",
    "Back": "Zurück",
    "You play no special card. See the channel for what happens.":
        "Du spielst keine Sonderkarte. Was passiert, steht im Kanal.",
    "You keep your special cards. See the channel for what happens.":
        "Du behältst deine Sonderkarten. Was passiert, steht im Kanal.",
    "You swapped a **{card}** for the top card of the special deck: press **Play a card** to see your special "
    "cards.":
        "Du hast eine **{card}** gegen die oberste Karte des Sonderkartenstapels getauscht: drücke "
        "**Karte spielen**, um deine Sonderkarten zu sehen.",
    "You played **{card}**. See the channel for what happens.":
        "Du hast **{card}** gespielt. Was passiert, steht im Kanal.",
    "You cannot play **{card}** like that now.": "**{card}** kannst du so gerade nicht spielen.",
    "I will ask you whenever a special card could change the table, and after you take a row.":
        "Ich frage dich jedes Mal, wenn eine Sonderkarte am Tisch etwas ändern könnte, und nachdem du eine "
        "Reihe genommen hast.",
    "I will ask you only when a special card would save you bullheads on the card being placed.":
        "Ich frage dich nur, wenn dir eine Sonderkarte bei der Karte, die gerade angelegt wird, Hornochsen "
        "spart.",
    "I will ask you only when a special card would save you more than 10🐮 on the card being placed.":
        "Ich frage dich nur, wenn dir eine Sonderkarte bei der Karte, die gerade angelegt wird, mehr als "
        "10🐮 spart.",
    # a choice's consequence for the decider, and what a retired Decide nudge says was decided
    "No special card, then swap {card}": "Keine Sonderkarte, dann {card} tauschen",
    "You play no special card and swap a **{card}** for the top card of the special deck. "
    "See the channel for what happens.":
        "Du spielst keine Sonderkarte und tauschst eine **{card}** gegen die oberste Karte des "
        "Sonderkartenstapels. Was passiert, steht im Kanal.",
    "no take": "nimmt nichts",
    "you choose a row to take — {bull} {points} at best": "du wählst eine Reihe — bestenfalls {bull} {points}",
    "take row {row} — {bull} {points}": "nimmt Reihe {row} — {bull} {points}",
    "{card} in row {row} — no take": "{card} in Reihe {row} — nimmt nichts",
    "⌛ {player} did not decide in time: no special card was played on their {card}.":
        "⌛ {player} hat nicht rechtzeitig entschieden: auf die {card} wurde keine Sonderkarte gespielt.",
    "⌛ {player} did not decide in time and keeps their special cards.":
        "⌛ {player} hat nicht rechtzeitig entschieden und behält die Sonderkarten.",
    "I will not ask you: your special cards stay in your hand.":
        "Ich frage dich nicht: deine Sonderkarten bleiben auf deiner Hand.",

    # issue 17: outsiders, taking a seat back, the lobby's end, status, the draft hand, the tracker
    "You are not at this table. To play in the next game, press **Join** on its lobby, or open one with "
    "`/6nimmt start`.":
        "Du sitzt nicht an diesem Tisch. Um in der nächsten Partie mitzuspielen, drücke **Beitreten** in ihrer "
        "Lobby oder eröffne eine mit `/6nimmt eröffnen`.",
    "You are not at this table: press **Join** to sit down.":
        "Du sitzt nicht an diesem Tisch: drücke **Beitreten**, um Platz zu nehmen.",
    "An AI plays your seat since you missed two turns in a row.":
        "Eine KI spielt deinen Platz, seit du zwei Züge hintereinander verpasst hast.",
    "An AI plays your seat since you left the table.":
        "Eine KI spielt deinen Platz, seit du den Tisch verlassen hast.",
    "An AI plays your seat since the host removed you from this game; it stays with the AI.":
        "Eine KI spielt deinen Platz, seit dich der Gastgeber aus dieser Partie entfernt hat; er bleibt bei der KI.",
    "You have your seat back from the next turn on: the AI's choice for this turn stands.":
        "Du hast deinen Platz ab dem nächsten Zug zurück: die Wahl der KI für diesen Zug bleibt.",
    "The game is not running, so there is no seat to take back.":
        "Die Partie läuft nicht, also gibt es keinen Platz zurückzunehmen.",
    "You are playing your seat already.": "Du spielst deinen Platz schon selbst.",
    "The host removed you from this game, so its seat stays with the AI.":
        "Der Gastgeber hat dich aus dieser Partie entfernt, also bleibt dein Platz bei der KI.",
    "**{name}** took their seat back and plays again from the next turn.":
        "**{name}** hat den Platz zurückgenommen und spielt ab dem nächsten Zug wieder selbst.",
    "Press **Take my seat back** to play again from the next turn.":
        "Drücke **Platz zurücknehmen**, um ab dem nächsten Zug wieder selbst zu spielen.",
    "Take my seat back": "Platz zurücknehmen",
    "You have your seat back: you play again from the next turn on.":
        "Du hast deinen Platz zurück: ab dem nächsten Zug spielst du wieder selbst.",
    "**Your drafted cards** ({count}/10): {cards}. Only you can see this message, but everyone watched the draft.":
        "**Deine gewählten Karten** ({count}/10): {cards}. Nur du siehst diese Nachricht, aber alle haben beim "
        "Auswählen zugesehen.",
    "**Your turn:** take a card from the face-up pool below.":
        "**Du bist dran:** nimm eine Karte aus der offenen Auslage unten.",
    "Wait for your turn to draft.": "Warte, bis du mit dem Auswählen dran bist.",
    "You drafted **{card}**.": "Du hast **{card}** gewählt.",
    "Cards seen": "Gesehene Karten",
    "This table plays without helpers.": "An diesem Tisch wird ohne Hilfen gespielt.",
    "6 nimmt! — the game has started": "6 nimmt! — die Partie hat begonnen",
    "6 nimmt! — the game is over": "6 nimmt! — die Partie ist vorbei",
    "6 nimmt! — table closed": "6 nimmt! — Tisch geschlossen",
    "6 nimmt! — lobby closed": "6 nimmt! — Lobby geschlossen",
    "helpers on: every hand can show the cards seen this round":
        "Hilfen an: jede Hand kann die in dieser Runde gesehenen Karten zeigen",
    "The game has started: the table is in the newest message below.":
        "Die Partie hat begonnen: der Tisch ist in der neuesten Nachricht unten.",
    "Closed": "Geschlossen",
    "Open a new table with /6nimmt start.": "Eröffne einen neuen Tisch mit /6nimmt eröffnen.",
    "Here is the table; it is posted again at the bottom of the channel, with its buttons.":
        "Hier ist der Tisch; er wird auch unten im Kanal neu gepostet, mit seinen Schaltflächen.",
    "Here is the table; it is posted again at the bottom of its thread {thread}, with its buttons.":
        "Hier ist der Tisch; er wird auch unten in seinem Thread {thread} neu gepostet, mit seinen Schaltflächen.",
    "📝 **Cards seen this round** (only what everyone saw; only you get this list)":
        "📝 **In dieser Runde gesehene Karten** (nur, was alle gesehen haben; nur du bekommst diese Liste)",
    "In the rows: {cards}": "In den Reihen: {cards}",
    "Taken into piles: {cards}": "In Stapel genommen: {cards}",
    "Revealed, still to place: {cards}": "Aufgedeckt, noch anzulegen: {cards}",
    "Still in the other hands (drafted in front of everyone):":
        "Noch in den anderen Händen (vor allen ausgewählt):",
    "Not seen yet ({count}, in other hands or out of this round): {cards}":
        "Noch nicht gesehen ({count}, in anderen Händen oder nicht in dieser Runde): {cards}",
    # the score chart (cogs/render/chart.py): the built-in font draws ASCII only, so no umlauts here
    "Bullheads after each round": "Hornochsen nach jeder Runde",
    "Round {round}": "Runde {round}",
}
