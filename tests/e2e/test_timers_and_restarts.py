"""Timers, AI take-over, lobby expiry, the Pro draft and a restart, through the real bot."""

from __future__ import annotations

from tests.e2e.test_table_play import click_ok, open_table


async def start_game(world, **options):
    lobby = await open_table(world, **options)
    await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    return world.table_message()


async def pick_first_card(world, user, table):
    hand = await (await world.standin.click(user, table, table.button("Play a card")["custom_id"])).reply()
    card_id = next(cid for cid in hand.custom_ids if cid.startswith("6n:p:"))
    await (await world.standin.click(user, hand, card_id)).reply()
    return int(card_id.rsplit(":", 1)[1])


async def run_out_the_clock(world, seconds):
    world.clock.advance(seconds)
    world.bot.service.scheduler.wake()
    for _ in range(50):  # the timer fires in a task of its own
        await world.settle()
        table = world.bot.service.table_in(world.channel.id)
        if table is None or table.deadline is None or table.deadline > world.clock():
            break
        import asyncio

        await asyncio.sleep(0.01)
    await world.settle()


async def test_an_absent_player_is_played_for_then_replaced(world):
    async with world.running_bot():
        table_message = await start_game(world, rounds=1, timer=30)
        service = world.bot.service
        table = service.table_in(world.channel.id)
        bob_seat = table.seat_of(world.bob.id)

        for turn in (1, 2):
            await pick_first_card(world, world.alice, world.table_message())
            await run_out_the_clock(world, 31)
            if table.game.phase.value == "choose_row":  # a low card: let its timer run out too
                await run_out_the_clock(world, 31)
        assert table.seats[bob_seat].is_ai, "two missed turns in a row and an AI takes over"
        news = "".join(str(m.embeds) + (m.content or "") for m in world.public())
        assert "missed two turns in a row" in news
        # Bob is told so, and his old buttons no longer act for him.
        refused = await (await world.standin.click(world.bob, world.table_message(),
                                                   world.table_message().custom_ids[0])).reply()
        assert "not at this table" in refused.content or "nothing to pick" in refused.content
        world.standin.assert_no_errors()


async def test_a_lobby_nobody_starts_expires_and_frees_the_channel(world):
    async with world.running_bot():
        await open_table(world)
        await run_out_the_clock(world, 31 * 60)
        assert world.bot.service.table_in(world.channel.id) is None
        assert any("lobby closed" in (m.content or "") for m in world.public())
        await open_table(world)  # the channel is free again


async def test_the_pro_draft_is_played_with_selects(world):
    async with world.running_bot():
        await start_game(world, variant="pro", rounds=1)
        table = world.bot.service.table_in(world.channel.id)
        users = {table.seat_of(u.id): u for u in (world.alice, world.bob)}
        for _ in range(20):
            await world.settle()
            message = world.table_message()
            if table.game.phase.value != "draft":
                break
            drafter = users[table.game.drafter]
            other = users[1 - table.game.drafter]
            select = message.selects[0]
            value = select["options"][0]["value"]
            if _ == 0:  # out of turn: refused, nothing changes
                refused = await (await world.standin.select(other, message, select["custom_id"], [value])).reply()
                assert "not your turn" in refused.content
            await (await world.standin.select(drafter, message, select["custom_id"], [value])).ack()
        assert table.game.phase.value == "pick"
        assert all(len(h) == 10 for h in table.game.hands) and len(table.game.rows) == 4
        world.standin.assert_no_errors()


async def test_a_restart_loses_no_pick_and_old_buttons_still_work(world):
    async with world.running_bot():
        table_message = await start_game(world, rounds=1)
        alice_card = await pick_first_card(world, world.alice, table_message)
        await world.settle()
    # A new process: the same database, the same Discord; the old message's button works.
    async with world.running_bot():
        await world.settle()
        table = world.bot.service.table_in(world.channel.id)
        assert table is not None and table.game.picks[table.seat_of(world.alice.id)] == alice_card
        await pick_first_card(world, world.bob, table_message)
        await world.settle()
        reveal = world.public()[-1].content or ""
        assert f"**{alice_card}** alice" in reveal
        world.standin.assert_no_errors()
