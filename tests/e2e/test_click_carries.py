"""A turn's reveal carried by the click that completed it: a public follow-up, which Discord does not
count against the bot token's limit; and what happens when that follow-up fails."""

from __future__ import annotations

import pytest

from tests.e2e.driver import lowest, open_hand, play_card
from tests.e2e.test_outbox import reveals
from tests.e2e.test_request_budget import bot_token_requests
from tests.e2e.test_threads import start_in_thread
from tests.e2e.test_timers_and_restarts import run_out_the_clock, start_game

FOLLOW_UP = "/webhooks/{app}/{token}"


async def pick(world, user, table):
    """``user`` opens their hand on ``table`` and plays its first card: the click on the card."""
    hand = await open_hand(world.standin, user, table)
    return await play_card(world.standin, hand, lowest(hand))


@pytest.mark.discord_rate_limits
async def test_the_last_pick_carries_the_reveal_and_the_bot_token_is_not_used(world):
    async with world.running_bot():
        table = await start_game(world, rounds=1)
        await pick(world, world.alice, table)
        first = len(world.standin.requests)
        last = await pick(world, world.bob, table)
        await world.settle()
        reveal = world.table_message()
        assert "🃏 Revealed" in reveal.content and reveal.id != table.id
        assert reveal.interaction_id == last.id and not reveal.ephemeral, "bob's click carried the reveal"
        assert bot_token_requests(world, first) == [], "the turn cost the bot's token nothing"
        # The message a click carried is the live table: the game is played on it to the end.
        await world.play([world.alice, world.bob])
        await world.settle()
        assert len(reveals(world)) == 10 and sum("Game over" in (m.content or "") for m in world.public()) == 1
        world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits
async def test_in_a_thread_the_reveal_goes_to_the_thread(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread = await start_in_thread(world, world.alice, rounds=1, ai_players=1, ai_level="easy")
        await (await world.standin.click(world.alice, lobby, lobby.button("Start")["custom_id"])).ack()
        await world.settle()
        table = world.table_message(thread)
        last = await pick(world, world.alice, table)
        await world.settle()
        reveal = world.table_message(thread)
        assert "🃏 Revealed" in reveal.content and reveal.interaction_id == last.id
        assert reveal.channel is thread
        world.standin.assert_no_errors()


async def test_a_follow_up_cut_off_after_discord_took_it_is_shown_once(world):
    """The follow-up reaches Discord, but its answer never comes back: the bot cannot know. It
    looks in the channel before its own token sends the reveal, finds it, and shows it once."""
    async with world.running_bot():
        table = await start_game(world, rounds=1)
        await pick(world, world.alice, table)
        cut = world.standin.fail_next("POST", FOLLOW_UP, drop=True, applied=True, channel=world.channel.id)
        await pick(world, world.bob, table)
        await world.settle()
        assert cut.spent
        assert len(reveals(world)) == 1
        assert not any(r.method == "POST" and r.path.endswith("/messages") for r in bot_token_requests(world))
        await world.play([world.alice, world.bob])
        await world.settle()
        assert len(reveals(world)) == 10
        world.standin.assert_no_errors()


async def test_a_follow_up_taken_but_answered_5xx_is_shown_once(world):
    """Discord takes the follow-up and answers 503 all the same. A follow-up has no nonce, so a
    second try would show the reveal twice: the bot does not try again through the click, but
    looks in the channel, finds it, and shows it once."""
    async with world.running_bot():
        table = await start_game(world, rounds=1)
        await pick(world, world.alice, table)
        failed = world.standin.fail_next("POST", FOLLOW_UP, status=503, applied=True, channel=world.channel.id)
        first = len(world.standin.requests)
        await pick(world, world.bob, table)
        await world.settle()
        assert failed.spent
        assert len(reveals(world)) == 1, "the reveal Discord took is the only one"
        made = [r.method for r in bot_token_requests(world, first)]
        assert made == ["GET"], "a look in the channel, and no second post"
        await world.play([world.alice, world.bob])
        await world.settle()
        assert len(reveals(world)) == 10
        world.standin.assert_no_errors()


@pytest.mark.parametrize("failure", [dict(status=503), dict(status=429, times=5), dict(drop=True)])
async def test_a_look_in_the_channel_that_fails_is_tried_again_before_anything_is_sent(world, failure):
    """Discord took the follow-up and answered 503; the look in the channel that would find it fails
    too (a 503, a 429 that outlasts discord.py's tries, a cut). Sending now could show the reveal
    twice: the look is tried again, finds it, and the reveal shows once."""
    async with world.running_bot():
        table = await start_game(world, rounds=1)
        await pick(world, world.alice, table)
        failed = world.standin.fail_next("POST", FOLLOW_UP, status=503, applied=True, channel=world.channel.id)
        look = world.standin.fail_next("GET", "/channels/{channel}/messages", channel=world.channel.id, **failure)
        await pick(world, world.bob, table)
        await world.settle()
        assert failed.spent and look.spent
        assert len(reveals(world)) == 1, "the reveal Discord took is the only one"
        await world.play([world.alice, world.bob])
        await world.settle()
        assert len(reveals(world)) == 10
        world.standin.assert_no_errors()


async def test_a_follow_up_cut_off_before_discord_took_it_is_sent_by_the_bot(world):
    async with world.running_bot():
        table = await start_game(world, rounds=1)
        await pick(world, world.alice, table)
        cut = world.standin.fail_next("POST", FOLLOW_UP, drop=True, channel=world.channel.id)
        first = len(world.standin.requests)
        await pick(world, world.bob, table)
        await world.settle()
        assert cut.spent and len(reveals(world)) == 1
        reveal = world.table_message()
        assert reveal.interaction_id is None and reveal.nonce, "the bot's token sent it, with its nonce"
        made = [r.method for r in bot_token_requests(world, first)]
        assert made == ["GET", "POST"], "a look in the channel, then the post"
        world.standin.assert_no_errors()


async def test_a_refused_click_carries_nothing(world):
    """carol, who does not play, presses the table's "Play a card" and is refused; bob's turn is then
    played for him when his time runs out. The reveal goes out through alice's pick, never carol's."""
    async with world.running_bot():
        table = await start_game(world, rounds=1, timer=30)
        mine = await pick(world, world.alice, table)
        intruder = await world.standin.click(world.carol, table, table.button("Play a card")["custom_id"])
        refusal = await intruder.reply()
        assert refusal.ephemeral and refusal.content and not refusal.custom_ids, "carol is told why not, privately"
        await run_out_the_clock(world, 31)
        reveal = world.table_message()
        assert "🃏 Revealed" in reveal.content
        assert reveal.interaction_id == mine.id, "alice's click carried it, not the refused one"
        world.standin.assert_no_errors()
