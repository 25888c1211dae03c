"""The bot's own command runs on uvloop where it is installed, and on asyncio's loop where not."""

from __future__ import annotations

import asyncio
import sys

import pytest

from bot.app import run_loop


async def running_loop_kind() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def test_the_bot_runs_on_uvloop_where_it_is_installed():
    pytest.importorskip("uvloop")  # a dependency on every platform but Windows
    assert run_loop(running_loop_kind()) == "uvloop"


def test_without_uvloop_the_bot_runs_on_asyncios_loop(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvloop", None)  # "import uvloop" now fails, as on Windows
    assert run_loop(running_loop_kind()) == "asyncio"


def test_the_loop_is_closed_when_the_bot_is_done():
    loops: list[asyncio.AbstractEventLoop] = []

    async def remember() -> None:
        loops.append(asyncio.get_running_loop())

    run_loop(remember())
    assert loops[0].is_closed()
