"""Conversion between SQLite rows and the boundary models.

Kept apart from the SQL so every read path (restore, history, game log)
validates rows the same way and reports problems with the same wording.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import InvalidPayload
from .models import Checkpoint, GameRecord, LoggedAction, OutboxPost, ResultRow, SeatInfo, ServerSettings

GAME_COLUMNS = (
    "game_id, guild_id, channel_id, message_id, host_id, variant, options, status, "
    "seed, rounds, created_at, started_at, finished_at, updated_at"
)
SEAT_COLUMNS = "game_id, seat, user_id, ai_level, display_name"
RESULT_COLUMNS = "game_id, seat, user_id, display_name, ai_level, points, rank, won"

M = TypeVar("M", bound=BaseModel)


class RowError(ValueError):
    """A stored row that does not validate; the message says which and why."""


def dump_object(value: dict[str, Any], what: str) -> str:
    """Serialise a payload that must be a JSON object (compact, for speed/size)."""
    if not isinstance(value, dict):
        raise InvalidPayload(f"{what} must be a dict, got {type(value).__name__}")
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidPayload(f"{what} is not JSON-serialisable: {exc}") from exc


def load_object(text: Any, what: str) -> dict[str, Any]:
    if not isinstance(text, str):
        raise RowError(f"{what} is not JSON text (found {type(text).__name__})")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise RowError(f"{what} is not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise RowError(f"{what} is not a JSON object (found {type(value).__name__})")
    return value


def _validate(model: type[M], data: dict[str, Any], what: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'row'}: {err['msg']}" for err in exc.errors())
        raise RowError(f"{what} has invalid fields ({problems})") from None


def game_from_row(row: sqlite3.Row) -> GameRecord:
    data = dict(row)
    what = f"game {data.get('game_id')}"
    data["options"] = load_object(data["options"], f"{what} options")
    return _validate(GameRecord, data, what)


def seat_from_row(row: sqlite3.Row) -> SeatInfo:
    data = dict(row)
    game_id = data.pop("game_id")
    return _validate(SeatInfo, data, f"game {game_id} seat {data.get('seat')}")


def checkpoint_from_row(row: sqlite3.Row) -> Checkpoint:
    data = dict(row)
    game_id = data.pop("game_id")
    what = f"game {game_id} checkpoint"
    data["state"] = load_object(data["state"], f"{what} state")
    data["meta"] = load_object(data["meta"], f"{what} meta")
    return _validate(Checkpoint, data, what)


def action_from_row(row: sqlite3.Row) -> LoggedAction:
    data = dict(row)
    what = f"game {data.pop('game_id')} action {data.get('seq')}"
    data["action"] = load_object(data["action"], what)
    return _validate(LoggedAction, data, what)


def result_from_row(row: sqlite3.Row) -> ResultRow:
    data = dict(row)
    game_id = data.pop("game_id")
    return _validate(ResultRow, data, f"game {game_id} result of seat {data.get('seat')}")


def post_from_row(row: sqlite3.Row) -> OutboxPost:
    what = f"game {row['game_id']} post {row['seq']}"
    return _validate(OutboxPost, {"seq": row["seq"], "payload": load_object(row["payload"], what)}, what)


def settings_from_text(text: Any, what: str) -> ServerSettings:
    return _validate(ServerSettings, load_object(text, what), what)
