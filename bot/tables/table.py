"""A live table: its options, seats and game, and how it is saved in a checkpoint.

Speaks ids and engine objects only; the Discord face renders it.
"""

from __future__ import annotations

import asyncio
import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, cast, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine import Game, GameConfig, Phase, Special, Variant, event_from_dict, event_to_dict, variant_spec
from engine.anniversary import SpecialOutlook
from engine.events import Event
from engine.variants import MAX_PLAYERS, ROUNDS_CHOICES, TARGET_CHOICES

from .errors import OptionError
from .text import N_, Text

AILevel = Literal["easy", "medium", "hard"]

#: Bounds of a table's timers; the settings' defaults (TURN_SECONDS, CHOICE_SECONDS,
#: SPECIAL_SECONDS) must fit them too.
TURN_SECONDS_RANGE = (15, 600)
CHOICE_SECONDS_RANGE = (10, 300)
SPECIAL_SECONDS_RANGE = (5, 300)

#: A table's pace: live play with the timers above, or turn-based play with this long for every
#: decision (a turn, a row choice, a draft pick, a special card), for friends in other time zones.
Pace = Literal["live", "1h", "8h", "24h"]
PACES: tuple[str, ...] = get_args(Pace)
TURN_BASED_SECONDS = {"1h": 3600, "8h": 8 * 3600, "24h": 24 * 3600}
#: How long the lobby of a turn-based game waits for its players to gather.
TURN_BASED_LOBBY_SECONDS = 24 * 3600
#: A turn-based player who still owes a move is reminded once this share of its time has gone.
REMINDER_AT = 0.75

#: Why a game is paused (``Table.paused``, see ``bot.tables.pause``): a moderator locked its thread.
LOCKED = "locked"
#: How long a paused game waits for its thread to be unlocked before it is abandoned.
LOCKED_LONGEST = 24 * 3600

#: When an Anniversary player is asked about a special card (or a swap), see
#: ``bot.tables.specials.asks``: ``always`` — whenever a special card could change the
#: table, and at every swap offer; ``saving`` — when a special card would save
#: them bullheads on the card being placed; ``big`` (the default) — only when it
#: would save many (``bot.tables.specials.SAVING_MIN``); ``never`` — the bot declines for them.
PromptPreference = Literal["always", "saving", "big", "never"]
PROMPT_PREFERENCES: tuple[str, ...] = get_args(PromptPreference)
#: The default keeps a table of five at about one pause every two turns (benchmarks/prompts.py).
DEFAULT_PROMPTS: PromptPreference = "big"


def prompt_preference(value: object) -> PromptPreference | None:
    """``value`` as a preference; None if it is none."""
    for preference in get_args(PromptPreference):
        if value == preference:
            return cast(PromptPreference, preference)
    return None


#: Which decision a game waits on (``Game.decision_id``), and the outlook worked out for one.
DecisionId: TypeAlias = tuple[object, ...]
CachedOutlook: TypeAlias = tuple[DecisionId, SpecialOutlook]


class TableStatus(str, enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TableOptions(BaseModel):
    """What the host chose with ``/6nimmt start``; validated once, at the edge."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: Variant = Variant.CLASSIC
    target: int | None = Field(variant_spec(Variant.CLASSIC).target, ge=TARGET_CHOICES[0], le=TARGET_CHOICES[1])
    rounds: int | None = Field(variant_spec(Variant.CLASSIC).rounds, ge=ROUNDS_CHOICES[0], le=ROUNDS_CHOICES[1])
    turn_seconds: int = Field(60, ge=TURN_SECONDS_RANGE[0], le=TURN_SECONDS_RANGE[1])
    choice_seconds: int = Field(30, ge=CHOICE_SECONDS_RANGE[0], le=CHOICE_SECONDS_RANGE[1])
    # Anniversary: a special-card or swap prompt
    special_seconds: int = Field(20, ge=SPECIAL_SECONDS_RANGE[0], le=SPECIAL_SECONDS_RANGE[1])
    ai_seats: int = Field(0, ge=0, le=MAX_PLAYERS - 1)
    ai_level: AILevel = "medium"
    # Player aids everyone at the table gets alike (named in the lobby): the played-card tracker
    # and the coach's Hint.
    helpers: bool = False
    pace: Pace = "live"  # turn-based: every decision may take TURN_BASED_SECONDS[pace]

    @model_validator(mode="before")
    @classmethod
    def _fixed_length_variants(cls, values: Any) -> Any:
        # A variant whose length the rulebook fixes (Anniversary: two rounds, no target)
        # plays it whatever the host chose; the engine refuses any other length.
        if isinstance(values, dict) and values.get("variant") in tuple(Variant):
            spec = variant_spec(values["variant"])
            if spec.fixed_length:
                values = {**values, "target": spec.target, "rounds": spec.rounds}
        return values

    @model_validator(mode="after")
    def _fits_the_variant(self) -> TableOptions:
        low, high = variant_spec(self.variant).players
        if self.ai_seats > high - 1:
            raise OptionError(
                # Translators: {players} is a variant's most players (8 or 10) and {seats} one fewer.
                N_("this variant seats at most {players} players, so at most {seats} AI seats beside you"),
                players=high,
                seats=high - 1,
            )
        if self.target is None and self.rounds is None:
            raise OptionError(N_("choose a target score or a number of rounds"))
        return self

    @property
    def min_players(self) -> int:
        return variant_spec(self.variant).players[0]

    @property
    def max_players(self) -> int:
        return variant_spec(self.variant).players[1]

    @property
    def turn_based(self) -> bool:
        return self.pace != "live"

    def seconds_for(self, decision: str) -> int:
        """How long a decision may take: ``decision`` is "turn", "choice" or "special"."""
        if self.turn_based:
            return TURN_BASED_SECONDS[self.pace]
        return {"turn": self.turn_seconds, "choice": self.choice_seconds, "special": self.special_seconds}[decision]

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
    prompts: PromptPreference = DEFAULT_PROMPTS  # Anniversary: when to ask about special cards
    removed: str | None = None  # "left" or "kicked": why an AI took the seat (else missed turns)
    back_from_step: int = 0  # a player who took the seat back acts from this table step on
    remind_by_dm: bool = False  # turn-based: reminders come as a direct message, not a mention

    @property
    def takeover(self) -> str | None:
        """Why an AI plays a player's seat: "left", "kicked", "missed"; None if they play it."""
        if self.user_id is None or self.ai_level is None:
            return None
        return self.removed or "missed"

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "name": self.name,
            "ai_level": self.ai_level,
            "missed_turns": self.missed_turns,
            "prompts": self.prompts,
            "removed": self.removed,
            "back_from_step": self.back_from_step,
            "remind_by_dm": self.remind_by_dm,
            "stats": {
                "rows_taken": self.stats.rows_taken,
                "sixth_card_takes": self.stats.sixth_card_takes,
                "low_card_takes": self.stats.low_card_takes,
                "row_takes_by_index": {str(k): v for k, v in self.stats.row_takes_by_index.items()},
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        stats = data.get("stats") or {}
        return cls(
            user_id=data["user_id"],
            name=str(data["name"]),
            ai_level=data.get("ai_level"),
            missed_turns=int(data.get("missed_turns", 0)),
            prompts=prompt_preference(data.get("prompts")) or DEFAULT_PROMPTS,
            removed=data["removed"] if data.get("removed") in ("left", "kicked") else None,
            back_from_step=int(data.get("back_from_step") or 0),
            remind_by_dm=bool(data.get("remind_by_dm", False)),
            stats=SeatStats(
                rows_taken=int(stats.get("rows_taken", 0)),
                sixth_card_takes=int(stats.get("sixth_card_takes", 0)),
                low_card_takes=int(stats.get("low_card_takes", 0)),
                row_takes_by_index={int(k): int(v) for k, v in stats.get("row_takes_by_index", {}).items()},
            ),
        )


@dataclass(frozen=True)
class Post:
    """News the channel reads once (a reveal, the standings, a closing), committed with the state that made it.

    The table's live message is drawn from the current state; a post is what
    the state alone cannot tell (the engine's events, notices). It waits in
    the store's outbox until the presenter has shown it, so a crash, a stop or
    a refused request between the commit and Discord loses nothing. ``seq``
    numbers a table's posts and is never given twice, not even after a save
    that failed, so a nonce made of it always means one content.
    """

    seq: int
    kind: str  # opened (a lobby's message), started, turn, notice, finished, cancelled, reminder
    events: tuple[Event, ...] = ()
    notices: tuple[Text, ...] = ()
    step: int = 0  # the decision point it opens; the timer waits for it to be seen
    at: float = 0.0  # when it was committed (the table's clock)
    timed_out: bool = False  # the special-card timer decided (the asking message says so)
    remind: tuple[int, ...] = ()  # turn-based: the players who owe a move, to mention (or message)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "events": [event_to_dict(e) for e in self.events],
            "notices": [n.to_data() for n in self.notices],
            "step": self.step,
            "at": self.at,
            "timed_out": self.timed_out,
            "remind": list(self.remind),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Post:
        return cls(
            seq=int(data["seq"]),
            kind=str(data["kind"]),
            events=tuple(event_from_dict(e) for e in data.get("events", ())),
            notices=tuple(Text.from_data(n) for n in data.get("notices", ())),
            step=int(data.get("step", 0)),
            at=float(data.get("at", 0.0)),
            timed_out=bool(data.get("timed_out", False)),
            remind=tuple(int(u) for u in data.get("remind", ())),
        )


@dataclass
class Table:
    """One table in one channel (or thread), as the table service changes it.

    Only the service touches a live table, under its ``lock``; everyone else
    reads a ``TableSnapshot`` of what was committed.
    """

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
    message_id: int | None = None  # the public lobby / table message (stored on its own, see mark_shown)
    created_at: float = 0.0
    outbox: list[Post] = field(default_factory=list)  # committed, not yet shown
    unsaved: list[Post] = field(default_factory=list)  # added by the change under way, not committed yet
    post_seq: int = 0  # the seq of the newest post ever numbered: never goes back
    closed_notice: Text | None = None  # why it closed (cancelled or abandoned)
    # Where it plays: ``channel_id`` holds its lobby (and, for a game in a thread, the summary
    # message the thread was started on, whose id the thread shares); ``thread_id`` the game.
    threaded: bool = False  # the game plays in a thread of its own (once ``thread_id`` is known)
    thread_id: int | None = None
    reminded_step: int = 0  # turn-based: the decision point whose reminder was sent (never twice)
    # A game that waits with its clock stopped (see ``bot.tables.pause``): why ("locked": a moderator
    # locked its thread), since when, and the time its current decision had left, given back after.
    paused: str | None = None
    paused_at: float | None = None
    time_left: float | None = None
    resumed_at: float = 0.0  # when it last went on after a pause
    decision: DecisionId | None = field(default=None, repr=False, compare=False)  # the game's decision_id
    outlook: CachedOutlook | None = field(default=None, repr=False, compare=False)
    # (seat, step, card): see specials.declined_for
    queued_swap: tuple[int, int, Special] | None = field(default=None, repr=False, compare=False)
    lobby_unshown: bool = field(default=False, repr=False, compare=False)  # see TableService.set_message
    # (step, seconds): the current decision's post reached the channel that late, and its timer waits
    # as long (see TableService.post_seen_late); in memory only, never committed
    grace: tuple[int, float] = field(default=(0, 0.0), repr=False, compare=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    # the last committed (state, meta)
    saved: tuple[dict[str, Any], dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    version: int = field(default=0, repr=False, compare=False)  # commits so far (in this process)
    committed: TableSnapshot | None = field(default=None, repr=False, compare=False)  # of ``saved``

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a player still playing themselves (not one an AI took over)."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.is_ai:
                return index
        return None

    def taken_over_seat(self, user_id: int) -> int | None:
        """The seat of a player an AI took over from (missed turns, left or kicked)."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and seat.takeover is not None:
                return index
        return None

    @property
    def home_id(self) -> int:
        """The channel its game's messages go to: its thread, else the channel it was opened in."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def channel_of(self, message_id: int | None) -> int:
        """The channel ``message_id`` (by default, where the game's messages go) is in: the lobby, on
        which a game's thread is started and whose id the thread shares, stays in the channel."""
        return self.channel_id if message_id is not None and message_id == self.thread_id else self.home_id

    def owing(self) -> list[int]:
        """The players (user ids) the game waits on now, not counting seats an AI plays."""
        if self.game is None or self.status is not TableStatus.PLAYING:
            return []
        waiting = [self.seats[p] for p in self.game.waiting_for]
        return [seat.user_id for seat in waiting if not seat.is_ai and seat.user_id is not None]

    def due(self) -> float | None:
        """When the current decision's timer runs out: its committed deadline, plus the time its
        post took to reach the channel if that was long (``grace``)."""
        if self.deadline is None:
            return None
        step, seconds = self.grace
        return self.deadline + seconds if step == self.step else self.deadline

    def reminder_at(self) -> float | None:
        """When the players who still owe the current move are reminded (turn-based only), or None."""
        if (
            not self.options.turn_based
            or self.deadline is None
            or self.status is not TableStatus.PLAYING
            or self.reminded_step >= self.step
        ):
            return None
        return self.deadline - (1 - REMINDER_AT) * self.options.seconds_for(self.decision_kind())

    def pause_ends_at(self) -> float | None:
        """When a paused game is abandoned (the table's clock), or None if it is not paused."""
        if self.paused is None or self.paused_at is None:
            return None
        return self.paused_at + LOCKED_LONGEST

    def decision_kind(self) -> str:
        """Which timer the current decision runs on: "turn", "special" or "choice"."""
        phase = self.game.phase if self.game is not None else None
        if phase is Phase.PICK:
            return "turn"
        if phase in (Phase.SPECIAL, Phase.SWAP):
            return "special"
        return "choice"

    def has_user(self, user_id: int) -> bool:
        return any(seat.user_id == user_id for seat in self.seats)

    @property
    def host_name(self) -> str:
        """The host's name as seated (the first seat's if the host has none, "?" at an empty table)."""
        for seat in self.seats:
            if seat.user_id == self.host_id:
                return seat.name
        return self.seats[0].name if self.seats else "?"

    def started_game(self) -> Game:
        """The game, for the steps that run only once it started (the service's play); its absence is a bug."""
        if self.game is None:
            raise RuntimeError(f"table {self.id} has no game yet")
        return self.game

    def human_ids(self) -> list[int]:
        """The user ids of the seats people play themselves, in seat order."""
        return [seat.user_id for seat in self.humans if seat.user_id is not None]

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_ai]

    def add_post(
        self,
        kind: str,
        events: Iterable[Event] = (),
        notices: Iterable[Text] = (),
        at: float = 0.0,
        timed_out: bool = False,
        remind: Iterable[int] = (),
    ) -> Post:
        """News for the channel, committed with the change under way (or dropped with it)."""
        self.post_seq += 1
        post = Post(self.post_seq, kind, tuple(events), tuple(notices), self.step, at, timed_out, tuple(remind))
        self.unsaved.append(post)
        return post

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)

    def meta(self) -> dict[str, Any]:
        """The service's side of a checkpoint (the engine saves its own state; posts and the
        message id are stored on their own)."""
        return {
            "host_id": self.host_id,
            "options": self.options.model_dump(mode="json"),
            "seats": [s.to_dict() for s in self.seats],
            "status": self.status.value,
            "seed": self.seed,
            "step": self.step,
            "deadline": self.deadline,
            "created_at": self.created_at,
            "post_seq": self.post_seq,
            "threaded": self.threaded,
            "thread_id": self.thread_id,
            "reminded_step": self.reminded_step,
            "paused": self.paused,
            "paused_at": self.paused_at,
            "time_left": self.time_left,
            "resumed_at": self.resumed_at,
            "closed_notice": self.closed_notice.to_data() if self.closed_notice is not None else None,
        }

    def roll_back(self) -> None:
        """Back to the last committed checkpoint: a change whose save failed did not happen.

        Post numbers stay where they were: one that a failed save used is never
        given again, so no nonce is ever sent with two contents."""
        if self.saved is None:
            raise RuntimeError(f"table {self.id} has no commit to go back to")
        state, meta = self.saved
        fresh = Table.from_checkpoint(self.id, self.guild_id, self.channel_id, meta, state or None)
        for name in (
            "host_id",
            "options",
            "seats",
            "status",
            "seed",
            "step",
            "deadline",
            "created_at",
            "game",
            "decision",
            "closed_notice",
            "threaded",
            "thread_id",
            "reminded_step",
            "paused",
            "paused_at",
            "time_left",
            "resumed_at",
        ):
            setattr(self, name, getattr(fresh, name))
        self.unsaved = []
        self.outlook = None  # worked out again from the restored game
        self.queued_swap = None

    def as_committed(self) -> Table:
        """The table as last committed, to read from: itself while no change holds its lock (each
        change commits or rolls back before it lets go), else the copy drawn from its snapshot."""
        return self.committed.table if self.lock.locked() and self.committed is not None else self

    def last_commit(self) -> TableSnapshot:
        """The snapshot of its last commit: every table the service hands out has one."""
        if self.committed is None:
            raise RuntimeError(f"table {self.id} has not been committed yet")
        return self.committed

    def snapshot(self) -> TableSnapshot:
        """What was committed last, for everyone but the service (see ``TableSnapshot``)."""
        if self.saved is None:
            raise RuntimeError(f"table {self.id} has not been committed yet")
        state, meta = self.saved
        return TableSnapshot(
            self.id,
            self.guild_id,
            self.channel_id,
            self.version,
            state,
            meta,
            tuple(self.outbox),
            self.message_id,
            self.outlook,
        )

    @classmethod
    def from_checkpoint(
        cls,
        table_id: int,
        guild_id: int,
        channel_id: int,
        meta: dict[str, Any],
        state: dict[str, Any] | None,
        posts: Iterable[Post] = (),
        message_id: int | None = None,
    ) -> Table:
        closed = meta.get("closed_notice")
        owed = list(posts)
        table = cls(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=int(meta["host_id"]),
            options=TableOptions.model_validate(meta["options"]),
            seats=[Seat.from_dict(s) for s in meta["seats"]],
            status=TableStatus(meta["status"]),
            seed=int(meta["seed"]),
            step=int(meta["step"]),
            deadline=meta.get("deadline"),
            message_id=message_id,
            created_at=float(meta.get("created_at") or 0.0),
            outbox=owed,
            post_seq=max([int(meta.get("post_seq", 0)), *(p.seq for p in owed)]),
            closed_notice=Text.from_data(closed) if closed else None,
            threaded=bool(meta.get("threaded", False)),
            thread_id=int(meta["thread_id"]) if meta.get("thread_id") else None,
            reminded_step=int(meta.get("reminded_step") or 0),
            paused=meta.get("paused") or None,
            paused_at=_seconds(meta.get("paused_at")),
            time_left=_seconds(meta.get("time_left")),
            resumed_at=float(meta.get("resumed_at") or 0.0),
        )
        if state:
            table.game = Game.from_dict(state)
            table.decision = table.game.decision_id
        return table


@dataclass(frozen=True)
class TableSnapshot:
    """A table as one commit left it: what the Discord face shows and reads.

    Made of the very state and meta that were committed (never of the live
    table, which a change under way may hold half-done), the posts still owed
    to the channel and the live message's id. ``table`` is a private copy
    built from them on first use, which nobody changes.
    """

    id: int
    guild_id: int
    channel_id: int
    version: int  # the table's commits so far: a newer snapshot has a higher one
    state: dict[str, Any] = field(repr=False)
    meta: dict[str, Any] = field(repr=False)
    posts: tuple[Post, ...] = ()
    message_id: int | None = None
    outlook: CachedOutlook | None = field(default=None, repr=False)  # the special-card outlook worked out so far

    @functools.cached_property
    def table(self) -> Table:
        table = Table.from_checkpoint(
            self.id, self.guild_id, self.channel_id, self.meta, self.state or None, self.posts, self.message_id
        )
        table.outlook = self.outlook  # keyed by its decision: a stale one is never used
        return table

    def release(self) -> None:
        """Let go of the copy ``table`` built (a reader that needs it again builds it anew): a
        table that waits hours for its next move need not hold its game twice."""
        self.__dict__.pop("table", None)

    @property
    def status(self) -> TableStatus:
        return TableStatus(self.meta["status"])

    @property
    def paused(self) -> str | None:
        """Why the game waits with its clock stopped ("locked": a moderator locked its thread), or None."""
        return self.meta.get("paused") or None

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)


def _seconds(value: Any) -> float | None:
    return None if value is None else float(value)
