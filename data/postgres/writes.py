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
from ..checkpoint_queue import BatchPlan, Outcome, PendingCheckpoint, plan_batch
from ..errors import GameNotFound, InvalidTransition, PlayerInActiveGame, ResultMismatch
from ..models import GameResult, SeatInfo
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

# Games locked in one order, so two batches (two processes) never wait on each other in a
# circle. The last sequence numbers come from the statement's snapshot: the only writer of
# a game's checkpoints is the flusher of the process that serves it, one batch after the
# other, so the snapshot holds its previous batch (and the actions' primary key would
# refuse a stale number rather than log twice).
_LOCK_GAMES = (
    "SELECT g.game_id, g.status, (SELECT c.last_seq FROM checkpoints c WHERE c.game_id = g.game_id) "
    "FROM games g WHERE g.game_id = ANY($1::bigint[]) ORDER BY g.game_id FOR UPDATE OF g"
)
_LOGGED = ("SELECT a.game_id, a.action FROM actions a JOIN unnest($1::bigint[], $2::int[]) AS w(game_id, seq) "
           "ON a.game_id = w.game_id AND a.seq = w.seq")
# Actions and states in one statement: one round trip less for every batch.
_WRITE = (
    "WITH logged AS (INSERT INTO actions (game_id, seq, action, created_at) "
    "SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::float8[])) "
    "INSERT INTO checkpoints (game_id, last_seq, state, meta, updated_at, unshown) "
    "SELECT * FROM unnest($5::bigint[], $6::int[], $7::text[], $8::text[], $9::float8[], $10::int[]) "
    "ON CONFLICT (game_id) DO UPDATE SET last_seq = excluded.last_seq, state = excluded.state, "
    "meta = excluded.meta, updated_at = excluded.updated_at, unshown = excluded.unshown"
)


async def checkpoint_batch(conn: Numbered, batch: list[PendingCheckpoint], now: float,
                           attempt: dict[str, dict[int, int]]) -> list[Outcome]:
    """Write one batch of checkpoints (see ``data/checkpoint_queue.py``); each one's outcome.

    ``attempt`` carries the log's sequence numbers as the first try found them
    from one try to the next: when a connection died during COMMIT the outcome
    is unknown, and a retry that finds exactly the batch's actions appended
    after them knows the first try committed, and writes nothing twice.
    """
    ids = sorted({p.game_id for p in batch})
    found = await conn.conn.fetch(_LOCK_GAMES, ids)
    status = {row[0]: row[1] for row in found}
    last = {row[0]: row[2] for row in found if row[2] is not None}
    if "last_seq" in attempt:  # a retry after a lost connection
        first = plan_batch(batch, status, attempt["last_seq"], now)
        if first.actions and await _already_logged(conn, first, last):
            return first.outcomes
    else:
        attempt["last_seq"] = last
    plan = plan_batch(batch, status, last, now)
    if plan.checkpoints:  # every action comes with its game's checkpoint
        actions = list(zip(*plan.actions)) or [[], [], [], []]
        await conn.conn.execute(_WRITE, *actions, *zip(*plan.checkpoints))
    return plan.outcomes


async def _already_logged(conn: Numbered, plan: BatchPlan, last: dict[int, int]) -> bool:
    """Whether the log ends exactly with ``plan``'s actions (then its batch was committed)."""
    final = {game_id: (seq, action) for game_id, seq, action, _ in plan.actions}  # each game's last
    if any(last.get(game_id, 0) != seq for game_id, (seq, _) in final.items()):
        return False
    games = list(final)
    logged = dict(await conn.conn.fetch(_LOGGED, games, [final[g][0] for g in games]))
    return all(logged.get(g) == final[g][1] for g in games)


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
    # Each player's lock before any of their rows, as forget_player takes it: a rating is read,
    # recomputed and written back, and two games of one player finishing at once in two
    # processes take turns; locks in one order, so no two transactions wait in a circle.
    for user_id in sorted(s.user_id for s in result.seats if s.user_id is not None):
        await conn.conn.execute("SELECT pg_advisory_xact_lock($1)", user_id)
    await upsert_players(conn, sql.result_players(result), now)
    for statement, rows in sql.result_rows(game_id, result):
        await conn.executemany(statement, rows)
    await update_ratings(conn, claimed[0][0], result, now)
    return True


async def update_ratings(conn: Numbered, guild_id: int, result: GameResult, now: float) -> None:
    """Under the players' locks taken by record_results."""
    humans = sql.rated_humans(result)
    if not humans:
        return
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
