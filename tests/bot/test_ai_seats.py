"""AI seats through the service's one interface: hard seats think in a worker process."""

import asyncio
import time

from bot.tables.ai_seats import AISeats, decide_from_state
from bot.tables.service import TableService
from bot.tables.table import TableOptions
from engine import Game, GameConfig, Phase, action_from_dict


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

    async def broken(*args):
        raise RuntimeError("the worker is gone")

    seats.pool.run = broken
    action = await seats.decide(game, 2, "hard", "11:3:2")
    assert action == await AISeats().decide(game, 2, "medium", "11:3:2")
    assert action in game.legal_actions(2)


async def test_hard_seats_think_off_the_event_loop(store, clock):
    """A round against two hard seats: every decision legal, and the loop never stalls.

    Each hard decision searches for ~45 ms of wall clock, so in the event loop two of
    them would stall it for at least 90 ms every turn; in the worker it keeps ticking.
    """
    service = TableService(store, clock=clock)  # the real AI
    await service.start()
    table = await service.open_lobby(1, 10, 100, "alice",
                                     TableOptions(rounds=1, target=None, ai_seats=2, ai_level="hard"))
    gaps: list[float] = []

    async def tick() -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(tick())
    try:
        await service.begin(table.id, 100)
        game = table.game
        while not game.is_over:
            if game.phase is Phase.PICK:
                await service.pick(table.id, 100, game.hands[0][0], table.step)
            else:
                await service.choose_row(table.id, 100, 0, table.step)
    finally:
        ticker.cancel()
        await service.close()
    assert table.status.value == "finished"
    assert not service.ai.pool.started  # closed with the service
    assert len(game.history) == 1 and sum(game.history[0]) > 0
    assert max(gaps) < 0.08, f"the event loop stalled for {max(gaps) * 1000:.0f} ms"


async def test_heuristic_levels_decide_inline_without_a_worker(store, clock):
    service = TableService(store, clock=clock)
    await service.start()
    table = await service.open_lobby(1, 10, 100, "alice",
                                     TableOptions(rounds=1, target=None, ai_seats=3, ai_level="medium"))
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
        pool.close()
    assert not pool.started
