"""A table's stage: everything the presenter holds of one table's public life, in one object.

The presenter makes a table's stage when the table first has something to show (a commit, or a
click on an open table), keeps it while the table is open, lets go of its newest snapshot whenever
everything is shown, and drops the whole stage in one place once the table has closed and its
last post is shown and marked. The parts act on the stage they are handed, each on its own part
of it; none keeps anything of a table of its own, so nothing of a closed table is left behind.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.tables.table import Post, TableSnapshot

from .clicks import TableClicks
from .openings import Opening


@dataclass(eq=False)
class OutboxState:
    """What the table owes its channel, and what the store has yet to be told (``OutboxDelivery``).
    A post is known by its number (``Post.seq``)."""

    pending: dict[int, tuple[Post, TableSnapshot]] = field(default_factory=dict)  # to show, each with its commit
    shown: int = 0  # the highest post number shown
    unmarked: tuple[int | None, int | None] | None = None  # shown, not yet marked: (upto, message)
    since: dict[int, float] = field(default_factory=dict)  # when each post may first have been sent
    restored: set[int] = field(default_factory=set)  # the posts owed since before this start
    # the posts whose follow-up may have been taken without its answer reaching us: when each was
    # tried (the wall clock's time, as Discord's message ids tell it)
    unsure: dict[int, float] = field(default_factory=dict)


@dataclass(eq=False)
class LiveState:
    """The table's live message (``LiveMessages``)."""

    message_id: int | None = None  # as this process knows it
    # message id -> monotonic time of its last edit; a message's entry goes once it is superseded
    last_edit: dict[int, float] = field(default_factory=dict)
    without_picture: bool = False  # posted without the table picture
    news: list[str] | None = None  # the notices on it, kept by its edits
    behind: bool = False  # it shows less than the table's state
    repost: bool = False  # it goes to the bottom of the channel anew (``/6nimmt status``)
    lobby_drawn: tuple[object, ...] | None = None  # the players a lobby message shows


@dataclass(eq=False)
class TableStage:
    """One table as the presenter shows it: its newest commit, its worker, and each part's state."""

    id: int
    latest: TableSnapshot | None = None  # the newest commit while something of it is still to show
    worker: asyncio.Task[None] | None = None  # while it has something to show
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # cuts its worker's pause short
    paused: bool = False  # its channel's summary says it waits for its locked thread
    outbox: OutboxState = field(default_factory=OutboxState)
    live: LiveState = field(default_factory=LiveState)
    clicks: TableClicks = field(default_factory=TableClicks)
    opening: Opening | None = None  # the interaction that opened its lobby, until the lobby is shown
    # A closed table only clicks reach, whose news no click could carry: since when (the loop's time),
    # and the timer that gives that news up (``Presenter``).
    unreachable_since: float | None = None
    give_up: asyncio.TimerHandle | None = None

    @property
    def snapshot(self) -> TableSnapshot:
        """The newest commit, which its worker shows."""
        if self.latest is None:
            raise LookupError(f"table {self.id}: no commit to show")
        return self.latest

    def waits_on(self, post: Post) -> bool:
        """Whether the newest commit known still waits on the decision ``post`` opened."""
        latest = self.latest
        return latest is not None and latest.is_open and latest.step == post.step

    def opened(self) -> None:
        """The lobby is shown and its opener answered (or the table is gone): the opener stops waiting."""
        opening, self.opening = self.opening, None
        if opening is not None:
            opening.done.set()

    def reached(self) -> None:
        """A click carried its news after all (or it is let go of): no news of it is to be given up."""
        self.unreachable_since = None
        if self.give_up is not None:
            self.give_up.cancel()
            self.give_up = None
