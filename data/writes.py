"""Every write transaction of both backends, written once (sans-IO).

Each write is a *step*: a plain generator that yields the operations below
(a statement and its parameters, a bulk statement over many rows, a lock)
and receives each one's rows. It does no I/O itself: SQLite's writer thread
drives it synchronously (``data/sqlite/writes.py``), asyncpg asynchronously
(``data/postgres/writes.py``). What the two databases do differently is in
how a driver runs an operation (its dialect), not in the steps: multi-row
VALUES or one statement of unnest()ed arrays for ``Bulk``; row and advisory locks, which PostgreSQL needs
because several processes write one database and SQLite, with one writer,
does not. A statement that breaks a constraint is thrown back into the step
as ConstraintViolation, so a step may roll back to a savepoint and go on.

The SQL is the subset both databases read alike, with ``?`` parameters (see
``data/statements.py``), as ``data/queries.py`` is for reads.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from . import privacy
from . import statements as sql
from .errors import GameNotActive, GameNotFound, InvalidTransition, PlayerInActiveGame, ResultMismatch, StoreError
from .models import UNFINISHED_STATUSES, Commit, GameResult, GameStatus, SeatInfo
from .rows import RowError, dump_object, load_object

T = TypeVar("T")


# --------------------------------------------------------------------------- operations


@dataclass(frozen=True)
class Run:
    """One statement; the step receives its rows (a list, empty for most writes)."""

    sql: str
    params: Sequence[Any] = ()


@dataclass(frozen=True)
class RunMany:
    """One statement for each of a few ``rows`` (seats, results); receives None."""

    sql: str
    rows: Sequence[Sequence[Any]]


@dataclass(frozen=True)
class Rows:
    """One statement over many rows: ``sql`` reads them as the common table ``{v}(columns)``."""

    sql: str  # with ``{v}`` for the table's name, and no parameters of its own
    columns: tuple[str, ...]
    types: tuple[str, ...]  # PostgreSQL's element type of each column
    rows: Sequence[tuple[Any, ...]]


@dataclass(frozen=True)
class Bulk:
    """Statements over many rows, each on a table of its own and needing none of the others'
    effects (they may run in any order); receives None. PostgreSQL runs them as ONE statement
    (a WITH of each one's rows as unnest()ed arrays, and of all but the last statement);
    SQLite runs each as a few multi-row VALUES statements."""

    parts: tuple[Rows, ...]


@dataclass(frozen=True)
class LockGames:
    """(game_id, status, last_seq or None) of each existing game of ``game_ids``; PostgreSQL
    locks their rows (in id order) until the transaction ends."""

    game_ids: Sequence[int]


@dataclass(frozen=True)
class LockPlayers:
    """PostgreSQL: each player's advisory lock, in id order (a rating is read, recomputed and
    written back; forget_player takes it too). SQLite has one writer: nothing to do."""

    user_ids: Sequence[int]


Op = Run | RunMany | Bulk | LockGames | LockPlayers
Step = Generator[Op, Any, T]


class Stepper(Generic[T]):
    """Walks a step for a driver: ``start``, then ``send`` each operation's rows, or ``throw``
    its constraint error; each returns the next operation, or None when the step is done
    (its result is then ``value``)."""

    def __init__(self, step: Step[T]) -> None:
        self._step = step
        self.value: T  # the step's result: set once it is done

    def start(self) -> Op | None:
        return self._advance(lambda: next(self._step))

    def send(self, rows: Any) -> Op | None:
        return self._advance(lambda: self._step.send(rows))

    def throw(self, error: BaseException) -> Op | None:
        return self._advance(lambda: self._step.throw(error))

    def _advance(self, move: Callable[[], Op]) -> Op | None:
        try:
            return move()
        except StopIteration as done:
            self.value = done.value
            return None


# --------------------------------------------------------------------------- commits

Outcome = int | None | Exception

_INSERT_ACTIONS = "INSERT INTO actions (game_id, seq, action, created_at) SELECT * FROM {v}"
_UPSERT_CHECKPOINTS = (
    "INSERT INTO checkpoints (game_id, last_seq, state, meta, updated_at) SELECT * FROM {v} WHERE true "
    "ON CONFLICT (game_id) DO UPDATE SET last_seq = excluded.last_seq, state = excluded.state, "
    "meta = excluded.meta, updated_at = excluded.updated_at"
)
# Nothing on a conflict: a post is owed once, however often it is sent.
_INSERT_POSTS = (
    "INSERT INTO outbox (game_id, seq, payload, created_at) SELECT * FROM {v} WHERE true "
    "ON CONFLICT (game_id, seq) DO NOTHING"
)
_DELETE_SHOWN = (
    "DELETE FROM outbox WHERE EXISTS (SELECT 1 FROM {v} WHERE {v}.game_id = outbox.game_id AND outbox.seq <= {v}.upto)"
)
_SET_MESSAGE = "UPDATE games SET message_id = {v}.message_id FROM {v} WHERE games.game_id = {v}.game_id"
_WRITTEN = "SELECT count(*) FROM checkpoints WHERE updated_at = ? AND game_id IN ({})"


@dataclass
class Pending:
    """One queued write of a game: a commit (``state`` and ``meta`` set), or mark_shown.

    Payloads are JSON already, encoded by the caller: a bad one fails before it is queued.
    """

    game_id: int
    state: str | None = None  # with meta: the new checkpoint; None: the checkpoint stays
    meta: str | None = None
    actions: list[str] = field(default_factory=list)
    posts: list[tuple[int, str]] = field(default_factory=list)  # (seq, payload)
    shown_upto: int | None = None  # the outbox posts up to here go, before ``posts`` are added
    message_id: int | None = None
    seats: Sequence[SeatInfo] | None = None
    status: GameStatus | None = None
    host_id: int | None = None
    result: GameResult | None = None

    @property
    def changes_game(self) -> bool:
        return not (self.seats is None and self.status is None and self.host_id is None and self.result is None)


def pending_commit(game_id: int, commit: Commit) -> Pending:
    """``commit`` for the queue, its payloads encoded (InvalidPayload for a bad one)."""
    return Pending(
        game_id,
        dump_object(commit.state, "state"),
        dump_object(commit.meta, "meta"),
        [dump_object(a, "action") for a in commit.actions],
        [(p.seq, dump_object(p.payload, "post payload")) for p in commit.posts],
        seats=commit.seats,
        status=commit.status,
        host_id=commit.host_id,
        result=commit.result,
    )


@dataclass
class _BatchRows:
    """What a batch's commits add up to, written by a few bulk statements at its end."""

    actions: list[tuple[Any, ...]] = field(default_factory=list)
    checkpoints: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # the latest per game
    shown: dict[int, int] = field(default_factory=dict)  # game -> delete posts up to this seq
    posts: dict[tuple[int, int], tuple[Any, ...]] = field(default_factory=dict)
    messages: dict[int, int] = field(default_factory=dict)

    def add(self, pending: Pending, seqs: dict[int, int], now: float) -> int | None:
        gid = pending.game_id
        seq = None
        for action in pending.actions:
            seq = seqs[gid] = seqs.get(gid, 0) + 1
            self.actions.append((gid, seq, action, now))
        if pending.state is not None:
            self.checkpoints[gid] = (gid, seqs.get(gid, 0), pending.state, pending.meta, now)
        if pending.shown_upto is not None:
            # Deletes run before inserts: a post added earlier in the batch goes here already.
            self.shown[gid] = max(self.shown.get(gid, 0), pending.shown_upto)
            for key in [k for k in self.posts if k[0] == gid and k[1] <= pending.shown_upto]:
                del self.posts[key]
        for post_seq, payload in pending.posts:
            self.posts.setdefault((gid, post_seq), (gid, post_seq, payload, now))
        if pending.message_id is not None:
            self.messages[gid] = pending.message_id
        return seq

    def write(self) -> Step[None]:
        if self.shown:  # first, alone: a post this batch adds after its mark must survive it
            yield Bulk((Rows(_DELETE_SHOWN, ("game_id", "upto"), ("bigint", "bigint"), list(self.shown.items())),))
        parts = []
        if self.actions:
            parts.append(
                Rows(
                    _INSERT_ACTIONS,
                    ("game_id", "seq", "action", "created_at"),
                    ("bigint", "int", "text", "float8"),
                    self.actions,
                )
            )
        if self.checkpoints:
            parts.append(
                Rows(
                    _UPSERT_CHECKPOINTS,
                    ("game_id", "last_seq", "state", "meta", "updated_at"),
                    ("bigint", "int", "text", "text", "float8"),
                    list(self.checkpoints.values()),
                )
            )
        if self.posts:
            parts.append(
                Rows(
                    _INSERT_POSTS,
                    ("game_id", "seq", "payload", "created_at"),
                    ("bigint", "int", "text", "float8"),
                    list(self.posts.values()),
                )
            )
        if self.messages:
            parts.append(
                Rows(_SET_MESSAGE, ("game_id", "message_id"), ("bigint", "bigint"), list(self.messages.items()))
            )
        if parts:  # one round trip on PostgreSQL, as the checkpoints' one statement was
            yield Bulk(tuple(parts))


def write_batch(batch: Sequence[Pending], now: float) -> Step[list[Outcome]]:
    """Write a batch of the group commit (``data/commit_queue.py``) in the caller's transaction;
    each item's outcome: its last action's seq, None, or its own error.

    Sequence numbers follow the last_seq read here, under the games' locks, so the log stays
    gap-free. Commits that change the game (seats, status, host, result) run at once, each
    under a savepoint, so one's error undoes only its own changes; everything else of the
    batch is gathered and written by a few bulk statements at the end.
    """
    found = yield LockGames(sorted({p.game_id for p in batch}))
    status = {row[0]: row[1] for row in found}
    seqs = {row[0]: row[2] or 0 for row in found}
    players = {s.user_id for p in batch if p.result is not None for s in p.result.seats if s.user_id is not None}
    if players:  # all at once, in one order: two batches never wait on each other in a circle
        yield LockPlayers(sorted(players))
    rows = _BatchRows()
    outcomes: list[Outcome] = []
    for pending in batch:
        try:
            outcomes.append((yield from _apply(pending, status, seqs, rows, now)))
        except StoreError as exc:
            outcomes.append(exc)
    yield from rows.write()
    return outcomes


def _apply(
    pending: Pending, status: dict[int, str], seqs: dict[int, int], rows: _BatchRows, now: float
) -> Step[int | None]:
    gid = pending.game_id
    if gid not in status:
        raise GameNotFound(gid)
    if pending.actions and status[gid] not in UNFINISHED_STATUSES:
        # The log of an ended game is its replay record: keep it closed.
        raise GameNotActive(f"game {gid} is {status[gid]}; its action log is closed")
    if pending.changes_game:
        status[gid] = yield from _savepoint(change_game(gid, pending, status[gid], now))
    return rows.add(pending, seqs, now)


def _savepoint(step: Step[T]) -> Step[T]:
    yield Run("SAVEPOINT game_change")
    try:
        value = yield from step
    except StoreError:
        yield Run("ROLLBACK TO SAVEPOINT game_change")
        raise
    yield Run("RELEASE SAVEPOINT game_change")
    return value


def batch_written(batch: Sequence[Pending], outcomes: Sequence[Outcome], now: float) -> Step[bool]:
    """After a lost connection: whether the try that gave ``outcomes`` was committed after all.

    Every successful commit of a batch upserts its game's checkpoint stamped with the batch's
    ``now``, so the stamp says it; a batch without one wrote only what is idempotent
    (mark_shown) or nothing, and may simply run again.
    """
    done = sorted(
        {
            p.game_id
            for p, o in zip(batch, outcomes, strict=True)
            if p.state is not None and not isinstance(o, Exception)
        }
    )
    if not done:
        return False
    counted: list[tuple[int]] = yield Run(_WRITTEN.format(",".join("?" * len(done))), (now, *done))
    [(count,)] = counted
    return count > 0


# --------------------------------------------------------------------------- servers


def save_server_settings(guild_id: int, settings: str, now: float) -> Step[None]:
    """Replace the guild's settings (a JSON object, encoded by the caller)."""
    yield Run(sql.ENSURE_GUILD, (guild_id, now))
    yield Run(sql.UPSERT_SERVER_SETTINGS, (guild_id, settings, now))


# --------------------------------------------------------------------------- games


def create_game(
    guild_id: int,
    channel_id: int,
    host_id: int | None,
    variant: str,
    options: str,
    seed: int | None,
    now: float,
    first: Pending,
) -> Step[int]:
    """The games row, and ``first`` (its seats and first checkpoint) written as a batch of one."""
    yield Run(sql.ENSURE_GUILD, (guild_id, now))  # a table can open before the guild was seen
    inserted: list[tuple[int]] = yield Run(
        sql.INSERT_GAME,
        (guild_id, channel_id, host_id, variant, options, seed, now, now),
    )
    [(game_id,)] = inserted
    first.game_id = game_id
    [outcome] = yield from write_batch([first], now)
    if isinstance(outcome, Exception):
        raise outcome
    return game_id


def change_game(game_id: int, change: Pending, current: str, now: float) -> Step[str]:
    """Seats, host, status and result of one commit, in that order; the game's new status."""
    if change.seats is not None:
        if current not in UNFINISHED_STATUSES:
            raise InvalidTransition(f"game {game_id} is {current}; seats are final")
        yield from replace_seats(game_id, change.seats, now)
    changes: dict[str, Any] = {}
    if change.host_id is not None:
        changes["host_id"] = change.host_id
    target = None if change.status == "finished" and change.result is not None else change.status
    if target is not None and target != current:
        if target not in sql.TRANSITIONS.get(current, frozenset()):
            raise InvalidTransition(
                f"game {game_id}: cannot go from {current} to {target} (a game finishes with its result)"
            )
        changes["status"] = current = target
        changes["started_at" if target == "playing" else "finished_at"] = now
    if changes:
        changes["updated_at"] = now
        assignments = ", ".join(f"{column} = ?" for column in changes)  # fixed names
        yield Run(f"UPDATE games SET {assignments} WHERE game_id = ?", (*changes.values(), game_id))
    if change.result is not None and (yield from finish(game_id, change.result, now)):
        current = "finished"
    return current


def upsert_players(players: Sequence[tuple[int, str]], now: float) -> Step[None]:
    rows = sorted(sql.player_rows(players, now))  # one order: two transactions never wait in a circle
    if rows:
        yield RunMany(sql.UPSERT_PLAYER, rows)


def replace_seats(game_id: int, seats: Sequence[SeatInfo], now: float) -> Step[None]:
    """Make the game's seats exactly ``seats`` (humans are upserted as players)."""
    yield from upsert_players(sql.seat_players(seats), now)
    yield Run(sql.DELETE_SEATS, (game_id,))
    if seats:
        yield RunMany(sql.INSERT_SEAT, sql.seat_rows(game_id, seats))


# --------------------------------------------------------------------------- results


def finish(game_id: int, result: GameResult, now: float) -> Step[bool]:
    """Finish a playing game with its results, statistics and ratings; False (writing nothing)
    if it is finished already."""
    if result.game_id != game_id:
        raise ResultMismatch(f"result is for game {result.game_id}, not {game_id}")
    # The claim is one statement: of two tries (two processes, a retry) only one finds the game
    # still playing (the other waits for its row lock), and only that one writes results.
    claimed = yield Run(sql.CLAIM_FINISH, (result.rounds, now, now, game_id))
    if not claimed:
        found = yield Run(sql.STATUS_OF, (game_id,))
        if not found:
            raise GameNotFound(game_id)
        if found[0][0] == "finished":
            return False
        raise InvalidTransition(f"game {game_id} is {found[0][0]}; only playing games finish")
    mismatch = sql.seat_mismatch(game_id, (row[0] for row in (yield Run(sql.SEATS_OF, (game_id,)))), result)
    if mismatch:
        raise ResultMismatch(mismatch)  # rolls the claim back with the rest
    # Each player's lock before any of their rows, as forget_player takes it.
    yield LockPlayers(sorted(s.user_id for s in result.seats if s.user_id is not None))
    yield from upsert_players(sql.result_players(result), now)
    for statement, statement_rows in sql.result_rows(game_id, result):
        if statement_rows:
            yield RunMany(statement, statement_rows)
    yield from update_ratings(claimed[0][0], result, now)
    return True


def update_ratings(guild_id: int, result: GameResult, now: float) -> Step[None]:
    """The global and the guild rating of the human players (see rating.py)."""
    humans = sql.rated_humans(result)
    for scope in sql.rating_scopes(guild_id) if humans else ():
        known = yield Run(sql.ratings_of(len(humans)), (scope, *(s.user_id for s in humans)))
        yield RunMany(sql.UPSERT_RATING, sql.rating_rows(scope, humans, known, now))


# --------------------------------------------------------------------------- privacy


def forget_player(user_id: int) -> Step[bool]:
    """Delete a player's own data; anonymise, but keep, their seats and results.

    Other players' standings, ranks and ratings stay untouched, so past games
    remain consistent. Action logs refer to seats, not users, and are kept as
    they are; checkpoints and the posts still owed keep the table but lose the
    player's id and name.
    """
    yield LockPlayers([user_id])  # not while a game of theirs finishes
    active = yield Run(privacy.ACTIVE_SEATS, (user_id,))
    if active:
        ids = ", ".join(str(row[0]) for row in active)
        raise PlayerInActiveGame(f"user {user_id} is seated at open table(s) {ids}")
    changed = 0
    for select, update, what in privacy.SCRUBBED:
        for *key, text in (yield Run(select, (privacy.meta_pattern(user_id),))):
            try:
                payload, scrubbed = privacy.scrub_meta(load_object(text, what), user_id)
            except RowError:  # unreadable, so it cannot be scrubbed: it goes
                payload, scrubbed = {}, True
            if scrubbed:
                yield Run(update, (dump_object(payload, what), *key))
                changed += 1
    for statement, renames in privacy.FORGET_STATEMENTS:
        # RETURNING: a row count both databases report alike.
        changed += len((yield Run(f"{statement} RETURNING 1", privacy.forget_parameters(renames, user_id))))
    return changed > 0
