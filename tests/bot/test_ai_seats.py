"""AI seats through the service's one interface: hard seats think in a worker process."""

import asyncio
import logging
import os
import signal
import time

import pytest

from bot.health import ai_status, check, write_atomically
from bot.tables.ai_seats import AISeats, decide_from_state
from bot.tables.service import TableService
from bot.tables.table import TableOptions
from bot.tables.workers import WorkerGone
from engine import Game, GameConfig, Phase, Variant, action_from_dict, action_to_dict


async def worker_gone(*args):
    """A worker pool's ``run`` while its worker cannot be reached."""
    raise RuntimeError("the worker is gone")


async def worker_died(*args):
    raise WorkerGone("the worker died")


class LoopGaps:
    """The longest the event loop went between the turns of a task that asks for one every 2 ms."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            self.gaps.append(now - last)
            last = now

    async def stop(self) -> None:
        await asyncio.sleep(0.01)  # one more turn: a stall just before shows as its gap
        self._task.cancel()

    @property
    def longest(self) -> float:
        return max(self.gaps)


async def test_a_worker_decision_is_the_same_decision_the_engine_makes():
    game = Game.new(GameConfig(4, rounds=1, target=None), seed=11)
    seed = "11:3:2"
    for level in ("easy", "medium"):
        inline = await AISeats().decide(game, 2, level, seed)
        assert action_from_dict(decide_from_state(game.to_dict(), 2, level, seed)) == inline
        assert inline in game.legal_actions(2)


async def test_a_failed_search_still_gives_a_legal_move():
    """The player's move is already applied when the AI seat thinks: if the worker
    fails, the seat plays the medium heuristic instead of stalling the table."""
    game = Game.new(GameConfig(4, rounds=1, target=None), seed=11)
    seats = AISeats()
    seats.pool.run = worker_gone
    action = await seats.decide(game, 2, "hard", "11:3:2")
    assert action == await AISeats().decide(game, 2, "medium", "11:3:2")
    assert action in game.legal_actions(2)
    assert seats.fallbacks == 1  # and counted, for the health check and the benchmarks


async def test_hard_seats_think_off_the_event_loop(store, clock):
    """A round against two hard seats: every decision legal, and the loop never stalls.

    Each hard decision searches for ~45 ms of wall clock, so in the event loop two of
    them would stall it for at least 90 ms every turn; in the worker it keeps ticking.
    """
    service = TableService(store, clock=clock)  # the real AI
    await service.start()
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=2, ai_level="hard")
    )
    gaps = LoopGaps()
    try:
        await service.begin(table.id, 100)
        game = table.game
        while not game.is_over:
            await service.play.after_thinking(table)  # hard seats pick after the answer to the last click
            if game.is_over:
                break
            if game.phase is Phase.PICK:
                await service.pick(table.id, 100, game.hands[0][0], table.step)
            else:
                await service.choose_row(table.id, 100, 0, table.step)
    finally:
        await gaps.stop()
        await service.close()
    assert table.status.value == "finished"
    assert not service.ai.pool.started  # closed with the service
    assert len(game.history) == 1 and sum(game.history[0]) > 0
    assert gaps.longest < 0.08, f"the event loop stalled for {gaps.longest * 1000:.0f} ms"


async def test_heuristic_levels_decide_inline_without_a_worker(store, clock):
    service = TableService(store, clock=clock)
    await service.start()
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=3, ai_level="medium")
    )
    await service.begin(table.id, 100)
    assert all(table.game.picks[seat] for seat in (1, 2, 3))  # the AI seats picked at once
    assert not service.ai.pool.started  # no worker for heuristic levels
    await service.close()


async def test_a_dead_worker_is_replaced_and_the_job_runs_again():
    import os
    import signal

    from bot.tables.workers import WorkerPool

    pool = WorkerPool()
    try:
        first = await pool.run(os.getpid)
        os.kill(first, signal.SIGKILL)  # as the OOM killer would
        await asyncio.sleep(0.2)
        second = await pool.run(os.getpid)
        assert second != first and second != os.getpid()
    finally:
        await pool.close()
    assert not pool.started


async def test_started_seats_warm_their_worker_before_the_first_decision():
    """The bot starts the worker with itself: the first hard decision finds it running and warm."""
    seats = AISeats()
    seats.start()
    try:
        assert seats.pool.started  # spawned at start, not at the first decision
        warm_pid = await seats.pool.ready()  # the warm-up (imports, a small search) ran in it
        game = Game.new(GameConfig(5, rounds=1, target=None), seed=3)
        action = await seats.decide(game, 1, "hard", "3:0:1")
        assert action in game.legal_actions(1)
        assert await seats.pool.run(os.getpid) == warm_pid  # the same, already warm, process
        assert seats.fallbacks == 0
    finally:
        await seats.close()
    assert not seats.pool.started


async def test_a_dead_worker_is_replaced_before_anyone_needs_it():
    seats = AISeats()
    seats.start()
    try:
        first = await seats.pool.ready()
        os.kill(first, signal.SIGKILL)  # as the OOM killer would
        for _ in range(100):
            if seats.pool.restarts:
                break
            await asyncio.sleep(0.05)
        assert seats.pool.restarts == 1 and seats.pool.alive
        second = await seats.pool.ready()  # the replacement was warmed too, with no job asking
        assert second not in (first, os.getpid())
    finally:
        await seats.close()


async def test_fallbacks_are_counted_and_warned_once_per_table(caplog):
    game = Game.new(GameConfig(4, rounds=1, target=None), seed=11)
    seats = AISeats()
    seats.pool.run = worker_gone
    with caplog.at_level(logging.DEBUG, logger="bot.tables.ai_seats"):
        for seed in ("77:3:2", "77:4:2", "78:3:2"):  # two decisions at one table, one at another
            await seats.decide(game, 2, "hard", seed)
    assert seats.fallbacks == 3
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2 and all("medium" in r.getMessage() for r in warnings)


def test_the_health_line_shows_the_ai_worker_and_its_fallbacks(tmp_path):
    seats = AISeats()
    seats.fallbacks = 2
    status = ai_status(seats)
    assert status == {
        "ai_worker": "not started",
        "ai_worker_restarts": 0,
        "ai_fallbacks": 2,
        "ai_crashes": 0,
        "ai_decisions": 0,
    }
    beat = tmp_path / "beat"
    write_atomically(beat, {"time": 100.0, "ready": True, "tables": 1, **status})
    healthy, line = check(beat, now=101.0)
    assert healthy and line.endswith("AI worker not started, 0 restart(s), 2 fallback(s) to medium")


class BuggyGame(Game):
    """A game whose state, as sent to the worker, makes the AI raise there: a bug in the AI."""

    def to_dict(self):
        return {**super().to_dict(), "hands": None}


async def test_a_crash_of_the_ai_is_logged_and_counted_apart_from_a_worker_that_is_down(caplog, tmp_path):
    game = Game.new(GameConfig(4, rounds=1, target=None), seed=11)
    buggy = BuggyGame.from_dict(game.to_dict())
    seats = AISeats()
    seats.start()
    try:
        await seats.pool.ready()
        with caplog.at_level(logging.DEBUG, logger="bot.tables.ai_seats"):
            # The AI raises in the worker: the seat still plays (medium), and the crash is an error,
            # with the worker's traceback, and counted as a crash.
            action = await seats.decide(buggy, 2, "hard", "77:3:2")
            assert action in game.legal_actions(2)
            [crash] = [r for r in caplog.records if r.levelno == logging.ERROR]
            assert "crashed" in crash.getMessage() and crash.exc_info is not None
            assert "Traceback" in caplog.text  # the worker's own, carried back with the error
            assert seats.crashes == 1 and seats.fallbacks == 1
            caplog.clear()
            # A worker that cannot be reached is not a crash: a warning, counted as a fallback only.
            real = seats.pool.run
            seats.pool.run = worker_died
            await seats.decide(game, 2, "hard", "78:3:2")
            assert [r.levelno for r in caplog.records] == [logging.WARNING]
            assert "worker is down" in caplog.records[0].getMessage()
            assert seats.crashes == 1 and seats.fallbacks == 2
            seats.pool.run = real
    finally:
        await seats.close()
    # The health line says so.
    beat = tmp_path / "beat"
    write_atomically(beat, {"time": 100.0, "ready": True, "tables": 1, **ai_status(seats)})
    healthy, line = check(beat, now=101.0)
    assert healthy and line.endswith("2 fallback(s) to medium, 1 crash(es) of the AI itself")


async def test_an_outlook_the_worker_cannot_give_is_worked_out_off_the_event_loop(monkeypatch):
    from bot.tables import ai_seats

    game = Game.new(GameConfig(5, Variant.ANNIVERSARY), seed=0)
    seats = AISeats()
    seats.start()

    def slow_outlook(game):  # as long as the longest outlook, and then some
        time.sleep(0.3)
        return "the outlook"

    monkeypatch.setattr(seats.pool, "run", worker_died)
    monkeypatch.setattr(ai_seats, "special_outlook", slow_outlook)
    gaps = LoopGaps()
    try:
        await asyncio.sleep(0.02)
        assert await seats.outlook(game) == "the outlook"
    finally:
        await gaps.stop()
        await seats.close()
    assert gaps.longest < 0.1, f"the event loop stalled for {gaps.longest * 1000:.0f} ms"


async def test_tables_whose_failure_was_logged_are_remembered_only_so_long(caplog, monkeypatch):
    from bot.tables import ai_seats

    monkeypatch.setattr(ai_seats, "WARNED_TABLES", 3)
    game = Game.new(GameConfig(4, rounds=1, target=None), seed=11)
    seats = AISeats()
    seats.pool.run = worker_gone
    with caplog.at_level(logging.DEBUG, logger="bot.tables.ai_seats"):
        for table in (1, 2, 3, 4, 1):  # table 1 was let go after three others: logged in full again
            await seats.decide(game, 2, "hard", f"{table}:3:2")
    assert [r.levelno for r in caplog.records] == [logging.WARNING] * 5


async def test_the_health_line_shows_how_long_hard_decisions_took(tmp_path):
    game = Game.new(GameConfig(4, rounds=1, target=None), seed=11)
    seats = AISeats()
    waits = iter([0.0, 0.03, 0.0, 0.0])
    answer = action_to_dict(game.legal_actions(2)[0])

    async def slow_worker(fn, *args):  # the worker's answer, after a wait like a search's
        await asyncio.sleep(next(waits))
        return answer

    seats.pool.run = slow_worker
    for step in range(4):
        action = await seats.decide(game, 2, "hard", f"5:{step}:2")
        assert action in game.legal_actions(2)
    status = ai_status(seats)
    assert status["ai_decisions"] == 4 and status["ai_fallbacks"] == 0
    timing = status["ai_decision_ms"]
    assert timing["of"] == 4 and timing["p95"] == timing["max"] >= 30.0 > timing["p50"]
    beat = tmp_path / "beat"
    write_atomically(beat, {"time": 100.0, "ready": True, "tables": 1, **status})
    healthy, line = check(beat, now=101.0)
    assert healthy and line.endswith(f"hard decisions p95 {timing['p95']:g} ms (last 4)")


async def test_no_hint_for_a_seat_the_game_does_not_wait_for():
    from engine.ai.coach import NoHint

    game = Game.new(GameConfig(4, rounds=1, target=None), seed=11)
    game.pick(2, game.hands[2][0])
    with pytest.raises(NoHint):
        await AISeats().hint(game, 2, "11:0:2:hint")
