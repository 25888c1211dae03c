"""Several games in one channel, through the real bot: a command there names its game with the
``table`` option (autocompleted from the games open there), one used in a game's thread means
that game, and ``/6nimmt games`` lists a player's games, theirs to move first, with links."""

from __future__ import annotations

import re

from bot.tables.table import TableOptions, TableStatus


async def reply(world, user, command, *, channel=None, **options):
    return await (await world.standin.slash(user, channel or world.channel, command, **options)).reply()


async def threaded_table(world, host, *, begin=False, players=(), **options):
    """A table of ``world.channel`` whose game plays in a thread of its own, opened through the service
    (as ``/6nimmt start`` opens one): the presenter posts its lobby and starts its thread on it. The
    table and its thread."""
    service = world.bot.service
    table = await service.open_lobby(
        world.guild.id,
        world.channel.id,
        host.id,
        host.user.name,
        TableOptions(rounds=1, target=None, **options),
        threaded=True,
    )
    await world.settle()
    thread = world.standin.world.channels[service.get(table.id).thread_id]
    for player in players:
        await service.join(table.id, player.id, player.user.name)
    if begin:
        await service.begin(table.id, host.id)
    return table, thread


async def lobby_in_channel(world):
    """alice's table played in the channel itself, opened with ``/6nimmt start``."""
    lobby = await reply(world, world.alice, "6nimmt start", rounds=1)
    assert "table open" in lobby.embed["title"]
    [table] = [t for t in world.bot.service.tables_in(world.channel.id) if not t.threaded]
    return table


def seated(table):
    return [seat.user_id for seat in table.seats]


async def test_a_command_names_its_game_where_a_channel_has_several(world):
    async with world.running_bot():
        there, thread = await threaded_table(world, world.bob, ai_seats=1)
        here = await lobby_in_channel(world)
        assert [t.id for t in world.bot.service.tables_in(world.channel.id)] == [there.id, here.id]

        # Without the option the command asks which game, and changes nothing.
        ask = await reply(world, world.carol, "6nimmt join")
        assert ask.ephemeral_to.id == world.carol.id
        assert "This channel has 2 open games: choose one with the `table` option." in ask.content
        assert world.carol.id not in seated(here) + seated(there)
        status = await reply(world, world.carol, "6nimmt status")
        assert "choose one with the `table` option" in status.content
        rules = await reply(world, world.carol, "6nimmt rules")  # the rules need no table
        assert "classic rules" in rules.content and "choose one with the `table` option" in rules.content

        # With the option it acts on that game only.
        joined = await reply(world, world.carol, "6nimmt join", table=there.id)
        assert "You joined the table." in joined.content
        assert world.carol.id in seated(there) and world.carol.id not in seated(here)
        rules = await reply(world, world.carol, "6nimmt rules", table=here.id)
        assert "This table:" in rules.content and "1 round" in rules.content

        # A forged id, or a table of another channel, is refused and changes nothing.
        elsewhere_channel = world.standin.add_text_channel(world.guild, "elsewhere")
        await reply(world, world.bob, "6nimmt start", channel=elsewhere_channel, rounds=1)
        [elsewhere] = world.bot.service.tables_in(elsewhere_channel.id)
        for forged in (elsewhere.id, 10**15):
            refused = await reply(world, world.alice, "6nimmt cancel", table=forged)
            assert "That game is not open in this channel; nothing was changed." in refused.content
        refused = await reply(world, world.alice, "6nimmt join", table=elsewhere.id)
        assert "not open in this channel" in refused.content
        assert world.alice.id not in seated(elsewhere) and elsewhere.is_open and here.is_open and there.is_open

        # In the game's thread a command means that game, without the option; another game's id
        # is not that game's.
        assert (
            "not open in this channel"
            in (await reply(world, world.alice, "6nimmt join", channel=thread, table=here.id)).content
        )
        left = await reply(world, world.carol, "6nimmt leave", channel=thread)
        assert "You left the table." in left.content and world.carol.id not in seated(there)
        not_host = await reply(world, world.alice, "6nimmt begin", channel=thread)
        assert "not at this table" in not_host.content and there.status is TableStatus.LOBBY
        began = await reply(world, world.bob, "6nimmt begin", channel=thread)
        assert "game is on" in began.content
        assert there.status is TableStatus.PLAYING and here.status is TableStatus.LOBBY
        hand = await reply(world, world.bob, "6nimmt hand", channel=thread)
        assert hand.ephemeral_to.id == world.bob.id and len([c for c in hand.custom_ids if c.startswith("6n:p:")]) == 10

        # In the channel, the host's commands with the option: kick from the lobby, then cancel it.
        await reply(world, world.carol, "6nimmt join", table=here.id)
        kicked = await reply(world, world.alice, "6nimmt kick", member=world.carol, table=here.id)
        assert "carol was removed" in kicked.content and world.carol.id not in seated(here)
        closed = await reply(world, world.alice, "6nimmt cancel", table=here.id)
        assert "The table is closed." in closed.content
        assert not here.is_open and there.status is TableStatus.PLAYING
        # One game left in the channel: a command without the option means it.
        assert "not at this table" in (await reply(world, world.carol, "6nimmt cancel")).content
        assert world.bot.service.tables_in(world.channel.id) == [there]
        world.standin.assert_no_errors()


async def test_the_table_option_lists_the_games_open_where_it_is_typed(world):
    async with world.running_bot():
        standin = world.standin
        none = await standin.autocomplete(world.carol, world.channel, "6nimmt join", option="table")
        assert none == []
        nothing = await reply(world, world.carol, "6nimmt join")
        assert "There is no open 6 nimmt! table here. Start one with `/6nimmt start`." in nothing.content

        playing, thread = await threaded_table(world, world.bob, ai_seats=1, begin=True)
        lobby = await lobby_in_channel(world)
        ids = [playing.id, lobby.id]

        listed = await standin.autocomplete(world.carol, world.channel, "6nimmt status", option="table")
        assert [c["value"] for c in listed] == ids  # oldest first
        assert listed[0]["name"] == f"#{playing.id} · bob's table · Classic · playing, round 1"
        assert listed[1]["name"] == f"#{lobby.id} · alice's table · Classic · lobby 1/10"
        # join offers the lobbies first
        joinable = await standin.autocomplete(world.carol, world.channel, "6nimmt join", option="table")
        assert [c["value"] for c in joinable] == ids[::-1]
        # What was typed filters them: a name, or the table's number.
        assert [
            c["value"]
            for c in await standin.autocomplete(
                world.carol, world.channel, "6nimmt status", option="table", value="ALICE"
            )
        ] == [lobby.id]
        assert [
            c["value"]
            for c in await standin.autocomplete(
                world.carol, world.channel, "6nimmt cancel", option="table", value=f"#{playing.id} "
            )
        ] == [playing.id]
        assert (
            await standin.autocomplete(
                world.carol, world.channel, "6nimmt hand", option="table", value="nothing like it"
            )
            == []
        )
        # The other options typed so far come along (kick's member, prompts' choice).
        kick = await standin.autocomplete(world.alice, world.channel, "6nimmt kick", option="table", member=world.bob)
        assert [c["value"] for c in kick] == ids
        prompts = await standin.autocomplete(world.alice, world.channel, "6nimmt prompts", option="table", when="never")
        assert [c["value"] for c in prompts] == ids
        # In the game's thread: that game only.
        inside = await standin.autocomplete(world.carol, thread, "6nimmt leave", option="table")
        assert [c["value"] for c in inside] == [playing.id]
        # In the user's language.
        dora = standin.add_member(world.guild, "dora", locale="de")
        german = await standin.autocomplete(dora, world.channel, "6nimmt status", option="table")
        assert german[0]["name"] == f"#{playing.id} · Tisch von bob · Klassisch · läuft, Runde 1"
        assert german[1]["name"] == f"#{lobby.id} · Tisch von alice · Klassisch · Lobby 1/10"
        # Each answer came in time and as Discord accepts it.
        answered = [i for i in standin.interactions if i.kind == 4]
        assert len(answered) == 10 and all(i.callback_type == 8 for i in answered)
        standin.assert_no_errors()


async def test_many_games_are_listed_within_discords_limits(world):
    async with world.running_bot():
        names = []
        for n in range(30):
            table, _ = await threaded_table(world, world.standin.add_member(world.guild, f"host{n:02}-" + "x" * 24))
            names.append(table.id)
        listed = await world.standin.autocomplete(world.carol, world.channel, "6nimmt join", option="table")
        assert [c["value"] for c in listed] == names[:25]
        assert all(len(c["name"]) <= 100 for c in listed)
        world.standin.assert_no_errors()


async def test_games_lists_your_games_yours_to_move_first(world):
    async with world.running_bot():
        service = world.bot.service
        lobby = await lobby_in_channel(world)
        await reply(world, world.bob, "6nimmt join", table=lobby.id)
        waiting, waiting_thread = await threaded_table(world, world.carol, players=[world.bob], begin=True)
        yours, yours_thread = await threaded_table(world, world.bob, ai_seats=1, begin=True, pace="24h")
        # In ``waiting`` bob has picked and carol has not.
        seat = waiting.seat_of(world.bob.id)
        await service.pick(waiting.id, world.bob.id, waiting.game.hands[seat][0], waiting.step)
        await world.settle()

        listed = await reply(world, world.bob, "6nimmt games")
        assert listed.ephemeral_to.id == world.bob.id
        text = listed.content
        entries = text.split("\n\n")
        assert entries[0] == "Your open games on this server:" and len(entries) == 4
        first, second, third = entries[1:]
        # Turn-based and bob's move: first, even though its deadline is the furthest.
        assert first.startswith(f"**#{yours.id}** · Classic · bob and 🤖 ")
        assert "**your move**" in first and "turn-based, 24 h a turn" in first
        assert f"<t:{int(yours.deadline)}:R>" in first
        assert re.search(rf"https://discord\.com/channels/{world.guild.id}/{yours_thread.id}(/\d+)?$", first)
        # Then by deadline: the live game waiting for carol, then the lobby.
        assert second.startswith(f"**#{waiting.id}** · Classic · carol and bob")
        assert "waiting for carol" in second and "your move" not in second
        assert f"https://discord.com/channels/{world.guild.id}/{waiting_thread.id}" in second
        assert third.startswith(f"**#{lobby.id}** · Classic · alice and bob") and "waiting for players (2/10)" in third
        assert third.endswith(f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby.message_id}")

        # Someone at no game is told so, and how to start one.
        dave = world.standin.add_member(world.guild, "dave")
        none = await reply(world, dave, "6nimmt games")
        assert none.ephemeral_to.id == dave.id
        assert "You are not playing at any open game on this server." in none.content
        assert "/6nimmt start" in none.content
        # German, for a German client.
        dora = world.standin.add_member(world.guild, "dora", locale="de")
        await reply(world, dora, "6nimmt join", table=lobby.id)
        german = await reply(world, dora, "6nimmt games")
        assert german.content.startswith("Deine offenen Partien auf diesem Server:")
        assert "wartet auf Mitspieler (3/10)" in german.content
        # The bot's DM is a place of its own (a game against AI seats may be played there): none open.
        dm = await reply(world, world.bob.user, "6nimmt games", channel=world.standin.dm_channel(world.bob))
        assert dm.content.startswith("You are not playing at any open game here.")
        world.standin.assert_no_errors()
