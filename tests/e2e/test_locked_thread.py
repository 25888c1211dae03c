"""A moderator locks a game's thread, through the real bot on the stand-in, played to the standings.

The bot may not post in a locked thread nor unlock it (that takes Manage Threads). The game
pauses: however long the thread stays locked, no timer plays for anyone and no seat goes to the
AI; the channel's summary says why. Unlocked, the game goes on with the time its decision had
left, and every post it committed is shown once. Locked for over a day, it is abandoned.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.tables.lobby import Lobby
from tests.e2e.test_table_play import click_ok
from tests.e2e.test_threads import start_in_thread
from tests.e2e.test_timers_and_restarts import pick_first_card


@pytest.fixture(autouse=True)
def same_deal(monkeypatch):
    # Every run plays the same game, one whose turn bob misses leads to another turn (not to a row
    # choice, whose buttons a thread locked unheard would never have shown).
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: 2))


PAUSED = "A moderator locked this game's thread, so the game is paused"
REFUSED = "This game is paused because a moderator locked its thread"
TURN = 30  # seconds a turn may take at these tables


async def begun(world):
    """alice (host) and bob at a one-round game in its thread, begun: (lobby, thread, table id)."""
    lobby, thread = await start_in_thread(world, world.alice, rounds=1, timer=TURN)
    await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    return lobby, thread, world.bot.service.table_in(thread.id).id


async def waiting_on_bob(world):
    """``begun``, and alice has played her card: the game waits on bob."""
    lobby, thread, table_id = await begun(world)
    await pick_first_card(world, world.alice, world.table_message(thread))
    await world.settle()
    return lobby, thread, table_id


async def lock(world, thread, *, locked=True, heard=True):
    """A moderator locks (or unlocks) ``thread``; ``heard=False``: the bot's gateway never tells it."""
    await world.standin.server.threads.moderate(thread, locked=locked, announce=heard)


async def locked_and_paused(world, lobby, thread):
    """A moderator locks ``thread`` and the bot hears of it: once the channel's summary says the
    game is paused, the thread's messages."""
    await lock(world, thread)
    await summary_says(world, lobby, paused=True)
    return list(world.standin.channel_messages(thread))


def summary(world, lobby) -> str:
    return str(world.standin.message(lobby.id).embed)


async def summary_says(world, lobby, paused: bool) -> None:
    await world.standin.world.wait_until(
        lambda: (PAUSED in summary(world, lobby)) == paused or None,
        5,
        "the channel's summary to say whether the game is paused",
    )
    await world.settle()


async def pass_time(world, table_id, seconds):
    """Move the bot's clock on and wait until whatever its timer does then is saved and shown."""
    service = world.bot.service
    world.clock.advance(seconds)
    service.scheduler.wake()
    table = service.registry.find(table_id)
    for _ in range(500):  # the timer fires in a task of its own, and sets the next one
        deadline = service.wakes_at(table_id)
        if table is None or not table.is_open or (deadline is not None and deadline > world.clock()):
            break
        await asyncio.sleep(0.01)
    if table is not None:
        async with table.lock:
            pass
    await world.settle()


async def bob_is_told_it_is_paused(world, thread):
    """bob chooses a row, or opens his hand and plays a card: answered with why, nothing played."""
    before = list(world.standin.channel_messages(thread))
    table = world.table_message(thread)
    rows = [cid for cid in table.custom_ids if cid.startswith("6n:r:")]
    if rows:
        said = await (await world.standin.click(world.bob, table, rows[0])).reply()
    else:
        hand = await (await world.standin.click(world.bob, table, table.button("Play a card")["custom_id"])).reply()
        card = next(cid for cid in hand.custom_ids if cid.startswith("6n:p:"))
        said = await (await world.standin.click(world.bob, hand, card)).reply()
    assert REFUSED in said.content and said.ephemeral_to.id == world.bob.id
    await world.settle()
    assert world.standin.channel_messages(thread) == before


def posts_shown(world, thread, table_id) -> list:
    """The game's posts among the thread's messages: those the bot's token sent (each post's nonce
    names it) and those a player's click carried (its public follow-up)."""
    interactions = world.standin.world.interactions

    def follow_up(message) -> bool:
        interaction = interactions.get(message.interaction_id)
        return interaction is not None and message is not interaction.original  # not a command's answer

    return [
        message
        for message in world.standin.channel_messages(thread)
        if not message.ephemeral
        and (re.fullmatch(rf"6n{table_id}\.(\d+)", str(message.nonce or "")) or follow_up(message))
    ]


def assert_played_to_the_end(world, thread, table_id):
    """The standings once, every post once and none missing, and nobody's seat taken."""
    messages = world.standin.channel_messages(thread)
    standings = [m for m in messages if "Game over" in (m.content or "")]
    assert len(standings) == 1 and standings[0].button("Rematch")
    shown = posts_shown(world, thread, table_id)
    numbers = [int(m.nonce.rsplit(".", 1)[1]) for m in shown if m.nonce]
    assert numbers == sorted(set(numbers)), numbers  # the bot token's posts once each, in order
    said = [m.content for m in shown]
    assert len(said) == len(set(said)), said  # no post twice, however it was sent
    assert sum("🃏 Revealed" in text for text in said) == 10, said  # and none missing: every turn of the round
    assert shown[-1] is standings[0]
    news = "".join((m.content or "") + str(m.embeds) for m in messages)
    assert "missed two turns" not in news and "AI plays" not in news


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_locked_thread_pauses_the_game_until_a_moderator_unlocks_it(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await waiting_on_bob(world)
        world.clock.advance(10)  # 20 s of bob's turn left
        shown = await locked_and_paused(world, lobby, thread)
        # Deadline after deadline passes: nobody's turn is played, nothing is posted in the thread.
        for _ in range(4):
            await pass_time(world, table_id, TURN + 1)
        await pass_time(world, table_id, 5 * 3600)
        assert world.standin.channel_messages(thread) == shown
        assert PAUSED in summary(world, lobby)
        await bob_is_told_it_is_paused(world, thread)
        # Unlocked: the game goes on with the 20 s bob had left.
        await lock(world, thread, locked=False)
        await summary_says(world, lobby, paused=False)
        assert f"Playing in <#{thread.id}>" in summary(world, lobby)
        assert f"<t:{int(world.clock() + 20)}:R>" in str(world.table_message(thread).embed)
        await pass_time(world, table_id, 19)
        assert "missed" not in str(world.standin.channel_messages(thread)[-1].embeds)
        await world.play([world.alice, world.bob], thread)
        await world.settle()
        assert_played_to_the_end(world, thread, table_id)
        # The bot asked nothing of the locked thread: the gateway had told it.
        world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_lock_the_gateway_did_not_tell_is_learnt_from_the_refused_post(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await waiting_on_bob(world)
        await lock(world, thread, heard=False)
        # bob's time runs out: the bot plays for him and posts it; Discord refuses, the game pauses.
        await pass_time(world, table_id, TURN + 1)
        await summary_says(world, lobby, paused=True)
        shown = list(world.standin.channel_messages(thread))
        for _ in range(4):
            await pass_time(world, table_id, TURN + 1)
        await pass_time(world, table_id, 5 * 3600)
        assert world.standin.channel_messages(thread) == shown  # the refused post waits, nothing more came
        await bob_is_told_it_is_paused(world, thread)
        assert {error.body.get("code") for error in world.standin.errors} == {160005}
        await lock(world, thread, locked=False)
        await summary_says(world, lobby, paused=False)
        # The post refused while locked is shown now, once: bob missed one turn, his seat is his.
        news = "".join(str(m.embeds) + (m.content or "") for m in world.standin.channel_messages(thread))
        assert news.count(f"<@{world.bob.id}> missed a turn") == 1
        await world.play([world.alice, world.bob], thread)
        await world.settle()
        assert_played_to_the_end(world, thread, table_id)


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_thread_archived_and_locked_unheard_pauses_the_game_at_the_first_refused_request(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await begun(world)
        await world.standin.server.threads.moderate(thread, locked=True, archived=True, announce=False)
        # A pick is edited into the table message: the first request, and Discord refuses it. The
        # thread is archived, so the bot asks to reopen it, and that is refused too: it is locked.
        table = world.table_message(thread)
        await pick_first_card(world, world.alice, table)
        await summary_says(world, lobby, paused=True)
        assert [error.body.get("code") for error in world.standin.errors] == [50083, 50013]
        await pick_first_card(world, world.bob, table)  # saved; its reveal waits for the unlock
        shown = list(world.standin.channel_messages(thread))
        await pass_time(world, table_id, 5 * 3600)
        assert world.standin.channel_messages(thread) == shown
        await lock(world, thread, locked=False)
        await summary_says(world, lobby, paused=False)
        await world.play([world.alice, world.bob], thread)
        await world.settle()
        assert_played_to_the_end(world, thread, table_id)


async def test_a_thread_locked_for_over_a_day_ends_its_game_as_abandoned(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await begun(world)
        shown = await locked_and_paused(world, lobby, thread)
        for _ in range(23):
            await pass_time(world, table_id, 3600)
        assert world.bot.service.registry.find(table_id) is not None and PAUSED in summary(world, lobby)
        await pass_time(world, table_id, 3601)
        await world.standin.world.wait_until(
            lambda: "stayed locked for a day" in summary(world, lobby) or None, 5, "the summary to say why it ended"
        )
        assert "closed" in world.standin.message(lobby.id).embed["title"] and PAUSED not in summary(world, lobby)
        assert (await world.bot.service.store.load_table(table_id)).game.status == "abandoned"
        assert world.standin.channel_messages(thread) == shown
        news = "".join(str(m.embeds) + (m.content or "") for m in shown)
        assert "missed" not in news and "AI plays" not in news
        # Unlocked later, the thread finds no game to go on with.
        await lock(world, thread, locked=False)
        await world.settle()
        assert world.bot.service.registry.find(table_id) is None
        assert not world.bot.get_cog("Tables").presenter.busy_tables


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_restart_while_locked_keeps_the_game_paused_until_it_is_unlocked(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await waiting_on_bob(world)
        shown = await locked_and_paused(world, lobby, thread)
    world.clock.advance(6 * 3600)  # away for hours: every deadline of the game passed meanwhile
    async with world.running_bot():
        await world.settle()
        for _ in range(3):
            await pass_time(world, table_id, TURN + 1)
        assert world.standin.channel_messages(thread) == shown and PAUSED in summary(world, lobby)
        await bob_is_told_it_is_paused(world, thread)
    await lock(world, thread, locked=False, heard=False)  # unlocked while nobody listened
    async with world.running_bot():
        await summary_says(world, lobby, paused=False)  # the thread the guild came with is open
        await world.play([world.alice, world.bob], thread)
        await world.settle()
        assert_played_to_the_end(world, thread, table_id)
        world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_game_opened_inside_a_thread_pauses_when_that_thread_is_locked(world):
    world.threads = True
    chat = world.standin.add_thread(world.channel, "chat", owner=world.alice)  # a member's thread, not a game's
    async with world.running_bot():
        lobby = await (await world.standin.slash(world.alice, chat, "6nimmt start", rounds=1, timer=TURN)).reply()
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table_id = world.bot.service.table_in(chat.id).id
        await pick_first_card(world, world.alice, world.table_message(chat))
        await world.settle()
        await lock(world, chat, heard=False)
        await pass_time(world, table_id, TURN + 1)  # bob's turn is played; its post is refused: paused
        shown = list(world.standin.channel_messages(chat))
        for _ in range(4):
            await pass_time(world, table_id, TURN + 1)
        assert world.standin.channel_messages(chat) == shown
        await bob_is_told_it_is_paused(world, chat)
        await lock(world, chat, locked=False)
        await world.standin.world.wait_until(
            lambda: len(world.standin.channel_messages(chat)) > len(shown) or None, 5, "the game to go on"
        )
        await world.play([world.alice, world.bob], chat)
        await world.settle()
        assert_played_to_the_end(world, chat, table_id)
