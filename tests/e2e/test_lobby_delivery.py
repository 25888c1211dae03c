"""A lobby is committed state, shown like a reveal: once, whatever Discord does to its post.

A Rematch pressed in a finished game's thread (or ``/6nimmt start`` typed there) posts the new
lobby into the channel with the bot's token; ``/6nimmt start`` in a channel answers with it. Each
path here gets its post failed as Discord may fail it (a 503, a 429 that outlasts discord.py's
own tries, a cut connection, applied or not), and the lobby still shows exactly once, its
player is told where, and its game is played to the standings.
"""

from __future__ import annotations

import pytest

from tests.e2e.test_table_play import click_ok
from tests.e2e.test_threads import begun_in_thread

MESSAGES = "/channels/{channel}/messages"
CALLBACK = "/interactions/{id}/{token}/callback"

#: How Discord may fail a post: refused (503), refused until discord.py gives up (429 five times),
#: taken but answered 503, or its connection cut before or after Discord took it.
FAILURES = {
    "503": dict(status=503),
    "503-applied": dict(status=503, applied=True),
    "429": dict(status=429, times=5),
    "cut": dict(drop=True),
    "cut-applied": dict(drop=True, applied=True),
}


def lobbies(world, channel=None):
    """The lobby messages in the channel (each found by its Join button)."""
    return [m for m in world.public(channel) if any(cid.startswith("6n:l:join:") for cid in m.custom_ids)]


async def finished_in_thread(world):
    """alice's game (with an AI seat) played to its standings in its thread: (lobby, standings)."""
    lobby, thread, _ = await begun_in_thread(world)
    await world.play([world.alice], thread)
    await world.settle()
    standings = world.standin.channel_messages(thread)[-1]
    assert standings.button("Rematch")
    return lobby, standings


async def play_the_new_game(world, lobby):
    """The new lobby's thread, its game started and played to its standings there."""
    thread = await world.standin.world.wait_until(
        lambda: world.standin.world.channels.get(lobby.id), 3, "the new game's thread"
    )
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.play([world.alice], thread)
    await world.settle()
    assert "Game over" in world.standin.channel_messages(thread)[-1].content


@pytest.mark.parametrize("failure", FAILURES, ids=list(FAILURES))
async def test_a_rematch_whose_lobby_post_fails_shows_the_lobby_once(world, failure):
    world.threads = True
    async with world.running_bot():
        first, standings = await finished_in_thread(world)
        rule = world.standin.fail_next("POST", MESSAGES, channel=world.channel.id, **FAILURES[failure])
        rematch = await world.standin.click(world.alice, standings, standings.button("Rematch")["custom_id"])
        said = await rematch.reply(timeout=10)
        await world.settle()
        assert rule.spent
        shown = [m for m in lobbies(world) if m.id != first.id]
        assert len(shown) == 1, [m.id for m in shown]
        assert "table open" in shown[0].embed["title"]
        assert said.ephemeral_to.id == world.alice.id and "new table is open" in said.content
        assert f"/{world.channel.id}/{shown[0].id}" in said.content
        await play_the_new_game(world, shown[0])
        world.standin.assert_no_errors()


async def test_a_rematch_in_a_thread_shows_thinking_at_once_while_its_lobby_is_posted(world):
    """The answer to a Rematch pressed in a finished game's thread is a link to the lobby, which the
    bot's token posts in the channel first (here tried again after a 503): the click is deferred at
    once, so the player sees it taken however long that post takes, and never relies on a timer
    that a busy moment could hold past Discord's 3 s."""
    world.threads = True
    async with world.running_bot():
        _, standings = await finished_in_thread(world)
        rule = world.standin.fail_next("POST", MESSAGES, channel=world.channel.id, status=503)
        rematch = await world.standin.click(world.alice, standings, standings.button("Rematch")["custom_id"])
        assert await rematch.ack() == 5, 'deferred, privately ("thinking…")'
        said = await rematch.reply(timeout=10)
        assert rule.spent and said.ephemeral_to.id == world.alice.id and "new table is open" in said.content
        world.standin.assert_no_errors()


@pytest.mark.parametrize("failure", ["503", "cut"])
async def test_the_next_game_typed_in_a_finished_thread_shows_its_lobby_once_when_its_post_fails(world, failure):
    world.threads = True
    async with world.running_bot():
        first, standings = await finished_in_thread(world)
        thread = world.standin.world.channels[first.id]
        rule = world.standin.fail_next("POST", MESSAGES, channel=world.channel.id, **FAILURES[failure])
        start = await world.standin.slash(world.alice, thread, "6nimmt start", rounds=1, ai_players=1)
        said = await start.reply(timeout=10)
        await world.settle()
        assert rule.spent
        shown = [m for m in lobbies(world) if m.id != first.id]
        assert len(shown) == 1 and f"/{world.channel.id}/{shown[0].id}" in said.content
        await play_the_new_game(world, shown[0])
        world.standin.assert_no_errors()


@pytest.mark.parametrize("failure", ["cut", "cut-applied"])
async def test_a_start_whose_answer_fails_shows_its_lobby_once(world, failure):
    """The lobby is the command's answer; Discord cuts that answer's connection, before or after
    taking it. The lobby is in the channel once either way, and its game is played to the end."""
    async with world.running_bot():
        rule = world.standin.fail_next("POST", CALLBACK, **FAILURES[failure])
        await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1, ai_players=1)
        await world.standin.world.wait_until(lambda: lobbies(world), 5, "the lobby")
        await world.settle()
        assert rule.spent
        [lobby] = lobbies(world)
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.play([world.alice, world.bob])
        await world.settle()
        assert len(lobbies(world)) == 0 and "Game over" in world.public()[-1].content
        assert sum("table open" in str(m.embed) or "started" in str(m.embed) for m in world.public()) == 1


@pytest.mark.parametrize("failure", ["503", "503-applied", "429"])
async def test_a_status_whose_repost_fails_posts_the_table_again_once(world, failure):
    """``/6nimmt status`` posts the live table anew at the bottom: retried through a 5xx or a 429,
    once (its nonce), and the game goes on from it."""
    async with world.running_bot():
        lobby = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1)).reply()
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        before = len(world.public())
        rule = world.standin.fail_next("POST", MESSAGES, channel=world.channel.id, **FAILURES[failure])
        said = await (await world.standin.slash(world.bob, world.channel, "6nimmt status")).reply()
        await world.standin.world.wait_until(lambda: len(world.public()) > before, 10, "the table posted again")
        await world.settle()
        assert rule.spent and said.ephemeral_to.id == world.bob.id and "posted again" in said.content
        new = world.public()[before:]
        assert len(new) == 1 and new[0] is world.table_message(), [m.content for m in new]
        await world.play([world.alice, world.bob])
        await world.settle()
        assert "Game over" in world.public()[-1].content
        world.standin.assert_no_errors()


@pytest.mark.parametrize("failure", ["503", "503-applied", "429"])
async def test_a_thread_start_that_fails_once_still_gives_the_game_its_thread(world, failure):
    """A 5xx or a 429 on the thread's start passes: the game still plays in a thread of its own (a
    start Discord took is found by its id, which the lobby's shares)."""
    world.threads = True
    async with world.running_bot():
        rule = world.standin.fail_next("POST", "/channels/{channel}/messages/{message}/threads", **FAILURES[failure])
        lobby = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1)).reply()
        thread = await world.standin.world.wait_until(
            lambda: world.standin.world.channels.get(lobby.id), 10, "the game's thread"
        )
        await world.settle()
        assert rule.spent and not [
            m for m in world.standin.ephemerals(world.alice) if "runs in this channel" in (m.content or "")
        ]
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.play([world.alice, world.bob], thread)
        await world.settle()
        assert "Game over" in world.standin.channel_messages(thread)[-1].content


async def test_a_start_pressed_while_the_thread_is_tried_again_plays_the_game_in_its_thread(world, monkeypatch):
    """Discord fails the thread's start once, and the host presses Start during the pause before
    it is tried again: the Start waits for the thread, and the game plays there from its first
    post; the channel shows its lobby only."""
    monkeypatch.setattr("cogs.threads.THREAD_RETRY_FIRST", 1.0)  # a pause the Start surely falls in
    world.threads = True
    async with world.running_bot():
        world.standin.fail_next("POST", "/channels/{channel}/messages/{message}/threads", status=503)
        lobby = await (
            await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1, ai_players=1)
        ).reply()
        start = await world.standin.click(world.alice, lobby, lobby.button("Start")["custom_id"])
        assert world.standin.world.channels.get(lobby.id) is None, "pressed before the thread was started"
        await start.ack()
        thread = await world.standin.world.wait_until(
            lambda: world.standin.world.channels.get(lobby.id), 10, "the game's thread"
        )
        await world.settle()
        assert world.table_message(thread) is not None, "the game's first post is in its thread"
        assert [m.id for m in world.public()] == [lobby.id], "the channel shows the lobby only"
        await world.play([world.alice], thread)
        await world.settle()
        assert "Game over" in world.standin.channel_messages(thread)[-1].content
        assert [m.id for m in world.public()] == [lobby.id]
