"""Write statements both backends run, and the rows they insert.

Written in the SQL that SQLite and PostgreSQL read alike (``?`` parameters,
which the PostgreSQL backend numbers), so the two write the same rows: the
backends differ only in how they run a transaction, not in what it writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .models import GameResult, SeatInfo, SeatResult
from .rating import GLOBAL_SCOPE, SkillRating, competition_ranks, rate_game

UPSERT_PLAYER = (
    "INSERT INTO players (user_id, display_name, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
    "updated_at = excluded.updated_at"
)
# A table can open before the guild was ever seen.
ENSURE_GUILD = "INSERT INTO guilds (guild_id, updated_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING"
# A server's settings: one JSON object per guild, replaced whole.
UPSERT_SERVER_SETTINGS = (
    "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at"
)
SERVER_SETTINGS = "SELECT settings FROM server_settings WHERE guild_id = ?"
ALL_SERVER_SETTINGS = "SELECT guild_id, settings FROM server_settings"
INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, host_id, variant, options, status, seed, "
    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING game_id"
)
STATUS_OF = "SELECT status FROM games WHERE game_id = ?"
DELETE_SEATS = "DELETE FROM seats WHERE game_id = ?"
INSERT_SEAT = "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) VALUES (?, ?, ?, ?, ?)"
SEATS_OF = "SELECT seat FROM seats WHERE game_id = ?"

# Finishing claims the game in one statement: of two tries (two processes, or a retry
# after a restart) only one finds it still playing, and only that one writes results.
CLAIM_FINISH = (
    "UPDATE games SET status = 'finished', rounds = ?, finished_at = ?, updated_at = ? "
    "WHERE game_id = ? AND status = 'playing' RETURNING guild_id"
)
INSERT_RESULT = (
    "INSERT INTO results (game_id, seat, user_id, display_name, ai_level, points, rank, won) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_ROUND_SCORE = "INSERT INTO round_scores (game_id, round, seat, points) VALUES (?, ?, ?, ?)"
INSERT_SEAT_STATS = (
    "INSERT INTO seat_stats (game_id, seat, user_id, rows_taken, sixth_card_takes, low_card_takes) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
INSERT_ROW_TAKES = "INSERT INTO seat_row_takes (game_id, seat, row_index, takes) VALUES (?, ?, ?, ?)"
UPSERT_RATING = (
    "INSERT INTO ratings (scope_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, 1, ?) "
    "ON CONFLICT (scope_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = ratings.games + 1, updated_at = excluded.updated_at"
)


# Status changes a commit may make; 'finished' only comes with results.
TRANSITIONS: dict[str, frozenset[str]] = {
    "lobby": frozenset({"lobby", "playing", "cancelled", "abandoned"}),
    "playing": frozenset({"playing", "cancelled", "abandoned"}),
}


def ratings_of(user_count: int) -> str:
    """The stored ratings of ``user_count`` players in one scope: (scope, *user ids)."""
    return f"SELECT user_id, mu, sigma FROM ratings WHERE scope_id = ? AND user_id IN ({','.join('?' * user_count)})"


def player_rows(players: Iterable[tuple[int, str]], now: float) -> list[tuple[Any, ...]]:
    return [(user_id, name, now) for user_id, name in players]


def seat_rows(game_id: int, seats: Sequence[SeatInfo]) -> list[tuple[Any, ...]]:
    return [(game_id, s.seat, s.user_id, s.ai_level, s.display_name) for s in seats]


def seat_players(seats: Sequence[SeatInfo]) -> list[tuple[int, str]]:
    return [(s.user_id, s.display_name) for s in seats if s.user_id is not None]


def result_players(result: GameResult) -> list[tuple[int, str]]:
    return [(s.user_id, s.name) for s in result.seats if s.user_id is not None]


def result_rows(game_id: int, result: GameResult) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Final standings, per-round scores and per-seat statistics: (statement, rows), in order."""
    seats = result.seats
    ranks = competition_ranks([s.points for s in seats])
    winners = set(result.winners)
    return [
        (
            INSERT_RESULT,
            [
                (game_id, s.seat, s.user_id, s.name, s.ai_level, s.points, rank, int(s.seat in winners))
                for s, rank in zip(seats, ranks, strict=True)
            ],
        ),
        (
            INSERT_ROUND_SCORE,
            [(game_id, number, s.seat, points) for s in seats for number, points in enumerate(s.round_points, start=1)],
        ),
        (
            INSERT_SEAT_STATS,
            [(game_id, s.seat, s.user_id, s.rows_taken, s.sixth_card_takes, s.low_card_takes) for s in seats],
        ),
        (
            INSERT_ROW_TAKES,
            [(game_id, s.seat, row, takes) for s in seats for row, takes in sorted(s.row_takes_by_index.items())],
        ),
    ]


def rated_humans(result: GameResult) -> list[SeatResult]:
    """The seats whose ratings the game changes: humans, when at least two played (see rating.py)."""
    humans = [s for s in result.seats if s.user_id is not None]
    return humans if len(humans) >= 2 else []


def rating_scopes(guild_id: int) -> tuple[int, int]:
    return (GLOBAL_SCOPE, guild_id)


def rating_rows(
    scope: int, humans: Sequence[SeatResult], known: Iterable[Sequence[Any]], now: float
) -> list[tuple[Any, ...]]:
    """UPSERT_RATING rows for one scope, from the stored (user_id, mu, sigma) rows."""
    stored = {row[0]: SkillRating(row[1], row[2]) for row in known}
    before = [stored.get(s.user_id, SkillRating()) for s in humans]
    after = rate_game(before, [s.points for s in humans])
    return [(scope, s.user_id, r.mu, r.sigma, now) for s, r in zip(humans, after, strict=True)]


def seat_mismatch(game_id: int, stored: Iterable[int], result: GameResult) -> str | None:
    """Why ``result`` does not fit the game's stored seats, or None."""
    stored_seats = set(stored)
    reported = {s.seat for s in result.seats}
    if stored_seats == reported:
        return None
    return f"game {game_id} has seats {sorted(stored_seats)}, result reports {sorted(reported)}"
