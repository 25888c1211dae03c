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
