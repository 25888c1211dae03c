"""Write steps that run inside a transaction opened by SQLiteStore.

Each function takes the writer's sqlite3 connection *already inside* a
transaction, in aiosqlite's thread (see ``tx.run_transaction``), and never
commits: the caller decides the transaction boundary, which is what makes
record_results all-or-nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sqlite3

from ..errors import GameNotFound, InvalidTransition, PlayerInActiveGame, ResultMismatch
from .. import privacy
from .. import statements as sql
from ..models import GameResult, SeatInfo
from ..rows import RowError, dump_object, load_object


def upsert_players(
    conn: sqlite3.Connection, players: Iterable[tuple[int, str]], now: float
) -> None:
    conn.executemany(sql.UPSERT_PLAYER, sql.player_rows(players, now))


def replace_seats(
    conn: sqlite3.Connection, game_id: int, seats: Sequence[SeatInfo], now: float
) -> None:
    """Make the game's seats exactly ``seats`` (humans are upserted as players)."""
    upsert_players(conn, sql.seat_players(seats), now)
    conn.execute(sql.DELETE_SEATS, (game_id,))
    conn.executemany(sql.INSERT_SEAT, sql.seat_rows(game_id, seats))


# --------------------------------------------------------------------------- results


def record_results(
    conn: sqlite3.Connection, game_id: int, result: GameResult, now: float
) -> bool:
    """Finish a playing game with its results; False if it was already finished."""
    if result.game_id != game_id:
        raise ResultMismatch(f"result is for game {result.game_id}, not {game_id}")
    claimed = conn.execute(sql.CLAIM_FINISH, (result.rounds, now, now, game_id)).fetchall()
    if not claimed:
        status = conn.execute(sql.STATUS_OF, (game_id,)).fetchall()
        if not status:
            raise GameNotFound(game_id)
        if status[0][0] == "finished":
            return False
        raise InvalidTransition(f"game {game_id} is {status[0][0]}; only playing games finish")
    mismatch = sql.seat_mismatch(game_id, (row[0] for row in conn.execute(sql.SEATS_OF, (game_id,))), result)
    if mismatch:
        raise ResultMismatch(mismatch)  # rolls the claim back with the rest
    write_results(conn, game_id, result, now)
    update_ratings(conn, claimed[0][0], result, now)
    return True


def write_results(
    conn: sqlite3.Connection, game_id: int, result: GameResult, now: float
) -> None:
    """Final standings, per-round scores and per-seat statistics."""
    upsert_players(conn, sql.result_players(result), now)
    for statement, rows in sql.result_rows(game_id, result):
        conn.executemany(statement, rows)


def update_ratings(
    conn: sqlite3.Connection, guild_id: int, result: GameResult, now: float
) -> None:
    """Update the global and the guild rating of the human players (see rating.py)."""
    humans = sql.rated_humans(result)
    if not humans:
        return
    for scope in sql.rating_scopes(guild_id):
        known = conn.execute(sql.ratings_of(len(humans)), (scope, *(s.user_id for s in humans))).fetchall()
        conn.executemany(sql.UPSERT_RATING, sql.rating_rows(scope, humans, known, now))


# --------------------------------------------------------------------------- privacy


def forget_player(conn: sqlite3.Connection, user_id: int) -> bool:
    """Delete a player's own data; anonymise, but keep, their seats and results.

    Other players' standings, ranks and ratings stay untouched, so past
    games remain consistent. Action logs refer to seats, not users, and are
    kept as they are; checkpoints keep the table but lose the player's id and name.
    """
    active = conn.execute(privacy.ACTIVE_SEATS, (user_id,)).fetchall()
    if active:
        ids = ", ".join(str(row[0]) for row in active)
        raise PlayerInActiveGame(f"user {user_id} is seated at open table(s) {ids}")
    changed = 0
    for game_id, text in conn.execute(privacy.CHECKPOINTS_NAMING, (privacy.meta_pattern(user_id),)).fetchall():
        try:
            meta, scrubbed = privacy.scrub_meta(load_object(text, "meta"), user_id)
        except RowError:  # unreadable, so it cannot be scrubbed: it goes
            meta, scrubbed = {}, True
        if scrubbed:
            conn.execute(privacy.UPDATE_META, (dump_object(meta, "meta"), game_id))
            changed += 1
    for statement, renames in privacy.FORGET_STATEMENTS:
        cursor = conn.execute(statement, privacy.forget_parameters(renames, user_id))
        changed += max(cursor.rowcount, 0)
    return changed > 0
