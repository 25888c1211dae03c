"""Games where the bot is not a member: a group DM, and a server that never added it.

The app is installed to a player's own account there, so only interactions reach the channel:
every public message is an answer or a follow-up of a player's click, every edit goes through the
webhook of the interaction that made the message, and the bot's token never addresses the place.
"""

from __future__ import annotations

from tests.e2e.driver import ROW_BUTTON, is_standings, live_table, offers
from tests.e2e.test_request_budget import bot_token_requests


def requests_to(world, channel) -> list:
    """The bot-token requests that addressed ``channel`` (or messages in it)."""
    return [r for r in bot_token_requests(world) if str(channel.id) in r.path]


def group(world):
    """alice, bob and carol's group DM; alice installed the app to her account."""
    world.standin.user_install(world.alice)
    return world.standin.group_dm(world.alice, world.bob, world.carol, name="friends")


async def open_in(world, user, channel, **options):
    """``user`` opens a table in ``channel``: the lobby, which is the command's answer."""
    lobby = await (await world.standin.slash(user, channel, "6nimmt start", **options)).reply()
    assert "table open" in lobby.embed["title"], lobby.content
    assert not lobby.ephemeral_to, "the lobby is public"
    return lobby


async def gather(world, lobby, joiners, starter):
    """``joiners`` join ``lobby`` and ``starter`` starts the game: the first table message."""
    for user in joiners:
        await (await world.standin.click(user, lobby, lobby.button("Join")["custom_id"])).ack()
    await world.settle()
    await (await world.standin.click(starter, lobby, lobby.button("Start")["custom_id"])).ack()
    await world.settle()
    return live_table(world.standin, lobby.channel)


async def test_a_whole_game_in_a_group_dm_with_a_row_choice_the_standings_and_a_rematch(world):
    dm = group(world)
    players = [world.alice, world.bob, world.carol]
    async with world.running_bot():
        lobby = await open_in(world, world.alice, dm, rounds=1, ai_players=1, ai_level="easy")
        table = await gather(world, lobby, [world.bob, world.carol], world.alice)
        assert table is not None and table.channel is dm, "the game plays in the group DM itself"
        assert table.interaction_id is not None, "the Start click carried the first table"
        chose = []

        async def before(table):
            if offers(table, ROW_BUTTON):
                chose.append(table.id)

        # Everyone plays their lowest card: a card lower than every row comes soon, and a row is chosen.
        standings = await world.play(players, channel=dm, before=before)
        assert chose, "a row was chosen"
        assert is_standings(standings) and "Game over" in standings.content
        assert standings.interaction_id is not None, "a click carried the standings"
        rematch = standings.button("Rematch")
        assert rematch is not None
        again = await (await world.standin.click(world.bob, standings, rematch["custom_id"])).reply()
        await world.settle()
        assert "table open" in again.embed["title"] and again.channel is dm
        assert requests_to(world, dm) == [], "the bot's token never addressed the group DM"
        world.standin.assert_no_errors()
