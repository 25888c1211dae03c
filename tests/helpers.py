"""Helpers the tests (and benchmarks) share: an AI seat that needs no thinking, and players who
play a game through the table service until it ends."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable

from bot.tables.service import TableService
from bot.tables.table import Table
from engine import Game, Phase
from engine.actions import Action, ChooseRow


def first_legal(game: Game, seat: int, level: str, rng: random.Random) -> Action:
    """An AI for ``TableService(ai=...)`` that plays the first legal action: instant, and the same every run."""
    return game.legal_actions(seat)[0]


async def play_to_the_end(service: TableService, table: Table, users: Iterable[int]) -> list[float]:
    """The players ``users`` (user ids) play ``table`` through ``service`` until the game ends: the
    first card of their hand each turn, and the first row they may take when their low card fits
    nowhere, one move at a time once the AI seats that think after an answer have picked. Returns
    how long each move took to be answered."""
    loop = asyncio.get_running_loop()
    game = table.started_game()
    seats = {table.seat_of(user): user for user in users}
    waits: list[float] = []
    for _ in range(2000):
        await service.play.after_thinking(table)
        if game.is_over:
            return waits
        seat = next((s for s in game.waiting_for if s in seats), None)
        assert seat is not None, f"the game waits for seats {game.waiting_for}: none of the players', nor an AI's"
        started = loop.time()
        if game.phase is Phase.PICK:
            await service.pick(table.id, seats[seat], game.hands[seat][0], table.step)
        else:
            choice = game.legal_actions(seat)[0]
            assert isinstance(choice, ChooseRow), choice
            await service.choose_row(table.id, seats[seat], choice.row, table.step)
        waits.append(loop.time() - started)
    raise AssertionError("the game did not end")
