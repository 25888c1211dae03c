"""User installs, the three interaction contexts, servers without the bot and group DMs in the
stand-in: each test checks what Discord's documentation says (tests/standin/installs.py names it),
with a plain discord.py client whose commands declare their installs and contexts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.standin import DiscordStandin, InteractionRejected
from tests.standin.installs import RESPONSE_PERMISSIONS, USE_EXTERNAL_APPS

EVERYWHERE = {"guilds": True, "dms": True, "private_channels": True}
BOTH = {"guilds": True, "users": True}


class AppBot(discord.Client):
    """Its commands: /everywhere (both installs, all contexts), /guildonly (server install, servers),
    /mine (user install only), /legacy (no installs or contexts given),
    /spam (follow-ups), /later (a follow-up when told) and /public (a public answer and follow-up)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.seen: list[dict[str, Any]] = []
        self.events: list[str] = []
        self.failures: list[tuple[int, int]] = []
        self.go = asyncio.Event()
        self.later_done = asyncio.Event()
        tree = self.tree

        @tree.command(name="everywhere", description="Any install, any place")
        @app_commands.allowed_installs(**BOTH)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def everywhere(interaction: discord.Interaction) -> None:
            self.remember(interaction)
            await interaction.response.send_message("here", view=Poke())

        @tree.command(name="guildonly", description="Server installs, in servers")
        @app_commands.allowed_installs(guilds=True, users=False)
        @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
        async def guildonly(interaction: discord.Interaction) -> None:
            self.remember(interaction)
            await interaction.response.send_message("guild")

        @tree.command(name="mine", description="User installs only")
        @app_commands.allowed_installs(guilds=False, users=True)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def mine(interaction: discord.Interaction) -> None:
            self.remember(interaction)
            await interaction.response.send_message("mine")

        @tree.command(name="legacy", description="No installs or contexts given")
        async def legacy(interaction: discord.Interaction) -> None:
            self.remember(interaction)
            await interaction.response.send_message("legacy")

        @tree.command(name="spam", description="Defers, then sends follow-ups")
        @app_commands.allowed_installs(**BOTH)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def spam(interaction: discord.Interaction, count: int) -> None:
            await interaction.response.send_message("first")
            for number in range(count):
                try:
                    await interaction.followup.send(f"follow-up {number + 1}")
                except discord.HTTPException as exc:
                    self.failures.append((exc.status, exc.code))

        @tree.command(name="later", description="A follow-up when the test says so")
        @app_commands.allowed_installs(**BOTH)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("wait for it")
            while True:
                await self.go.wait()
                self.go.clear()
                try:
                    await interaction.followup.send("later")
                except discord.HTTPException as exc:
                    self.failures.append((exc.status, exc.code))
                    self.later_done.set()
                    return
                self.later_done.set()

        @tree.command(name="public", description="A public answer and a public follow-up")
        @app_commands.allowed_installs(**BOTH)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def public(interaction: discord.Interaction) -> None:
            self.remember(interaction)
            await interaction.response.send_message("for all")
            await interaction.followup.send("for all, again")

    def remember(self, interaction: discord.Interaction) -> None:
        """What discord.py made of the interaction."""
        self.seen.append(
            {
                "context": interaction.context,
                "user_integration": interaction.is_user_integration(),
                "guild_integration": interaction.is_guild_integration(),
                "channel_type": getattr(interaction.channel, "type", None),
                "guild_id": interaction.guild_id,
                "app_permissions": interaction.app_permissions,
                "permissions": interaction.permissions,
                "user": interaction.user.id,
            }
        )

    async def on_socket_event_type(self, event_type: str) -> None:
        self.events.append(event_type)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            self.remember(interaction)
            await interaction.response.send_message("poked", ephemeral=True)


class Poke(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(label="Poke", custom_id="poke"))


@pytest.fixture
async def world() -> AsyncIterator[dict[str, Any]]:
    """A stand-in whose app may be installed to users, a server with the bot (#games, alice, bob), a
    server without it (#lounge; alice and carol are members) and the bot, synced and connected."""
    async with DiscordStandin() as standin:
        standin.set_installation_contexts(guild=True, user=True)
        guild = standin.add_guild("Club")
        games = standin.add_text_channel(guild, "games")
        alice = standin.add_member(guild, "alice")
        bob = standin.add_member(guild, "bob")
        elsewhere = standin.foreign_guild("Elsewhere")
        lounge = standin.add_text_channel(elsewhere, "lounge")
        alice_there = standin.add_member(elsewhere, alice.user)
        carol = standin.add_member(elsewhere, "carol")
        bot = AppBot()
        async with standin.running(bot):
            await bot.tree.sync()
            yield {
                "standin": standin,
                "bot": bot,
                "guild": guild,
                "games": games,
                "alice": alice,
                "bob": bob,
                "elsewhere": elsewhere,
                "lounge": lounge,
                "alice_there": alice_there,
                "carol": carol,
            }


async def api(standin: DiscordStandin, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One bot-token request, as the bot would make it."""
    headers = {"Authorization": f"Bot {standin.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, standin.api_base + path, json=body, headers=headers) as response,
    ):
        return response.status, await response.json() if response.content_type == "application/json" else None


# --- command sync -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("contexts", [0, 3], ["contexts", "1"]),  # no interaction context 3
        ("contexts", ["0"], ["contexts", "0"]),  # integers, not strings
        ("contexts", [True], ["contexts", "0"]),
        ("contexts", 0, ["contexts"]),  # a list
        ("integration_types", [2], ["integration_types", "0"]),  # no installation context 2
        ("integration_types", [1], ["integration_types", "0"]),  # the app supports no user installs
    ],
)
async def test_a_sync_with_contexts_or_integration_types_discord_refuses(field, value, path) -> None:
    async with DiscordStandin() as standin:
        standin.set_installation_contexts(guild=True, user=False)  # an app for servers only
        command = {"name": "start", "description": "Open a table", field: value}
        status, body = await api(standin, "PUT", f"/applications/{standin.application_id}/commands", [command])
        assert (status, body["code"]) == (400, 50035)
        node = body["errors"]
        for part in path:
            node = node[part]
        assert node["_errors"]
        assert standin.commands() == {}


async def test_a_sync_stores_installs_and_contexts_and_answers_them_back() -> None:
    async with DiscordStandin() as standin:
        route = f"/applications/{standin.application_id}/commands"
        # Left out, integration_types are the app's (here servers only) and contexts stay null.
        standin.set_installation_contexts(guild=True, user=False)
        bare = {"name": "start", "description": "Open a table", "contexts": None, "integration_types": None}
        status, synced = await api(standin, "PUT", route, [bare])
        assert status == 200
        assert (synced[0]["integration_types"], synced[0]["contexts"]) == ([0], None)
        standin.set_installation_contexts(guild=True, user=True)
        both = {"name": "both", "description": "Both", "integration_types": [0, 1], "contexts": [0, 1, 2]}
        status, _ = await api(standin, "PUT", route, [bare, both])
        assert status == 200
        status, listed = await api(standin, "GET", route)
        answered = {c["name"]: (c["integration_types"], c["contexts"]) for c in listed}
        assert answered == {"start": ([0, 1], None), "both": ([0, 1], [0, 1, 2])}
        status, application = await api(standin, "GET", "/applications/@me")
        assert set(application["integration_types_config"]) == {"0", "1"}


# --- where a command is offered, and what the interaction says --------------------------------


async def test_commands_are_offered_only_where_their_contexts_and_installs_reach(world) -> None:
    standin, alice, carol = world["standin"], world["alice"], world["carol"]
    games, lounge = world["games"], world["lounge"]
    friends = standin.group_dm(alice, carol)
    dm = standin.dm_channel(alice)
    for user, channel, command in [
        (alice, dm, "guildonly"),  # its contexts are servers only
        (alice, friends, "guildonly"),
        (carol, lounge, "everywhere"),  # the app is not in Elsewhere and carol has not installed it
        (alice, friends, "everywhere"),  # nor alice yet: a group DM has no server install
        (alice, games, "mine"),  # a user-install command, and alice has not installed the app
        (alice, lounge, "legacy"),  # the app's installs (both here), and alice has installed none
        (world["bob"], friends, "everywhere"),  # bob is not in that group DM
    ]:
        with pytest.raises(InteractionRejected):
            await standin.slash(user, channel, command)
    standin.user_install(alice)
    with pytest.raises(InteractionRejected, match="not offered in a group DM"):
        await standin.slash(alice, friends, "guildonly")
    with pytest.raises(InteractionRejected, match="not for user installs"):
        await standin.slash(world["alice_there"], lounge, "guildonly")
    # Left out at the sync, a command's installs are the app's then: here both, so alice has it everywhere.
    assert (await (await standin.slash(world["alice_there"], lounge, "legacy")).reply()).content == "legacy"
    # The game bot's registration today still works where it did: servers with the bot and its DM.
    assert (await (await standin.slash(alice, games, "legacy")).reply()).content == "legacy"
    assert (await (await standin.slash(alice, dm, "legacy")).reply()).content == "legacy"
    standin.assert_no_errors()


async def test_authorizing_owners_and_context_for_each_place(world) -> None:
    standin, bot, alice = world["standin"], world["bot"], world["alice"]
    guild, elsewhere = world["guild"], world["elsewhere"]
    friends = standin.group_dm(alice, world["carol"], name="friends")
    dm = standin.dm_channel(alice)
    uid = str(alice.id)

    async def payload(actor, channel, command="everywhere") -> dict[str, Any]:
        interaction = await standin.slash(actor, channel, command)
        await interaction.reply()
        return interaction.payload()

    # Before alice installs the app: the server's install only, "0" -> the guild, or "0" in the bot's DM.
    sent = await payload(alice, world["games"])
    assert (sent["authorizing_integration_owners"], sent["context"]) == ({"0": str(guild.id)}, 0)
    sent = await payload(alice, dm)
    assert (sent["authorizing_integration_owners"], sent["context"]) == ({"0": "0"}, 1)
    assert "member" not in sent and sent["user"]["id"] == uid

    standin.user_install(alice)
    sent = await payload(alice, world["games"])
    assert sent["authorizing_integration_owners"] == {"0": str(guild.id), "1": uid}
    sent = await payload(alice, dm)
    assert sent["authorizing_integration_owners"] == {"0": "0", "1": uid}
    assert bot.seen[-1]["user_integration"] and bot.seen[-1]["context"].dm_channel

    # A server without the bot: the user's install alone; a member, app_permissions as @everyone's, limited.
    sent = await payload(world["alice_there"], world["lounge"])
    assert (sent["authorizing_integration_owners"], sent["context"]) == ({"1": uid}, 0)
    assert sent["guild_id"] == str(elsewhere.id) and sent["member"]["user"]["id"] == uid
    assert int(sent["app_permissions"]) == elsewhere.everyone.permissions & RESPONSE_PERMISSIONS
    seen = bot.seen[-1]
    assert seen["user_integration"] and not seen["guild_integration"] and seen["context"].guild
    assert seen["channel_type"] is discord.ChannelType.text and seen["guild_id"] == elsewhere.id

    # A group DM: context 2, no guild, the channel with its recipients, (G)DM app_permissions.
    sent = await payload(alice, friends)
    assert (sent["authorizing_integration_owners"], sent["context"]) == ({"1": uid}, 2)
    assert "guild_id" not in sent and "member" not in sent
    assert sent["channel"]["type"] == 3 and {r["id"] for r in sent["channel"]["recipients"]} == {
        uid,
        str(world["carol"].id),
    }
    assert discord.Permissions(int(sent["app_permissions"])) == discord.Permissions(
        attach_files=True, embed_links=True, mention_everyone=True
    )
    assert bot.seen[-1]["channel_type"] is discord.ChannelType.group and bot.seen[-1]["context"].private_channel

    # A user-install command has only "1", even in the server with the bot.
    sent = await payload(alice, world["games"], "mine")
    assert sent["authorizing_integration_owners"] == {"1": uid}
    standin.assert_no_errors()


async def test_a_button_keeps_the_owner_who_authorized_the_app(world) -> None:
    """Receiving_and_Responding.md: the owners tell "the authorizing user and the user that triggered an
    interaction (like a message component)" apart."""
    standin, alice, carol = world["standin"], world["alice"], world["carol"]
    friends = standin.group_dm(alice, carol)
    standin.user_install(alice)
    answer = await (await standin.slash(alice, friends, "everywhere")).reply()
    assert answer in standin.visible_to(carol) and answer not in standin.channel_messages(world["games"])
    poke = await standin.click(carol, answer, "poke")
    await poke.reply()
    assert poke.payload()["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert poke.payload()["user"]["id"] == str(carol.id)
    assert not world["bot"].seen[-1]["user_integration"]  # carol pressed, alice authorized
    standin.assert_no_errors()


# --- places without the bot ---------------------------------------------------------------------


async def test_the_bot_token_has_no_access_to_places_without_the_bot() -> None:
    async with DiscordStandin() as standin:
        standin.set_installation_contexts(guild=True, user=True)
        elsewhere = standin.foreign_guild()
        lounge = standin.add_text_channel(elsewhere, "lounge")
        carol = standin.add_member(elsewhere, "carol")
        friends = standin.group_dm(carol, standin.world.add_user("dave"))
        message = await standin.say(carol, lounge, "hello")
        requests = [
            ("GET", f"/channels/{lounge.id}"),
            ("GET", f"/channels/{lounge.id}/messages"),
            ("POST", f"/channels/{lounge.id}/messages"),
            ("GET", f"/channels/{lounge.id}/messages/{message.id}"),
            ("POST", f"/channels/{lounge.id}/messages/{message.id}/threads"),
            ("GET", f"/guilds/{elsewhere.id}"),
            ("GET", f"/guilds/{elsewhere.id}/channels"),
            ("GET", f"/guilds/{elsewhere.id}/members/{carol.id}"),
            ("PUT", f"/applications/{standin.application_id}/guilds/{elsewhere.id}/commands"),
            ("GET", f"/channels/{friends.id}"),
            ("POST", f"/channels/{friends.id}/messages"),
        ]
        for method, path in requests:
            body = {"content": "hi", "name": "x"} if method == "POST" else [] if method == "PUT" else None
            status, answer = await api(standin, method, path, body)
            assert (status, answer["code"]) == (403, 50001), (method, path)
        # Rate_Limits.md: an invalid request "results in 401, 403, or 429 statuses".
        assert standin.rate_limits.figures().invalid == len(requests)
        assert standin.channel_messages(lounge) == [message]


async def test_the_bot_hears_nothing_from_places_without_it_but_their_interactions(world) -> None:
    standin, bot = world["standin"], world["bot"]
    await standin.world.wait_until(lambda: "GUILD_CREATE" in bot.events, 3, "no GUILD_CREATE")
    bot.events.clear()
    elsewhere, lounge = world["elsewhere"], world["lounge"]
    standin.add_text_channel(elsewhere, "hall")
    standin.add_member(elsewhere, "erin")
    standin.add_role(elsewhere, "mods")
    standin.add_thread(lounge, "chat", owner=world["carol"])
    await standin.say(world["carol"], lounge, "anyone?")
    friends = standin.group_dm(world["alice"], world["carol"])
    await standin.say(world["alice"], friends, "psst")
    standin.user_install(world["alice"])
    await (await standin.slash(world["alice"], friends, "everywhere")).reply()
    await (await standin.slash(world["alice_there"], lounge, "everywhere")).reply()
    await standin.say(world["alice"], world["games"], "and here?")  # a place with the bot, for contrast
    await standin.world.wait_until(lambda: "MESSAGE_CREATE" in bot.events, 3, "no MESSAGE_CREATE from #games")
    assert bot.events == ["INTERACTION_CREATE", "INTERACTION_CREATE", "MESSAGE_CREATE"]
    assert bot.get_guild(elsewhere.id) is None

    # Invited later, the bot joins the server: GUILD_CREATE, and the server's install authorizes too.
    standin.add_bot_to(elsewhere)
    await standin.world.wait_until(lambda: bot.get_guild(elsewhere.id), 3, "no GUILD_CREATE for Elsewhere")
    sent = await standin.slash(world["alice_there"], lounge, "everywhere")
    await sent.reply()
    assert sent.payload()["authorizing_integration_owners"] == {"0": str(elsewhere.id), "1": str(world["alice"].id)}
    standin.assert_no_errors()


# --- follow-ups, tokens, Use External Apps --------------------------------------------------------


async def test_five_follow_ups_for_an_interaction_only_a_user_install_authorized(world) -> None:
    standin, bot = world["standin"], world["bot"]
    standin.user_install(world["alice"])
    spam = await standin.slash(world["alice_there"], world["lounge"], "spam", count=6)
    await standin.world.wait_until(lambda: bot.failures, 3, "the sixth follow-up was not refused")
    assert bot.failures == [(400, 40094)]
    assert len(spam.followups) == 5
    assert standin.errors[-1].body["code"] == 40094
    standin.errors.clear()
    # Installed to the server as well: unaffected ("apps installed to the server are unaffected").
    spam = await standin.slash(world["alice"], world["games"], "spam", count=6)
    await spam.followup(5)
    assert bot.failures == [(400, 40094)]
    standin.assert_no_errors()


async def test_the_token_expires_15_minutes_after_the_interaction(world) -> None:
    """Receiving_and_Responding.md: "Interaction tokens are valid for 15 minutes", for user installs too."""
    standin, bot = world["standin"], world["bot"]
    standin.user_install(world["alice"])
    later = await standin.slash(world["alice"], standin.group_dm(world["alice"], world["carol"]), "later")
    await later.reply()
    standin.advance_time(15 * 60 - 5)
    bot.go.set()
    await asyncio.wait_for(bot.later_done.wait(), 3)
    bot.later_done.clear()
    assert len(later.followups) == 1 and not bot.failures
    standin.advance_time(10)
    bot.go.set()
    await asyncio.wait_for(bot.later_done.wait(), 3)
    assert bot.failures == [(401, 50027)]
    assert len(later.followups) == 1


async def test_use_external_apps_off_makes_a_user_installed_apps_answers_ephemeral(world) -> None:
    """Permissions.md, USE_EXTERNAL_APPS: "When disabled, users will still be allowed to use their apps but
    the responses will be ephemeral. This only applies to apps not also installed to the server.\""""
    standin, bot, alice = world["standin"], world["bot"], world["alice"]
    elsewhere, lounge = world["elsewhere"], world["lounge"]
    standin.user_install(alice)
    # On by default: public answers.
    answered = await standin.slash(world["alice_there"], lounge, "public")
    assert not (await answered.reply()).ephemeral and not (await answered.followup(0)).ephemeral
    assert bot.seen[-1]["permissions"].use_external_apps

    standin.set_use_external_apps(elsewhere, False)
    forced = await standin.slash(world["alice_there"], lounge, "public")
    reply, followup = await forced.reply(), await forced.followup(0)
    assert reply.ephemeral and followup.ephemeral and reply.flags & 64 and followup.ephemeral_to is alice.user
    assert not int(forced.payload()["member"]["permissions"]) & USE_EXTERNAL_APPS
    assert not bot.seen[-1]["permissions"].use_external_apps
    assert reply not in standin.channel_messages(lounge)

    # Off in one channel only (an @everyone overwrite): the rest of the server is public again.
    standin.set_use_external_apps(elsewhere, True)
    hall = standin.add_text_channel(elsewhere, "hall")
    standin.set_use_external_apps(hall, False)
    assert (await (await standin.slash(world["alice_there"], hall, "public")).reply()).ephemeral
    assert not (await (await standin.slash(world["alice_there"], lounge, "public")).reply()).ephemeral

    # Where the app is installed to the server, the permission does not apply.
    standin.set_use_external_apps(world["guild"], False)
    assert not (await (await standin.slash(alice, world["games"], "public")).reply()).ephemeral
    standin.assert_no_errors()
