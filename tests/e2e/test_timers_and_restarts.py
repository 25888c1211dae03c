"""Timers, AI take-over, lobby expiry, the Pro draft and a restart, through the real bot."""

from __future__ import annotations

import asyncio

from tests.e2e.driver import lowest, open_hand, play_card
from tests.e2e.test_table_play import click_ok, open_table


async def start_game(world, **options):
    lobby = await open_table(world, **options)
    await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    return world.table_message()


async def pick_first_card(world, user, table):
    """``user`` plays the first (lowest) card of their hand, opened from ``table``: that card."""
    hand = await open_hand(world.standin, user, table)
    await play_card(world.standin, hand, lowest(hand))
    return lowest(hand)


async def run_out_the_clock(world, seconds):
    """Move the bot's clock on and wait until the timer's work is done and shown."""
    service = world.bot.service
    table = service.table_in(world.channel.id)
    step = table.step
    world.clock.advance(seconds)
    service.scheduler.wake()
    for _ in range(300):  # the timer fires in a task of its own
        if not table.is_open or table.step != step:
            break
        await asyncio.sleep(0.01)
    async with table.lock:  # held until the service has saved and told the presenter
        pass
    await world.settle()


async def play_without(world, absent, present, moves=12):
    """``present`` play (their lowest card, the first row when the low card is theirs) and ``absent``
    never acts: whenever the table waits on someone else, the clock runs out. Until the channel
    says ``absent`` missed two turns in a row (an AI took the seat over): the live table then."""
    taken_over = f"<@{absent.id}> missed two turns in a row"

    def replaced(table):
        return any(taken_over in str(m.embeds) + (m.content or "") for m in world.public())

    async def clock_runs_out(table):
        await run_out_the_clock(world, 31)

    return await world.play(present, until=replaced, stalled=clock_runs_out, moves=moves)


async def test_an_absent_player_is_played_for_then_replaced(world):
    async with world.running_bot():
        await start_game(world, rounds=1, timer=30)
        table = world.bot.service.table_in(world.channel.id)
        alice_seat, bob_seat = table.seat_of(world.alice.id), table.seat_of(world.bob.id)
        await play_without(world, world.bob, [world.alice])
        assert table.seats[bob_seat].is_ai, "bob should be replaced after two missed turns"
        assert not table.seats[alice_seat].is_ai, "alice played every turn herself"
        news = "".join(str(m.embeds) + (m.content or "") for m in world.public())
        assert f"<@{world.bob.id}> missed two turns in a row" in news
        # Bob's old buttons no longer act for him: an AI has his seat, and he is told why.
        message = world.table_message()
        refused = await (await world.standin.click(world.bob, message, message.custom_ids[0])).reply()
        assert "missed two turns in a row" in refused.content and refused.button("Take my seat back")
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
        draft_message = world.table_message()
        assert "Still to draft" in draft_message.embed["description"]
        taken = []
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
            taken.append((drafter, int(value)))
            await world.settle()
            if table.game.phase.value == "draft":  # the one draft message, edited: it names the card taken
                assert world.table_message().id == draft_message.id
                log = next(
                    f["value"]
                    for f in world.standin.message(draft_message.id).embed["fields"]
                    if f["name"] == "Draft so far"
                )
                assert log.endswith(f"{drafter.name} {value}")
        assert table.game.phase.value == "pick"
        assert all(len(h) == 10 for h in table.game.hands) and len(table.game.rows) == 4
        # One public message for the whole draft, then the table for the first turn.
        public = world.public()
        assert [m.id for m in public][1:] == [draft_message.id, world.table_message().id]
        log = next(
            f["value"] for f in world.standin.message(draft_message.id).embed["fields"] if f["name"] == "Draft so far"
        )
        named = log.split(" · ") + [f"{taken[-1][0].name} {taken[-1][1]}"]
        assert named == [f"{user.name} {card}" for user, card in taken]
        assert f"{taken[-1][0].name} drafts **{taken[-1][1]}**" in world.table_message().content
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
