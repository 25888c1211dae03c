"""The table service's side of a locked thread: the game pauses with its clock stopped, keeps its
time, refuses moves, survives a restart paused, goes on when unlocked, and ends after a day."""

from __future__ import annotations

import pytest

from bot.tables.errors import TablePaused
from bot.tables.service import TableService
from bot.tables.table import LOCKED, LOCKED_LONGEST, TableOptions, TableStatus
from data.errors import StoreUnavailable
from tests.helpers import first_legal, play_to_the_end

THREAD = 1001


async def playing(store, clock, **options):
    """alice (100) and bob (200) at a one-round game in thread ``THREAD``, just begun."""
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    updates = []
    service.add_listener(updates.append)
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, turn_seconds=60, **options), threaded=True
    )
    await service.join(table.id, 200, "bob")
    await service.set_thread(table.id, THREAD)
    await service.begin(table.id, 100)
    return service, table, updates


async def test_a_locked_game_keeps_its_time_takes_no_move_and_goes_on_when_unlocked(store, clock):
    service, table, updates = await playing(store, clock)
    clock.advance(20)  # 40 s left on the turn
    await service.thread_locked(THREAD)
    assert updates[-1].kind == "paused" and updates[-1].snapshot.paused == LOCKED
    assert table.deadline is None
    await service.thread_locked(THREAD)  # idempotent: no second commit
    assert updates[-1].kind == "paused" and len([u for u in updates if u.kind == "paused"]) == 1
    # Deadline after deadline passes: nobody's turn is played, nobody's seat is taken.
    for _ in range(5):
        clock.advance(3600)
        await service.play.on_deadline(table.id)
    assert table.step == 1 and all(seat.missed_turns == 0 and not seat.is_ai for seat in table.seats)
    with pytest.raises(TablePaused) as refused:
        await service.pick(table.id, 100, table.game.hands[table.seat_of(100)][0], table.step)
    assert "a moderator locked its thread" in str(refused.value)
    assert not any(table.game.picks)
    with pytest.raises(TablePaused):
        await service.leave(table.id, 200)
    assert not table.seats[table.seat_of(200)].is_ai
    # Unlocked: the 40 seconds it had left, counted from now.
    await service.thread_unlocked(THREAD)
    assert updates[-1].kind == "resumed" and updates[-1].snapshot.paused is None
    assert table.deadline == clock() + 40 and service.wakes_at(table.id) == table.deadline
    await service.thread_unlocked(THREAD)  # idempotent
    assert len([u for u in updates if u.kind == "resumed"]) == 1
    await play_to_the_end(service, table, [100, 200])
    assert table.status is TableStatus.FINISHED
    await service.close()


async def test_a_lobby_and_another_thread_are_not_paused(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    lobby = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1), threaded=True
    )
    await service.set_thread(lobby.id, THREAD)
    await service.thread_locked(THREAD)
    await service.thread_locked(4242)  # no game there
    assert lobby.paused is None and lobby.deadline is not None
    await service.begin(lobby.id, 100)  # its first post in the thread is refused: the face says so then
    await service.thread_locked(THREAD)
    assert lobby.paused == LOCKED
    await service.close()


async def test_a_paused_game_stays_paused_across_a_restart_and_ends_after_a_day(store, clock):
    service, table, _ = await playing(store, clock)
    clock.advance(30)
    await service.thread_locked(THREAD)
    await service.close()

    clock.advance(LOCKED_LONGEST - 60)  # the bot was away most of a day
    again = TableService(store, clock=clock, ai=first_legal)
    await again.start()
    restored = again.get(table.id)
    assert restored.paused == LOCKED and restored.deadline is None
    assert again.wakes_at(table.id) == restored.paused_at + LOCKED_LONGEST  # its end, no turn
    await again.play.on_deadline(table.id)  # early: nothing
    assert restored.is_open and all(seat.missed_turns == 0 for seat in restored.seats)
    clock.advance(61)
    await again.play.on_deadline(table.id)
    assert again.registry.find(table.id) is None
    record = await store.load_table(table.id)
    assert record.game.status == "abandoned"
    [closing] = [post for post in record.posts if post.payload["kind"] == "cancelled"]
    assert "stayed locked for a day" in str(closing.payload["notices"])
    await again.close()


async def test_a_pause_whose_save_fails_changes_nothing(store, clock):
    service, table, _ = await playing(store, clock)
    deadline = table.deadline
    commit = store.commit

    async def unreachable(*args, **kwargs):
        raise StoreUnavailable("the database is away")

    store.commit = unreachable
    with pytest.raises(StoreUnavailable):
        await service.thread_locked(THREAD)
    assert table.paused is None and table.deadline == deadline
    store.commit = commit
    await service.thread_locked(THREAD)
    assert table.paused == LOCKED
    await service.close()


async def test_a_post_held_by_the_lock_does_not_stretch_the_turn_by_the_pause(store, clock):
    service, table, _ = await playing(store, clock)
    [opened, started] = table.outbox  # the lobby's message and the table's first
    clock.advance(5)  # refused at once: the face learns of the lock from it
    await service.thread_locked(THREAD)
    clock.advance(5 * 3600)
    await service.thread_unlocked(THREAD)
    deadline = table.deadline
    assert deadline == clock() + 55
    clock.advance(2)
    await service.post_seen_late(table.id, started, clock() - started.at)  # shown 2 s after the unlock
    assert table.deadline == deadline, "the committed deadline stays"
    assert table.due() == deadline + 2 and service.wakes_at(table.id) == deadline + 2, (
        "the turn waits the 2 s its post took after the unlock, not the five hours of the pause"
    )
    await service.close()
