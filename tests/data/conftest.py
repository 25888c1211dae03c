"""Fixtures for the persistence-layer tests: every store test runs on both backends.

``store`` is an SQLite file in tmp_path, or a fresh PostgreSQL database
(see tests/postgres.py for where the server comes from).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest

from data.postgres import PostgresStore
from data.sqlite.store import SQLiteStore

from .helpers import GUILD, PlayGame, SeatSpec, TickingClock, finish_game, game_result, start_game


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "store.db"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request) -> str:
    return request.param


@pytest.fixture
async def store(request, backend, db_path) -> AsyncIterator[SQLiteStore | PostgresStore]:
    if backend == "sqlite":
        opened = await SQLiteStore.open(db_path, clock=TickingClock())
    else:
        url = await request.getfixturevalue("postgres_cluster").fresh_database()
        opened = await PostgresStore.open(url, pool_size=4, clock=TickingClock())
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def play_game(store) -> PlayGame:
    """Create, start and finish a game: ``await play_game([(uid, points), ...])``."""

    async def play(specs: Sequence[SeatSpec], guild_id: int = GUILD, rounds: int = 2) -> int:
        game_id = await start_game(store, specs, guild_id)
        await finish_game(store, game_id, game_result(game_id, specs, rounds))
        return game_id

    return play
