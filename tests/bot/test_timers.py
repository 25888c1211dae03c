import asyncio
import itertools

from bot.tables.timers import Scheduler
from data.errors import StoreUnavailable


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def started_scheduler() -> tuple[Scheduler, FakeClock, list[int]]:
    """A running scheduler on a clock the test moves, and the keys it fired, in order."""
    fired: list[int] = []

    async def on_deadline(key: int) -> None:
        fired.append(key)

    clock = FakeClock()
    scheduler = Scheduler(on_deadline, clock)
    scheduler.start()
    return scheduler, clock, fired


async def test_moved_and_cancelled_deadlines_do_not_pile_up():
    """Every turn moves a table's deadline minutes ahead; the old entries must not stay until
    their time comes, or a busy bot holds every turn of the last half hour."""
    scheduler, clock, fired = started_scheduler()
    for turn in range(2000):
        for table in range(10):
            scheduler.set(table, clock.now + 600 + turn)
        scheduler.set(100 + turn, clock.now + 1800)  # a lobby, closed at once
        scheduler.set(100 + turn, None)
    assert len(scheduler._heap) <= 2 * 10 + 64 + 1
    clock.now += 600 + 1999
    scheduler.wake()
    for _ in range(100):
        await asyncio.sleep(0)
        if len(fired) == 10:
            break
    assert sorted(fired) == list(range(10))  # the newest deadlines still fire, each once
    assert not scheduler._heap and not scheduler._deadlines
    await scheduler.stop()


async def test_setting_the_same_deadline_again_fires_once():
    scheduler, clock, fired = started_scheduler()
    for _ in range(3):
        scheduler.set(7, clock.now + 5)
    assert len(scheduler._heap) == 1
    clock.now += 5
    scheduler.wake()
    for _ in range(50):
        await asyncio.sleep(0)
    assert fired == [7]
    await scheduler.stop()


async def spin(times: int = 50) -> None:
    for _ in range(times):
        await asyncio.sleep(0)


async def fire_in(scheduler: Scheduler, clock: FakeClock, key: int, seconds: float) -> None:
    """Set ``key``'s deadline ``seconds`` ahead, move the clock there and let the scheduler run."""
    scheduler.start()
    scheduler.set(key, clock.now + seconds)
    clock.now += seconds
    scheduler.wake()
    await spin()


async def test_a_deadline_whose_handler_fails_is_tried_again_with_growing_pauses():
    """The database is away: each try fails. The deadline is tried again 1, 2, 4, 8 … s later
    (never at once, so no loop), up to a minute apart; once a try goes through it fires no more."""
    tries: list[float] = []
    failing = True
    clock = FakeClock()

    async def on_deadline(key: int) -> None:
        tries.append(clock.now)
        if failing:
            raise StoreUnavailable("the database cannot be reached")

    scheduler = Scheduler(on_deadline, clock)
    await fire_in(scheduler, clock, 1, 10)
    assert tries == [1010.0] and scheduler.deadline(1) == 1011.0 and scheduler.failures(1) == 1
    await spin()
    assert len(tries) == 1, "not tried again before its pause is over"
    for pause in (1, 2, 4, 8, 16, 32, 60, 60):
        clock.now += pause
        scheduler.wake()
        await spin()
    assert [round(b - a) for a, b in itertools.pairwise(tries)] == [1, 2, 4, 8, 16, 32, 60, 60]
    failing = False
    clock.now += 60
    scheduler.wake()
    await spin()
    assert scheduler.deadline(1) is None and scheduler.failures(1) == 0
    clock.now += 600
    scheduler.wake()
    await spin()
    assert len(tries) == 10  # the try that went through was the last
    await scheduler.stop()


async def test_a_deadline_set_anew_while_its_handler_fails_stands():
    """A click that went through moved the table's deadline: the failed try does not replace it."""
    clock = FakeClock()
    scheduler: Scheduler

    async def on_deadline(key: int) -> None:
        scheduler.set(key, clock.now + 60)  # the next turn's, set by a move that was saved
        raise StoreUnavailable("this timer's own save failed")

    scheduler = Scheduler(on_deadline, clock)
    await fire_in(scheduler, clock, 3, 5)
    assert scheduler.deadline(3) == clock.now + 60
    await scheduler.stop()
