"""Whole games as users play them: slash commands, clicks, ephemeral hands, row choices."""

from __future__ import annotations

import re

import pytest

from tests.e2e.driver import ROW_BUTTON, lowest, offers, open_hand, play_card


async def open_table(world, **options):
    lobby = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", **options)).reply()
    assert "table open" in lobby.embed["title"]
    return lobby


async def click_ok(world, user, message, custom_id):
    interaction = await world.standin.click(user, message, custom_id)
    await interaction.ack()
    return interaction


async def test_lobby_join_start_and_refusals(world):
    async with world.running_bot():
        lobby = await open_table(world, rounds=1)
        # A second start in the same channel points at the existing table.
        again = await (await world.standin.slash(world.bob, world.channel, "6nimmt start")).reply()
        assert again.ephemeral_to.id == world.bob.id and "already has a 6 nimmt! table" in again.content

        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await world.settle()
        lobby = world.public()[0]
        assert "bob" in str(lobby.embed) or f"<@{world.bob.id}>" in str(lobby.embed)

        # Only the host starts; bob's click is refused privately and changes nothing.
        refused = await (await world.standin.click(world.bob, lobby, lobby.button("Start")["custom_id"])).reply()
        assert refused.ephemeral_to.id == world.bob.id and "Only the host" in refused.content
        # Joining twice is refused too.
        twice = await (await world.standin.click(world.bob, lobby, lobby.button("Join")["custom_id"])).reply()
        assert "already at this table" in twice.content

        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table = world.table_message()
        assert table is not None and table.button("Play a card")
        assert "turn 1" in table.embed["title"]
        assert re.search(r"<t:\d+:R>", str(table.embed)), "the deadline counts down in every client"
        # The rows as a picture, with the same rows as text for screen readers.
        image = table.attachments[0]
        assert image.filename == "table.png" and image.data.startswith(b"\x89PNG")
        assert table.embed["image"]["url"].endswith("table.png")
        assert "Row 1 ·" in table.embed["description"]
        world.standin.assert_no_errors()


async def play_until_over(world, players, intruder, moves=400):
    """Everyone plays their lowest card; low cards take the cheapest-looking row 1. Checked along
    the way: an intruder's press on a row is refused, every hand is its player's alone, every card
    played is confirmed, and once a hand of an earlier turn is refused. Returns whether it was."""
    seen_stale = False
    old_hand = None

    async def intruder_refused(table):
        if offers(table, ROW_BUTTON):
            refused = await (await world.standin.click(intruder, table, table.custom_ids[0])).reply()
            assert "not at this table" in refused.content or "not your low card" in refused.content

    async def pick_checked(user, table):
        nonlocal seen_stale, old_hand
        hand = await open_hand(world.standin, user, table)  # which checks that only the player sees it
        if old_hand is not None and not seen_stale and user is players[0]:
            stale = await (await world.standin.click(user, old_hand, old_hand.custom_ids[0])).reply()
            assert "earlier turn" in stale.content
            seen_stale = True
        if user is players[0]:
            old_hand = hand.message
        confirmation = await (await play_card(world.standin, hand, lowest(hand))).reply()
        assert "face down" in confirmation.content or "You played" in confirmation.content

    await world.play(players, before=intruder_refused, pick=pick_checked, moves=moves)
    return seen_stale


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_whole_game_through_the_real_bot(world):
    async with world.running_bot():
        lobby = await open_table(world, rounds=1, ai_players=1)
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table = world.table_message()

        # An outsider's click on "Play a card" is answered privately and changes nothing.
        outsider = await (
            await world.standin.click(world.carol, table, table.button("Play a card")["custom_id"])
        ).reply()
        assert outsider.ephemeral_to.id == world.carol.id and "not at this table" in outsider.content

        # A forged custom id (not on the message) is answered too, not dropped.
        forged = await world.standin.click_raw(world.carol, table, "6n:p:1:1:55")
        assert "not valid" in (await forged.reply()).content

        saw_stale = await play_until_over(world, [world.alice, world.bob], world.carol)
        assert saw_stale
        await world.settle()
        final = world.public()[-1]
        assert "Game over" in final.content and final.button("Rematch")
        # The standings carry the score chart: each player's bullheads round by round.
        [chart] = final.attachments
        assert chart.filename == "scores.png" and chart.data.startswith(b"\x89PNG")

        # A hand never appears in a public message.
        for message in world.public():
            assert not any(cid.startswith("6n:p:") for cid in message.custom_ids)
            assert "Your hand" not in (message.content or "")
        world.standin.assert_no_errors()

        board = await (await world.standin.slash(world.bob, world.channel, "leaderboard", metric="wins")).reply()
        assert "alice" in str(board.embed) and "bob" in str(board.embed)


async def test_sent_views_are_let_go(world):
    """Every click on Play a card sends a fresh ephemeral hand. discord.py would keep each
    hand's view with a 15-minute timer task; the buttons work by their custom ids alone,
    so nothing may be kept."""
    import asyncio

    async with world.running_bot():
        lobby = await open_table(world, rounds=1)
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table = world.table_message()
        hands = [
            await (await world.standin.click(world.alice, table, table.button("Play a card")["custom_id"])).reply()
            for _ in range(3)
        ]
        card = next(cid for cid in hands[0].custom_ids if cid.startswith("6n:p:"))
        picked = await (await world.standin.click(world.alice, hands[0], card)).reply()
        assert "face down" in picked.content  # the oldest hand's button still works
        timers = [t for t in asyncio.all_tasks() if "timeout_task_impl" in repr(t.get_coro())]
        assert timers == [], f"{len(timers)} view timers are running"
        world.standin.assert_no_errors()
