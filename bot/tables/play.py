"""Playing a table: picks, row choices, the Pro draft, AI seats, timeouts, the end of a game.

``Play.advance`` is the one path an accepted action takes: the decisions that
need no one are made at once, the timer moves to the next decision point, the
channel's news is added, and everything goes out in ONE commit. A finished
game's results are part of its last commit; a closed table's closing too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from data.models import GameResult, SeatResult
from engine import (
    CardDrafted,
    CardsRevealed,
    ChooseRow,
    Draft,
    Phase,
    Pick,
    PlayerView,
    RowTaken,
    TakeReason,
)
from engine.actions import Action
from engine.events import Event

from .ai_seats import AISeats
from .checks import acting_seat, check_step, running_game, seat_of
from .registry import TableRegistry
from .specials import declined_for, timed_out_decline, timed_out_notice
from .table import UNSEEN, Table, TableStatus
from .text import N_, Mention, Nn_, Text
from .timers import Scheduler, backoff
from .transactions import UNREACHABLE, Transactions

log = logging.getLogger(__name__)

#: How a table that ends without a result is recorded.
ClosedStatus = Literal["cancelled", "abandoned"]

#: Missed turns in a row after which an AI plays the seat.
MISSES_BEFORE_AI = 2


@dataclass(frozen=True)
class ServiceDefaults:
    """Defaults from the settings that a table does not choose itself."""

    lobby_minutes: int = 30
    replacement_ai_level: str = "medium"  # who takes over after two missed turns


@dataclass(frozen=True)
class PickResult:
    card: int
    changed: bool  # the player had another card face down before
    revealed: bool  # this pick was the last one: the turn has been played


def ai_seed(table: Table, seat: int) -> str:
    # From the table, so a restored table's AI plays as it would have.
    return f"{table.seed}:{table.step}:{seat}"


class Play:
    """The game operations of the table service."""

    def __init__(
        self,
        registry: TableRegistry,
        tx: Transactions,
        ai: AISeats,
        scheduler: Scheduler,
        defaults: ServiceDefaults,
        clock: Callable[[], float],
    ) -> None:
        self.registry = registry
        self.tx = tx
        self.ai = ai
        self.scheduler = scheduler
        self.defaults = defaults
        self.clock = clock
        self.thinking: dict[int, asyncio.Task[None]] = {}  # tables whose AI seats pick after the answer
        self.closing = False  # a stop is under way: AI seats still thinking apply nothing

    # -- what a player sees -------------------------------------------------------

    def hand(self, table_id: int, user_id: int) -> tuple[Table, int, PlayerView]:
        """``user_id``'s seat and view as last committed (never a change still being saved)."""
        table = self.registry.get(table_id).as_committed()
        game = running_game(table)
        seat = seat_of(table, user_id)
        return table, seat, game.view(seat)

    # -- actions ------------------------------------------------------------------

    async def pick(self, table_id: int, user_id: int, card: int, step: int | None = None) -> PickResult:
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            game = running_game(table)
            seat = acting_seat(table, user_id)
            check_step(table, step)
            changed = bool(game.picks[seat])
            events = game.pick(seat, card)  # raises IllegalAction, changing nothing
            table.seats[seat].missed_turns = 0
            await self.advance(table, [Pick(seat, card)], events, kind="picked")
        return PickResult(card, changed, revealed=len(events) > 1)

    async def choose_row(self, table_id: int, user_id: int, row: int, step: int | None = None) -> None:
        await self.decide(table_id, user_id, step, lambda table, seat: ChooseRow(seat, row))

    async def draft(self, table_id: int, user_id: int, card: int, step: int | None = None) -> None:
        await self.decide(table_id, user_id, step, lambda table, seat: Draft(seat, card))

    async def decide(self, table_id: int, user_id: int, step: int | None, make: Callable[[Table, int], Action]) -> None:
        """Apply the engine action ``make(table, seat)`` for ``user_id``; the engine refuses what is
        illegal (an ``IllegalAction``, answered with its own words)."""
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            game = running_game(table)
            seat = acting_seat(table, user_id)
            check_step(table, step)
            action = make(table, seat)
            events = game.apply(action)  # raises IllegalAction, changing nothing
            table.seats[seat].missed_turns = 0
            await self.advance(table, [action], events)

    # -- the engine moves on ------------------------------------------------------

    async def advance(
        self,
        table: Table,
        actions: Iterable[Action],
        events: list[Event],
        kind: str = "turn",
        notices: list[Text] | None = None,
        timed_out: bool = False,
        **record: Any,
    ) -> None:
        """Let AI seats act, move the timer, add the channel's news, and commit it all at once.

        ``record``: the game's record changes too (``Transactions.commit``'s seats,
        status, host). Committed before the caller answers the user, so an
        acknowledged click survives any crash.
        """
        game = table.started_game()
        actions = list(actions)
        notices = list(notices or [])
        await self._decide_automatically(table, actions, events)
        count_takes(table, events)
        if game.is_over:
            await self.finish(table, actions, events, notices, **record)
            return
        news = bool(notices) or kind in ("started", "replaced")
        if game.decision_id != table.decision:
            # A new decision point: older buttons go stale and a new timer starts.
            table.decision = game.decision_id
            table.step += 1
            table.deadline = self.clock() + table.options.seconds_for(table.decision_kind())
            if kind == "picked":
                kind = "turn"
            # A draft is one message edited in place; anything else that moved on is news. In a
            # turn-based game every decision is news: it mentions whoever owes a move.
            news = (
                news
                or game.phase is not Phase.DRAFT
                or table.options.turn_based
                or not all(isinstance(e, CardDrafted) for e in events)
            )
            remind: list[int] = table.owing() if table.options.turn_based else []
        else:
            remind = []
        if news:
            table.add_post(
                post_kind(kind, events),
                events,
                notices,
                self.clock(),
                timed_out=timed_out,
                remind=remind,
            )
        # One transaction for the player's action, the AI moves it set off, the new state and its news.
        await self.tx.commit(table, actions, kind=kind, **record)
        self.schedule(table)  # only once committed: a failed save moves no timer
        self.think_later(table)

    async def _decide_automatically(self, table: Table, actions: list[Action], events: list[Event]) -> None:
        """Make at once every decision that needs no one (see ``_automatic_actions``), except
        face-down picks that a searching AI thinks over: those follow the answer (``_think``)."""
        game = table.started_game()
        while not game.is_over:
            if self._picks_to_think_over(table):
                return
            decided = await self._automatic_actions(table)
            if not decided:
                return
            for action in decided:
                events.extend(game.apply(action))
                actions.append(action)

    async def _automatic_actions(self, table: Table) -> list[Action]:
        """AI seats' moves, and the declines of special-card prompts a player's
        preference says not to ask them: the game never waits on those."""
        game = table.started_game()
        seats = table.seats
        if game.phase is Phase.PICK:
            # An AI plays exactly the seats that have a level (``Seat.is_ai``).
            return [
                await self.ai.decide(game, p, level, ai_seed(table, p))
                for p in game.waiting_for
                if (level := seats[p].ai_level) is not None
            ]
        if not game.waiting_for:
            return []
        seat = game.waiting_for[0]
        level = seats[seat].ai_level
        if level is not None:
            return [await self.ai.decide(game, seat, level, ai_seed(table, seat))]
        await self.prepare_outlook(table)
        declined = declined_for(table, seat)
        return [declined] if declined is not None else []

    async def prepare_outlook(self, table: Table) -> None:
        """Work out the outlook of a special-card pause off the event loop, once, as it begins:
        whether to ask the decider, and their prompt, read it from the table's cache."""
        game = table.game
        if (
            game is not None
            and game.phase is Phase.SPECIAL
            and (table.outlook is None or table.outlook[0] != game.decision_id)
        ):
            table.outlook = (game.decision_id, await self.ai.outlook(game))

    # -- AI seats that think a while ------------------------------------------------

    def _picks_to_think_over(self, table: Table) -> bool:
        """Whether the game waits for face-down picks of AI seats whose level searches (tens of
        milliseconds each, in the worker): nobody sees a face-down pick, so the click that
        opened the turn is answered first and the picks follow."""
        game = table.game
        return (
            table.is_open
            and table.paused is None
            and game is not None
            and game.phase is Phase.PICK
            and not game.is_over
            and any(table.seats[p].is_ai and self.ai.searches(table.seats[p].ai_level) for p in game.waiting_for)
        )

    def think_later(self, table: Table) -> None:
        """Start the AI seats' picks of ``table`` after this action, unless they are under way."""
        if self.closing or table.id in self.thinking or not self._picks_to_think_over(table):
            return
        task = asyncio.create_task(self._think(table), name=f"ai-picks-{table.id}")
        self.thinking[table.id] = task
        task.add_done_callback(lambda done: self._thought(table.id, done))

    def _thought(self, table_id: int, task: asyncio.Task[None]) -> None:
        if self.thinking.get(table_id) is task:
            del self.thinking[table_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("the AI seats of table %s could not pick", table_id, exc_info=task.exception())

    async def after_thinking(self, table: Table) -> None:
        """Wait until the AI seats of ``table`` that think after the answer have picked."""
        task = self.thinking.get(table.id)
        if task is not None:
            await asyncio.wait([task])  # not cancelled with the caller: its picks are the table's

    async def _think(self, table: Table) -> None:
        """The AI seats' face-down picks, saved and shown like a player's pick. A stop that
        comes while they think applies none of them: the next start thinks again. A save that
        fails is tried again, with a growing pause, until the database is back."""
        attempt = 0
        while True:
            try:
                async with self.tx.acting(table):
                    while not self.closing and self._picks_to_think_over(table):
                        decided = await self._automatic_actions(table)
                        if self.closing or not decided:
                            return
                        events: list[Event] = []
                        game = table.started_game()
                        for action in decided:
                            events.extend(game.apply(action))
                        await self.advance(table, decided, events, kind="picked")
                return
            except UNREACHABLE:
                attempt += 1
                await asyncio.sleep(backoff(attempt))
                if self.closing or self.registry.find(table.id) is not table:
                    return

    # -- the end ------------------------------------------------------------------

    async def finish(
        self, table: Table, actions: list[Action], events: list[Event], notices: list[Text], **record: Any
    ) -> None:
        """The game is over: its last moves, its standings post and its results, in one commit."""
        game = table.started_game()
        outcome = game.outcome
        if outcome is None:
            raise RuntimeError(f"table {table.id}: a game that is over has no outcome")
        table.status = TableStatus.FINISHED
        table.deadline = None
        # The standings are drawn from the outcome when shown; a game restored after its last move
        # (written by an older version, before results went with it) may have its post already.
        if not any(post.kind == "finished" for post in table.outbox):
            table.add_post("finished", events, notices, self.clock())
        result = GameResult(
            game_id=table.id,
            winners=list(outcome.winners),
            seats=[
                SeatResult(
                    seat=i,
                    user_id=s.user_id,
                    name=s.name,
                    ai_level=s.ai_level,
                    points=outcome.scores[i],
                    round_points=[r[i] for r in game.history],
                    rows_taken=s.stats.rows_taken,
                    sixth_card_takes=s.stats.sixth_card_takes,
                    low_card_takes=s.stats.low_card_takes,
                    row_takes_by_index=dict(s.stats.row_takes_by_index),
                )
                for i, s in enumerate(table.seats)
            ],
        )
        record.pop("status", None)  # the results finish it
        committed = await self.tx.commit(table, actions, kind=None, result=result, **record)
        self.unregister(table)
        self.tx.notify(committed, "finished")

    async def close(self, table: Table, status: ClosedStatus, notice: Text, **record: Any) -> None:
        """End ``table`` without a result (``status``: cancelled or abandoned), saying why."""
        table.status = TableStatus.CANCELLED
        table.deadline = None
        table.closed_notice = notice
        table.add_post("cancelled", notices=[notice], at=self.clock())
        committed = await self.tx.commit(table, kind=None, status=status, **record)
        self.unregister(table)
        self.tx.notify(committed, "cancelled")

    def unregister(self, table: Table) -> None:
        self.registry.remove(table)
        self.scheduler.set(table.id, None)

    # -- timers -------------------------------------------------------------------

    def schedule(self, table: Table) -> None:
        """Wake for the table's next timer: its reminder (turn-based), else its deadline; a paused
        game's only timer is its end (``Table.pause_ends_at``)."""
        if table.paused is not None:
            self.scheduler.set(table.id, table.pause_ends_at())
            return
        reminder, due = table.reminder_at(), table.due()
        wake = due if reminder is None or due is None else min(reminder, due)
        self.scheduler.set(table.id, wake)

    async def on_deadline(self, table_id: int) -> None:
        """The table's timer ran out. Raises when its save fails: the scheduler tries again later."""
        table = self.registry.find(table_id)
        if table is None:
            return
        async with self.tx.acting(table):
            now = self.clock()
            if table.paused is not None and table.is_open:  # no decision times out while it waits
                ends = table.pause_ends_at()
                if ends is not None and ends <= now:
                    why = (
                        N_("Nobody came back to this game for a day, so it was abandoned.")
                        if table.paused == UNSEEN
                        else N_(
                            "A moderator locked the game's thread and it stayed locked for a day, so the game was "
                            "abandoned."
                        )
                    )
                    await self.close(table, "abandoned", Text(why))
                else:
                    self.schedule(table)
                return
            reminder, due = table.reminder_at(), table.due()
            if table.is_open and reminder is not None and due is not None and reminder <= now < due:
                await self._remind(table)
                return
            if not table.is_open or due is None or due > now:
                if table.is_open:
                    self.schedule(table)  # acted on (or moved) while this timer was firing
                return
            if table.status is TableStatus.LOBBY:
                await self.close(table, "cancelled", Text(N_("Nobody started the game in time, so the lobby closed.")))
                return
            await self._time_out(table)

    async def _remind(self, table: Table) -> None:
        """A turn-based game: mention (or message) the players who still owe the current move,
        once per decision: the reminder is committed with the step it was sent for."""
        owing = table.owing()
        table.reminded_step = table.step
        if owing:
            table.add_post("reminder", at=self.clock(), remind=owing)
        await self.tx.commit(table, kind="reminder" if owing else None)
        self.schedule(table)

    async def _time_out(self, table: Table) -> None:
        """Decide for everyone the game still waits on; two missed turns and an AI takes over."""
        game = table.started_game()
        events: list[Event] = []
        actions: list[Action] = []
        notices: list[Text] = []
        timed_out = False
        for seat in list(game.waiting_for):
            player = table.seats[seat]
            user_id = player.user_id
            if player.is_ai or user_id is None:  # an AI plays it (a seat without a user is an AI's)
                continue
            declined = timed_out_decline(game, seat)
            if declined is not None:  # a special card is optional: no turn was missed
                notices.append(timed_out_notice(table, seat))
                events.extend(game.apply(declined))
                actions.append(declined)
                timed_out = True
                break
            action: Action
            if game.phase is Phase.CHOOSE_ROW:
                row = game.cheapest_row()  # the rulebook's hint
                action = ChooseRow(seat, row)
                notices.append(
                    Text(
                        N_("{player} ran out of time, so row {row} was taken for them (the cheapest)."),
                        player=Mention(user_id),
                        row=row + 1,
                    )
                )
            else:
                action = await self.ai.decide(game, seat, self.defaults.replacement_ai_level, ai_seed(table, seat))
            events.extend(game.apply(action))
            actions.append(action)
            player.missed_turns += 1
            if player.missed_turns >= MISSES_BEFORE_AI:
                player.ai_level = self.defaults.replacement_ai_level
                notices.append(
                    Text(
                        N_("{player} missed two turns in a row, so an AI plays their seat now."),
                        player=Mention(user_id),
                    )
                )
            else:
                notices.append(
                    Text(
                        Nn_(
                            "{player} missed a turn, so the bot played for them. "
                            "{left} more in a row and an AI takes their seat.",
                            "{player} missed a turn, so the bot played for them. "
                            "{left} more in a row and an AI takes their seat.",
                            "left",
                        ),
                        player=Mention(user_id),
                        left=MISSES_BEFORE_AI - player.missed_turns,
                    )
                )
            if game.phase is not Phase.PICK:
                break  # a reveal happened: later decisions get their own timer
        if not table.humans:
            await self.close(table, "abandoned", Text(N_("Every player has left, so the game was abandoned.")))
            return
        await self.advance(table, actions, events, notices=notices, timed_out=timed_out)

    async def replace_with_ai(self, table: Table, seat: int, notice: Text) -> None:
        table.seats[seat].ai_level = self.defaults.replacement_ai_level
        if not table.humans:
            await self.close(
                table, "abandoned", notice + Text(N_("Nobody is left, so the game was abandoned.")), seats=True
            )
            return
        await self.advance(table, [], [], kind="replaced", notices=[notice], seats=True)


def count_takes(table: Table, events: Iterable[Event]) -> None:
    for event in events:
        if isinstance(event, RowTaken):
            stats = table.seats[event.player].stats
            stats.rows_taken += 1
            if event.reason is TakeReason.FULL_ROW:
                stats.sixth_card_takes += 1
            else:
                stats.low_card_takes += 1
            stats.row_takes_by_index[event.row] = stats.row_takes_by_index.get(event.row, 0) + 1


def post_kind(kind: str, events: list[Event]) -> str:
    """What a post of ``advance`` is: "started", "turn" for a turn's reveal (the cards revealed
    together, which the "turn" timing of ``post_shown`` measures), else "notice" (a row chosen, a
    special card decided: news that is no turn of its own)."""
    if kind == "started":
        return kind
    if kind == "turn" and any(isinstance(event, CardsRevealed) for event in events):
        return "turn"
    return "notice"
