"""One step of a backend's schema: its version, what it does, and its statements.

Also the data moves that a step makes in Python (both backends alike), for
what SQL cannot do safely on possibly damaged JSON rows.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]
    #: Run after the statements, in the same transaction, on a connection with
    #: ``execute_fetchall`` and ``executemany`` (aiosqlite's, or PostgreSQL's ``Numbered``).
    after: Callable[[Any], Awaitable[None]] | None = None


#: Checkpoints whose meta may hold what version "outbox" moves out of it.
MOVABLE_META = (
    "SELECT game_id, meta, updated_at FROM checkpoints WHERE meta LIKE '%\"outbox\"%' OR meta LIKE '%\"message_id\"%'"
)
MOVE_POST = (
    "INSERT INTO outbox (game_id, seq, payload, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id, seq) DO NOTHING"
)
MOVE_META = "UPDATE checkpoints SET meta = ? WHERE game_id = ?"
MOVE_MESSAGE = "UPDATE games SET message_id = ? WHERE game_id = ?"


@dataclass(frozen=True)
class MovedMeta:
    """What one checkpoint's meta gives the outbox table and the game's message id."""

    meta: str | None  # the meta without its outbox and message id; None: unchanged
    message_id: int | None
    posts: list[tuple[int, str]]  # (seq, payload JSON)


def move_outbox(meta_text: Any) -> MovedMeta | None:
    """Split ``meta.outbox`` (entries with a "seq"; ``post_seq`` stays) and ``meta.message_id`` out
    of a checkpoint's meta, each kept once now: in the outbox table, on the game. None for a meta
    that is not a readable JSON object (left as it is: the restore reports it)."""
    try:
        meta = json.loads(meta_text)
    except (TypeError, ValueError):
        return None
    if not isinstance(meta, dict):
        return None
    if "outbox" not in meta and "message_id" not in meta:
        return MovedMeta(None, None, [])
    message_id = meta.pop("message_id", None)
    if not isinstance(message_id, int) or isinstance(message_id, bool):
        message_id = None
    outbox = meta.pop("outbox", None)
    posts = [
        (entry["seq"], json.dumps(entry, separators=(",", ":")))
        for entry in (outbox if isinstance(outbox, list) else [])
        if isinstance(entry, dict) and isinstance(entry.get("seq"), int) and entry["seq"] >= 1
    ]
    return MovedMeta(json.dumps(meta, separators=(",", ":")), message_id, posts)


def moved_rows(rows: list[Any]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """For MOVABLE_META's rows: (MOVE_POST rows, MOVE_META rows, MOVE_MESSAGE rows)."""
    posts: list[tuple[Any, ...]] = []
    metas: list[tuple[Any, ...]] = []
    messages: list[tuple[Any, ...]] = []
    for game_id, meta_text, updated_at in rows:
        moved = move_outbox(meta_text)
        if moved is None:
            continue
        posts += [(game_id, seq, payload, updated_at) for seq, payload in moved.posts]
        if moved.meta is not None:
            metas.append((moved.meta, game_id))
        if moved.message_id is not None:
            messages.append((moved.message_id, game_id))
    return posts, metas, messages


async def move_outbox_rows(conn: Any) -> None:
    """Version "outbox"'s data move: every checkpoint's meta.outbox into the outbox table,
    meta.message_id onto its game."""
    posts, metas, messages = moved_rows(list(await conn.execute_fetchall(MOVABLE_META)))
    for sql, rows in ((MOVE_POST, posts), (MOVE_META, metas), (MOVE_MESSAGE, messages)):
        if rows:
            await conn.executemany(sql, rows)


def outbox_migration(version: int, *, integer: str, real: str, table_options: str = "") -> Migration:
    """The step that gives the outbox a table and the live message id a column: the same on
    both backends but for their column types (``integer`` for ids, ``real`` for times)."""
    return Migration(
        version,
        "the posts a table owes its channel in a table of their own; the live message id on the game",
        (
            f"CREATE TABLE outbox (game_id {integer} NOT NULL REFERENCES games(game_id) ON DELETE CASCADE, "
            f"seq INTEGER NOT NULL CHECK (seq >= 1), payload TEXT NOT NULL, created_at {real} NOT NULL, "
            f"PRIMARY KEY (game_id, seq)){table_options}",
            "ALTER TABLE games DROP COLUMN message_ids",  # never written
            f"ALTER TABLE games ADD COLUMN message_id {integer}",
            "DROP INDEX checkpoints_unshown",
            "ALTER TABLE checkpoints DROP COLUMN unshown",  # derived now: the game has outbox rows
        ),
        after=move_outbox_rows,
    )


def server_settings_migration(version: int, *, integer: str, real: str) -> Migration:
    """The step that gives each server its own defaults (threads, pace, timers, AI level):
    one JSON object per guild, validated when read. The same on both backends but for
    their column types."""
    return Migration(
        version,
        "each server's own defaults for its tables",
        (
            f"CREATE TABLE server_settings (guild_id {integer} PRIMARY KEY REFERENCES guilds(guild_id), "
            f"settings TEXT NOT NULL, updated_at {real} NOT NULL)",
        ),
    )
