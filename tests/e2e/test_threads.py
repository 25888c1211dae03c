"""A thread per game, through the real bot: played to the standings in a thread, two games at once
in one channel, a thread deleted mid-game, a channel where the bot may not start threads."""

from __future__ import annotations

import discord
import pytest

from cogs.threads import THREAD_TRIES
from tests.e2e.db_outage import SQLiteLocked
from tests.e2e.test_table_play import click_ok


async def start_in_thread(world, user, **options):
    """``user`` opens a table in the games channel; its lobby and the thread started on it."""
    lobby = await (await world.standin.slash(user, world.channel, "6nimmt start", **options)).reply()
    assert "table open" in lobby.embed["title"]
    thread = await world.standin.world.wait_until(
        lambda: world.standin.world.channels.get(lobby.id), 3, "the game's thread"
    )
    assert thread.is_thread and thread.parent is world.channel  # started on the lobby: the same id
    return lobby, thread


def table_in(world, thread):
    return world.table_message(thread)


async def begun_in_thread(world):
    """alice opens a table with an AI seat and starts it in its thread: (lobby, thread, table id)."""
    lobby, thread = await start_in_thread(world, world.alice, rounds=1, ai_players=1)
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    return lobby, thread, world.bot.service.table_in(thread.id).id


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_game_is_played_in_its_own_thread_and_the_channel_keeps_one_summary(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread = await start_in_thread(world, world.alice, rounds=1, ai_players=1)
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        # The table is posted in the thread, calling its players: that adds them to it (it shows in
        # their sidebar) with no request of its own, and pings nobody else.
        first = table_in(world, thread)
        assert first is not None and f"<@{world.alice.id}>" in first.content and f"<@{world.bob.id}>" in first.content
        assert {world.alice.id, world.bob.id} <= world.standin.thread_members(thread)
        assert not any("thread-members" in r.path for r in world.standin.requests)
        summary = world.standin.message(lobby.id)
        assert f"<#{thread.id}>" in str(summary.embed) and not summary.custom_ids
        # A command inside the thread acts on its game.
        hand = await (await world.standin.slash(world.bob, thread, "6nimmt hand")).reply()
        assert hand.ephemeral_to.id == world.bob.id and any(c.startswith("6n:p:") for c in hand.custom_ids)

        await world.play([world.alice, world.bob], thread)
        await world.settle()
        standings = world.standin.channel_messages(thread)[-1]
        assert "Game over" in standings.content and standings.button("Rematch")
        # The channel holds just the summary: who won, with a jump link to the standings.
        assert [m.id for m in world.public()] == [lobby.id]
        summary = world.standin.message(lobby.id)
        assert "🏆" in str(summary.embed) and f"/{thread.id}/{standings.id}" in str(summary.embed)
        # Every public message of the game is in the thread, none in the channel.
        assert len(world.standin.channel_messages(thread)) >= 11
        # The thread archives itself an hour after its last message (the Rematch's hour).
        assert not world.standin.is_archived(thread)
        world.standin.advance_time(61 * 60)
        assert world.standin.is_archived(thread)
        # A Rematch pressed in the archived thread opens a new lobby in the channel, with a new thread.
        rematch = await world.standin.click(world.bob, standings, standings.button("Rematch")["custom_id"])
        said = await rematch.reply()
        assert said.ephemeral_to.id == world.bob.id and "new table is open" in said.content
        await world.settle()
        new_lobby = world.public()[-1]
        assert new_lobby.id != lobby.id and "table open" in new_lobby.embed["title"]
        new_thread = await world.standin.world.wait_until(
            lambda: world.standin.world.channels.get(new_lobby.id), 3, "the rematch's thread"
        )
        assert new_thread.parent is world.channel
        world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_two_games_at_once_in_one_channel(world):
    world.threads = True
    async with world.running_bot():
        first, first_thread = await start_in_thread(world, world.alice, rounds=1, ai_players=1)
        second, second_thread = await start_in_thread(world, world.bob, rounds=1, ai_players=2)
        await click_ok(world, world.alice, first, first.button("Start")["custom_id"])
        await click_ok(world, world.bob, second, second.button("Start")["custom_id"])
        await world.settle()
        # Each thread holds its own game; the channel holds the two summaries.
        assert table_in(world, first_thread) is not None and table_in(world, second_thread) is not None
        assert [m.id for m in world.public()] == [first.id, second.id]
        # In the channel a command needing a table asks which; in a thread it acts on that game.
        ask = await (await world.standin.slash(world.carol, world.channel, "6nimmt status")).reply()
        assert ask.ephemeral_to.id == world.carol.id and "2 open games" in ask.content
        # ... unless only one of them can be meant: alice's hand is at the game she sits at.
        hand = await (await world.standin.slash(world.alice, world.channel, "6nimmt hand")).reply()
        assert any(cid.startswith(f"6n:p:{world.bot.service.table_in(first_thread.id).id}:") for cid in hand.custom_ids)
        # A moderator archives one game's thread mid-game: the game goes on, the thread reopens.
        await world.standin.archive(second_thread)
        assert world.standin.is_archived(second_thread)
        await world.play([world.alice], first_thread)
        await world.play([world.bob], second_thread)
        assert not world.standin.is_archived(second_thread)
        # Discord refused what the bot did in the archived thread only until it reopened it.
        assert all(error.body.get("code") == 50083 for error in world.standin.errors), world.standin.errors
        await world.settle()
        for thread in (first_thread, second_thread):
            assert "Game over" in world.standin.channel_messages(thread)[-1].content
        assert world.bot.service.tables_in(world.channel.id) == []


async def test_a_deleted_thread_ends_its_game_cleanly(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await begun_in_thread(world)
        await world.standin.delete_channel(thread)
        await world.standin.world.wait_until(
            lambda: world.bot.service.registry.find(table_id) is None or None, 3, "the table to end"
        )
        await world.settle()
        record = await world.bot.service.store.load_table(table_id)
        assert record.game.status == "abandoned"
        assert world.bot.service.wakes_at(table_id) is None and not world.bot.service.play.thinking
        summary = world.standin.message(lobby.id)
        assert "thread was deleted" in str(summary.embed)
        # The channel takes a new game at once.
        again, _ = await start_in_thread(world, world.bob, rounds=1)
        assert again.id != lobby.id


async def test_without_the_thread_permission_the_game_runs_in_the_channel_and_the_host_is_told(world):
    world.threads = True
    world.standin.deny_bot_permissions(world.channel, discord.Permissions(create_public_threads=True))
    async with world.running_bot():
        start = await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1, ai_players=1)
        lobby = await start.reply()
        [why] = await world.standin.world.wait_until(
            lambda: (
                [m for m in world.standin.ephemerals(world.alice) if "Create Public Threads" in (m.content or "")]
                or None
            ),
            3,
            "the host to be told why",
        )
        assert why.content.count("\n") == 0  # one line
        assert not [c for c in world.standin.world.channels.values() if c.is_thread]
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.play([world.alice])
        await world.settle()
        assert "Game over" in world.public()[-1].content
        world.standin.assert_no_errors()


async def test_a_deleted_threads_game_whose_ending_fails_is_ended_once_the_database_is_back(world, caplog):
    world.threads = True
    locked = SQLiteLocked(world.tmp_path / "bot.sqlite3")
    async with world.running_bot():
        lobby, thread, table_id = await begun_in_thread(world)
        await locked.begin()
        try:
            await world.standin.delete_channel(thread)
            await world.standin.world.wait_until(  # past the store's wait for the lock
                lambda: any("could not be ended" in r.getMessage() for r in caplog.records) or None,
                15,
                "the ending to fail",
            )
            assert world.bot.service.registry.find(table_id) is not None
        finally:
            await locked.end()
        # Nothing else happens at the table (no timer, no post): the ending is tried again anyway.
        await world.standin.world.wait_until(
            lambda: world.bot.service.registry.find(table_id) is None or None, 10, "the table to end"
        )
        await world.settle()
        assert (await world.bot.service.store.load_table(table_id)).game.status == "abandoned"
        assert "thread was deleted" in str(world.standin.message(lobby.id).embed)


async def test_a_thread_deleted_while_the_bot_was_away_ends_its_game_at_the_next_start(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await begun_in_thread(world)
    await world.standin.delete_channel(thread)  # nobody listening
    async with world.running_bot():
        await world.standin.world.wait_until(
            lambda: world.bot.service.registry.find(table_id) is None or None, 5, "the table to end"
        )
        await world.settle()
        assert (await world.bot.service.store.load_table(table_id)).game.status == "abandoned"
        assert "thread was deleted" in str(world.standin.message(lobby.id).embed)


async def test_a_game_started_inside_a_thread_runs_there_and_the_host_is_told_why(world):
    world.threads = True
    chat = world.standin.add_thread(world.channel, "chat", owner=world.alice)  # a member's thread, not a game's
    async with world.running_bot():
        lobby = await (await world.standin.slash(world.alice, chat, "6nimmt start", rounds=1, ai_players=1)).reply()
        [why] = await world.standin.world.wait_until(
            lambda: [m for m in world.standin.ephemerals(world.alice) if "a thread" in (m.content or "")] or None,
            3,
            "the host to be told why",
        )
        assert "runs right here" in why.content
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.play([world.alice], chat)
        await world.settle()
        assert "Game over" in world.standin.channel_messages(chat)[-1].content
        assert [c for c in world.standin.world.channels.values() if c.is_thread] == [chat]
        world.standin.assert_no_errors()


async def test_a_deleted_channel_ends_the_games_in_its_threads(world):
    world.threads = True
    async with world.running_bot():
        _, _, playing = await begun_in_thread(world)
        await start_in_thread(world, world.bob, rounds=1)
        waiting_id = next(t.id for t in world.bot.service.tables.values() if t.id != playing)
        await world.standin.delete_channel(world.channel)
        await world.standin.world.wait_until(lambda: not world.bot.service.tables or None, 3, "the tables to end")
        await world.settle()
        for table_id in (playing, waiting_id):
            assert (await world.bot.service.store.load_table(table_id)).game.status == "abandoned"
        assert not world.bot.get_cog("Tables").presenter.busy_tables


async def test_start_inside_a_running_games_thread_is_refused_with_a_link_to_that_game(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, table_id = await begun_in_thread(world)
        live = table_in(world, thread)
        refused = await (await world.standin.slash(world.bob, thread, "6nimmt start", rounds=1)).reply()
        assert refused.ephemeral_to.id == world.bob.id and "still open" in refused.content
        assert f"https://discord.com/channels/{world.guild.id}/{thread.id}/{live.id}" in refused.content
        await world.settle()
        # Nothing was opened: not in the thread, not in the channel; the game is the thread's only table.
        assert [m.id for m in world.public()] == [lobby.id]
        assert table_in(world, thread).id == live.id
        assert not [m for m in world.standin.channel_messages(thread) if "table open" in str(m.embed)]
        assert [c for c in world.standin.world.channels.values() if c.is_thread] == [thread]
        # The thread's commands still mean its game.
        hand = await (await world.standin.slash(world.alice, thread, "6nimmt hand")).reply()
        assert any(cid.startswith(f"6n:p:{table_id}:") for cid in hand.custom_ids)
        world.standin.assert_no_errors()


async def next_game_from(world, user, thread):
    """``user`` types /6nimmt start in the finished game's ``thread``: the new lobby (in the channel)
    and its own thread, after checking the player alone was told where it is."""
    said = await (await world.standin.slash(user, thread, "6nimmt start", rounds=1, ai_players=1)).reply()
    await world.settle()
    lobby = world.public()[-1]
    assert said.ephemeral_to.id == user.id and "new table is open" in said.content
    assert f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby.id}" in said.content
    assert "table open" in lobby.embed["title"] and lobby.button("Join")
    new_thread = await world.standin.world.wait_until(
        lambda: world.standin.world.channels.get(lobby.id), 3, "the new game's thread"
    )
    assert new_thread.parent is world.channel and new_thread is not thread
    return lobby, new_thread


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_start_inside_a_finished_games_thread_opens_the_next_in_the_channel_with_its_own_thread(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread, _ = await begun_in_thread(world)
        await world.play([world.alice], thread)
        await world.settle()
        in_thread = len(world.standin.channel_messages(thread))
        second, second_thread = await next_game_from(world, world.bob, thread)
        # Nothing new in the old thread; the new game is played in its own thread.
        assert len(world.standin.channel_messages(thread)) == in_thread
        await click_ok(world, world.bob, second, second.button("Start")["custom_id"])
        await world.play([world.bob], second_thread)
        await world.settle()
        assert "Game over" in world.standin.channel_messages(second_thread)[-1].content
    # After a restart the bot still knows the finished game's thread for a game's.
    async with world.running_bot():
        third, _ = await next_game_from(world, world.carol, thread)
        assert third.id not in (lobby.id, second.id)
        assert [m.id for m in world.public()] == [lobby.id, second.id, third.id]
        world.standin.assert_no_errors()


async def test_a_failed_thread_start_never_makes_a_second_game_in_the_channel(world):
    world.threads = True
    thread_start = "/channels/{channel}/messages/{message}/threads"
    async with world.running_bot():
        # Discord fails every try of the first thread start: that game plays in the channel, its one
        # game in place.
        world.standin.fail_next("POST", thread_start, status=503, times=THREAD_TRIES)
        first = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1)).reply()
        await world.standin.world.wait_until(
            lambda: (
                [m for m in world.standin.ephemerals(world.alice) if "runs in this channel" in (m.content or "")]
                or None
            ),
            10,
            "alice to be told the game runs in the channel",
        )
        # It fails again for bob's table: a second game in place is not made; bob's table closes, and he is told.
        world.standin.fail_next("POST", thread_start, status=503, times=THREAD_TRIES)
        second = await (await world.standin.slash(world.bob, world.channel, "6nimmt start", rounds=1)).reply()
        [why] = await world.standin.world.wait_until(
            lambda: [m for m in world.standin.ephemerals(world.bob) if "table was closed" in (m.content or "")] or None,
            10,
            "bob to be told his table was closed",
        )
        assert "already has a game played in the channel" in why.content
        await world.settle()
        assert not world.standin.message(second.id).custom_ids, "bob's lobby keeps no buttons"
        assert world.standin.message(first.id).button("Join"), "alice's lobby is open"
        # The channel has one game: a command there needs no table option.
        joined = await (await world.standin.slash(world.carol, world.channel, "6nimmt join")).reply()
        assert "joined" in joined.content
        assert not [c for c in world.standin.world.channels.values() if c.is_thread]
