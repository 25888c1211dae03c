import asyncio

from bot.tables.timers import Scheduler


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
