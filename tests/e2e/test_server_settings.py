"""``/6nimmt-admin settings`` through the real bot: who may use it, what it shows and saves,
that it survives a restart, and that an unreachable database changes nothing.

dora has the Manage Server permission; bob has not. The database is read back through the
bot's store (``bot.service.store.server_settings``), as an operator's query would.
"""

from __future__ import annotations

import discord
import pytest

from bot.config import Settings
from cogs.i18n import languages
from data import StoreUnavailable
from data.models import ServerSettings
from tests.e2e.db_outage import SQLiteLocked
from tests.standin import InteractionRejected

COMMAND = "6nimmt-admin settings"


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request, world):
    if request.param == "postgres":
        url = await request.getfixturevalue("postgres_cluster").fresh_database()
        world.settings = lambda: Settings(
            discord_token=world.standin.token, database_url=url, health_file=world.tmp_path / "bot.health"
        )
    return request.param


def manager(world):
    return world.standin.add_member(world.guild, "dora", permissions=discord.Permissions(manage_guild=True))


async def settings(world, user, **options):
    return await (await world.standin.slash(user, world.channel, COMMAND, **options)).reply(timeout=10)


async def stored(world):
    return await world.bot.service.store.server_settings(world.guild.id)


def let_everyone_use_admin_commands(world) -> None:
    """What a server's Integrations page can do: show /6nimmt-admin to every member."""
    world.standin.world.global_commands["6nimmt-admin"].data["default_member_permissions"] = None


async def test_only_members_who_manage_the_server_change_its_settings(world):
    async with world.running_bot():
        # Discord shows the command only to members with Manage Server ...
        with pytest.raises(InteractionRejected, match="lacks the permissions"):
            await world.standin.slash(world.bob, world.channel, COMMAND, pace="8h")
        # ... and where a server shows it to everyone, the bot still refuses, saving nothing.
        let_everyone_use_admin_commands(world)
        refused = await settings(world, world.bob, pace="8h", ai_level="hard")
        assert refused.ephemeral_to.id == world.bob.id
        assert "Only members with the Manage Server permission" in refused.content
        refused = await settings(world, world.alice)  # Manage Messages is not Manage Server
        assert "Manage Server" in refused.content
        german = world.standin.add_member(world.guild, "jonas", locale="de")
        refused = await settings(world, german, threads=True)
        assert refused.content.startswith("Nur Mitglieder mit der Berechtigung „Server verwalten“")
        assert await stored(world) is None
        # Outside a server there are no server settings: Discord does not even offer the command there.
        with pytest.raises(InteractionRejected, match="not offered in the DM with the bot"):
            await world.standin.slash(world.bob.user, world.standin.dm_channel(world.bob), COMMAND)
    world.standin.assert_no_errors()


async def test_a_manager_sets_sees_and_resets_and_it_survives_a_restart(world, backend):
    world.threads = True  # the bot's own default, which the server then turns off
    dora = manager(world)
    async with world.running_bot():
        shown = await settings(world, dora)
        assert shown.ephemeral_to.id == dora.id
        assert "This server's settings for new games:" in shown.content
        assert not [line for line in shown.content.splitlines() if line.endswith("✱")], "nothing differs yet"
        assert "**Pace of a new game:** live" in shown.content and "**AI level:** medium" in shown.content

        saved = await settings(world, dora, pace="8h", ai_level="hard", threads=False, timer=90)
        assert saved.content.startswith("Saved.")
        assert "**Pace of a new game:** turn-based, 8 h a turn ✱" in saved.content
        assert "**AI level:** hard ✱" in saved.content
        assert "**Threads:** games in the channel ✱" in saved.content
        assert "**Turn timer (live games):** 90 s ✱" in saved.content
        assert "**Turn-based games:** allowed\n" in saved.content, "unchanged: not marked"
        assert await stored(world) == ServerSettings(threads=False, pace="8h", turn_seconds=90, ai_level="hard")

        # A turn-based pace with turn-based games off does not go together: refused, nothing changed.
        clash = await settings(world, dora, turn_based=False)
        assert "A turn-based pace needs turn-based games allowed" in clash.content
        clash = await settings(world, dora, pace="24h", turn_based=False)
        assert "Nothing was changed" in clash.content
        assert (await stored(world)).pace == "8h" and (await stored(world)).turn_based is None

    async with world.running_bot() as bot:  # a new process reads them back
        again = await settings(world, dora)
        assert "**Pace of a new game:** turn-based, 8 h a turn ✱" in again.content
        assert "**AI level:** hard ✱" in again.content
        assert bot.server_settings.differences(world.guild.id) == [
            ("threads", False),
            ("pace", "8h"),
            ("turn_seconds", 90),
            ("ai_level", "hard"),
        ]

        # Reset, with a new choice on top: only that choice remains.
        reset = await settings(world, dora, reset=True, pace="live", turn_based=False)
        marked = [line for line in reset.content.splitlines() if line.endswith("✱")]
        assert marked == ["**Turn-based games:** not allowed ✱"]
        assert await stored(world) == ServerSettings(pace="live", turn_based=False)
        assert bot.server_settings.differences(world.guild.id) == [("turn_based", False)]
        reset = await settings(world, dora, reset=True)
        assert await stored(world) == ServerSettings()
        assert bot.server_settings.differences(world.guild.id) == []
    world.standin.assert_no_errors()


async def test_an_unreachable_database_is_told_and_changes_nothing(world):
    world.threads = True  # the bot's own default
    dora = manager(world)
    locked = SQLiteLocked(world.tmp_path / "bot.sqlite3")
    async with world.running_bot():
        await settings(world, dora, ai_level="easy")
        await locked.begin()
        try:
            interaction = await world.standin.slash(dora, world.channel, COMMAND, ai_level="hard", threads=False)
            answer = await interaction.reply(timeout=15)  # deferred within 3 s, told after the lock's wait
            assert interaction.callback_type == 5, "deferred, not answered late"
            assert answer.ephemeral_to.id == dora.id
            assert "database is not reachable" in answer.content and "nothing was" in answer.content
        finally:
            await locked.end()
        assert await stored(world) == ServerSettings(ai_level="easy")
        shown = await settings(world, dora)
        assert "**AI level:** easy ✱" in shown.content and "**Threads:** each game in a thread" in shown.content
    world.standin.assert_no_errors()


async def test_a_servers_own_defaults_shape_its_new_games_and_show_in_the_lobby(world):
    world.threads = True
    dora = manager(world)
    async with world.running_bot():
        await settings(world, dora, ai_level="hard", turn_based=False, threads=False)
        lobby = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", ai_players=1)).reply()
        shown = {field["name"]: field["value"] for field in lobby.embed["fields"]}
        assert "AI level hard" in shown["Server settings"] and "threads off" in shown["Server settings"]
        table = world.bot.service.table_in(world.channel.id)
        assert table.options.ai_level == "hard" and table.seats[1].ai_level == "hard"
        assert not table.threaded and not [c for c in world.standin.world.channels.values() if c.is_thread]
        # Turn-based games are off here: asking for one is refused and opens nothing.
        refused = await (
            await world.standin.slash(
                world.bob, world.standin.add_text_channel(world.guild, "slow"), "6nimmt start", pace="24h"
            )
        ).reply()
        assert "turned off on this server" in refused.content
        assert len(world.bot.service.tables) == 1


async def test_a_start_while_the_servers_settings_cannot_be_read_opens_nothing_and_says_so(world, monkeypatch):
    dora = manager(world)
    async with world.running_bot():
        await settings(world, dora, turn_based=False, ai_level="hard")
    # A new process, whose reads of this server's settings fail from its start (the database's reads
    # are away): the start-up read of every server's settings, then this server's own read.
    from data.backend import StoreBase

    reads, reads_all = StoreBase.server_settings, StoreBase.all_server_settings

    async def away(self, *guild_id):
        raise StoreUnavailable("the database cannot be reached")

    monkeypatch.setattr(StoreBase, "server_settings", away)
    monkeypatch.setattr(StoreBase, "all_server_settings", away)
    async with world.running_bot() as bot:
        refused = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", pace="24h")).reply()
        assert refused.ephemeral_to.id == world.alice.id
        assert "settings cannot be read right now" in refused.content and "no table was opened" in refused.content
        assert world.public() == [] and not bot.service.tables
        # Once it can be read, the server's own rules hold: no turn-based game, its AI level.
        monkeypatch.setattr(StoreBase, "server_settings", reads)
        monkeypatch.setattr(StoreBase, "all_server_settings", reads_all)
        again = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", pace="24h")).reply()
        assert "turned off on this server" in again.content
        lobby = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", ai_players=1)).reply()
        assert "AI level hard" in str(lobby.embed)


async def test_a_server_chooses_the_language_of_its_public_messages_and_it_survives_a_restart(world, backend):
    """Discord leaves ``preferred_locale`` at en-US on a server without the Community features:
    such a server picks German in ``/6nimmt-admin settings``. Its lobby, table, news and
    leaderboard are German from then on, also in the first message after a restart; what only a
    member sees stays in their own language (here everyone's Discord is English)."""
    from tests.e2e.test_table_play import click_ok

    dora = manager(world)
    async with world.running_bot():
        shown = await settings(world, dora)
        assert "**Language of public messages:** the server's Discord language (English)" in shown.content
        # More languages than Discord's 25 fixed choices: the option suggests what the member types.
        suggested = await world.standin.autocomplete(dora, world.channel, COMMAND, option="language", value="deu")
        assert [(c["name"], c["value"]) for c in suggested] == [("Deutsch", "de")]
        everything = await world.standin.autocomplete(dora, world.channel, COMMAND, option="language")
        assert everything[0] == {"name": "The server's Discord language", "value": "server"}
        assert len(everything) == min(25, 2 + len(languages()))  # at most Discord's 25
        unknown = await settings(world, dora, language="Klingon")
        assert unknown.ephemeral and unknown.content.startswith("Choose one of: The server's Discord language, English")
        assert await stored(world) is None or (await stored(world)).language is None
        saved = await settings(world, dora, language="deutsch", threads=False)  # typed, not picked
        assert "**Language of public messages:** Deutsch ✱" in saved.content, "dora reads her own English"
        assert await stored(world) == ServerSettings(threads=False, language="de")

        lobby = await (await world.standin.slash(world.alice, world.channel, "6nimmt start", ai_players=1)).reply()
        assert not lobby.ephemeral and lobby.embed["title"] == "6 nimmt! — Tisch offen"
        assert "Sprache: Deutsch" in str(lobby.embed), "the lobby lists the server's own choices"
        board = await (await world.standin.slash(world.bob, world.channel, "leaderboard")).reply()
        assert board.embed["title"] == "6-nimmt!-Rangliste — Wertungszahl"
        refused = await (await world.standin.click(world.carol, lobby, lobby.button("Beginnen")["custom_id"])).reply()
        assert refused.ephemeral_to.id == world.carol.id and refused.content.startswith("You are not at this table")
        await click_ok(world, world.alice, lobby, lobby.button("Beginnen")["custom_id"])
        table = await world.standin.world.wait_until(world.table_message, 3, "the table was not posted")
        assert table.embed["title"] == "6 nimmt! — Runde 1, Zug 1"

    async with world.running_bot():  # a new process: the table is restored, the choice read back
        table = world.table_message()
        hand = await (await world.standin.click(world.alice, table, table.button("Karte spielen")["custom_id"])).reply()
        assert hand.content.startswith("**Your hand**"), "a hand is the player's own: English"
        card = next(b for b in hand.buttons if b["custom_id"].startswith("6n:p:"))
        await click_ok(world, world.alice, hand, card["custom_id"])
        await world.settle()
        reveal = next(m for m in reversed(world.public()) if "🃏" in (m.content or ""))
        assert "🃏 Aufgedeckt:" in reveal.content, "the first news after the restart is German"

        back = await settings(world, dora, language="server")
        assert "**Language of public messages:** the server's Discord language (English)" in back.content
        assert await stored(world) == ServerSettings(threads=False)
        before = world.table_message()
        await (await world.standin.slash(world.alice, world.channel, "6nimmt status")).reply()
        again = await world.standin.world.wait_until(
            lambda: world.table_message() if world.table_message().id != before.id else None,
            3,
            "the table was not posted again",
        )
        assert again.embed["title"].startswith("6 nimmt! — round 1"), "English again: the server's own"
    world.standin.assert_no_errors()
