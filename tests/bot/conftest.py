"""Fixtures for the table service: a real SQLite store in a temp dir and a fake clock."""

from __future__ import annotations

import pytest

from data import open_store


class FakeClock:
    """Wall-clock seconds that only move when a test says so."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path):
    store = await open_store(tmp_path / "tables.sqlite3")
    yield store
    await store.close()


async def play_out(service, table, users) -> None:
    """``users`` play their first card each turn, and row 1 when a low card is theirs, until the end."""
    from engine import Phase

    game = table.game
    seats = {table.seat_of(user): user for user in users}
    for _ in range(500):
        if game.is_over:
            return
        if game.phase is Phase.PICK:
            for seat, user in seats.items():
                if not game.picks[seat] and game.phase is Phase.PICK:
                    await service.pick(table.id, user, game.hands[seat][0], table.step)
        else:
            await service.choose_row(table.id, seats[game.chooser], 0, table.step)
    raise AssertionError("the game did not end")
