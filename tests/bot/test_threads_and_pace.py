"""The table service's side of #25: several games in one channel, games in threads, a deleted
thread, turn-based timers and their reminders (each exactly once, across a restart)."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.errors import LobbyError, TableExists
from bot.tables.service import TableService
from bot.tables.table import TURN_BASED_LOBBY_SECONDS, TableOptions, TableStatus
from data import StoreUnavailable
from tests.helpers import first_legal, play_to_the_end


async def test_a_start_waits_for_its_games_thread_and_refuses_if_it_never_comes(store, clock):
    """A threaded lobby is shown before its thread is started on it: a Start pressed meanwhile
    waits for the thread, so the game's first post goes there; one that never comes refuses the
    Start and changes nothing."""
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    options = TableOptions(rounds=1, target=None, ai_seats=1)
    waits = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    begun = asyncio.ensure_future(service.begin(waits.id, 100))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not begun.done() and waits.status is TableStatus.LOBBY
    await service.set_thread(waits.id, 1001)
    await begun
    assert waits.status is TableStatus.PLAYING and waits.home_id == 1001
    service.lobby.thread_wait = 0.01  # the thread's start is never told (Discord was never reached)
    never = await service.open_lobby(1, 11, 200, "bob", options, threaded=True)
    with pytest.raises(LobbyError) as refused:
        await service.begin(never.id, 200)
    assert "nothing was changed" in str(refused.value)
    assert never.status is TableStatus.LOBBY and never.game is None
    await service.set_thread(never.id, 1002)
    await service.begin(never.id, 200)  # its thread known: it starts
    assert never.status is TableStatus.PLAYING


async def test_a_channel_holds_many_threaded_games_but_one_in_place(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    options = TableOptions(rounds=1, target=None, ai_seats=1)
    one = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    two = await service.open_lobby(1, 10, 200, "bob", options, threaded=True)
    here = await service.open_lobby(1, 10, 300, "carol", options)
    with pytest.raises(TableExists):
        await service.open_lobby(1, 10, 400, "dan", options)
    assert [t.id for t in service.tables_in(10)] == [one.id, two.id, here.id]
    await service.set_thread(one.id, 1001)
    await service.set_thread(two.id, 1002)
    assert service.tables_in(1001) == [one] and service.tables_in(1002) == [two]
    assert one.home_id == 1001 and here.home_id == 10
    # Both threaded games are played to their standings, side by side.
    await service.begin(one.id, 100)
    await service.begin(two.id, 200)
    await play_to_the_end(service, one, [100])
    await play_to_the_end(service, two, [200])
    assert one.status is two.status is TableStatus.FINISHED
    assert service.tables_in(10) == [here] and service.tables_in(1001) == []
    # A thread that could not be made: the game plays in its channel after all.
    three = await service.open_lobby(1, 11, 100, "alice", options, threaded=True)
    await service.set_thread(three.id, None)
    assert not three.threaded and three.home_id == 11
    [restored] = [e for e in await store.load_unfinished() if e.game.game_id == three.id]
    assert restored.checkpoint.meta["threaded"] is False
    await service.close()


async def test_a_deleted_thread_abandons_its_game_and_nothing_is_left_running(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=2), threaded=True
    )
    other = await service.open_lobby(1, 10, 200, "bob", TableOptions(rounds=1, target=None, ai_seats=1), threaded=True)
    await service.set_thread(table.id, 1001)
    await service.set_thread(other.id, 1002)
    await service.begin(table.id, 100)
    assert await service.channel_gone(1001) == [table.id]
    assert service.registry.find(table.id) is None and service.wakes_at(table.id) is None
    assert service.tables_in(1001) == [] and service.tables_in(10) == [other]
    record = await store.load_table(table.id)
    assert record.game.status == "abandoned"
    # The channel itself going takes the other game (and its thread) with it.
    assert await service.channel_gone(10) == [other.id]
    assert len(service.registry) == 0 and service.registry.by_thread == {} and service.registry.by_channel == {}
    await service.close()


async def test_games_of_lists_the_players_tables_theirs_to_move_first(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    options = TableOptions(rounds=1, target=None, ai_seats=1)
    waiting = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    moved = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    elsewhere = await service.open_lobby(2, 20, 100, "alice", options)
    await service.set_thread(waiting.id, 1001)
    await service.set_thread(moved.id, 1002)
    await service.join(moved.id, 200, "bob")
    await service.begin(moved.id, 100)  # its deadline comes first
    clock.advance(1)
    await service.begin(waiting.id, 100)
    seat = moved.seat_of(100)
    await service.pick(moved.id, 100, moved.game.hands[seat][0], moved.step)  # bob has yet to pick
    assert service.games_of(1, 200)[0].id == moved.id
    games = service.games_of(1, 100)
    assert [t.id for t in games][0] == waiting.id
    assert {t.id for t in games} == {waiting.id, moved.id}
    assert elsewhere.id not in {t.id for t in games}
    assert service.games_of(1, 999) == []
    await service.close()


async def test_turn_based_reminders_come_once_at_three_quarters_and_survive_a_restart(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    options = TableOptions(rounds=1, target=None, ai_seats=1, pace="8h")
    table = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    assert table.deadline == clock() + TURN_BASED_LOBBY_SECONDS
    await service.set_thread(table.id, 1001)
    await service.join(table.id, 200, "bob")
    await service.begin(table.id, 100)
    [opened, started] = table.outbox  # the lobby's message and the table's first
    assert started.kind == "started" and set(started.remind) == {100, 200}  # mentioned as the turn starts
    assert table.deadline == clock() + 8 * 3600
    assert service.wakes_at(table.id) == table.deadline - 2 * 3600  # the reminder wakes it first
    seat = table.seat_of(100)
    await service.pick(table.id, 100, table.game.hands[seat][0], table.step)
    await service.mark_shown(table.id, upto=table.post_seq)
    clock.advance(6 * 3600)
    await service.play.on_deadline(table.id)
    [reminder] = table.outbox
    assert reminder.kind == "reminder" and reminder.remind == (200,)  # alice has picked
    assert service.wakes_at(table.id) == table.deadline
    await service.play.on_deadline(table.id)  # fired again early: nothing twice
    assert table.outbox == [reminder]
    await service.close()

    # After a restart the reminder is known to be sent: none again, and the deadline stands.
    again = TableService(store, clock=clock, ai=first_legal)
    await again.start()
    restored = again.get(table.id)
    assert restored.reminded_step == restored.step and again.wakes_at(table.id) == restored.deadline
    clock.advance(2 * 3600 + 1)
    await again.play.on_deadline(table.id)
    assert [p.kind for p in restored.outbox] == ["reminder", "turn"]  # bob's move was made for him
    assert restored.seats[restored.seat_of(200)].missed_turns == 1
    await again.close()


async def test_reminders_by_direct_message_are_a_turn_based_players_choice(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    live = await service.open_lobby(1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1))
    slow = await service.open_lobby(1, 11, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1, pace="24h"))
    from bot.tables.errors import LobbyError, NotAtTable

    with pytest.raises(LobbyError):
        await service.set_reminders(live.id, 100, True)
    with pytest.raises(NotAtTable):
        await service.set_reminders(slow.id, 999, True)
    await service.set_reminders(slow.id, 100, True)
    [restored] = [e for e in await store.load_unfinished() if e.game.game_id == slow.id]
    assert restored.checkpoint.meta["seats"][0]["remind_by_dm"] is True
    await service.close()


async def test_a_games_thread_is_known_only_once_it_is_saved(store, clock, monkeypatch):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    table = await service.open_lobby(
        1, 10, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=1), threaded=True
    )
    saves = store.commit

    async def away(*args, **kwargs):
        raise StoreUnavailable("the database cannot be reached")

    monkeypatch.setattr(store, "commit", away)
    with pytest.raises(StoreUnavailable):
        await service.set_thread(table.id, 1001)
    # Not saved, so not so: a command in that thread finds no game; in the channel it finds it.
    assert service.tables_in(1001) == [] and service.tables_in(10) == [table] and table.home_id == 10
    monkeypatch.setattr(store, "commit", saves)
    await service.set_thread(table.id, 1001)
    assert service.tables_in(1001) == [table] and table.home_id == 1001
    await service.close()


async def test_no_table_is_ever_opened_inside_a_games_thread(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    options = TableOptions(rounds=1, target=None, ai_seats=1)
    game = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    await service.set_thread(game.id, 1001)
    for threaded in (False, True):
        with pytest.raises(TableExists) as refused:
            await service.open_lobby(1, 1001, 200, "bob", options, threaded=threaded)
        assert refused.value.table_id == game.id
    assert service.tables_in(1001) == [game] and len(service.registry) == 1
    await service.close()


async def test_a_failed_thread_start_closes_the_table_when_the_channel_has_its_game_in_place(store, clock):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    options = TableOptions(rounds=1, target=None, ai_seats=1)
    here = await service.open_lobby(1, 10, 100, "alice", options)
    other = await service.open_lobby(1, 10, 200, "bob", options, threaded=True)
    closed = await service.set_thread(other.id, None)
    assert not closed.is_open and "already has a game played in the channel" in str(closed.closed_notice)
    assert service.tables_in(10) == [here]
    assert (await store.load_table(other.id)).game.status == "cancelled"
    # Without a game in place, a failed thread start plays in the channel, and holds its one place.
    again = await service.open_lobby(1, 11, 200, "bob", options, threaded=True)
    await service.set_thread(again.id, None)
    with pytest.raises(TableExists):
        await service.open_lobby(1, 11, 300, "carol", options)
    await service.close()
