"""Session-wide fixtures: the PostgreSQL server the store tests share; how many processes run them."""

from __future__ import annotations

import pytest

from tests.postgres import Cluster, require_or_skip, start_cluster


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "test_processes",
        "processes pytest-xdist runs the tests in when the command line does not say (-n); 0: this one",
        default="0",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``test_processes`` (pyproject.toml) as the default of pytest-xdist's ``-n`` for the whole suite
    (no test paths given); a file or a test named on the command line runs in this one process,
    which starts in a second rather than four processes' ten. An ini option and not ``-n`` in
    addopts, so that ``-p no:xdist`` (which knows no ``-n``) still runs in one process, as ``-n 0``
    does. The tests mostly wait (on the stand-in, a bot process, a database), so more processes
    than cores pay."""
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return  # a process of pytest-xdist's, or no pytest-xdist
    whole_suite = config.args_source is pytest.Config.ArgsSource.TESTPATHS
    if config.option.numprocesses is None and whole_suite:
        config.option.numprocesses = int(config.getini("test_processes")) or None
    if config.option.numprocesses and config.option.maxschedchunk is None:
        # Each process is handed its next test as it finishes one (the ``slow`` ones first, see
        # below), not a quarter of the suite at once: the tests last from milliseconds to half a
        # minute, and a large share handed out early can leave one process with several long ones
        # at the end while the others are done.
        config.option.maxschedchunk = 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the processes of pytest-xdist, the tests marked ``slow`` first (in their order), so that
    the longest do not start last; one process runs them in the files' order."""
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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
