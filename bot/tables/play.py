"""Game operations of the table service: picks, row choices, the Pro draft, timeouts, AI seats."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from data.models import GameResult, SeatResult
from engine import (
    CardDrafted, ChooseRow, Draft, Game, Phase, Pick, PlayerView, RowTaken, TakeReason,
)

from .errors import LobbyError, NoTable, TableError
from .specials import SPECIAL_PHASES, declined_for, timed_out_decline, timed_out_notice
from .table import Table, TableStatus, decision_point
from .text import N_, Mention, Text
from .updates import TableUpdate

log = logging.getLogger(__name__)

#: Missed turns in a row after which an AI plays the seat.
MISSES_BEFORE_AI = 2


@dataclass(frozen=True)
class PickResult:
    card: int
    changed: bool  # the player had another card face down before
    revealed: bool  # this pick was the last one: the turn has been played


class PlayOps:
    """Mixed into ``TableService``."""

    # -- what a player sees -------------------------------------------------------

    def hand(self, table_id: int, user_id: int) -> tuple[Table, int, PlayerView]:
        table = self.get(table_id)
        game = self._running_game(table)
        seat = self._seat(table, user_id)
        return table, seat, game.view(seat)

    # -- actions ------------------------------------------------------------------

    async def pick(self, table_id: int, user_id: int, card: int, step: int | None = None) -> PickResult:
        table = self.get(table_id)
        async with self._acting(table):
            game = self._running_game(table)
            seat = self._acting_seat(table, user_id)
            self._check_step(table, step)
            changed = bool(game.picks[seat])
            events = game.pick(seat, card)  # raises IllegalAction, changing nothing
            table.seats[seat].missed_turns = 0
            await self._advance(table, [Pick(seat, card)], events, kind="picked")
        return PickResult(card, changed, revealed=len(events) > 1)

    async def choose_row(self, table_id: int, user_id: int, row: int, step: int | None = None) -> None:
        await self._decide(table_id, user_id, step, lambda seat: ChooseRow(seat, row))

    async def draft(self, table_id: int, user_id: int, card: int, step: int | None = None) -> None:
        await self._decide(table_id, user_id, step, lambda seat: Draft(seat, card))

    async def _decide(self, table_id: int, user_id: int, step: int | None,
                      make: Callable[[int], object]) -> None:
        """Apply the engine action ``make(seat)`` for ``user_id``; the engine refuses what is illegal."""
        table = self.get(table_id)
        async with self._acting(table):
            game = self._running_game(table)
            seat = self._acting_seat(table, user_id)
            self._check_step(table, step)
            try:
                action = make(seat)
            except ValueError:  # e.g. a forged special card name in a custom id
                raise TableError(N_("That choice does not exist.")) from None
            events = game.apply(action)  # raises IllegalAction, changing nothing
            table.seats[seat].missed_turns = 0
            await self._advance(table, [action], events)

    # -- the engine moves on ------------------------------------------------------

    async def _advance(self, table: Table, actions: list, events: list, kind: str = "turn",
                       notices: list[Text] | None = None) -> None:
        """Save the accepted actions, let AI seats act, move the timer, tell the channel.

        Each action is checkpointed with its log entry before the caller
        answers the user, so an acknowledged click survives any crash.
        """

        game = table.game
        actions = list(actions)
        notices = list(notices or [])
        await self._decide_automatically(table, actions, events)
        self._count_takes(table, events)
        if game.is_over:
            await self._finish(table, actions, events, notices)
            return
        point = decision_point(game)
        news = bool(notices) or kind in ("started", "replaced")
        if point != table.decision:
            # A new decision point: older buttons go stale and a new timer starts.
            table.decision = point
            table.step += 1
            if game.phase is Phase.PICK:
                seconds = table.options.turn_seconds
            elif game.phase in SPECIAL_PHASES:
                seconds = table.options.special_seconds
            else:
                seconds = table.options.choice_seconds
            table.deadline = self.clock() + seconds
            self.scheduler.set(table.id, table.deadline)
            if kind == "picked":
                kind = "turn"
            # A draft is one message edited in place; anything else that moved on is news.
            news = news or game.phase is not Phase.DRAFT or not all(isinstance(e, CardDrafted) for e in events)
        if news:
            table.add_post(kind if kind in ("started", "turn") else "notice", events, notices, self.clock())
        # One transaction for the player's action, the AI moves it set off, the new state and its news.
        await self._save(table, actions)
        self._notify(TableUpdate(table, kind))
        self._think_later(table)

    async def _decide_automatically(self, table: Table, actions: list, events: list) -> None:
        """Make at once every decision that needs no one (see ``_automatic_actions``), except
        face-down picks that a searching AI thinks over: those follow the answer (``_think``)."""
        game = table.game
        while not game.is_over:
            if self._picks_to_think_over(table):
                return
            decided = await self._automatic_actions(table)
            if not decided:
                return
            for action in decided:
                events.extend(game.apply(action))
                actions.append(action)

    async def _automatic_actions(self, table: Table) -> list:
        """AI seats' moves, and the declines of special-card prompts a player's
        preference says not to ask them: the game never waits on those."""
        game = table.game
        seats = table.seats
        if game.phase is Phase.PICK:
            return [await self.ai.decide(game, p, seats[p].ai_level, self._ai_seed(table, p))
                    for p in game.waiting_for if seats[p].is_ai]
        if not game.waiting_for:
            return []
        seat = game.waiting_for[0]
        if seats[seat].is_ai:
            return [await self.ai.decide(game, seat, seats[seat].ai_level, self._ai_seed(table, seat))]
        declined = declined_for(table, seat)
        return [declined] if declined is not None else []

    # -- AI seats that think a while ------------------------------------------------

    def _picks_to_think_over(self, table: Table) -> bool:
        """Whether the game waits for face-down picks of AI seats whose level searches (tens of
        milliseconds each, in the worker): nobody sees a face-down pick, so the click that
        opened the turn is answered first and the picks follow."""
        game = table.game
        return (table.is_open and game is not None and game.phase is Phase.PICK and not game.is_over
                and any(table.seats[p].is_ai and self.ai.searches(table.seats[p].ai_level)
                        for p in game.waiting_for))

    def _think_later(self, table: Table) -> None:
        """Start the AI seats' picks of ``table`` after this action, unless they are under way."""
        if self._closing or table.id in self._thinking or not self._picks_to_think_over(table):
            return
        task = asyncio.create_task(self._think(table), name=f"ai-picks-{table.id}")
        self._thinking[table.id] = task
        task.add_done_callback(lambda done: self._thought(table.id, done))

    def _thought(self, table_id: int, task: asyncio.Task) -> None:
        if self._thinking.get(table_id) is task:
            del self._thinking[table_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("the AI seats of table %s could not pick", table_id, exc_info=task.exception())

    async def _after_thinking(self, table: Table) -> None:
        """Wait until the AI seats of ``table`` that think after the answer have picked."""
        task = self._thinking.get(table.id)
        if task is not None:
            await asyncio.wait([task])  # not cancelled with the caller: its picks are the table's

    async def _think(self, table: Table) -> None:
        """The AI seats' face-down picks, saved and shown like a player's pick. A stop that
        comes while they think applies none of them: the next start thinks again."""
        async with self._acting(table):
            while not self._closing and self._picks_to_think_over(table):
                decided = await self._automatic_actions(table)
                if self._closing or not decided:
                    return
                events: list = []
                for action in decided:
                    events.extend(table.game.apply(action))
                await self._advance(table, decided, events, kind="picked")

    @staticmethod
    def _count_takes(table: Table, events: list) -> None:
        for event in events:
            if isinstance(event, RowTaken):
                stats = table.seats[event.player].stats
                stats.rows_taken += 1
                if event.reason is TakeReason.FULL_ROW:
                    stats.sixth_card_takes += 1
                else:
                    stats.low_card_takes += 1
                stats.row_takes_by_index[event.row] = stats.row_takes_by_index.get(event.row, 0) + 1

    async def finish_restored(self, table: Table) -> None:
        """A game that ended just before a crash: write its results (once) and close it."""
        async with self._acting(table):
            await self._finish(table, [], [], [])  # its standings post was committed with its last move

    async def _finish(self, table: Table, actions: list, events: list, notices: list[Text]) -> None:

        game = table.game
        outcome = game.outcome
        table.status = TableStatus.FINISHED
        table.deadline = None
        # The standings are drawn from the outcome when shown, so they survive any crash from here on;
        # a game restored after that commit has its post already.
        if not any(post.kind == "finished" for post in table.outbox):
            table.add_post("finished", events, notices, self.clock())
        await self._save(table, actions)  # the last moves, logged while the game is still open
        result = GameResult(
            game_id=table.id,
            winners=list(outcome.winners),
            seats=[
                SeatResult(
                    seat=i, user_id=s.user_id, name=s.name, ai_level=s.ai_level,
                    points=outcome.scores[i], round_points=[r[i] for r in game.history],
                    rows_taken=s.stats.rows_taken, sixth_card_takes=s.stats.sixth_card_takes,
                    low_card_takes=s.stats.low_card_takes, row_takes_by_index=dict(s.stats.row_takes_by_index),
                )
                for i, s in enumerate(table.seats)
            ],
        )
        await self.store.record_results(table.id, result)  # a no-op if already written
        self._unregister(table)
        self._notify(TableUpdate(table, "finished"))

    # -- timers -------------------------------------------------------------------

    async def _on_deadline(self, table_id: int) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self._acting(table):
            if not table.is_open or table.deadline is None or table.deadline > self.clock():
                return  # acted on (or moved) while this timer was firing
            if table.status is TableStatus.LOBBY:
                await self._close(table, "cancelled",
                                  Text(N_("Nobody started the game in time, so the lobby closed.")))
                return
            await self._time_out(table)

    async def _time_out(self, table: Table) -> None:
        """Decide for everyone the game still waits on; two missed turns and an AI takes over."""
        game = table.game
        events: list = []
        actions: list = []
        notices: list[Text] = []
        for seat in list(game.waiting_for):
            player = table.seats[seat]
            if player.is_ai:
                continue
            declined = timed_out_decline(game, seat)
            if declined is not None:  # a special card is optional: no turn was missed
                notices.append(timed_out_notice(table, seat))
                events.extend(game.apply(declined))
                actions.append(declined)
                break
            if game.phase is Phase.CHOOSE_ROW:
                row = game.cheapest_row()  # the rulebook's hint
                action = ChooseRow(seat, row)
                notices.append(Text(N_("{player} ran out of time, so row {row} was taken for them "
                                       "(the cheapest)."), player=Mention(player.user_id), row=row + 1))
            else:
                action = await self.ai.decide(game, seat, self.defaults.replacement_ai_level,
                                              self._ai_seed(table, seat))
            events.extend(game.apply(action))
            actions.append(action)
            player.missed_turns += 1
            if player.missed_turns >= MISSES_BEFORE_AI:
                player.ai_level = self.defaults.replacement_ai_level
                notices.append(Text(N_("{player} missed two turns in a row, so an AI plays their seat now."),
                                    player=Mention(player.user_id)))
            else:
                notices.append(Text(N_("{player} missed a turn, so the bot played for them. "
                                       "{left} more in a row and an AI takes their seat."),
                                    player=Mention(player.user_id), left=MISSES_BEFORE_AI - player.missed_turns))
            if game.phase is not Phase.PICK:
                break  # a reveal happened: later decisions get their own timer
        if not table.humans:
            await self._close(table, "abandoned", Text(N_("Every player has left, so the game was abandoned.")))
            return
        await self._advance(table, actions, events, notices=notices)

    async def _replace_with_ai(self, table: Table, seat: int, notice: Text) -> None:
        table.seats[seat].ai_level = self.defaults.replacement_ai_level
        if not table.humans:
            await self._close(table, "abandoned", notice + Text(N_("Nobody is left, so the game was abandoned.")))
            return
        await self._save_seats(table)
        await self._advance(table, [], [], kind="replaced", notices=[notice])

    # -- helpers ------------------------------------------------------------------

    @staticmethod
    def _running_game(table: Table) -> Game:
        if table.status is TableStatus.LOBBY or table.game is None:
            raise LobbyError(N_("The game has not started yet."))
        if table.status is not TableStatus.PLAYING:
            raise NoTable(N_("That game is over."))
        return table.game
