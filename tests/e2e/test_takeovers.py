"""Every way a seat passes to an AI, played through the real bot to the final standings.

A game whose seat an AI took over once could never end (its results were refused):
each path here plays on to the standings, checks they are shown once, recorded once,
counted for the player who sat there, and visible on /leaderboard and /6nimmt stats.
"""

from __future__ import annotations

import sqlite3

import pytest

from tests.e2e.test_table_play import click_ok, open_table
from tests.e2e.test_timers_and_restarts import pick_first_card, play_without


async def start_three(world):
    """alice (host), bob and carol at a one-round table."""
    lobby = await open_table(world, rounds=1, timer=30)
    for user in (world.bob, world.carol):
        await click_ok(world, user, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    return world.bot.service.table_in(world.channel.id)


async def assert_recorded_for(world, table_id, taken_over, *, name):
    final = [m for m in world.public() if "Game over" in (m.content or "")]
    assert len(final) == 1 and final[0].button("Rematch"), "the standings are shown once"
    assert name in final[0].content
    db = sqlite3.connect(world.tmp_path / "bot.sqlite3")
    rows = db.execute("SELECT user_id, ai_level FROM results WHERE game_id = ?", (table_id,)).fetchall()
    assert len(rows) == 3 and (taken_over.id, "medium") in rows, rows
    assert db.execute("SELECT status FROM games WHERE game_id = ?", (table_id,)).fetchone() == ("finished",)
    board = await (await world.standin.slash(world.alice, world.channel, "leaderboard", metric="games")).reply()
    assert name in str(board.embed), "the game counts for the player who sat there"
    stats = await (await world.standin.slash(taken_over, world.channel, "6nimmt stats")).reply()
    games = next(f["value"] for f in stats.embed["fields"] if f["name"] == "Games")
    assert games == "1 (1 finished by an AI)"
    world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_two_missed_turns_then_the_game_ends(world):
    async with world.running_bot():
        table = await start_three(world)
        bob = table.seat_of(world.bob.id)
        await play_without(world, world.bob, [world.alice, world.carol])
        assert table.seats[bob].is_ai
        news = "".join(str(m.embeds) + (m.content or "") for m in world.public())
        assert f"<@{world.bob.id}> missed a turn, so the bot played for them. 1 more in a row" in news
        assert f"<@{world.bob.id}> missed two turns in a row" in news
        await world.play([world.alice, world.carol])
        await assert_recorded_for(world, table.id, world.bob, name="bob")


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_player_who_leaves_mid_game_still_gets_the_result(world):
    async with world.running_bot():
        table = await start_three(world)
        message = world.table_message()
        await pick_first_card(world, world.alice, message)
        left = await (await world.standin.slash(world.carol, world.channel, "6nimmt leave")).reply()
        assert "left" in left.content
        await world.play([world.alice, world.bob])
        await assert_recorded_for(world, table.id, world.carol, name="carol")


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_kicked_player_is_finished_by_an_ai(world):
    async with world.running_bot():
        table = await start_three(world)
        kicked = await (await world.standin.slash(world.alice, world.channel, "6nimmt kick", member=world.bob)).reply()
        assert kicked.ephemeral
        await world.settle()
        assert "removed by the host" in str(world.table_message().embed)
        await world.play([world.alice, world.carol])
        await assert_recorded_for(world, table.id, world.bob, name="bob")
