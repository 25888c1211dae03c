"""Forgetting a player: what both backends delete, anonymise and scrub.

The SQL is run as is by SQLite and numbered by the PostgreSQL backend, so the
two forget exactly the same things. Checkpoint ``meta`` is the table
service's JSON (host, seats with ids and names); it is walked here rather than
in SQL so neither backend needs JSON functions of its own.
"""

from __future__ import annotations

from typing import Any

from .models import DELETED_PLAYER_NAME, UNFINISHED_STATUSES

ID_KEYS = ("user_id", "host_id")

#: Seats of the player at a table still open (forgetting them would break it).
ACTIVE_SEATS = (
    "SELECT s.game_id FROM seats s JOIN games g ON g.game_id = s.game_id "
    "WHERE s.user_id = ? AND g.status IN ({}) ORDER BY s.game_id"
).format(",".join(f"'{s}'" for s in UNFINISHED_STATUSES))

#: JSON that may name the player (the id's digits appear in its text), scrubbed with
#: scrub_meta: (select key..., text; update text by key; what it is). Checkpoint meta is the
#: service's (host, seats with ids and names); a post still owed may name seats too.
SCRUBBED: tuple[tuple[str, str, str], ...] = (
    (
        "SELECT game_id, meta FROM checkpoints WHERE meta LIKE ?",
        "UPDATE checkpoints SET meta = ? WHERE game_id = ?",
        "meta",
    ),
    (
        "SELECT game_id, seq, payload FROM outbox WHERE payload LIKE ?",
        "UPDATE outbox SET payload = ? WHERE game_id = ? AND seq = ?",
        "post payload",
    ),
)

#: Each statement takes (user_id,) or, for the renames, (DELETED_PLAYER_NAME, user_id).
FORGET_STATEMENTS: tuple[tuple[str, bool], ...] = (
    ("DELETE FROM seat_stats WHERE user_id = ?", False),
    ("DELETE FROM ratings WHERE user_id = ?", False),
    ("UPDATE seats SET user_id = NULL, display_name = ? WHERE user_id = ?", True),
    ("UPDATE results SET user_id = NULL, display_name = ? WHERE user_id = ?", True),
    ("UPDATE games SET host_id = NULL WHERE host_id = ?", False),
    ("DELETE FROM players WHERE user_id = ?", False),
)


def forget_parameters(renames: bool, user_id: int) -> tuple[Any, ...]:
    return (DELETED_PLAYER_NAME, user_id) if renames else (user_id,)


def meta_pattern(user_id: int) -> str:
    return f"%{int(user_id)}%"


def scrub_meta(meta: Any, user_id: int) -> tuple[Any, bool]:
    """``meta`` with every ``user_id``/``host_id`` equal to the player set to None and
    the ``name`` beside such an id anonymised; and whether anything changed."""
    if isinstance(meta, list):
        items = [scrub_meta(item, user_id) for item in meta]
        return [item for item, _ in items], any(changed for _, changed in items)
    if not isinstance(meta, dict):
        return meta, False
    scrubbed: dict[str, Any] = {}
    changed = False
    for key, value in meta.items():
        if key in ID_KEYS and _is_player(value, user_id):
            scrubbed[key], changed = None, True
        elif key == "name" and _is_player(meta.get("user_id"), user_id):  # the player's seat
            scrubbed[key], changed = DELETED_PLAYER_NAME, True
        else:
            scrubbed[key], inner = scrub_meta(value, user_id)
            changed = changed or inner
    return scrubbed, changed


def _is_player(value: Any, user_id: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value == user_id
