"""A live table: its options, seats and game, and how it is saved in a checkpoint.

Speaks ids and engine objects only; the Discord face renders it.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine import PLAYER_LIMITS, Game, GameConfig, Variant
from engine.config import ANNIVERSARY_ROUNDS

from .errors import OptionError
from .text import N_

AILevel = Literal["easy", "medium", "hard"]

#: Bounds of a table's timers; the settings' defaults (TURN_SECONDS, CHOICE_SECONDS,
#: SPECIAL_SECONDS) must fit them too.
TURN_SECONDS_RANGE = (15, 600)
CHOICE_SECONDS_RANGE = (10, 300)
SPECIAL_SECONDS_RANGE = (5, 300)

#: When an Anniversary player is asked about a special card (or a swap):
#: ``always``; ``taking`` — only when their card would take a row (and for the
#: swap offer, which only follows a take); ``never`` — the bot declines for them.
PromptPreference = Literal["always", "taking", "never"]
PROMPT_PREFERENCES: tuple[str, ...] = get_args(PromptPreference)


class TableStatus(str, enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TableOptions(BaseModel):
    """What the host chose with ``/6nimmt start``; validated once, at the edge."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: Variant = Variant.CLASSIC
    target: int | None = Field(66, ge=10, le=500)
    rounds: int | None = Field(None, ge=1, le=20)
    turn_seconds: int = Field(60, ge=TURN_SECONDS_RANGE[0], le=TURN_SECONDS_RANGE[1])
    choice_seconds: int = Field(30, ge=CHOICE_SECONDS_RANGE[0], le=CHOICE_SECONDS_RANGE[1])
    # Anniversary: a special-card or swap prompt
    special_seconds: int = Field(20, ge=SPECIAL_SECONDS_RANGE[0], le=SPECIAL_SECONDS_RANGE[1])
    ai_seats: int = Field(0, ge=0, le=9)
    ai_level: AILevel = "medium"
    helpers: bool = False  # the hand's helpers (the coach's Hint button among them)

    @model_validator(mode="before")
    @classmethod
    def _anniversary_plays_two_rounds(cls, values):
        # The rulebook fixes the Anniversary game at two rounds and no target score.
        if isinstance(values, dict) and values.get("variant") in (Variant.ANNIVERSARY, Variant.ANNIVERSARY.value):
            values = {**values, "target": None, "rounds": ANNIVERSARY_ROUNDS}
        return values

    @model_validator(mode="after")
    def _fits_the_variant(self) -> "TableOptions":
        low, high = PLAYER_LIMITS[self.variant]
        if self.ai_seats > high - 1:
            raise OptionError(N_("this variant seats at most {players} players, so at most {seats} AI seats "
                                 "beside you"), players=high, seats=high - 1)
        if self.target is None and self.rounds is None:
            raise OptionError(N_("choose a target score or a number of rounds"))
        return self

    @property
    def min_players(self) -> int:
        return PLAYER_LIMITS[self.variant][0]

    @property
    def max_players(self) -> int:
        return PLAYER_LIMITS[self.variant][1]

    def game_config(self, players: int) -> GameConfig:
        return GameConfig(players, self.variant, target=self.target, rounds=self.rounds)


@dataclass
class SeatStats:
    """What a player brags about afterwards, counted from the engine's events."""

    rows_taken: int = 0
    sixth_card_takes: int = 0
    low_card_takes: int = 0
    row_takes_by_index: dict[int, int] = field(default_factory=dict)


@dataclass
class Seat:
    """A chair at the table: a Discord user, or an AI (``user_id`` None, or a user an AI replaced)."""

    user_id: int | None
    name: str
    ai_level: str | None = None  # set for AI seats and for players an AI took over from
    missed_turns: int = 0  # in a row; two and an AI takes over
    stats: SeatStats = field(default_factory=SeatStats)
    prompts: PromptPreference = "always"  # Anniversary: when to ask about special cards

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id, "name": self.name, "ai_level": self.ai_level,
            "missed_turns": self.missed_turns, "prompts": self.prompts,
            "stats": {
                "rows_taken": self.stats.rows_taken,
                "sixth_card_takes": self.stats.sixth_card_takes,
                "low_card_takes": self.stats.low_card_takes,
                "row_takes_by_index": {str(k): v for k, v in self.stats.row_takes_by_index.items()},
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Seat":
        stats = data.get("stats") or {}
        return cls(
            user_id=data["user_id"], name=str(data["name"]), ai_level=data.get("ai_level"),
            missed_turns=int(data.get("missed_turns", 0)),
            prompts=data["prompts"] if data.get("prompts") in PROMPT_PREFERENCES else "always",
            stats=SeatStats(
                rows_taken=int(stats.get("rows_taken", 0)),
                sixth_card_takes=int(stats.get("sixth_card_takes", 0)),
                low_card_takes=int(stats.get("low_card_takes", 0)),
                row_takes_by_index={int(k): int(v) for k, v in stats.get("row_takes_by_index", {}).items()},
            ),
        )


@dataclass
class Table:
    """One table in one channel (or thread)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    options: TableOptions
    seats: list[Seat]
    status: TableStatus = TableStatus.LOBBY
    seed: int = 0
    game: Game | None = None
    step: int = 0  # bumps at every new decision point, so older buttons are stale
    deadline: float | None = None  # epoch seconds of the current timer
    message_id: int | None = None  # the public lobby / table message
    created_at: float = 0.0
    decision: tuple | None = field(default=None, repr=False, compare=False)  # see play.decision_point
    lobby_unshown: bool = field(default=False, repr=False, compare=False)  # see LobbyOps.set_message
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a player still playing themselves (not one an AI took over)."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.is_ai:
                return index
        return None

    def has_user(self, user_id: int) -> bool:
        return any(seat.user_id == user_id for seat in self.seats)

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_ai]

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)

    def meta(self) -> dict[str, Any]:
        """The service's side of a checkpoint (the engine saves its own state)."""
        return {
            "host_id": self.host_id, "options": self.options.model_dump(mode="json"),
            "seats": [s.to_dict() for s in self.seats], "status": self.status.value,
            "seed": self.seed, "step": self.step, "deadline": self.deadline,
            "message_id": self.message_id, "created_at": self.created_at,
        }

    @classmethod
    def from_checkpoint(cls, table_id: int, guild_id: int, channel_id: int,
                        meta: dict[str, Any], state: dict[str, Any] | None) -> "Table":
        table = cls(
            id=table_id, guild_id=guild_id, channel_id=channel_id, host_id=int(meta["host_id"]),
            options=TableOptions.model_validate(meta["options"]),
            seats=[Seat.from_dict(s) for s in meta["seats"]],
            status=TableStatus(meta["status"]), seed=int(meta["seed"]), step=int(meta["step"]),
            deadline=meta.get("deadline"), message_id=meta.get("message_id"),
            created_at=float(meta.get("created_at") or 0.0),
        )
        if state:
            table.game = Game.from_dict(state)
            from .play import decision_point

            table.decision = decision_point(table.game)
        return table
