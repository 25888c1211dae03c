"""Fixtures for the persistence-layer tests: real SQLite files in tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest

from data.sqlite.store import SQLiteStore

from .helpers import GUILD, PlayGame, SeatSpec, TickingClock, game_result, start_game


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "store.db"


@pytest.fixture
async def store(db_path) -> AsyncIterator[SQLiteStore]:
    opened = await SQLiteStore.open(db_path, clock=TickingClock())
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def play_game(store: SQLiteStore) -> PlayGame:
    """Create, start and finish a game: ``await play_game([(uid, points), ...])``."""

    async def play(specs: Sequence[SeatSpec], guild_id: int = GUILD, rounds: int = 2) -> int:
        game_id = await start_game(store, specs, guild_id)
        assert await store.record_results(game_id, game_result(game_id, specs, rounds))
        return game_id

    return play
