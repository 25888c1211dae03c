"""A turn-based game through the real bot, on a test clock: hours a move, a lobby that waits a day,
reminders (a mention, or a direct message for a player who asked) counted across a restart, each
exactly once, and the game played to its final standings in its thread."""

from __future__ import annotations

import asyncio
import os
import re

import pytest

from bot.tables.lobby import Lobby
from tests.e2e.test_table_play import click_ok
from tests.e2e.test_threads import start_in_thread, table_in

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
    for _ in range(50):  # the timer fires in a task of its own
        await asyncio.sleep(0.01)
    for table in list(service.tables.values()):
        async with table.lock:  # held until the service has saved and told the presenter
            pass
    await world.settle()


async def pick(world, user, thread):
    """``user`` opens a fresh hand from the table in ``thread`` (hours after any earlier one) and
    plays its highest card (a low one would often take a row first)."""
    table = table_in(world, thread)
    hand = await (await world.standin.click(user, table, table.button("Play a card")["custom_id"])).reply()
    card = max((cid for cid in hand.custom_ids if cid.startswith("6n:p:")), key=lambda cid: int(cid.split(":")[-1]))
    await (await world.standin.click(user, hand, card)).reply()
    return hand


def reminders_in(world, thread, user):
    """The thread's messages that mention ``user`` as owing a move."""
    return [m for m in world.standin.channel_messages(thread)
            if "⏰" in (m.content or "") and f"<@{user.id}>" in m.content]


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
        assert table.owing() == [world.alice.id, world.bob.id] or set(table.owing()) == {world.alice.id,
                                                                                         world.bob.id}
        # Bob would rather get a direct message: a button on his hand.
        hand = await (await world.standin.click(world.bob, table_in(world, thread),
                                                table_in(world, thread).button("Play a card")["custom_id"])).reply()
        switched = await (await world.standin.click(world.bob, hand, hand.button("Remind me by direct message")
                                                    ["custom_id"])).reply()
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

        # The rest of the game, a move every hour or two; a low card's row is chosen at once.
        for _ in range(40):
            if world.bot.service.table_in(thread.id) is None:
                break
            table_message = table_in(world, thread)
            if any(cid.startswith("6n:r:") for cid in table_message.custom_ids):
                for user in (world.alice, world.bob):  # the one who owes it chooses; the other is refused
                    await (await world.standin.click(user, table_message, table_message.custom_ids[0])).ack()
                await world.settle()
                continue
            await pass_time(world, HOUR)
            await pick(world, world.alice, thread)
            await pass_time(world, 2 * HOUR)
            if world.bot.service.table_in(thread.id) is not None \
                    and world.bot.service.table_in(thread.id).game.phase.value == "pick":
                await pick(world, world.bob, thread)
            await world.settle()
        assert world.bot.service.table_in(thread.id) is None
        standings = world.standin.channel_messages(thread)[-1]
        assert "Game over" in standings.content

        # Each decision a player owed told them exactly once: the turns (ten cards), their row
        # choices, and bob's one reminder at 75 % of the first turn. Bob was mentioned for the first
        # turn only (he chose direct messages then); alice, who always picked within three hours,
        # was never reminded beyond the start of each decision.
        log = await world.bot.service.store.game_log(table.id)
        seats = {seat.user_id: seat.seat for seat in log.seats}
        rows = {user: sum(1 for a in log.actions if a.action["kind"] == "choose_row"
                          and a.action["player"] == seat) for user, seat in seats.items()}
        turns = 10
        assert len(reminders_in(world, thread, world.alice)) == turns + rows[world.alice.id]
        assert len(reminders_in(world, thread, world.bob)) == 1
        assert len(private_reminders(world, world.bob)) == (turns - 1) + rows[world.bob.id] + 1
        world.standin.assert_no_errors()


async def test_a_player_whose_direct_messages_are_closed_is_reminded_in_the_thread(world):
    world.threads = True
    world.standin.block_dms(world.carol)
    async with world.running_bot():
        lobby, thread = await start_in_thread(world, world.alice, rounds=1, pace="1h")
        await click_ok(world, world.carol, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table_message = table_in(world, thread)
        hand = await (await world.standin.click(world.carol, table_message,
                                                table_message.button("Play a card")["custom_id"])).reply()
        await (await world.standin.click(world.carol, hand,
                                         hand.button("Remind me by direct message")["custom_id"])).reply()
        await pick(world, world.alice, thread)
        await pass_time(world, 0.75 * HOUR)
        # The direct message is refused (403), so the reminder mentions her in the thread instead.
        assert len(reminders_in(world, thread, world.carol)) == 2 and private_reminders(world, world.carol) == []
        assert len(reminders_in(world, thread, world.alice)) == 1
        assert {error.body.get("code") for error in world.standin.errors} == {50007}
