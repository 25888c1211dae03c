"""Pydantic models at the boundary of the persistence layer.

Everything the store returns is one of these models, and every row read back
from SQLite is validated through them: a row that does not validate is
reported (CorruptTable / CorruptRecord) instead of leaking half-typed data into
the table service.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, model_validator

GameStatus = Literal["lobby", "playing", "finished", "cancelled", "abandoned"]
UNFINISHED_STATUSES: tuple[GameStatus, ...] = ("lobby", "playing")
TERMINAL_STATUSES: tuple[GameStatus, ...] = ("finished", "cancelled", "abandoned")

Metric = Literal["wins", "win_rate", "avg_points_per_round", "games", "rating"]

DELETED_PLAYER_NAME = "deleted player"


class _PastSeat(Protocol):
    user_id: int | None
    ai_level: str | None


def forgotten(seat: _PastSeat) -> bool:
    """Whether a past game's seat (a ``SeatInfo`` or a ``ResultRow``) was a player who asked to be
    forgotten: a human seat with no user id any more, whose name reads ``DELETED_PLAYER_NAME``."""
    return seat.user_id is None and seat.ai_level is None


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- servers


class ServerSettings(_Model):
    """A server's own defaults for its tables; every None means "the bot's default"."""

    threads: bool | None = None  # play each game in a thread of its own
    pace: Literal["live", "1h", "8h", "24h"] | None = None  # live, or turn-based with that long a turn
    turn_seconds: int | None = Field(default=None, ge=15, le=600)  # the live turn timer
    ai_level: Literal["easy", "medium", "hard"] | None = None
    turn_based: bool | None = None  # whether turn-based games are allowed
    # the language of its public messages, a catalog's code ("de"); None: its Discord preferred_locale
    language: str | None = Field(default=None, pattern=r"^[a-z]{2,3}(_[A-Za-z0-9]{2,4})?$")


# --------------------------------------------------------------------------- tables


class SeatInfo(_Model):
    """One seat at a table. AI seats have no user id but an ai_level.

    A seat with neither is a human seat whose player was forgotten.
    """

    seat: NonNegativeInt
    user_id: int | None = None
    ai_level: str | None = None
    display_name: str

    @model_validator(mode="after")
    def _human_or_ai(self) -> SeatInfo:
        if self.user_id is not None and self.ai_level is not None:
            raise ValueError("a seat is either a human (user_id) or an AI (ai_level)")
        return self


class GameRecord(_Model):
    """The stored record of one table, from lobby to its end."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None = None  # the table's live message in its channel
    host_id: int | None
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    status: GameStatus
    seed: int | None
    rounds: NonNegativeInt | None = None
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    updated_at: datetime


class Checkpoint(_Model):
    """Latest engine state and service metadata; last_seq is the last logged action."""

    state: dict[str, Any]
    meta: dict[str, Any]
    last_seq: NonNegativeInt
    updated_at: datetime


class OutboxPost(_Model):
    """A post the table owes its channel: its number at the table and its payload."""

    seq: int = Field(ge=1)
    payload: dict[str, Any]


class RestoredTable(_Model):
    """A table as restored at start-up (or read back in any status).

    checkpoint is None only for a lobby that never checkpointed; a playing
    table without a checkpoint is reported as a CorruptTable instead.
    ``posts``: what its channel has not been shown yet, by seq.
    """

    game: GameRecord
    seats: list[SeatInfo]
    checkpoint: Checkpoint | None
    posts: list[OutboxPost] = Field(default_factory=list)

    @property
    def message_id(self) -> int | None:
        """The table's live message (stored once, on the game)."""
        return self.game.message_id


class CorruptTable(_Model):
    """An unfinished table whose stored rows could not be restored."""

    game_id: int
    reason: str


@dataclass(frozen=True)
class Commit:
    """Everything one table action changes; written in ONE transaction or not at all.

    ``seats`` replaces the game's seats (human players upserted) when not None;
    ``status`` changes it ('playing', 'cancelled', 'abandoned'; 'finished' only
    through ``result``, which writes results, statistics and ratings too);
    ``host_id`` changes the host when not None.
    """

    state: dict[str, Any]  # the engine state ({} in a lobby)
    meta: dict[str, Any]  # the service's meta
    actions: Sequence[dict[str, Any]] = ()  # action-log entries appended in order
    posts: Sequence[OutboxPost] = ()  # posts newly owed to the channel
    seats: Sequence[SeatInfo] | None = None
    status: GameStatus | None = None
    host_id: int | None = None
    result: GameResult | None = None


class LoggedAction(_Model):
    seq: int
    action: dict[str, Any]
    created_at: datetime


# --------------------------------------------------------------------------- results


class SeatResult(_Model):
    """Final outcome and statistics of one seat, as reported by the service.

    ``ai_level`` alone is an AI seat; ``user_id`` alone a player who played to
    the end; both: a player whose seat an AI finished (after missed turns, a
    leave or a kick). Such a game counts for the player like any other, so
    leaving is no way to dodge a loss.
    """

    seat: NonNegativeInt
    user_id: int | None = None
    name: str
    ai_level: str | None = None
    points: int  # final total, lower is better
    round_points: list[int] = Field(min_length=1)
    rows_taken: NonNegativeInt = 0
    sixth_card_takes: NonNegativeInt = 0
    low_card_takes: NonNegativeInt = 0
    row_takes_by_index: dict[NonNegativeInt, NonNegativeInt] = Field(default_factory=dict)

    @property
    def finished_by_ai(self) -> bool:
        """A player's seat that an AI took over: the game still counts for the player."""
        return self.user_id is not None and self.ai_level is not None


class GameResult(_Model):
    """Everything record_results needs; winners are seat indices."""

    game_id: int
    seats: list[SeatResult] = Field(min_length=1)
    winners: list[NonNegativeInt] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> GameResult:
        indices = [s.seat for s in self.seats]
        if len(set(indices)) != len(indices):
            raise ValueError("seat indices must be unique")
        if not set(self.winners) <= set(indices):
            raise ValueError("every winner must be one of the seats")
        users = [s.user_id for s in self.seats if s.user_id is not None]
        if len(set(users)) != len(users):
            raise ValueError("a user can occupy only one seat")
        if len({len(s.round_points) for s in self.seats}) != 1:
            raise ValueError("all seats must have the same number of rounds")
        return self

    @property
    def rounds(self) -> int:
        return len(self.seats[0].round_points)


class ResultRow(_Model):
    """One seat's final line in a finished game."""

    seat: int
    user_id: int | None
    display_name: str
    ai_level: str | None
    points: int
    rank: int
    won: bool


class GameSummary(_Model):
    """A finished game with its final standings (for history)."""

    game: GameRecord
    results: list[ResultRow]


class GameLog(_Model):
    """Everything needed to replay a game from its seed and export it."""

    game: GameRecord
    seats: list[SeatInfo]
    actions: list[LoggedAction]
    results: list[ResultRow]


# --------------------------------------------------------------------------- rankings


class RatingInfo(_Model):
    mu: float
    sigma: float
    ordinal: float  # conservative skill estimate (mu - 3 sigma), used for ranking
    games: int


class LeaderboardEntry(_Model):
    rank: int  # competition ranking: ties share a rank ("1, 2, 2, 4")
    user_id: int
    display_name: str
    games: int
    wins: int
    win_rate: float
    avg_points_per_round: float | None
    rating: float  # ordinal; the default rating for players not rated yet
    value: float | None  # the value of the requested metric


class LeaderboardPage(_Model):
    metric: Metric
    entries: list[LeaderboardEntry]
    total: int  # number of qualifying players, for "page x of y"
    offset: int
    limit: int


class GameScore(_Model):
    game_id: int
    points: int
    finished_at: datetime | None


class PlayerStats(_Model):
    user_id: int
    display_name: str | None
    guild_id: int | None
    games: int
    wins: int
    win_rate: float
    avg_points_per_round: float | None
    avg_points_per_game: float | None
    best_game: GameScore | None  # fewest points
    worst_game: GameScore | None  # most points
    rows_taken: int
    sixth_card_takes: int
    low_card_takes: int
    row_takes: dict[int, int]
    favourite_row: int | None  # row index taken most often (lowest index on ties)
    rating: RatingInfo | None
    finished_by_ai: int = 0  # games of these an AI finished in the player's seat


# --------------------------------------------------------------------------- moving a database


@dataclass(frozen=True)
class Transferred:
    """What ``copy_database`` copied (``data/transfer.py``)."""

    rows: dict[str, int]  # table -> rows copied

    def summary(self) -> str:
        return ", ".join(f"{count} {table}" for table, count in self.rows.items())
