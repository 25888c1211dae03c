import pytest

from bot.tables.service import TableService
from bot.tables.table import TableOptions
from tests.helpers import first_legal, play_to_the_end


async def test_two_humans_play_a_round(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    updates = []
    service.add_listener(updates.append)
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1))
    await service.join(table.id, 200, "bob")
    await service.begin(table.id, 100)
    assert table.seats[1].is_ai  # AI seats sit down with the host, before later joiners
    await play_to_the_end(service, table, (100, 200))
    assert table.status.value == "finished"
    assert [u.kind for u in updates][-1] == "finished"
    await service.close()


async def test_ai_seats_opened_together_have_distinct_names(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=3))
    names = [seat.name for seat in table.seats]
    assert len(set(names)) == 4, names
    await service.close()


async def test_a_decision_timer_starts_when_its_post_is_seen(store, clock):
    """A post shown late (a slow or failing Discord) gives the players their whole time, without
    a second save of the table: the committed deadline stays, the timer waits the extra time."""
    service = TableService(store, clock=clock, ai=first_legal)
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1, turn_seconds=60)
    )
    await service.begin(table.id, 100)
    [opened, post] = table.outbox  # the lobby's message and the table's first
    assert opened.kind == "opened"
    committed = clock() + 60
    assert table.deadline == committed
    clock.advance(7)  # Discord took seven seconds to accept the table message
    await service.post_seen_late(table.id, post, 7)
    await service.post_seen_late(table.id, post, 7)  # a retry of the same post extends nothing more
    assert table.deadline == committed, "nothing is rewritten"
    await service.mark_shown(table.id, upto=post.seq, message_id=555)
    assert table.outbox == [] and table.message_id == 555
    [restored] = await store.load_unfinished()
    assert restored.checkpoint.meta["deadline"] == committed
    assert restored.posts == [] and restored.game.message_id == 555

    hand = list(table.game.hands[table.seat_of(100)])
    assert service.wakes_at(table.id) == committed + 7
    clock.advance(60 - 7 + 1)  # past the committed deadline, within the seven seconds given back
    await service.play.on_deadline(table.id)
    assert list(table.game.hands[table.seat_of(100)]) == hand, "the player still has their time"
    clock.advance(7)
    await service.play.on_deadline(table.id)
    assert len(table.game.hands[table.seat_of(100)]) == len(hand) - 1, "then the turn is played for them"
    await service.close()


async def test_a_post_shown_in_time_changes_no_timer(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1, turn_seconds=60)
    )
    await service.begin(table.id, 100)
    [_, post] = table.outbox
    hand = list(table.game.hands[table.seat_of(100)])
    await service.post_seen_late(table.id, post, 0.3)  # shown 300 ms after its commit: on time
    assert service.wakes_at(table.id) == table.deadline
    clock.advance(60.1)
    await service.play.on_deadline(table.id)
    assert len(table.game.hands[table.seat_of(100)]) == len(hand) - 1
    await service.close()


async def test_a_change_that_fails_after_an_earlier_commit_of_the_same_hold_goes_back_to_that_commit(store, clock):
    """AI seats thinking over their picks commit one after the other under one hold of the lock:
    when a later save fails, the table is what the earlier one committed, not a half-saved mix."""
    service = TableService(store, clock=clock, ai=first_legal)
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1))
    await service.begin(table.id, 100)
    seat = table.seat_of(100)
    with pytest.raises(RuntimeError):
        async with service.tx.acting(table):
            table.seats[seat].missed_turns = 1
            await service.tx.commit(table)
            table.game.pick(seat, table.game.hands[seat][0])  # the next change, whose save fails
            raise RuntimeError("the next save failed")
    assert table.seats[seat].missed_turns == 1, "the earlier commit stands"
    assert not table.game.picks[seat] and table.game.to_dict() == table.saved[0]
    await service.close()
