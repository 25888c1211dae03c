"""Session-wide fixtures: the PostgreSQL server the store tests share."""

from __future__ import annotations

import pytest

from tests.postgres import Cluster, require_or_skip, start_cluster


@pytest.fixture(scope="session")
def postgres_cluster():
    """Started on first use (so a run without PostgreSQL tests never starts it), stopped at the end."""
    try:
        cluster = start_cluster()
    except Exception as exc:
        require_or_skip(str(exc))
    yield cluster
    cluster.stop()


@pytest.fixture
async def postgres_url(postgres_cluster: Cluster) -> str:
    """A fresh database with the latest schema, for one test."""
    return await postgres_cluster.fresh_database()
