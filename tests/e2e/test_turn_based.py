"""A turn-based game through the real bot, on a test clock: hours a move, a lobby that waits a day,
reminders (a mention, or a direct message for a player who asked) counted across a restart, each
exactly once, and the game played to its final standings in its thread."""

from __future__ import annotations

import asyncio
import os
import re
import time

import pytest

from bot.tables.lobby import Lobby
from tests.bot.conftest import FakeClock
from tests.e2e import driver
from tests.e2e.test_table_play import click_ok
from tests.e2e.test_threads import start_in_thread, table_in
from tests.standin.world import NONCE_WINDOW

HOUR = 3600.0


#: A deal whose first turn ends without a row choice (alice and bob play their highest cards),
#: so the second turn starts as bob picks: the same every run.
SEED = int(os.environ.get("TURN_BASED_SEED", "1"))


async def pass_time(world, seconds):
    """Hours go by, for the bot (its timers) and for Discord (tokens expire, threads archive)."""
    world.clock.advance(seconds)
    world.standin.advance_time(seconds)
    service = world.bot.service
    service.scheduler.wake()
    await timers_fired(service.scheduler)
    for table in list(service.tables.values()):
        async with table.lock:  # held until the service has saved and told the presenter
            pass
    await world.settle()


async def timers_fired(scheduler, seconds: float = 10.0) -> None:
    """Once the scheduler has looked at the clock again, until every deadline it found due has
    been handled (each fires in a task of its own, and a failed one is set again)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while scheduler._changed.is_set() or scheduler._running:
        assert loop.time() < until, f"the timers were still firing after {seconds} s"
        if scheduler._running:
            await asyncio.wait(list(scheduler._running), timeout=until - loop.time())
        else:
            await asyncio.sleep(0)  # the scheduler's task has yet to run


async def pick(world, user, thread):
    """``user`` opens a fresh hand from the table in ``thread`` (hours after any earlier one) and
    plays its highest card (a low one would often take a row first)."""
    await driver.pick(world.standin, user, table_in(world, thread), driver.highest)


def reminders_in(world, thread, user):
    """The thread's messages that mention ``user`` as owing a move."""
    return [
        m for m in world.standin.channel_messages(thread) if "⏰" in (m.content or "") and f"<@{user.id}>" in m.content
    ]


def private_reminders(world, user):
    return [m for m in world.standin.dm_messages(user) if "⏰" in (m.content or "")]


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_turn_based_game_reminds_each_player_once_per_move_across_a_restart(world, monkeypatch):
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: SEED))
    world.threads = True
    async with world.running_bot():
        lobby, thread = await start_in_thread(world, world.alice, rounds=1, pace="8h")
        assert "turn-based: 8 h for each move" in lobby.embed["description"]
        closes = int(re.search(r"<t:(\d+):R>", str(lobby.embed)).group(1))
        assert closes == int(world.clock() + 24 * HOUR), "a turn-based lobby waits a day"
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Add AI")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table = world.bot.service.table_in(thread.id)
        assert table.deadline == world.clock() + 8 * HOUR
        # The turn starts: both players are mentioned once in the game's thread; the AI has picked.
        assert len(reminders_in(world, thread, world.alice)) == len(reminders_in(world, thread, world.bob)) == 1
        assert table.owing() == [world.alice.id, world.bob.id] or set(table.owing()) == {world.alice.id, world.bob.id}
        # Bob would rather get a direct message: a button on his hand.
        hand = await (
            await world.standin.click(
                world.bob, table_in(world, thread), table_in(world, thread).button("Play a card")["custom_id"]
            )
        ).reply()
        switched = await (
            await world.standin.click(world.bob, hand, hand.button("Remind me by direct message")["custom_id"])
        ).reply()
        assert "direct message now" in switched.content
        await pick(world, world.alice, thread)

        # Six hours on (75 % of eight): bob, who still owes his card, is reminded privately; alice not.
        await pass_time(world, 6 * HOUR)
        [reminder] = private_reminders(world, world.bob)
        assert f"table #{table.id}" in reminder.content and str(thread.id) in reminder.content
        assert len(reminders_in(world, thread, world.alice)) == 1 and len(reminders_in(world, thread, world.bob)) == 1

    # A restart an hour later: the reminder already sent is not sent again.
    world.clock.advance(HOUR)
    async with world.running_bot():
        await pass_time(world, 0.5 * HOUR)
        assert len(private_reminders(world, world.bob)) == 1
        assert len(reminders_in(world, thread, world.bob)) == 1
        # Bob picks seven and a half hours in: the next turn starts, both are told (bob privately).
        await pick(world, world.bob, thread)
        await world.settle()
        assert len(reminders_in(world, thread, world.alice)) == 2
        assert len(private_reminders(world, world.bob)) == 2
        assert len(reminders_in(world, thread, world.bob)) == 1

        # The rest of the game: alice picks an hour into each turn, bob two hours after her; a low
        # card's row is chosen at once.
        async def an_hour_or_two_later(user, table):
            await pass_time(world, HOUR if user is world.alice else 2 * HOUR)
            await pick(world, user, thread)

        await world.play([world.alice, world.bob], thread, pick=an_hour_or_two_later, moves=40)
        assert world.bot.service.table_in(thread.id) is None
        standings = world.standin.channel_messages(thread)[-1]
        assert "Game over" in standings.content

        # Each decision a player owed told them exactly once: the turns (ten cards), their row
        # choices, and bob's one reminder at 75 % of the first turn. Bob was mentioned for the first
        # turn only (he chose direct messages then); alice, who always picked within three hours,
        # was never reminded beyond the start of each decision.
        log = await world.bot.service.store.game_log(table.id)
        seats = {seat.user_id: seat.seat for seat in log.seats}
        rows = {
            user: sum(1 for a in log.actions if a.action["kind"] == "choose_row" and a.action["player"] == seat)
            for user, seat in seats.items()
        }
        turns = 10
        assert len(reminders_in(world, thread, world.alice)) == turns + rows[world.alice.id]
        assert len(reminders_in(world, thread, world.bob)) == 1
        assert len(private_reminders(world, world.bob)) == (turns - 1) + rows[world.bob.id] + 1
        world.standin.assert_no_errors()


async def waiting_on(world, player):
    """A one-hour turn-based game in its thread: ``player`` joined and asked for their reminders as
    direct messages, and alice has picked, so the game waits on ``player`` alone. (lobby, thread)"""
    lobby, thread = await start_in_thread(world, world.alice, rounds=1, pace="1h")
    await click_ok(world, player, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    table_message = table_in(world, thread)
    hand = await (
        await world.standin.click(player, table_message, table_message.button("Play a card")["custom_id"])
    ).reply()
    await (await world.standin.click(player, hand, hand.button("Remind me by direct message")["custom_id"])).reply()
    await pick(world, world.alice, thread)
    await world.settle()
    return lobby, thread


async def test_a_player_whose_direct_messages_are_closed_is_reminded_in_the_thread(world):
    world.threads = True
    world.standin.block_dms(world.carol)
    async with world.running_bot():
        _, thread = await waiting_on(world, world.carol)
        await pass_time(world, 0.75 * HOUR)
        # The direct message is refused (403), so the reminder mentions her in the thread instead.
        assert len(reminders_in(world, thread, world.carol)) == 2 and private_reminders(world, world.carol) == []
        assert len(reminders_in(world, thread, world.alice)) == 1
        assert {error.body.get("code") for error in world.standin.errors} == {50007}


async def bob_wants_direct_messages(world, monkeypatch):
    """``waiting_on`` bob, on the same deal every run."""
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: SEED))
    return await waiting_on(world, world.bob)


async def reminder_falls_due(world):
    """75 % of bob's hour goes by: the reminder's timer fires (not waiting for what it shows)."""
    world.clock.advance(0.75 * HOUR)
    world.standin.advance_time(0.75 * HOUR)
    world.bot.service.scheduler.wake()


async def test_a_direct_message_reminder_whose_record_was_lost_is_not_sent_again_past_the_nonce_memory(
    world, monkeypatch
):
    """The bot sends bob his reminder, then the record that it was sent is lost (as when the process
    dies before writing it); it starts again after Discord forgot the message's nonce. The direct
    message is found among bob's and not sent twice."""
    world.threads = True
    # The bot's clock is the real one when the reminder falls due: Discord dates its messages by their
    # ids, which the bot reads to find a message sent before.
    world.clock = FakeClock(time.time() - 0.75 * HOUR)
    async with world.running_bot():
        _, thread = await bob_wants_direct_messages(world, monkeypatch)
        mentioned = len(reminders_in(world, thread, world.bob))  # at the game's start
        presenter = world.bot.get_cog("Tables").presenter
        presenter.drain_seconds = 0.2
        store = world.bot.service.store
        mark_shown = store.mark_shown

        async def never_recorded(game_id, *, upto=None, message_id=None):
            if upto is not None:
                await asyncio.Event().wait()  # the process dies before this write
            await mark_shown(game_id, upto=upto, message_id=message_id)

        monkeypatch.setattr(store, "mark_shown", never_recorded)
        await reminder_falls_due(world)
        await world.standin.world.wait_until(
            lambda: private_reminders(world, world.bob) or None, 5, "bob's direct message"
        )
    # Two minutes later (Discord's nonce memory is a few minutes; the stand-in's is shorter).
    world.clock.advance(NONCE_WINDOW + 10)
    world.standin.advance_time(NONCE_WINDOW + 10)
    async with world.running_bot():
        await world.settle()
        assert len(private_reminders(world, world.bob)) == 1, "the reminder was found, not sent again"
        assert len(reminders_in(world, thread, world.bob)) == mentioned, "nor was bob mentioned instead"
    world.standin.assert_no_errors()


async def test_a_5xx_on_a_direct_message_during_a_stop_is_no_closed_direct_message(world, monkeypatch):
    """Discord fails bob's direct message (503) while the bot stops: that is no refusal of direct
    messages, so bob is not mentioned in the thread instead; the next start sends the message."""
    world.threads = True
    async with world.running_bot():
        _, thread = await bob_wants_direct_messages(world, monkeypatch)
        mentioned = len(reminders_in(world, thread, world.bob))  # at the game's start
        release = asyncio.Event()
        create_dm = world.bot.create_dm

        async def slow_create_dm(user):
            await release.wait()
            return await create_dm(user)

        monkeypatch.setattr(world.bot, "create_dm", slow_create_dm)
        await reminder_falls_due(world)
        await world.standin.world.wait_until(
            lambda: world.bot.get_cog("Tables").presenter.busy_tables or None, 5, "the reminder under way"
        )
        dm = world.standin.dm_channel(world.bob)
        world.standin.fail_requests(1.0, status=503, routes=["/channels/{channel}/messages"], channel=dm.id)
        asyncio.get_running_loop().call_later(0.3, release.set)
    assert any(f.status == 503 for f in world.standin.injected_faults), "the stop met Discord failing"
    assert private_reminders(world, world.bob) == [] and len(reminders_in(world, thread, world.bob)) == mentioned
    world.standin.clear_faults()
    async with world.running_bot():
        await world.settle()
        assert len(private_reminders(world, world.bob)) == 1, "the next start sent it"
        assert len(reminders_in(world, thread, world.bob)) == mentioned
    world.standin.assert_no_errors()
