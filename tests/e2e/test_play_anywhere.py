"""Games where the bot is not a member: a group DM, and a server that never added it.

The app is installed to a player's own account there, so only interactions reach the channel:
every public message is an answer or a follow-up of a player's click, every edit goes through the
webhook of the interaction that made the message, and the bot's token never addresses the place.
"""

from __future__ import annotations

import discord

from bot.sync import sync_commands
from cogs.i18n import tr
from tests.e2e.driver import HAND_BUTTON, ROW_BUTTON, is_standings, live_table, lowest, offers, open_hand, play_card
from tests.e2e.test_pick_progress import marks
from tests.e2e.test_request_budget import bot_token_requests

#: A lobby's title.
OPEN = "6 nimmt! — table open"


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


async def alice_picked(world, dm):
    """alice, bob and an easy AI at a one-round table in the group DM, and alice has picked: the
    table message, and her click on the card."""
    lobby = await open_in(world, world.alice, dm, rounds=1, ai_players=1, ai_level="easy")
    table = await gather(world, lobby, [world.bob], world.alice)
    hand = await open_hand(world.standin, world.alice, table)
    click = await play_card(world.standin, hand, lowest(hand))
    await world.settle()
    return table, click


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


def elsewhere(world, deny: discord.Permissions | None = None):
    """A server that never added the bot, with a lounge (where @everyone is denied ``deny``); alice,
    bob and carol are members there, and alice installed the app to her account."""
    world.standin.user_install(world.alice)
    guild = world.standin.foreign_guild("Elsewhere")
    lounge = world.standin.add_text_channel(guild, "lounge")
    if deny is not None:
        lounge.everyone_deny |= deny.value
    members = [world.standin.add_member(guild, user.user) for user in (world.alice, world.bob, world.carol)]
    return guild, lounge, members


async def test_a_whole_game_in_a_server_that_never_added_the_bot(world):
    guild, lounge, (alice, bob, carol) = elsewhere(world)
    async with world.running_bot():
        lobby = await open_in(world, alice, lounge, rounds=1)
        table = await gather(world, lobby, [bob, carol], alice)
        assert table is not None and table.channel is lounge and table.interaction_id is not None
        standings = await world.play([alice, bob, carol], channel=lounge)
        assert is_standings(standings) and standings.interaction_id is not None
        await world.settle()
        board = await (await world.standin.slash(alice, lounge, "leaderboard")).reply()  # the server's own board
        assert all(name in board.embed["description"] for name in ("alice", "bob", "carol"))
        assert requests_to(world, lounge) == [] and requests_to(world, guild) == []
        world.standin.assert_no_errors()


async def test_a_turn_its_timer_resolved_is_shown_through_the_newest_click(world):
    dm = group(world)
    async with world.running_bot():
        table, alices = await alice_picked(world, dm)
        assert marks(live_table(world.standin, dm))[world.alice.mention] == "✅", "her pick shows at once"
        # bob never picks: the turn's timer plays for him, and alice's click carries the reveal.
        await run_out_the_clock(world, dm, 61)
        reveal = live_table(world.standin, dm)
        assert reveal.id != table.id and "🃏 Revealed" in reveal.content
        assert reveal.interaction_id == alices.id
        assert requests_to(world, dm) == []
        world.standin.assert_no_errors()


async def test_everybody_away_for_over_15_minutes_the_game_waits_then_finishes(world):
    dm = group(world)
    async with world.running_bot():
        lobby = await open_in(world, world.alice, dm, rounds=1)
        table = await gather(world, lobby, [world.bob], world.alice)
        for user in (world.alice, world.bob):
            hand = await open_hand(world.standin, user, table)
            await play_card(world.standin, hand, lowest(hand))
        await world.settle()
        while offers(live_table(world.standin, dm), ROW_BUTTON):  # a row to choose first, if a card was low
            await world.play([world.alice, world.bob], channel=dm, until=lambda t: not offers(t, ROW_BUTTON))
        table = live_table(world.standin, dm)
        shown = len(world.standin.channel_messages(dm))
        # Everyone goes away: every token runs out, and the turn's timer with them.
        world.standin.advance_time(16 * 60)
        await run_out_the_clock(world, dm, 16 * 60)
        assert len(world.standin.channel_messages(dm)) == shown, "nothing could be shown, and nothing was lost"
        # An hour later still nobody: the game waited, its clock stopped (no seat went to the AI).
        await run_out_the_clock(world, dm, 3600, moves=False)
        assert len(world.standin.channel_messages(dm)) == shown
        # bob is back: his click on the table he last saw carries the game on.
        back = await world.standin.click(
            world.bob, table, next(c for c in table.custom_ids if c.startswith(HAND_BUTTON))
        )
        await back.reply()
        await world.settle()
        now = live_table(world.standin, dm)
        assert now.id != table.id and now.interaction_id == back.id, "bob's click showed the turn the timer played"
        assert "missed two turns" not in str([m.content for m in world.standin.channel_messages(dm)])
        standings = await world.play([world.alice, world.bob], channel=dm)
        assert is_standings(standings)
        assert requests_to(world, dm) == []


async def test_stats_and_the_leaderboard_in_a_group_dm(world):
    dm = group(world)
    async with world.running_bot():
        lobby = await open_in(world, world.alice, dm, rounds=1)
        await gather(world, lobby, [world.bob, world.carol], world.alice)
        games = await (await world.standin.slash(world.alice, dm, "6nimmt games")).reply()
        assert games.content.startswith("Your open games here:") and lobby.channel.id == dm.id
        await world.play([world.alice, world.bob, world.carol], channel=dm)
        await world.settle()
        # Only alice installed the app: the commands are hers to use here.
        stats = await (await world.standin.slash(world.alice, dm, "6nimmt stats")).reply()
        games = next(f for f in stats.embed["fields"] if f["name"] == "Games")
        assert games["value"].startswith("1"), stats.embed
        board = await (await world.standin.slash(world.alice, dm, "leaderboard")).reply()
        names = board.embed["description"]
        assert all(name in names for name in ("alice", "bob", "carol")), names
        everywhere = await (await world.standin.slash(world.alice, dm, "leaderboard", scope="global")).reply()
        assert "bob" in everywhere.embed["description"]
        # The group's board is its own: the server's does not list its games.
        server = await (await world.standin.slash(world.carol, world.channel, "leaderboard")).reply()
        assert "bob" not in (server.embed.get("description") or "")
        assert requests_to(world, dm) == []


async def test_a_server_with_use_external_apps_off_is_told_and_nothing_opens(world):
    guild, lounge, (alice, bob, carol) = elsewhere(world)
    world.standin.set_use_external_apps(guild, False)
    async with world.running_bot():
        answer = await (await world.standin.slash(alice, lounge, "6nimmt start")).reply()
        assert answer.ephemeral_to is not None and "Use External Apps" in answer.content
        status = await (await world.standin.slash(alice, lounge, "6nimmt status")).reply()
        assert "There is no open 6 nimmt! table here" in status.content
        assert world.standin.channel_messages(lounge) == []
        assert requests_to(world, lounge) == []


async def test_a_turn_based_game_is_refused_where_only_clicks_show_it(world):
    dm = group(world)
    async with world.running_bot():
        answer = await (await world.standin.slash(world.alice, dm, "6nimmt start", pace="8h")).reply()
        assert answer.ephemeral_to is not None and "Turn-based games need the bot in the server" in answer.content
        assert world.standin.channel_messages(dm) == []


async def run_out_the_clock(world, channel, seconds, moves=True):
    """Move the bot's clock on by ``seconds`` and let its timers do their work (``moves``: the table
    is expected to move on), then wait until the presenter has shown all it can."""
    service = world.bot.service
    table = service.table_in(channel.id)
    world.clock.advance(seconds)
    if table is None:  # the game is over: nothing is timed any more
        await world.settle()
        return
    step = table.step
    service.scheduler.wake()
    if moves:
        await world.standin.world.wait_until(
            lambda: not table.is_open or table.step != step, 3, "the timer never fired"
        )

    def due_done() -> bool:  # nothing left due now: the timer has done its work
        wakes = service.wakes_at(table.id)
        return not table.is_open or wakes is None or wakes > world.clock()

    await world.standin.world.wait_until(due_done, 3, "the timer never fired")
    async with table.lock:  # held until the service has saved and told the presenter
        pass
    await world.settle()


async def test_a_click_carries_at_most_five_follow_ups_then_the_table_waits_for_the_next(world):
    """An app installed only to the user who clicked may send five follow-ups of an interaction. In a
    game one click rarely carries more than a turn's news before the next click comes, so the
    presenter is asked here for the table again and again (as ``/6nimmt status`` asks it) while
    alice's pick is the newest click: it carries five, never a sixth; her next command carries on."""
    dm = group(world)
    async with world.running_bot():
        _, last = await alice_picked(world, dm)
        presenter = world.bot.get_cog("Tables").presenter
        for _ in range(7):
            presenter.repost(world.bot.service.table_in(dm.id).last_commit())
            await world.settle()
        carried = [m for m in world.standin.channel_messages(dm) if m.interaction_id == last.id]
        assert len(carried) == 5, "five follow-ups, and no sixth tried"
        world.standin.assert_no_errors()
        back = await world.standin.slash(world.alice, dm, "6nimmt status")
        await back.reply()
        await world.settle()
        assert live_table(world.standin, dm).interaction_id == back.id, "her command carried the table on"
        standings = await world.play([world.alice, world.bob], channel=dm)
        assert is_standings(standings)
        assert requests_to(world, dm) == []
        world.standin.assert_no_errors()


async def test_a_player_who_joins_by_command_shows_on_the_lobby(world):
    dm = group(world)
    world.standin.user_install(world.bob)
    async with world.running_bot():
        lobby = await open_in(world, world.alice, dm, rounds=1)
        answer = await (await world.standin.slash(world.bob, dm, "6nimmt join")).reply()
        assert answer.ephemeral_to is not None
        await world.settle()
        shown = world.standin.message(lobby.id)
        players = next(f for f in shown.embed["fields"] if f["name"].startswith("Players"))
        assert players["name"] == "Players (2/10)" and world.bob.mention in players["value"], (
            "edited through its opener"
        )
        assert [m.id for m in world.standin.channel_messages(dm)] == [lobby.id], "no second lobby"
        assert requests_to(world, dm) == []
        world.standin.assert_no_errors()


async def test_where_apps_may_not_attach_files_the_table_shows_without_its_picture(world):
    _, lounge, (alice, bob, _) = elsewhere(world, deny=discord.Permissions(attach_files=True))
    async with world.running_bot():
        lobby = await open_in(world, alice, lounge, rounds=1)
        table = await gather(world, lobby, [bob], alice)
        assert table is not None and not table.attachments and "image" not in table.embed
        assert requests_to(world, lounge) == []
        world.standin.assert_no_errors()


async def test_where_apps_may_not_show_embeds_nothing_opens_and_the_player_is_told(world):
    _, lounge, (alice, _, _) = elsewhere(world, deny=discord.Permissions(embed_links=True))
    async with world.running_bot():
        answer = await (await world.standin.slash(alice, lounge, "6nimmt start")).reply()
        assert answer.ephemeral_to is not None and "may not show embeds" in answer.content
        assert world.standin.channel_messages(lounge) == []


async def test_public_messages_speak_the_server_s_language_there_and_the_starter_s_in_a_group_dm(world):
    world.standin.user_install(world.alice)
    german = world.standin.foreign_guild("Anderswo", locale="de")
    stube = world.standin.add_text_channel(german, "stube")
    alice = world.standin.add_member(german, world.alice.user)
    jonas = world.standin.world.add_user("jonas", locale="fr")
    world.standin.user_install(jonas)
    dm = world.standin.group_dm(jonas, world.alice.user)
    async with world.running_bot():
        there = await (await world.standin.slash(alice, stube, "6nimmt start")).reply()
        assert there.embed["title"] == tr("de", OPEN) != OPEN, "the server's language, not alice's English"
        here = await (await world.standin.slash(jonas, dm, "6nimmt start")).reply()
        assert here.embed["title"] == tr("fr", OPEN) != OPEN, "jonas's French: a group DM has no server"
        world.standin.assert_no_errors()


async def test_an_application_not_installable_to_users_syncs_its_commands_for_servers_only(world, caplog):
    """An operator who has not ticked User Install: Discord would refuse the whole sync of commands
    that name user installs, so they are sent for servers only, and the log says how to allow more."""
    async with world.running_bot() as bot:
        world.standin.set_installation_contexts(guild=True, user=False)  # the operator's portal, today
        synced = await sync_commands(bot, None)
        assert synced[0][1] >= 2
        assert world.standin.commands()["6nimmt"]["integration_types"] == [0], "for servers only"
        assert "tick User Install" in caplog.text
        lobby = await open_in(world, world.alice, world.channel, rounds=1)
        assert lobby.channel is world.channel
        assert bot.tree.get_command("6nimmt").allowed_installs.user, "the tree is as declared again"


async def test_a_closed_table_s_news_no_click_can_carry_is_given_up_and_the_table_let_go(world):
    """A lobby in a group DM that nobody started closes once its time is up, long after its opener's
    answer stopped being usable: nothing can show that it closed, and nobody may click on it again.
    The news waits a token's life for a click (shortened here), then the presenter lets the table go."""
    dm = group(world)
    async with world.running_bot() as bot:
        presenter = bot.get_cog("Tables").presenter
        presenter.unreachable_after = 0.2
        lobby = await open_in(world, world.alice, dm, rounds=1)
        await world.settle()
        world.standin.advance_time(31 * 60)
        await run_out_the_clock(world, dm, 31 * 60)  # the lobby's 30 minutes, and every token, run out
        await world.standin.world.wait_until(lambda: presenter.tables_held == 0, 3, "the table was never let go")
        assert [m.id for m in world.standin.channel_messages(dm)] == [lobby.id], "nothing could be shown"
        refused = await (await world.standin.click(world.bob, lobby, lobby.button("Join")["custom_id"])).reply()
        assert refused.ephemeral_to is not None, "a click on it later is told, privately"
        assert requests_to(world, dm) == []
        world.standin.assert_no_errors()


async def test_a_command_typed_while_the_game_waits_for_someone_acts_and_carries_the_game_on(world):
    """Everybody away past every token: the timer's turn cannot be shown and the game waits. bob,
    back, leaves by command: he is not told the game is paused, his seat goes to an AI, and his
    command carries the turn the timer played; alice then plays on to the standings."""
    dm = group(world)
    world.standin.user_install(world.bob)
    async with world.running_bot():
        table, _ = await alice_picked(world, dm)
        world.standin.advance_time(16 * 60)
        await run_out_the_clock(world, dm, 16 * 60)
        assert live_table(world.standin, dm).id == table.id, "nothing could show the timer's turn"
        leave = await world.standin.slash(world.bob, dm, "6nimmt leave")
        assert (await leave.reply()).content == "You left the table."
        await world.settle()
        now = live_table(world.standin, dm)
        assert now.id != table.id and now.interaction_id == leave.id, "bob's command carried the game on"
        standings = await world.play([world.alice], channel=dm)
        assert is_standings(standings)
        assert requests_to(world, dm) == []
        world.standin.assert_no_errors()
