"""Write transactions of the PostgreSQL store, on the shared statements.

Each function runs inside a transaction its caller opened and never commits.
They follow ``data/sqlite/writes.py`` step for step; where SQLite relies on
its single writer, these take row or advisory locks, since several processes
write one PostgreSQL database at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import privacy
from .. import statements as sql
from ..errors import GameNotActive, GameNotFound, InvalidTransition, PlayerInActiveGame, ResultMismatch
from ..models import UNFINISHED_STATUSES, GameResult, SeatInfo
from ..rows import RowError, dump_object, load_object
from .sql import Numbered, changed_rows


async def upsert_players(conn: Numbered, players: Iterable[tuple[int, str]], now: float) -> None:
    # Sorted, so two transactions upserting the same players lock them in one order.
    await conn.executemany(sql.UPSERT_PLAYER, sorted(sql.player_rows(players, now)))


async def replace_seats(conn: Numbered, game_id: int, seats: Sequence[SeatInfo], now: float) -> None:
    await upsert_players(conn, sql.seat_players(seats), now)
    await conn.execute(sql.DELETE_SEATS, (game_id,))
    await conn.executemany(sql.INSERT_SEAT, sql.seat_rows(game_id, seats))


async def status_of(conn: Numbered, game_id: int, *, lock: bool = False) -> str:
    rows = await conn.execute_fetchall(sql.STATUS_OF + (" FOR UPDATE" if lock else ""), (game_id,))
    if not rows:
        raise GameNotFound(game_id)
    return rows[0][0]


# --------------------------------------------------------------------------- checkpoints

_LAST_SEQ = "SELECT coalesce(max(last_seq), 0) FROM checkpoints WHERE game_id = $1"
_LOGGED = "SELECT action FROM actions WHERE game_id = $1 AND seq = $2"
_INSERT_ACTIONS = (
    "INSERT INTO actions (game_id, seq, action, created_at) "
    "SELECT $1, $2::int + ordinality::int - 1, action, $4 "
    "FROM unnest($3::text[]) WITH ORDINALITY AS a(action, ordinality)"
)
_UPSERT_CHECKPOINT = (
    "INSERT INTO checkpoints (game_id, last_seq, state, meta, updated_at, unshown) "
    "VALUES ($1, $2, $3, $4, $5, $6) "
    "ON CONFLICT (game_id) DO UPDATE SET last_seq = excluded.last_seq, state = excluded.state, "
    "meta = excluded.meta, updated_at = excluded.updated_at, unshown = excluded.unshown"
)


async def checkpoint(conn: Numbered, game_id: int, state: str, meta: str, actions: list[str], unshown: bool,
                     now: float, attempt: dict[str, int]) -> int | None:
    """Append ``actions`` and replace the checkpoint; the last sequence number, or None.

    ``attempt`` carries, from one try to the next, the sequence number the log
    stood at: when a connection died during COMMIT the outcome is unknown, and
    a retry that finds exactly these actions already appended after it knows
    the first try committed, and writes nothing twice.
    """
    status = await status_of(conn, game_id, lock=True)  # one writer per game at a time
    # A statement of its own, after the lock: it sees what the previous holder committed.
    last_seq = await conn.conn.fetchval(_LAST_SEQ, game_id)
    if actions and status not in UNFINISHED_STATUSES:
        raise GameNotActive(f"game {game_id} is {status}; its action log is closed")
    before = attempt.setdefault("last_seq", last_seq)  # kept from the first try
    if actions and last_seq == before + len(actions):
        if await conn.conn.fetchval(_LOGGED, game_id, last_seq) == actions[-1]:
            return last_seq  # the earlier try committed, its state with its actions
    if actions:
        await conn.conn.execute(_INSERT_ACTIONS, game_id, last_seq + 1, actions, now)
        last_seq += len(actions)
    await conn.conn.execute(_UPSERT_CHECKPOINT, game_id, last_seq, state, meta, now, int(unshown))
    return last_seq if actions else None


# --------------------------------------------------------------------------- results


async def record_results(conn: Numbered, game_id: int, result: GameResult, now: float) -> bool:
    if result.game_id != game_id:
        raise ResultMismatch(f"result is for game {result.game_id}, not {game_id}")
    # The claim is one statement: a second try (another process, a retry) waits for the
    # first's row lock, then finds the game finished and writes nothing.
    claimed = await conn.execute_fetchall(sql.CLAIM_FINISH, (result.rounds, now, now, game_id))
    if not claimed:
        status = await status_of(conn, game_id)
        if status == "finished":
            return False
        raise InvalidTransition(f"game {game_id} is {status}; only playing games finish")
    mismatch = sql.seat_mismatch(game_id, (r[0] for r in await conn.execute_fetchall(sql.SEATS_OF, (game_id,))),
                                 result)
    if mismatch:
        raise ResultMismatch(mismatch)
    await upsert_players(conn, sql.result_players(result), now)
    for statement, rows in sql.result_rows(game_id, result):
        await conn.executemany(statement, rows)
    await update_ratings(conn, claimed[0][0], result, now)
    return True


async def update_ratings(conn: Numbered, guild_id: int, result: GameResult, now: float) -> None:
    humans = sql.rated_humans(result)
    if not humans:
        return
    # A player's rating is read, recomputed and written back: two games of one player
    # finishing at once in two processes take turns, in one order (no deadlock).
    for user_id in sorted(s.user_id for s in humans):
        await conn.conn.execute("SELECT pg_advisory_xact_lock($1)", user_id)
    for scope in sql.rating_scopes(guild_id):
        known = await conn.execute_fetchall(sql.ratings_of(len(humans)), (scope, *(s.user_id for s in humans)))
        await conn.executemany(sql.UPSERT_RATING, sql.rating_rows(scope, humans, known, now))


# --------------------------------------------------------------------------- privacy


async def forget_player(conn: Numbered, user_id: int) -> bool:
    """As ``data/sqlite/writes.forget_player``: the same statements, the same scrubbing."""
    await conn.conn.execute("SELECT pg_advisory_xact_lock($1)", user_id)  # not while a game of theirs finishes
    active = await conn.execute_fetchall(privacy.ACTIVE_SEATS, (user_id,))
    if active:
        ids = ", ".join(str(row[0]) for row in active)
        raise PlayerInActiveGame(f"user {user_id} is seated at open table(s) {ids}")
    changed = 0
    for game_id, text in await conn.execute_fetchall(privacy.CHECKPOINTS_NAMING, (privacy.meta_pattern(user_id),)):
        try:
            meta, scrubbed = privacy.scrub_meta(load_object(text, "meta"), user_id)
        except RowError:  # unreadable, so it cannot be scrubbed: it goes
            meta, scrubbed = {}, True
        if scrubbed:
            await conn.execute(privacy.UPDATE_META, (dump_object(meta, "meta"), game_id))
            changed += 1
    for statement, renames in privacy.FORGET_STATEMENTS:
        changed += changed_rows(await conn.execute(statement, privacy.forget_parameters(renames, user_id)))
    return changed > 0
