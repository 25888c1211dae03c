"""The lobby and table commands as users type and click them: join, leave, Add AI, begin,
rules, status, kick and cancel, each with its refusals, through the real bot."""

from __future__ import annotations

import asyncio

import pytest

from cogs.reply import Reply
from tests.e2e.test_table_play import click_ok, play_until_over


async def reply(world, user, command, **options):
    return await (await world.standin.slash(user, world.channel, command, **options)).reply()


async def press(world, user, message, label):
    """Press ``label`` on ``message``; returns the private answer, or None when it was silent."""
    interaction = await world.standin.click(user, message, message.button(label)["custom_id"])
    if await interaction.ack() == 6:  # accepted: the public message is updated instead
        return None
    return await interaction.reply()


def lobby(world):
    return world.public()[0]


async def lobby_shows(world, check, what):
    """Wait until the public lobby passes ``check`` (its edits follow the answers)."""
    await world.standin.world.wait_until(lambda: check(str(lobby(world).embed)), 3, f"the lobby never {what}")


async def test_lobby_buttons_and_commands_with_their_refusals(world):
    async with world.running_bot():
        # A table the variant cannot seat is refused with the reason, and opens nothing.
        refused = await reply(world, world.alice, "6nimmt start", variant="pro", ai_players=6)
        assert refused.ephemeral_to.id == world.alice.id
        assert "cannot be set up" in refused.content and "6 players" in refused.content
        assert world.public() == []
        nothing = await reply(world, world.bob, "6nimmt join")
        assert nothing.ephemeral and "/6nimmt start" in nothing.content

        await reply(world, world.alice, "6nimmt start", rounds=1)
        joined = await reply(world, world.bob, "6nimmt join")
        assert joined.ephemeral_to.id == world.bob.id and "joined" in joined.content
        # Bob joined right after the lobby appeared, before the bot knew its message id.
        bob = f"<@{world.bob.id}>"
        await lobby_shows(world, lambda embed: bob in embed, "showed bob")

        # Add AI: only players at the table may; the AI shows in the lobby.
        outsider = await press(world, world.carol, lobby(world), "Add AI")
        assert outsider is not None and "not at this table: press **Join**" in outsider.content
        assert await press(world, world.bob, lobby(world), "Add AI") is None
        await lobby_shows(world, lambda embed: "🤖" in embed, "showed the AI")

        # Only the host begins or cancels from the lobby.
        not_host = await reply(world, world.bob, "6nimmt begin")
        assert "Only the host" in not_host.content
        cancel = await press(world, world.bob, lobby(world), "Cancel")
        assert cancel is not None and "Only the host" in cancel.content

        # Leave from the lobby frees the seat.
        assert await press(world, world.bob, lobby(world), "Leave") is None
        await lobby_shows(world, lambda embed: bob not in embed, "let bob go")
        gone = await press(world, world.bob, lobby(world), "Leave")
        assert gone is not None and "not at this table" in gone.content

        rules = await reply(world, world.carol, "6nimmt rules")
        assert rules.ephemeral_to.id == world.carol.id and "classic rules" in rules.content
        assert "This table:" in rules.content and "1 round" in rules.content and "60s per turn" in rules.content

        began = await reply(world, world.alice, "6nimmt begin")
        assert began.ephemeral and "game is on" in began.content
        await world.settle()
        assert world.table_message() is not None
        world.standin.assert_no_errors()


async def test_status_kick_and_cancel_in_a_running_game(world):
    async with world.running_bot():
        opened = await reply(world, world.bob, "6nimmt start", rounds=1)
        await click_ok(world, world.alice, opened, opened.button("Join")["custom_id"])
        await click_ok(world, world.carol, opened, opened.button("Join")["custom_id"])
        await click_ok(world, world.bob, opened, opened.button("Start")["custom_id"])
        await world.settle()
        first = world.table_message()

        # /6nimmt status posts the table again at the bottom of the channel.
        await world.standin.say(world.carol, world.channel, "chatter pushes the table up")
        status = await reply(world, world.carol, "6nimmt status")
        assert status.ephemeral_to.id == world.carol.id
        again = await world.standin.world.wait_until(
            lambda: (
                world.public()[-1]
                if world.public()[-1].id != first.id and world.table_message() is world.public()[-1]
                else None
            ),
            3,
            "the table was not posted again",
        )
        assert again.button("Play a card") and again.attachments

        # /6nimmt hand opens the same private hand as the button; a pick from it counts.
        hand = await reply(world, world.alice, "6nimmt hand")
        assert hand.ephemeral_to.id == world.alice.id
        cards = [cid for cid in hand.custom_ids if cid.startswith("6n:p:")]
        assert len(cards) == 10
        picked = await (await world.standin.click(world.alice, hand, cards[0])).reply()
        assert "face down" in picked.content
        outsider = await reply(world, world.standin.add_member(world.guild, "dave"), "6nimmt hand")
        assert outsider.ephemeral and "not at this table" in outsider.content
        assert not any(cid.startswith("6n:p:") for m in world.public() for cid in m.custom_ids)

        # Kick: only the host, never themselves, only someone seated.
        assert "Only the host" in (await reply(world, world.alice, "6nimmt kick", member=world.carol)).content
        assert "cannot kick yourself" in (await reply(world, world.bob, "6nimmt kick", member=world.bob)).content
        kicked = await reply(world, world.bob, "6nimmt kick", member=world.carol)
        assert kicked.ephemeral_to.id == world.bob.id and "carol was removed" in kicked.content
        await world.settle()
        assert any("An AI plays their seat" in (m.content or "") + str(m.embed) for m in world.public())
        again = await reply(world, world.bob, "6nimmt kick", member=world.carol)
        assert "not playing at this table" in again.content
        # The kicked player's clicks are refused from now on, with the reason and no way back.
        table = world.table_message()
        refused = await (
            await world.standin.click(world.carol, table, table.button("Play a card")["custom_id"])
        ).reply()
        assert "the host removed you from this game" in refused.content and refused.custom_ids == []
        hand = await reply(world, world.carol, "6nimmt hand")
        assert "the host removed you" in hand.content and hand.custom_ids == []

        # Cancel: not by a plain player; by a member who can Manage Messages although not the host.
        carol_cancel = await reply(world, world.carol, "6nimmt cancel")
        assert "Only the host" in carol_cancel.content
        closed = await reply(world, world.alice, "6nimmt cancel")
        assert "closed" in closed.content
        await world.settle()
        assert "cancelled" in (world.public()[-1].content or "")
        # The table message is left as it was (the closing words supersede it); its button says so.
        last = next(m for m in reversed(world.public()) if m.custom_ids)
        over = await (await world.standin.click(world.bob, last, last.button("Play a card")["custom_id"])).reply()
        assert over.ephemeral_to.id == world.bob.id and "That table has ended" in over.content
        # The channel is free again.
        reopened = await reply(world, world.carol, "6nimmt start")
        assert "table open" in reopened.embed["title"]
        world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_rematch_seats_the_same_players_in_a_new_lobby(world):
    async with world.running_bot():
        opened = await reply(world, world.alice, "6nimmt start", rounds=1, ai_players=1)
        await click_ok(world, world.bob, opened, opened.button("Join")["custom_id"])
        await click_ok(world, world.alice, opened, opened.button("Start")["custom_id"])
        await play_until_over(world, [world.alice, world.bob], world.carol)
        await world.settle()
        final = world.public()[-1]
        rematch = final.button("Rematch")["custom_id"]

        # Only someone who played may ask for the rematch.
        outsider = await (await world.standin.click(world.carol, final, rematch)).reply()
        assert outsider.ephemeral_to.id == world.carol.id and "not at this table" in outsider.content

        new_lobby = await (await world.standin.click(world.bob, final, rematch)).reply()
        assert not new_lobby.ephemeral and "table open" in new_lobby.embed["title"]
        players = str(new_lobby.embed)
        assert f"<@{world.alice.id}>" in players and f"<@{world.bob.id}>" in players and "🤖" in players
        assert new_lobby.button("Start")

        # A second press finds the channel's new table instead of opening another.
        again = await (await world.standin.click(world.alice, final, rematch)).reply()
        assert again.ephemeral_to.id == world.alice.id and "already has a 6 nimmt! table" in again.content
        # The one who asked hosts it: only bob starts it.
        refused = await (
            await world.standin.click(world.alice, new_lobby, new_lobby.button("Start")["custom_id"])
        ).reply()
        assert "Only the host" in refused.content
        await click_ok(world, world.bob, new_lobby, new_lobby.button("Start")["custom_id"])
        await world.settle()
        assert world.table_message() is not None and world.table_message().id != final.id
        world.standin.assert_no_errors()


async def test_a_table_whose_picture_cannot_be_drawn_is_posted_without_it(world):
    async with world.running_bot():
        presenter = world.bot.get_cog("Tables").presenter

        async def broken(*args):
            raise RuntimeError("the renderer is gone")

        presenter.pictures.pool.run = broken
        opened = await reply(world, world.alice, "6nimmt start", rounds=1)
        await click_ok(world, world.bob, opened, opened.button("Join")["custom_id"])
        await click_ok(world, world.alice, opened, opened.button("Start")["custom_id"])
        await world.settle()
        table = world.table_message()
        assert table is not None and table.button("Play a card") and not table.attachments
        assert "Row 1 ·" in table.embed["description"] and "image" not in table.embed
        # Alice's pick is told to her alone, with who is still to pick; the table message stays as
        # posted, pointing at no picture.
        hand = await (await world.standin.click(world.alice, table, table.button("Play a card")["custom_id"])).reply()
        card = next(cid for cid in hand.custom_ids if cid.startswith("6n:p:"))
        picked = await (await world.standin.click(world.alice, hand, card)).reply()
        assert "face down" in picked.content and f"Still to pick: <@{world.bob.id}>" in picked.content
        await world.settle()
        shown = world.standin.message(table.id)
        assert shown.button("Play a card") and shown.embed == table.embed and "image" not in shown.embed
        world.standin.assert_no_errors()


def table_messages(world):
    """Public messages that show the game (the lobby has lobby buttons, or none once it closed)."""
    return [m for m in world.public() if m.embed and "turn" in m.embed.get("title", "")]


async def test_a_lobby_change_shown_after_the_start_does_not_post_a_second_table(world):
    """Join and Start in quick succession while the presenter lags behind: the join's lobby
    update is shown after the game began, and must not post a table message of its own."""
    async with world.running_bot():
        presenter = world.bot.get_cog("Tables").presenter
        opened = await reply(world, world.alice, "6nimmt start", rounds=1)
        await world.settle()
        gate = asyncio.Event()
        deliver, edit_live = presenter.outbox.deliver, presenter.live.edit

        async def lagging_deliver(*args, **kwargs):
            await gate.wait()
            await deliver(*args, **kwargs)

        async def lagging_edit(*args, **kwargs):
            await gate.wait()
            await edit_live(*args, **kwargs)

        presenter.outbox.deliver, presenter.live.edit = lagging_deliver, lagging_edit
        await click_ok(world, world.bob, opened, opened.button("Join")["custom_id"])
        await click_ok(world, world.alice, opened, opened.button("Start")["custom_id"])
        gate.set()
        await world.settle()
        shown = table_messages(world)
        assert len(shown) == 1, [m.embed["title"] for m in shown]
        assert shown[0].button("Play a card") and world.standin.message(opened.id).custom_ids == []
        world.standin.assert_no_errors()


async def start_with_a_late_lobby_id(world, *clicks):
    """``/6nimmt start``, then ``clicks`` ((user, label) on the lobby) before the bot learns the
    lobby message's id, as when Discord is slow to answer; returns the start and the lobby."""
    gate = asyncio.Event()
    send = Reply.send

    async def late(self, *args, **kwargs):  # Discord shows the lobby at once, and answers late
        message_id = await send(self, *args, **kwargs)
        if kwargs.get("ephemeral") is False:
            await gate.wait()
        return message_id

    Reply.send = late
    try:
        start = await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1)
        opened = await start.reply()
        for user, label in clicks:
            await click_ok(world, user, opened, opened.button(label)["custom_id"])
    finally:
        Reply.send = send
    gate.set()
    await world.standin.world.wait_until(
        lambda: not world.standin.message(opened.id).custom_ids, 3, "the lobby kept its buttons"
    )
    await world.settle()
    return start, opened


async def test_a_lobby_whose_id_arrives_after_the_start_loses_its_buttons(world):
    """Discord may answer the start command after the host already pressed Start: the lobby
    message is then not the table's message, and its buttons are taken away."""
    async with world.running_bot():
        start, opened = await start_with_a_late_lobby_id(world, (world.bob, "Join"), (world.alice, "Start"))
        table = world.table_message()
        assert table is not None and world.bot.service.table_in(world.channel.id).message_id == table.id
        assert "the game has started" in world.standin.message(opened.id).embed["title"]
        world.standin.assert_no_errors()


async def test_a_lobby_cancelled_before_its_id_arrives_loses_its_buttons(world):
    async with world.running_bot():
        start, opened = await start_with_a_late_lobby_id(world, (world.alice, "Cancel"))
        assert start.followups == []  # the host is not told that something went wrong
        assert world.bot.service.table_in(world.channel.id) is None
        world.standin.assert_no_errors()
