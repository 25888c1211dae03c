"""Finished games and players' records for the Discord face: exports, look-ups, forgetting.

Speaks ids and store models only (no discord objects). Every refusal is a
``TableError`` whose text is what the user reads, so the cogs stay thin.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from data.errors import GameNotFound, PlayerInActiveGame
from data.models import UNFINISHED_STATUSES, GameLog
from data.store import Store
from engine import (
    CardDrafted,
    CardPlaced,
    CardsRevealed,
    DraftEnded,
    Game,
    GameEnded,
    RoundEnded,
    RoundStarted,
    RowChoiceRequired,
    RowTaken,
    TakeReason,
    action_from_dict,
)
from engine.events import Event

from .errors import TableError
from .service import TableService
from .table import Table, TableOptions
from .text import N_, ChannelMention

EXPORT_FORMAT = "6nimmt-game-log/1"

#: ``(events, i, name) -> (line or None, events used)``: how the Discord face tells a
#: variant's own events (the Anniversary special cards), so the log tells them in the
#: same words; ``used == 0`` means the event is one of the classic ones below.
Narrator = Callable[[list[Event], int, Callable[[int], str]], tuple[str | None, int]]


class RecordError(TableError):
    """A look-up of stored games or players that cannot be answered; ``str()`` says why."""


class SeatedAtOpenTable(RecordError):
    def __init__(self, channel_id: int | None) -> None:
        if channel_id:
            super().__init__(
                N_(
                    "You are seated at an open 6 nimmt! table in {channel}. Leave it with "
                    "`/6nimmt leave` (or let the game end) before deleting your data."
                ),
                channel=ChannelMention(channel_id),
            )
        else:
            super().__init__(
                N_(
                    "You are seated at an open 6 nimmt! table. Leave it with `/6nimmt leave` "
                    "(or let the game end) before deleting your data."
                )
            )


def parse_game_id(text: str) -> int:
    """``12`` or ``#12`` → 12; anything else is refused with a clear message."""
    match = re.fullmatch(r"\s*#?\s*(\d{1,18})\s*", text or "")
    if match is None:
        raise RecordError(
            N_("`{text}` is not a game number: use the number shown in `/6nimmt history`, e.g. `game:12`."),
            text=text[:40],
        )
    return int(match[1])


def open_table_of(service: TableService, user_id: int) -> Table | None:
    """The open (lobby or playing) table this user has a seat at, if any."""
    for table in service.tables.values():
        if table.is_open and table.has_user(user_id):
            return table
    return None


async def forget_player(service: TableService, user_id: int) -> bool:
    """Delete the player's stored data; refused while they sit at an open table."""
    table = open_table_of(service, user_id)
    if table is not None:
        raise SeatedAtOpenTable(table.channel_id)
    try:
        return await service.store.forget_player(user_id)
    except PlayerInActiveGame:  # joined a table meanwhile, or a table the service has not restored
        raise SeatedAtOpenTable(None) from None


async def game_log_in(store: Store, guild_id: int | None, game_id: int) -> GameLog:
    """A game's log, if it was played in this server and is over (a running game's log shows hidden cards)."""
    try:
        log = await store.game_log(game_id)
    except GameNotFound:
        raise RecordError(
            N_("There is no game #{game}. `/6nimmt history` lists this server's games."), game=game_id
        ) from None
    if guild_id is None or log.game.guild_id != guild_id:
        raise RecordError(N_("Game #{game} was not played in this server."), game=game_id)
    if log.game.status in UNFINISHED_STATUSES:
        raise RecordError(N_("Game #{game} is still open; its log can be exported once it has ended."), game=game_id)
    return log


@dataclass(frozen=True)
class GameExport:
    game_id: int
    json_text: str
    text: str


def export_game(log: GameLog, now: datetime | None = None, narrate: Narrator | None = None) -> GameExport:
    data = {
        "format": EXPORT_FORMAT,
        "exported_at": (now or datetime.now(UTC)).isoformat(),
        **log.model_dump(mode="json"),
    }
    return GameExport(log.game.game_id, json.dumps(data, indent=2, ensure_ascii=False), log_text(log, narrate))


# --------------------------------------------------------------------------- readable log


def log_text(log: GameLog, narrate: Narrator | None = None) -> str:
    """A readable account of the game, replayed through the engine from its seed and action log."""
    game = log.game
    names = {s.seat: s.display_name for s in log.seats}
    lines = [
        f"6 nimmt! game #{game.game_id} — {game.variant}, {game.status}",
        f"Created {game.created_at:%Y-%m-%d %H:%M} UTC"
        + (f", finished {game.finished_at:%Y-%m-%d %H:%M} UTC" if game.finished_at else ""),
        "Players: "
        + ", ".join(f"{s.display_name}{' (AI ' + s.ai_level + ')' if s.ai_level else ''}" for s in log.seats),
        "",
    ]
    try:
        lines += _replay(log, names, narrate)
    except Exception as exc:  # an old or damaged log: still give the raw actions
        lines += [f"(The game could not be replayed: {exc}. Raw actions follow.)"]
        lines += [f"{a.seq:4d}  {json.dumps(a.action)}" for a in log.actions]
    if log.results:
        lines += ["", "Final standings:"]
        lines += [
            f"  {r.rank}. {r.display_name} — {r.points} points{' (winner)' if r.won else ''}" for r in log.results
        ]
    return "\n".join(lines) + "\n"


def _rows(rows: Iterable[Iterable[int]]) -> str:
    return " | ".join(" ".join(str(c) for c in row) for row in rows)


def _dealt(log: GameLog) -> Game:
    """The logged game as it was dealt, from its stored seed and options."""
    game_record = log.game
    if game_record.seed is None:
        raise ValueError("no seed was stored")
    options = TableOptions.model_validate(game_record.options)
    return Game.new(options.game_config(len(log.seats)), seed=game_record.seed)


def round_points_of(log: GameLog) -> list[list[int]] | None:
    """Each seat's points in each finished round (``[seat][round]``), replayed from the log.

    None when no round finished or the log cannot be replayed (an old or damaged one).
    """
    try:
        game = _dealt(log)
        for logged in log.actions:
            game.apply(action_from_dict(logged.action))
    except Exception:  # whatever a damaged log raises: the chart is left out, the files still go
        return None
    if not game.history:
        return None
    return [[points[seat] for points in game.history] for seat in range(game.players)]


def _replay(log: GameLog, names: dict[int, str], narrate: Narrator | None) -> list[str]:
    game = _dealt(log)

    def name(seat: int) -> str:
        return names.get(seat, f"seat {seat + 1}")

    lines = [f"Round {game.round}" + (f" — rows: {_rows(game.rows)}" if game.rows else " — draft")]
    for logged in log.actions:
        events = game.apply(action_from_dict(logged.action))
        i = 0
        while i < len(events):
            line, used = narrate(events, i, name) if narrate is not None else (None, 0)
            if used:
                if line:
                    lines.append("  " + line.strip().replace("**", ""))  # plain text, not Markdown
                i += used
                continue
            event = events[i]
            i += 1
            if isinstance(event, RoundStarted):
                lines += ["", f"Round {event.round}" + (f" — rows: {_rows(event.rows)}" if event.rows else " — draft")]
            elif isinstance(event, CardDrafted):
                lines.append(f"  {name(event.player)} drafts {event.card}")
            elif isinstance(event, DraftEnded):
                lines.append(f"  rows: {_rows(event.rows)}")
            elif isinstance(event, CardsRevealed):
                lines.append("Revealed: " + ", ".join(f"{card} {name(p)}" for card, p in event.cards))
            elif isinstance(event, RowChoiceRequired):
                lines.append(f"  {name(event.player)}'s {event.card} is lower than every row: they choose a row")
            elif isinstance(event, RowTaken):
                why = "full row" if event.reason is TakeReason.FULL_ROW else "low card"
                lines.append(
                    f"  {name(event.player)} takes row {event.row + 1} "
                    f"({' '.join(map(str, event.cards))}: {event.bullheads} bullheads, {why})"
                )
            elif isinstance(event, CardPlaced):
                lines.append(f"  {event.card} ({name(event.player)}) → row {event.row + 1}")
            elif isinstance(event, RoundEnded):
                lines.append(
                    f"End of round {event.round}: "
                    + ", ".join(f"{name(p)} +{pts} = {event.totals[p]}" for p, pts in enumerate(event.points))
                )
            elif isinstance(event, GameEnded):
                lines.append("Game over.")
    return lines
