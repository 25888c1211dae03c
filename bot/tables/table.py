"""A live table: its options, seats and game, and how it is saved in a checkpoint.

Speaks ids and engine objects only; the Discord face renders it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import functools
from collections.abc import Callable, Iterable
from dataclasses import KW_ONLY, MISSING, dataclass, field, fields
from types import NoneType, UnionType
from typing import Any, Literal, TypeAlias, Union, cast, get_args, get_origin, get_type_hints

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
#: ... or a game only interactions can show has news that none is left to carry (everyone away).
UNSEEN = "unseen"
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


class CorruptCheckpoint(ValueError):
    """A stored checkpoint that cannot be a table's: ``str()`` names the field and why."""


@dataclass(frozen=True)
class Checkpointed:
    """How a field of ``TableRecord`` is written in a checkpoint's meta and read back (its
    ``checkpointed`` metadata). A field of a plain JSON type needs none: ``int``, ``float``,
    ``bool``, ``str``, or one of them or None, written as it is and read by that type."""

    write: Callable[[Any], Any] | None = None  # None: as it is
    read: Callable[[Any], Any] | None = None  # None: by the field's declared type
    #: In every checkpoint ever written: one without it is corrupt, not read as the default.
    required: bool = False


def checkpointed(
    write: Callable[[Any], Any] | None = None, read: Callable[[Any], Any] | None = None, *, required: bool = False
) -> dict[str, Checkpointed]:
    """A record field's metadata: how it is saved (see ``Checkpointed``)."""
    return {"checkpointed": Checkpointed(write, read, required)}


@dataclass(kw_only=True)
class TableRecord:
    """A table's committed state, declared once: ``checkpoint`` writes it, ``read`` reads it back
    and ``Table.roll_back`` copies it, each by going through these fields.

    ``game`` is the checkpoint's state (the engine writes and reads its own); every other field is
    the key of its name in the checkpoint's meta. A field added here is saved with no other edit
    (one of a type other than plain JSON says how with ``checkpointed``), and a checkpoint written
    before it reads as its default.
    """

    host_id: int = field(metadata=checkpointed(required=True))
    options: TableOptions = field(
        metadata=checkpointed(
            lambda options: options.model_dump(mode="json"), TableOptions.model_validate, required=True
        )
    )
    seats: list[Seat] = field(
        metadata=checkpointed(
            lambda seats: [seat.to_dict() for seat in seats],
            lambda data: [Seat.from_dict(seat) for seat in data],
            required=True,
        )
    )
    status: TableStatus = field(
        default=TableStatus.LOBBY, metadata=checkpointed(lambda status: status.value, TableStatus, required=True)
    )
    seed: int = field(default=0, metadata=checkpointed(required=True))
    game: Game | None = None  # the checkpoint's state, {} before the game starts
    # bumps at every new decision point, so older buttons are stale
    step: int = field(default=0, metadata=checkpointed(required=True))
    deadline: float | None = None  # epoch seconds of the current timer
    created_at: float = 0.0
    post_seq: int = 0  # the seq of the newest post ever numbered: never goes back
    # Where it plays: ``channel_id`` holds its lobby (and, for a game in a thread, the summary
    # message the thread was started on, whose id the thread shares); ``thread_id`` the game.
    threaded: bool = False  # the game plays in a thread of its own (once ``thread_id`` is known)
    thread_id: int | None = None
    # Where the bot is not a member (a group DM, a server that never added it): every public message
    # is carried by a player's interaction, never the bot's token; there is no thread.
    carried: bool = False
    # A private channel (a group DM, the bot's DM): no server; ``guild_id`` is the channel's own id,
    # so its games have a board of their own.
    private: bool = False
    # The language of its public messages where no server chose one (a private channel): the starter's.
    language: str | None = None
    reminded_step: int = 0  # turn-based: the decision point whose reminder was sent (never twice)
    # A game that waits with its clock stopped (see ``bot.tables.pause``): why ("locked": a moderator
    # locked its thread), since when, and the time its current decision had left, given back after.
    paused: str | None = None
    paused_at: float | None = None
    time_left: float | None = None
    resumed_at: float = 0.0  # when it last went on after a pause
    # why it closed (cancelled or abandoned)
    closed_notice: Text | None = field(default=None, metadata=checkpointed(Text.to_data, Text.from_data))

    def checkpoint(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What a commit saves, (state, meta): the engine's state of the game ({} before it starts)
        and every other field under its name (a table's posts and message id are stored on their own)."""
        state = self.game.to_dict() if self.game is not None else {}
        return state, {meta_field.name: meta_field.write_from(self) for meta_field in _META}

    @staticmethod
    def read(state: dict[str, Any] | None, meta: dict[str, Any]) -> dict[str, Any]:
        """The fields ``checkpoint`` wrote, by name; ``CorruptCheckpoint`` if the meta cannot be a table's."""
        values = {meta_field.name: meta_field.read_from(meta) for meta_field in _META}
        values["game"] = Game.from_dict(state) if state else None
        return values


@dataclass(frozen=True)
class _MetaField:
    """One key of a checkpoint's meta, as ``TableRecord`` declares its field."""

    name: str
    write: Callable[[Any], Any]
    read: Callable[[Any], Any]
    required: bool
    nullable: bool  # None is one of its values
    default: Callable[[], Any]

    def write_from(self, record: TableRecord) -> Any:
        value = getattr(record, self.name)
        return None if value is None else self.write(value)

    def read_from(self, meta: dict[str, Any]) -> Any:
        value = meta.get(self.name)
        if value is not None:
            try:
                return self.read(value)
            except Exception as exc:  # whatever a reader raises, the error names the field it broke on
                raise CorruptCheckpoint(f"the checkpoint's {self.name} cannot be read ({value!r:.80}): {exc}") from exc
        if self.required:
            raise CorruptCheckpoint(f"the checkpoint has no {self.name}")
        # A null is a saved None; a key missing, one the version that wrote it did not have yet.
        return None if self.nullable and self.name in meta else self.default()


#: The types a record field is saved as without saying how: their value is JSON already.
_PLAIN_JSON = (int, float, bool, str)


def _meta_fields() -> tuple[_MetaField, ...]:
    types = get_type_hints(TableRecord)
    meta: list[_MetaField] = []
    for record_field in fields(TableRecord):
        if record_field.name == "game":
            continue
        how: Checkpointed = record_field.metadata.get("checkpointed", Checkpointed())
        declared = types[record_field.name]
        meta.append(
            _MetaField(
                record_field.name,
                how.write or (lambda value: value),
                how.read or _plain_reader(record_field.name, declared),
                how.required,
                NoneType in _kinds(declared),
                _default_of(record_field),
            )
        )
    return tuple(meta)


def _default_of(record_field: dataclasses.Field[Any]) -> Callable[[], Any]:
    if record_field.default_factory is not MISSING:
        return record_field.default_factory
    return lambda: record_field.default


def _kinds(declared: Any) -> tuple[Any, ...]:
    """The types a field's values may have: each of a union's (``int | None``), else the one declared."""
    return get_args(declared) if get_origin(declared) in (Union, UnionType) else (declared,)


def _plain_reader(name: str, declared: Any) -> Callable[[Any], Any]:
    """How a field of a plain JSON type (or that or None) is read: by the type's own conversion."""
    kinds = [kind for kind in _kinds(declared) if kind is not NoneType]
    if len(kinds) != 1 or kinds[0] not in _PLAIN_JSON:
        raise TypeError(f"TableRecord.{name}: a {declared} is no JSON value; say how it is saved with checkpointed()")
    return cast(Callable[[Any], Any], kinds[0])


_META = _meta_fields()


@dataclass
class Table(TableRecord):
    """One table in one channel (or thread), as the table service changes it.

    Only the service touches a live table, under its ``lock``; everyone else
    reads a ``TableSnapshot`` of what was committed. What a commit checkpoints
    is its ``TableRecord``; the fields declared here are not in the checkpoint.
    """

    id: int
    guild_id: int
    channel_id: int
    _: KW_ONLY
    # Saved apart from the checkpoint, each on its own.
    message_id: int | None = None  # the public lobby / table message (see mark_shown)
    outbox: list[Post] = field(default_factory=list)  # committed, not yet shown
    # In memory only, never saved.
    unsaved: list[Post] = field(default_factory=list)  # added by the change under way, not committed yet
    decision: DecisionId | None = field(default=None, repr=False, compare=False)  # the game's decision_id
    outlook: CachedOutlook | None = field(default=None, repr=False, compare=False)
    # (seat, step, card): see specials.declined_for
    queued_swap: tuple[int, int, Special] | None = field(default=None, repr=False, compare=False)
    # (step, seconds): the current decision's post reached the channel that late, and its timer waits
    # as long (see TableService.post_seen_late)
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
    def server_id(self) -> int | None:
        """The server it plays in; None in a private channel (whose id ``guild_id`` holds instead)."""
        return None if self.private else self.guild_id

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

    def roll_back(self) -> None:
        """Back to the last committed checkpoint: a change whose save failed did not happen.

        Post numbers stay where they were: one that a failed save used is never
        given again, so no nonce is ever sent with two contents."""
        if self.saved is None:
            raise RuntimeError(f"table {self.id} has no commit to go back to")
        state, meta = self.saved
        fresh = Table.from_checkpoint(self.id, self.guild_id, self.channel_id, meta, state or None)
        post_seq = self.post_seq  # never goes back (see above)
        for record_field in fields(TableRecord):
            setattr(self, record_field.name, getattr(fresh, record_field.name))
        self.post_seq = post_seq
        self.decision = fresh.decision
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
        """The table a checkpoint saved, with the posts it still owes its channel and its message;
        ``CorruptCheckpoint`` if the meta cannot be a table's."""
        owed = list(posts)
        table = cls(table_id, guild_id, channel_id, message_id=message_id, outbox=owed, **TableRecord.read(state, meta))
        table.post_seq = max([table.post_seq, *(p.seq for p in owed)])
        if table.game is not None:
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

    # What the face asks of every commit, read from the committed meta and state without building
    # ``table`` (a game's copy): the face never reads a checkpoint's keys itself.

    @property
    def step(self) -> int:
        """The decision point the table was at (a post opens one; a click names the one it answers)."""
        return int(self.meta.get("step", 0))

    @property
    def thread_id(self) -> int | None:
        return int(self.meta["thread_id"]) if self.meta.get("thread_id") else None

    @property
    def threaded(self) -> bool:
        """Whether its game is to be played in a thread of its own (started on its lobby)."""
        return bool(self.meta.get("threaded"))

    @property
    def carried(self) -> bool:
        """Whether only players' interactions reach its channel (the bot is not a member there)."""
        return bool(self.meta.get("carried"))

    @property
    def home_id(self) -> int:
        """The channel its game's messages go to: its thread, else the channel it was opened in."""
        return self.thread_id or self.channel_id

    @property
    def resumed(self) -> bool:
        """Whether its game came back from a pause (its deadline moved)."""
        return bool(self.meta.get("resumed_at"))

    @property
    def drafting(self) -> bool:
        """Whether a Pro game is drafting its hands."""
        return self.state.get("phase") == Phase.DRAFT.value

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)
