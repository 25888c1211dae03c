"""Issue 17's table edges as players meet them: taking a seat back, outsiders, the lobby's
end, /6nimmt status, the Pro draft in a hand and the helpers' played-card tracker."""

from __future__ import annotations

import re

import pytest

from cogs.render.tracker import card_ranges
from tests.e2e.test_anniversary import start_anniversary
from tests.e2e.test_table_play import click_ok, open_table, play_until_over
from tests.e2e.test_timers_and_restarts import pick_first_card, play_without, start_game

JOIN_HINT = "press **Join** on its lobby, or open one with `/6nimmt start`"


async def reply(world, user, command, channel=None, **options):
    return await (await world.standin.slash(user, channel or world.channel, command, **options)).reply()


async def miss_two_turns(world, table, user, other):
    """``user`` sits out until an AI takes the seat over; ``other`` plays their turns."""
    seat = table.seat_of(user.id)
    await play_without(world, user, [other])
    assert table.seats[seat].is_ai, "the seat was never taken over"
    return seat


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_replaced_player_takes_the_seat_back_and_plays_to_the_end(world):
    async with world.running_bot():
        await start_game(world, rounds=1, timer=30)
        table = world.bot.service.table_in(world.channel.id)
        bob_seat = await miss_two_turns(world, table, world.bob, world.alice)
        await world.settle()
        if table.game.phase.value == "choose_row":  # alice's low card: she takes a row first
            message = world.table_message()
            await (await world.standin.click(world.alice, message, message.custom_ids[0])).ack()
            await world.settle()
        assert table.game.phase.value == "pick" and table.game.picks[bob_seat], "the AI picked for bob at once"

        # Bob presses his old table button: he reads why, and may take the seat back.
        message = world.table_message()
        refused = await (
            await world.standin.click(world.bob, message, message.button("Play a card")["custom_id"])
        ).reply()
        assert refused.ephemeral_to.id == world.bob.id
        assert refused.content.startswith("An AI plays your seat since you missed two turns in a row.")
        assert "Take my seat back" in refused.content
        by_command = await reply(world, world.bob, "6nimmt hand")
        assert "missed two turns" in by_command.content and by_command.button("Take my seat back")

        # Mid-turn: the AI's pick for this turn stands.
        ai_pick = table.game.picks[bob_seat]
        assert ai_pick
        back = await (
            await world.standin.click(world.bob, refused, refused.button("Take my seat back")["custom_id"])
        ).reply()
        assert "You have your seat back" in back.content and back.custom_ids == []
        await world.settle()
        news = str(world.table_message().embed)
        assert "**bob** took their seat back and plays again from the next turn." in news
        early = await reply(world, world.bob, "6nimmt hand")
        assert "from the next turn on: the AI's choice for this turn stands" in early.content
        assert table.game.picks[bob_seat] == ai_pick and not table.seats[bob_seat].is_ai

        # Alice's pick ends this turn; from the next one Bob plays himself, to the final standings.
        await pick_first_card(world, world.alice, world.table_message())
        await play_until_over(world, [world.alice, world.bob], world.carol)
        await world.settle()
        final = world.public()[-1]
        assert "Game over" in final.content and final.button("Rematch")
        assert not table.seats[bob_seat].is_ai
        assert table.seats[bob_seat].missed_turns == 0, "bob played every turn after taking the seat back"
        world.standin.assert_no_errors()


async def test_outsiders_are_told_how_to_join_on_every_button(world):
    async with world.running_bot():
        lobby = await open_table(world, variant="pro", rounds=1, helpers=True)
        # Lobby buttons for players: the outsider is pointed at Join.
        for label in ("Leave", "Add AI", "Start", "Cancel"):
            answer = await (await world.standin.click(world.carol, lobby, lobby.button(label)["custom_id"])).reply()
            assert answer.ephemeral_to.id == world.carol.id
            assert answer.content == "You are not at this table: press **Join** to sit down.", label
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table = world.bot.service.table_in(world.channel.id)
        users = {table.seat_of(u.id): u for u in (world.alice, world.bob)}

        # The draft: the public select and the hand command refuse the outsider.
        message = world.table_message()
        select = message.selects[0]
        answer = await (
            await world.standin.select(world.carol, message, select["custom_id"], [select["options"][0]["value"]])
        ).reply()
        assert "You are not at this table" in answer.content and JOIN_HINT in answer.content
        answer = await reply(world, world.carol, "6nimmt hand")
        assert JOIN_HINT in answer.content

        # /6nimmt hand during the draft: the cards drafted so far and, on your turn, the pool.
        drafter = users[table.game.drafter]
        waiting = users[1 - table.game.drafter]
        hand = await reply(world, waiting, "6nimmt hand")
        assert "**Your drafted cards** (0/10): —" in hand.content and "Wait for your turn" in hand.content
        assert hand.selects == []
        hand = await reply(world, drafter, "6nimmt hand")
        assert "**Your turn:**" in hand.content
        offered = [int(o["value"]) for s in hand.selects for o in s["options"]]
        assert offered == list(table.game.draft_pool)
        taken = await (await world.standin.select(drafter, hand, hand.selects[0]["custom_id"], ["24"])).reply()
        assert taken.content == "You drafted **24**." and taken.selects == []
        hand = await reply(world, drafter, "6nimmt hand")
        assert "(1/10): 24." in hand.content and hand.selects == []
        # The rest of the draft from the public selects.
        while table.game.phase.value == "draft":
            await world.settle()
            message = world.table_message()
            select = message.selects[0]
            await (
                await world.standin.select(
                    users[table.game.drafter], message, select["custom_id"], [select["options"][0]["value"]]
                )
            ).ack()
        await world.settle()

        # Helpers: the hand carries the tracker; in the Pro variant it knows the other hand from the draft.
        message = world.table_message()
        alice_hand = await (
            await world.standin.click(world.alice, message, message.button("Play a card")["custom_id"])
        ).reply()
        tracker = await (
            await world.standin.click(world.alice, alice_hand, alice_hand.button("Cards seen")["custom_id"])
        ).reply()
        assert tracker.ephemeral_to.id == world.alice.id and "Cards seen this round" in tracker.content
        rows = card_ranges(c for row in table.game.rows for c in row)
        assert f"In the rows: {rows}\n" in tracker.content
        bob_hand = table.game.hands[table.seat_of(world.bob.id)]
        assert f"  bob: {card_ranges(bob_hand)}" in tracker.content

        # Play a card, the row choice (inside play_until_over) and Rematch refuse the outsider too.
        answer = await (
            await world.standin.click(world.carol, message, message.button("Play a card")["custom_id"])
        ).reply()
        assert JOIN_HINT in answer.content
        await play_until_over(world, [world.alice, world.bob], world.carol)
        await world.settle()
        final = world.public()[-1]
        answer = await (await world.standin.click(world.carol, final, final.button("Rematch")["custom_id"])).reply()
        assert JOIN_HINT in answer.content
        world.standin.assert_no_errors()


async def test_the_tracker_is_private_and_shows_only_what_was_seen(world):
    async with world.running_bot():
        await start_game(world, rounds=1, helpers=True)
        table = world.bot.service.table_in(world.channel.id)
        rules = await reply(world, world.carol, "6nimmt rules")
        assert "helpers on: every hand can show the cards seen this round" in rules.content
        assert "helpers on" in world.public()[0].embed["description"], "the lobby names the helpers"
        await pick_first_card(world, world.alice, world.table_message())
        await pick_first_card(world, world.bob, world.table_message())
        await world.settle()
        taken = 0
        if table.game.phase.value == "choose_row":  # a low card: its player takes row 1
            taken = len(table.game.rows[0])
            chooser = world.alice if table.game.chooser == table.seat_of(world.alice.id) else world.bob
            message = world.table_message()
            await (await world.standin.click(chooser, message, message.custom_ids[0])).ack()
            await world.settle()
        hand = await reply(world, world.alice, "6nimmt hand")
        assert hand.button("Cards seen") and len(hand.custom_ids) <= 25
        tracker = await (await world.standin.click(world.alice, hand, hand.button("Cards seen")["custom_id"])).reply()
        text = tracker.content
        assert tracker.ephemeral_to.id == world.alice.id and len(text) <= 2000
        bob_cards = table.game.hands[table.seat_of(world.bob.id)]
        unseen = re.search(r"Not seen yet \((\d+),", text)
        # 104 cards: 4 started the rows, 2 were played, 9 are in alice's hand (a row taken stays seen).
        assert unseen and int(unseen[1]) == 104 - 4 - 2 - 9
        assert taken == 0 or "Taken into piles: —" not in text
        row_line = next(line for line in text.splitlines() if line.startswith("In the rows:"))
        assert not any(re.search(rf"\b{c}\b", row_line) for c in bob_cards)
        world.standin.assert_no_errors()


async def test_a_table_without_helpers_has_no_tracker(world):
    async with world.running_bot():
        await start_game(world, rounds=1)
        hand = await reply(world, world.alice, "6nimmt hand")
        assert not any(cid.startswith("6n:tr:") for cid in hand.custom_ids)
        forged = await world.standin.click_raw(
            world.alice, hand, f"6n:tr:{world.bot.service.table_in(world.channel.id).id}"
        )
        assert "not valid" in (await forged.reply()).content


async def test_the_lobby_message_says_what_became_of_it(world):
    async with world.running_bot():
        started = await open_table(world, rounds=1)
        await click_ok(world, world.bob, started, started.button("Join")["custom_id"])
        await click_ok(world, world.alice, started, started.button("Start")["custom_id"])
        await world.settle()
        after = world.standin.message(started.id)
        assert after.embed["title"] == "6 nimmt! — the game has started" and after.custom_ids == []
        assert "table open" not in str(after.embed) and "Closes" not in str(after.embed)

        cancelled_in = world.standin.add_text_channel(world.guild, "second")
        lobby = await reply(world, world.alice, "6nimmt start", cancelled_in)
        await world.standin.world.wait_until(
            lambda: world.bot.service.table_in(cancelled_in.id).message_id is not None, 3, "no lobby id"
        )
        await click_ok(world, world.alice, lobby, lobby.button("Cancel")["custom_id"])
        await world.settle()
        after = world.standin.message(lobby.id)
        assert after.embed["title"] == "6 nimmt! — lobby closed" and after.custom_ids == []
        assert "The table was cancelled." in str(after.embed) and "/6nimmt start" in str(after.embed)

        expired_in = world.standin.add_text_channel(world.guild, "third")
        lobby = await reply(world, world.alice, "6nimmt start", expired_in)
        service = world.bot.service
        table = service.table_in(expired_in.id)
        await world.standin.world.wait_until(lambda: table.message_id is not None, 3, "no lobby id")
        world.clock.advance(31 * 60)
        service.scheduler.wake()
        await world.standin.world.wait_until(lambda: not table.is_open, 3, "the lobby never expired")
        async with table.lock:
            pass
        await world.settle()
        after = world.standin.message(lobby.id)
        assert after.embed["title"] == "6 nimmt! — lobby closed" and after.custom_ids == []
        assert "Nobody started the game in time" in str(after.embed)
        world.standin.assert_no_errors()


async def test_status_shows_the_table_or_says_there_is_none(world):
    async with world.running_bot():
        none = await reply(world, world.alice, "6nimmt status")
        assert none.ephemeral and "There is no open 6 nimmt! table here" in none.content
        await start_game(world, rounds=1)
        status = await reply(world, world.carol, "6nimmt status")
        assert status.ephemeral_to.id == world.carol.id and status.content.startswith("Here is the table")
        assert "Row 1 ·" in status.embed["description"] and "Players (points)" in str(status.embed)
        assert status.attachments and status.attachments[0].data.startswith(b"\x89PNG")
        assert status.embed["image"]["url"].endswith("table.png")
        await world.settle()
        assert world.table_message() is world.public()[-1]  # and posted again at the bottom
        world.standin.assert_no_errors()


async def test_a_player_who_left_may_come_back_but_a_kicked_one_may_not(world):
    async with world.running_bot():
        lobby = await open_table(world, rounds=1)
        for user in (world.bob, world.carol):
            await click_ok(world, user, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table = world.bot.service.table_in(world.channel.id)
        left = await reply(world, world.bob, "6nimmt leave")
        assert "You left the table." in left.content
        again = await reply(world, world.bob, "6nimmt leave")
        assert again.content == "An AI plays your seat since you left the table."
        hand = await reply(world, world.bob, "6nimmt hand")
        assert "since you left the table" in hand.content
        back = await (await world.standin.click(world.bob, hand, hand.button("Take my seat back")["custom_id"])).reply()
        assert "You have your seat back" in back.content
        assert not table.seats[table.seat_of(world.bob.id)].is_ai
        assert hand.custom_ids == [], "the answer lost its button"

        await reply(world, world.alice, "6nimmt kick", member=world.carol)
        message = world.table_message()
        kicked = await (await world.standin.click(world.carol, message, message.custom_ids[0])).reply()
        assert "the host removed you" in kicked.content and kicked.custom_ids == []
        world.standin.assert_no_errors()


async def test_the_coach_hints_privately_at_a_table_with_helpers(world):
    async with world.running_bot():
        await start_game(world, rounds=1, helpers=True)
        table = world.bot.service.table_in(world.channel.id)
        hand = await reply(world, world.alice, "6nimmt hand")
        hint = await (await world.standin.click(world.alice, hand, hand.button("Hint")["custom_id"])).reply(timeout=10)
        assert hint.ephemeral_to.id == world.alice.id and "Coach" in hint.content
        cards = table.game.hands[table.seat_of(world.alice.id)]
        estimates = dict(re.findall(r"\*\*(\d+)\*\* → ([\d.]+)🐮", hint.content))
        assert sorted(int(c) for c in estimates) == sorted(cards), "one estimate for each card in her hand"
        costs = [float(v) for v in estimates.values()]
        assert costs == sorted(costs), "cheapest first"
        choice = int(re.search(r"It would play \*\*(\d+)\*\*", hint.content)[1])
        assert choice in cards
        assert not table.game.picks[table.seat_of(world.alice.id)], "a hint plays nothing"
        # Bob's cards never show in alice's hint.
        bob_only = set(table.game.hands[table.seat_of(world.bob.id)]) - set(cards)
        assert not any(f"**{c}**" in hint.content for c in bob_only)
        world.standin.assert_no_errors()


async def test_the_coach_hints_at_an_anniversary_table_too(world):
    async with world.running_bot():
        table = await start_anniversary(world, helpers=True)
        hand = await reply(world, world.alice, "6nimmt hand")
        assert len([b for b in hand.buttons if b["custom_id"].startswith("6n:pf:")]) == 4, "the preferences stay"
        hint = await (await world.standin.click(world.alice, hand, hand.button("Hint")["custom_id"])).reply(timeout=10)
        assert hint.ephemeral_to.id == world.alice.id and "Coach" in hint.content
        cards = table.game.hands[table.seat_of(world.alice.id)]
        estimates = dict(re.findall(r"\*\*(\d+)\*\* → ([\d.]+)🐮", hint.content))
        assert sorted(int(c) for c in estimates) == sorted(cards), "one estimate for each card in her hand"
        assert int(re.search(r"It would play \*\*(\d+)\*\*", hint.content)[1]) in cards
        world.standin.assert_no_errors()


async def test_a_table_without_helpers_offers_no_hint(world):
    async with world.running_bot():
        await start_game(world, rounds=1)
        table_id = world.bot.service.table_in(world.channel.id).id
        hand = await reply(world, world.alice, "6nimmt hand")
        assert not any(cid.startswith("6n:hi:") for cid in hand.custom_ids)
        forged = await world.standin.click_raw(world.alice, hand, f"6n:hi:{table_id}")
        assert "not valid" in (await forged.reply()).content
