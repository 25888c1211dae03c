"""What an action checks before it changes anything: the seat, the step of its button, the game."""

from __future__ import annotations

from engine import Game

from .errors import BackNextTurn, LobbyError, NoTable, NotAtTable, SeatTakenOver, StaleButton, TablePaused
from .table import Table, TableStatus
from .text import N_


def seat_of(table: Table, user_id: int) -> int:
    """The seat ``user_id`` plays; says why not to a player an AI plays for."""
    seat = table.seat_of(user_id)
    if seat is None:
        taken = table.taken_over_seat(user_id)
        # the seat found is one with a takeover: its reason says whether it can be taken back
        if taken is not None and (reason := table.seats[taken].takeover) is not None:
            raise SeatTakenOver(table.id, reason)
        raise NotAtTable()
    return seat


def acting_seat(table: Table, user_id: int) -> int:
    """``seat_of`` for an action: a seat taken back acts only from the next decision point on."""
    seat = seat_of(table, user_id)
    not_paused(table)
    if table.seats[seat].back_from_step > table.step:
        raise BackNextTurn()
    return seat


def check_step(table: Table, step: int | None) -> None:
    if step is not None and step != table.step:
        raise StaleButton()


def running_game(table: Table) -> Game:
    if table.status is TableStatus.LOBBY or table.game is None:
        raise LobbyError(N_("The game has not started yet."))
    if table.status is not TableStatus.PLAYING:
        raise NoTable(N_("That game is over."))
    return table.game


def not_paused(table: Table) -> None:
    """A paused game (its thread locked) takes no move until it goes on."""
    if table.paused is not None:
        raise TablePaused()
