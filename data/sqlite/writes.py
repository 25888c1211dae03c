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
from ..models import GameResult, SeatInfo
from ..rating import GLOBAL_SCOPE, SkillRating, competition_ranks, rate_game
from ..rows import RowError, dump_object, load_object


def upsert_players(
    conn: sqlite3.Connection, players: Iterable[tuple[int, str]], now: float
) -> None:
    conn.executemany(
        "INSERT INTO players (user_id, display_name, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
        "updated_at = excluded.updated_at",
        [(user_id, name, now) for user_id, name in players],
    )


def replace_seats(
    conn: sqlite3.Connection, game_id: int, seats: Sequence[SeatInfo], now: float
) -> None:
    """Make the game's seats exactly ``seats`` (humans are upserted as players)."""
    upsert_players(
        conn, [(s.user_id, s.display_name) for s in seats if s.user_id is not None], now
    )
    conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) "
        "VALUES (?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.ai_level, s.display_name) for s in seats],
    )


# --------------------------------------------------------------------------- results


def record_results(
    conn: sqlite3.Connection, game_id: int, result: GameResult, now: float
) -> bool:
    """Finish a playing game with its results; False if it was already finished."""
    if result.game_id != game_id:
        raise ResultMismatch(f"result is for game {result.game_id}, not {game_id}")
    rows = conn.execute(
        "SELECT status, guild_id FROM games WHERE game_id = ?", (game_id,)
    ).fetchall()
    if not rows:
        raise GameNotFound(game_id)
    status, guild_id = rows[0]
    if status == "finished":
        return False
    if status != "playing":
        raise InvalidTransition(f"game {game_id} is {status}; only playing games finish")
    seat_rows = conn.execute(
        "SELECT seat FROM seats WHERE game_id = ?", (game_id,)
    ).fetchall()
    stored = {row[0] for row in seat_rows}
    reported = {s.seat for s in result.seats}
    if stored != reported:
        raise ResultMismatch(
            f"game {game_id} has seats {sorted(stored)}, result reports {sorted(reported)}"
        )
    write_results(conn, game_id, result, now)
    update_ratings(conn, guild_id, result, now)
    mark_finished(conn, game_id, result.rounds, now)
    return True


def write_results(
    conn: sqlite3.Connection, game_id: int, result: GameResult, now: float
) -> None:
    """Final standings, per-round scores and per-seat statistics."""
    seats = result.seats
    upsert_players(conn, [(s.user_id, s.name) for s in seats if s.user_id is not None], now)
    ranks = competition_ranks([s.points for s in seats])
    winners = set(result.winners)
    conn.executemany(
        "INSERT INTO results (game_id, seat, user_id, display_name, ai_level, points, "
        "rank, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.name, s.ai_level, s.points, rank, s.seat in winners)
         for s, rank in zip(seats, ranks)],
    )
    conn.executemany(
        "INSERT INTO round_scores (game_id, round, seat, points) VALUES (?, ?, ?, ?)",
        [(game_id, number, s.seat, points)
         for s in seats for number, points in enumerate(s.round_points, start=1)],
    )
    conn.executemany(
        "INSERT INTO seat_stats (game_id, seat, user_id, rows_taken, sixth_card_takes, "
        "low_card_takes) VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.rows_taken, s.sixth_card_takes, s.low_card_takes)
         for s in seats],
    )
    conn.executemany(
        "INSERT INTO seat_row_takes (game_id, seat, row_index, takes) VALUES (?, ?, ?, ?)",
        [(game_id, s.seat, row, takes)
         for s in seats for row, takes in sorted(s.row_takes_by_index.items())],
    )


def update_ratings(
    conn: sqlite3.Connection, guild_id: int, result: GameResult, now: float
) -> None:
    """Update the global and the guild rating of the human players (see rating.py)."""
    humans = [s for s in result.seats if s.user_id is not None]
    if len(humans) < 2:
        return
    user_ids = [s.user_id for s in humans]
    placeholders = ",".join("?" * len(user_ids))
    for scope in (GLOBAL_SCOPE, guild_id):
        rows = conn.execute(
            f"SELECT user_id, mu, sigma FROM ratings WHERE scope_id = ? "
            f"AND user_id IN ({placeholders})",
            (scope, *user_ids),
        ).fetchall()
        known = {row[0]: SkillRating(row[1], row[2]) for row in rows}
        before = [known.get(uid, SkillRating()) for uid in user_ids]
        after = rate_game(before, [s.points for s in humans])
        conn.executemany(
            "INSERT INTO ratings (scope_id, user_id, mu, sigma, games, updated_at) "
            "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (scope_id, user_id) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, games = games + 1, "
            "updated_at = excluded.updated_at",
            [(scope, uid, r.mu, r.sigma, now) for uid, r in zip(user_ids, after)],
        )


def mark_finished(
    conn: sqlite3.Connection, game_id: int, rounds: int, now: float
) -> None:
    conn.execute(
        "UPDATE games SET status = 'finished', rounds = ?, finished_at = ?, updated_at = ? "
        "WHERE game_id = ?",
        (rounds, now, now, game_id),
    )


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
    for sql, renames in privacy.FORGET_STATEMENTS:
        cursor = conn.execute(sql, privacy.forget_parameters(renames, user_id))
        changed += max(cursor.rowcount, 0)
    return changed > 0
