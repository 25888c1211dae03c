"""Who has picked and who is still thinking, on the public table during a turn (✅ / ⏳).

Everyone picks at once, so the table answers "who are we waiting for?": each pick is edited into
the live table message, several picks close together as one edit. A table message that a click's
follow-up created (every turn's but a thread's first) is edited through that click's webhook,
which costs the bot token nothing; the thread's first one with the bot's token, as cosmetic work.
"""

from __future__ import annotations

import asyncio

from tests.e2e.driver import ROW_BUTTON, choose_row, offers
from tests.e2e.test_click_carries import pick
from tests.e2e.test_request_budget import bot_token_requests
from tests.e2e.test_table_play import click_ok, open_table
from tests.e2e.test_threads import start_in_thread

#: The players' lines of a table message: "✅ @alice — **0**🐮".
PLAYERS = "Players (points)"


def marks(message) -> dict[str, str]:
    """Each player's mark on a table message as players see it, by the player's mention: "✅"
    picked, "⏳" thinking."""
    field = next(f for f in message.embed["fields"] if f["name"] == PLAYERS)
    found = {}
    for line in field["value"].splitlines():
        mark, name = line.split(" ", 1)
        found[name.split(" — ", 1)[0]] = mark
    return found


def seen(world, alice: str, bob: str, carol: str) -> dict[str, str]:
    return {world.alice.mention: alice, world.bob.mention: bob, world.carol.mention: carol}


async def shows(world, message, expected: dict[str, str]):
    """Wait until ``message`` (as the channel shows it now) has ``expected`` marks."""
    return await world.standin.world.wait_until(
        lambda: world.standin.message(message.id) if marks(world.standin.message(message.id)) == expected else None,
        3,
        f"the table never showed {expected}",
    )


async def next_turn(world, channel=None):
    """The turn's last pick is in: choose a row if a card was lower than every row (its chooser takes
    the first offered), until the next turn's table message asks everyone to pick."""
    while (message := world.table_message(channel)) is not None and offers(message, ROW_BUTTON):
        assert await choose_row(world.standin, [world.alice, world.bob, world.carol], message), "nobody chose"
        await world.settle()
    return world.table_message(channel)


async def three_at_a_table(world, channel=None, thread=None):
    """alice, bob and carol at a one-round table, started: the live table message."""
    if thread is None:
        lobby = await open_table(world, rounds=1)
    else:
        lobby = thread
    for user in (world.bob, world.carol):
        await click_ok(world, user, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    return world.table_message(channel)


async def test_each_pick_shows_on_the_table_through_the_follow_up_it_is(world):
    async with world.running_bot():
        table = await three_at_a_table(world)
        assert marks(table) == seen(world, "⏳", "⏳", "⏳")
        assert table.interaction_id is not None, "the Start click carried the game's first table"
        first = len(world.standin.requests)
        await pick(world, world.alice, table)
        await shows(world, table, seen(world, "✅", "⏳", "⏳"))
        await pick(world, world.bob, table)
        await shows(world, table, seen(world, "✅", "✅", "⏳"))
        assert bot_token_requests(world, first) == [], "the edits went through the Start click's webhook"
        await pick(world, world.carol, table)
        await world.settle()
        turn_two = await next_turn(world)
        assert turn_two.id != table.id, "the turn was revealed in a new table message"
        assert marks(turn_two) == seen(world, "⏳", "⏳", "⏳"), "a new turn: everyone thinks"
        assert marks(world.standin.message(table.id)) == seen(world, "✅", "✅", "⏳"), (
            "a superseded table is never edited again"
        )
        first = len(world.standin.requests)
        await pick(world, world.carol, turn_two)
        await shows(world, turn_two, seen(world, "⏳", "⏳", "✅"))
        assert bot_token_requests(world, first) == [], "carol's last click carried the message and its edits"
        world.standin.assert_no_errors()


async def test_in_a_thread_the_first_table_is_edited_with_the_bots_token_and_the_rest_for_free(world):
    world.threads = True
    async with world.running_bot():
        lobby, thread = await start_in_thread(world, world.alice, rounds=1)
        table = await three_at_a_table(world, channel=thread, thread=lobby)
        assert table.channel is thread and table.interaction_id is None, "the bot posted the thread's first"
        first = len(world.standin.requests)
        await pick(world, world.alice, table)
        await shows(world, table, seen(world, "✅", "⏳", "⏳"))
        edits = [r for r in bot_token_requests(world, first) if r.method == "PATCH"]
        assert [r.path.rsplit("/", 1)[-1] for r in edits] == [str(table.id)], "one edit, of the table message"
        await pick(world, world.bob, table)
        await pick(world, world.carol, table)
        await world.settle()
        turn_two = await next_turn(world, thread)
        first = len(world.standin.requests)
        for user in (world.alice, world.bob):
            await pick(world, user, turn_two)
        await shows(world, turn_two, seen(world, "✅", "✅", "⏳"))
        assert bot_token_requests(world, first) == [], "the reveal's follow-up carries its own edits"
        world.standin.assert_no_errors()


async def test_picks_close_together_make_one_edit(world):
    """Edits of one table message wait ``edit_interval`` for each other, so picks inside it are drawn
    in one edit; a post (the turn's reveal) does not wait. The interval is long here, so the test
    needs no timing."""
    async with world.running_bot():
        table = await three_at_a_table(world)
        world.bot.get_cog("Tables").presenter.live.edit_interval = 3600
        await pick(world, world.alice, table)
        await shows(world, table, seen(world, "✅", "⏳", "⏳"))
        edits = len(world.standin.message(table.id).history)
        await pick(world, world.bob, table)  # committed and answered: its edit waits for the interval
        assert len(world.standin.message(table.id).history) == edits, "bob's pick waits for the interval"
        await pick(world, world.carol, table)  # completes the turn: its reveal goes first, drawn anew
        await world.settle()
        assert marks(await next_turn(world)) == seen(world, "⏳", "⏳", "⏳")
        world.standin.assert_no_errors()


async def test_a_pick_the_stop_left_unshown_is_shown_after_the_restart(world):
    """bob's pick is committed, but the process stops before its edit: the next start finds a turn
    with picks its table message may not show, and draws it again."""
    async with world.running_bot():
        table = await three_at_a_table(world)
        await pick(world, world.alice, table)
        await shows(world, table, seen(world, "✅", "⏳", "⏳"))
        presenter = world.bot.get_cog("Tables").presenter
        edit, hung = presenter.live.edit_message, asyncio.Event()

        async def hanging_edit(*args, **kwargs):  # Discord hangs: the stop cannot wait for the edit
            await hung.wait()
            return await edit(*args, **kwargs)

        presenter.live.edit_message = hanging_edit
        presenter.drain_seconds = 0.2
        await pick(world, world.bob, table)
    assert marks(world.standin.message(table.id)) == seen(world, "✅", "⏳", "⏳"), "the stop came first"
    async with world.running_bot():
        await world.settle()
        await shows(world, table, seen(world, "✅", "✅", "⏳"))
        await pick(world, world.carol, table)
        await world.settle()
        assert marks(await next_turn(world)) == seen(world, "⏳", "⏳", "⏳")
        world.standin.assert_no_errors()
