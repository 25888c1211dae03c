"""Read-side SQL: restore, leaderboards, statistics, history and game logs.

Shared by both backends: the SQL is written in the subset SQLite and
PostgreSQL read alike (``?`` and ``:name`` parameters; the PostgreSQL backend
numbers them), so both give the same answers by construction. Functions take
a ``Reader`` inside a read transaction, so a query made of several
statements sees one consistent snapshot.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, get_args

from . import statements
from .errors import CorruptRecord, GameNotFound, UnknownMetric
from .models import (
    UNFINISHED_STATUSES,
    CorruptTable,
    GameLog,
    GameScore,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    Metric,
    PlayerStats,
    RatingInfo,
    RestoredTable,
    ServerSettings,
)
from .rating import DEFAULT_ORDINAL, GLOBAL_SCOPE
from .rows import (
    GAME_COLUMNS,
    RESULT_COLUMNS,
    SEAT_COLUMNS,
    RowError,
    action_from_row,
    checkpoint_from_row,
    game_from_row,
    post_from_row,
    result_from_row,
    seat_from_row,
    settings_from_text,
)

log = logging.getLogger(__name__)


class Reader(Protocol):
    """A connection in a read transaction: aiosqlite's, or the PostgreSQL adapter."""

    async def execute_fetchall(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ...
    ) -> Iterable[Any]: ...


async def _fetch(conn: Reader, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()) -> list[Any]:
    """The rows of ``sql`` as a list, to index (a ``Reader`` promises only an iterable)."""
    return list(await conn.execute_fetchall(sql, parameters))


_UNFINISHED = "status IN ({})".format(",".join(f"'{s}'" for s in UNFINISHED_STATUSES))


def _in_scope(guild_id: int | None) -> str:
    """Finished games of one guild (``:guild``), or of every guild for None. Two texts rather
    than ``(:guild IS NULL OR ...)``, which keeps both databases from using the guild's index."""
    return "g.status = 'finished'" + ("" if guild_id is None else " AND g.guild_id = :guild")


# --------------------------------------------------------------------------- servers


async def server_settings(conn: Reader, guild_id: int) -> ServerSettings | None:
    """The guild's stored settings; None if it has none, or if its row does not validate
    (logged: a damaged row must not keep the server from playing)."""
    rows = await _fetch(conn, statements.SERVER_SETTINGS, (guild_id,))
    if not rows:
        return None
    try:
        return settings_from_text(rows[0][0], f"guild {guild_id} settings")
    except RowError as exc:
        log.warning("ignoring stored settings: %s", exc)
        return None


async def all_server_settings(conn: Reader) -> dict[int, ServerSettings]:
    """Every guild's stored settings (a row that does not validate is logged and left out)."""
    found: dict[int, ServerSettings] = {}
    for guild_id, text in await conn.execute_fetchall(statements.ALL_SERVER_SETTINGS, ()):
        try:
            found[int(guild_id)] = settings_from_text(text, f"guild {guild_id} settings")
        except RowError as exc:
            log.warning("ignoring stored settings: %s", exc)
    return found


# --------------------------------------------------------------------------- restore


async def load_unfinished(conn: Reader) -> list[RestoredTable | CorruptTable]:
    """Three set queries (not 3 x N) so 1,000 tables restore in milliseconds."""
    return await _load_tables(conn, _UNFINISHED, ())


async def load_unshown(conn: Reader) -> list[RestoredTable | CorruptTable]:
    """Ended tables whose last news has not reached their channel yet."""
    return await _load_tables(conn, f"NOT {_UNFINISHED} AND game_id IN (SELECT game_id FROM outbox)", ())


async def load_table(conn: Reader, game_id: int) -> RestoredTable | CorruptTable | None:
    tables = await _load_tables(conn, "game_id = ?", (game_id,))
    return tables[0] if tables else None


async def _load_tables(conn: Reader, where: str, params: tuple[Any, ...]) -> list[RestoredTable | CorruptTable]:
    games = await conn.execute_fetchall(f"SELECT {GAME_COLUMNS} FROM games WHERE {where} ORDER BY game_id", params)
    seats: dict[int, list[Any]] = defaultdict(list)
    for row in await conn.execute_fetchall(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id IN "
        f"(SELECT game_id FROM games WHERE {where}) ORDER BY game_id, seat",
        params,
    ):
        seats[row["game_id"]].append(row)
    checkpoints = {
        row["game_id"]: row
        for row in await conn.execute_fetchall(
            "SELECT c.game_id, c.state, c.meta, c.last_seq, c.updated_at FROM checkpoints c "
            f"WHERE c.game_id IN (SELECT game_id FROM games WHERE {where})",
            params,
        )
    }
    posts: dict[int, list[Any]] = defaultdict(list)
    for row in await conn.execute_fetchall(
        "SELECT game_id, seq, payload FROM outbox WHERE game_id IN "
        f"(SELECT game_id FROM games WHERE {where}) ORDER BY game_id, seq",
        params,
    ):
        posts[row["game_id"]].append(row)
    restored: list[RestoredTable | CorruptTable] = []
    for row in games:
        game_id = row["game_id"]
        try:
            restored.append(_restore(row, seats[game_id], checkpoints.get(game_id), posts[game_id]))
        except RowError as exc:
            restored.append(CorruptTable(game_id=game_id, reason=str(exc)))
        except Exception as exc:  # never let one foreign row hide the others
            restored.append(CorruptTable(game_id=game_id, reason=f"unreadable: {exc!r}"))
    return restored


def _restore(game_row: Any, seat_rows: list[Any], checkpoint_row: Any, post_rows: list[Any]) -> RestoredTable:
    game = game_from_row(game_row)
    checkpoint = None if checkpoint_row is None else checkpoint_from_row(checkpoint_row)
    if checkpoint is None and game.status != "lobby":
        raise RowError(f"game {game.game_id} is {game.status} but has no checkpoint")
    return RestoredTable(
        game=game,
        seats=[seat_from_row(r) for r in seat_rows],
        checkpoint=checkpoint,
        posts=[post_from_row(r) for r in post_rows],
    )


# --------------------------------------------------------------------------- leaderboard

_METRIC_ORDER: dict[str, str] = {
    "wins": "wins DESC",
    "win_rate": "win_rate DESC",
    "avg_points_per_round": "avg_points_per_round ASC NULLS LAST",  # fewer points is better
    "games": "games DESC",
    "rating": "rating DESC",
}
assert set(_METRIC_ORDER) == set(get_args(Metric))

# "+r.user_id": grouping by the bare column lets SQLite walk the results_user index, one
# random lookup per result (9 s at 100,000 games); the expression makes it scan and sort
# (0.4 s). PostgreSQL reads both alike.
_RANKED = """
WITH agg AS (
    SELECT +r.user_id AS user_id, count(*) AS games, sum(r.won) AS wins,
           sum(r.points) AS points, sum(g.rounds) AS rounds
    FROM results r JOIN games g ON g.game_id = r.game_id
    WHERE r.user_id IS NOT NULL AND {in_scope}
    GROUP BY +r.user_id
    HAVING count(*) >= :min_games
), scored AS (
    SELECT a.user_id, coalesce(p.display_name, '') AS display_name, a.games, a.wins,
           CAST(a.wins AS DOUBLE PRECISION) / a.games AS win_rate,
           CAST(a.points AS DOUBLE PRECISION) / nullif(a.rounds, 0) AS avg_points_per_round,
           coalesce(rt.mu - 3 * rt.sigma, :default_rating) AS rating
    FROM agg a
    LEFT JOIN players p ON p.user_id = a.user_id
    LEFT JOIN ratings rt ON rt.scope_id = :scope AND rt.user_id = a.user_id
), ranked AS (
    SELECT *, {value} AS value, RANK() OVER (ORDER BY {order}) AS rank FROM scored
)
"""


def _ranked_sql(metric: str, guild_id: int | None) -> str:
    if metric not in _METRIC_ORDER:
        raise UnknownMetric(f"unknown leaderboard metric {metric!r}; choose one of {', '.join(_METRIC_ORDER)}")
    # Only whitelisted identifiers are interpolated; values are bound.
    return _RANKED.format(in_scope=_in_scope(guild_id), value=metric, order=_METRIC_ORDER[metric])


def _scope_params(guild_id: int | None, min_games: int) -> dict[str, Any]:
    return {
        "guild": guild_id,
        "scope": GLOBAL_SCOPE if guild_id is None else guild_id,
        "min_games": max(1, min_games),
        "default_rating": DEFAULT_ORDINAL,
    }


def _entry(row: Any) -> LeaderboardEntry:
    return LeaderboardEntry.model_validate({k: row[k] for k in LeaderboardEntry.model_fields})


async def leaderboard(
    conn: Reader,
    guild_id: int | None,
    metric: Metric,
    min_games: int,
    limit: int,
    offset: int,
) -> LeaderboardPage:
    """One page of players ranked by ``metric``; ties share a rank."""
    ranked = _ranked_sql(metric, guild_id)
    params = _scope_params(guild_id, min_games)
    # The total rides along with the page: one pass over the results, not two.
    rows = await _fetch(
        conn,
        ranked + "SELECT *, count(*) OVER () AS total FROM ranked ORDER BY rank, lower(display_name), user_id "
        "LIMIT :limit OFFSET :offset",
        {**params, "limit": max(0, limit), "offset": max(0, offset)},
    )
    if rows:
        total = rows[0]["total"]
    else:  # a page past the end (or of none) still says how many there are
        total = (await _fetch(conn, ranked + "SELECT count(*) FROM ranked", params))[0][0]
    return LeaderboardPage(
        metric=metric,
        entries=[_entry(r) for r in rows],
        total=total,
        offset=offset,
        limit=limit,
    )


async def rank_of(
    conn: Reader,
    user_id: int,
    guild_id: int | None,
    metric: Metric,
    min_games: int,
) -> LeaderboardEntry | None:
    rows = await _fetch(
        conn,
        _ranked_sql(metric, guild_id) + "SELECT * FROM ranked WHERE user_id = :user",
        {**_scope_params(guild_id, min_games), "user": user_id},
    )
    return _entry(rows[0]) if rows else None


# --------------------------------------------------------------------------- player stats


async def player_stats(conn: Reader, user_id: int, guild_id: int | None) -> PlayerStats:
    params = {"user": user_id, "guild": guild_id}
    from_results = (
        f"FROM results r JOIN games g ON g.game_id = r.game_id WHERE r.user_id = :user AND {_in_scope(guild_id)}"
    )
    [totals] = await conn.execute_fetchall(
        f"SELECT count(*), coalesce(sum(r.won), 0), sum(r.points), sum(g.rounds), count(r.ai_level) {from_results}",
        params,
    )
    games, wins, points, rounds, finished_by_ai = totals
    best, worst = [
        _game_score(
            await _fetch(
                conn,
                f"SELECT r.game_id, r.points, g.finished_at {from_results} "
                f"ORDER BY r.points {direction}, g.finished_at DESC LIMIT 1",
                params,
            )
        )
        for direction in ("ASC", "DESC")
    ]
    stats_join = "JOIN games g ON g.game_id = s.game_id WHERE s.user_id = :user AND " + _in_scope(guild_id)
    [takes] = await conn.execute_fetchall(
        "SELECT coalesce(sum(s.rows_taken), 0), coalesce(sum(s.sixth_card_takes), 0), "
        f"coalesce(sum(s.low_card_takes), 0) FROM seat_stats s {stats_join}",
        params,
    )
    row_takes = {
        row[0]: row[1]
        for row in await conn.execute_fetchall(
            "SELECT t.row_index, sum(t.takes) FROM seat_row_takes t JOIN seat_stats s "
            f"ON s.game_id = t.game_id AND s.seat = t.seat {stats_join} "
            "GROUP BY t.row_index ORDER BY t.row_index",
            params,
        )
    }
    names = await _fetch(conn, "SELECT display_name FROM players WHERE user_id = ?", (user_id,))
    return PlayerStats(
        user_id=user_id,
        display_name=names[0][0] if names else None,
        guild_id=guild_id,
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        avg_points_per_round=points / rounds if rounds else None,
        avg_points_per_game=points / games if games else None,
        best_game=best,
        worst_game=worst,
        rows_taken=takes[0],
        sixth_card_takes=takes[1],
        low_card_takes=takes[2],
        row_takes=row_takes,
        favourite_row=max(row_takes, key=lambda r: (row_takes[r], -r)) if row_takes else None,
        rating=await _rating(conn, user_id, guild_id),
        finished_by_ai=finished_by_ai,
    )


def _game_score(rows: list[Any]) -> GameScore | None:
    if not rows:
        return None
    return GameScore(game_id=rows[0][0], points=rows[0][1], finished_at=rows[0][2])


async def _rating(conn: Reader, user_id: int, guild_id: int | None) -> RatingInfo | None:
    scope = GLOBAL_SCOPE if guild_id is None else guild_id
    rows = await _fetch(
        conn,
        "SELECT mu, sigma, games FROM ratings WHERE scope_id = ? AND user_id = ?",
        (scope, user_id),
    )
    if not rows:
        return None
    mu, sigma, games = rows[0]
    return RatingInfo(mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=games)


# --------------------------------------------------------------------------- history / log


async def history(conn: Reader, guild_id: int | None, limit: int) -> list[GameSummary]:
    """The last ``limit`` finished games, newest first, with their standings."""
    game_rows = await conn.execute_fetchall(
        f"SELECT {GAME_COLUMNS} FROM games g WHERE {_in_scope(guild_id)} "
        "ORDER BY g.finished_at DESC, g.game_id DESC LIMIT :limit",
        {"guild": guild_id, "limit": max(0, limit)},
    )
    if not game_rows:
        return []
    ids = [row["game_id"] for row in game_rows]
    results: dict[int, list[Any]] = defaultdict(list)
    for row in await conn.execute_fetchall(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id IN "
        f"({','.join('?' * len(ids))}) ORDER BY game_id, rank, seat",
        ids,
    ):
        results[row["game_id"]].append(row)
    try:
        return [
            GameSummary(game=game_from_row(row), results=[result_from_row(r) for r in results[row["game_id"]]])
            for row in game_rows
        ]
    except RowError as exc:
        raise CorruptRecord(str(exc)) from None


async def game_log(conn: Reader, game_id: int) -> GameLog:
    """Game record, seats, results and the full action log in sequence order."""
    game_rows = await _fetch(conn, f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,))
    if not game_rows:
        raise GameNotFound(game_id)
    by_game = (game_id,)
    seat_rows = await conn.execute_fetchall(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", by_game
    )
    action_rows = await conn.execute_fetchall(
        "SELECT game_id, seq, action, created_at FROM actions WHERE game_id = ? ORDER BY seq",
        by_game,
    )
    result_rows = await conn.execute_fetchall(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY rank, seat", by_game
    )
    try:
        return GameLog(
            game=game_from_row(game_rows[0]),
            seats=[seat_from_row(r) for r in seat_rows],
            actions=[action_from_row(r) for r in action_rows],
            results=[result_from_row(r) for r in result_rows],
        )
    except RowError as exc:
        raise CorruptRecord(str(exc)) from None
