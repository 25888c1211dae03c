"""Threads, forums and DMs in the stand-in, driven by a plain discord.py client with only the Guilds
intent (what the game bot uses): each test checks a rule Discord documents (the comments in
tests/standin/threads.py name the docs)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from tests.standin import DiscordStandin, InteractionRejected


class ThreadBot(discord.Client):
    """Guilds intent only; remembers what the gateway told it and what its slash/button saw."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.seen: list[dict[str, Any]] = []
        self.deleted_threads: list[discord.RawThreadDeleteEvent] = []
        self.deleted_channels: list[int] = []
        self.thread_updates: list[tuple[int, bool]] = []
        self.raw_thread_updates: list[tuple[int, bool, bool, bool]] = []  # id, locked, archived, was cached

        @self.tree.command(name="where", description="Says where it was used")
        async def where(interaction: discord.Interaction) -> None:
            self.seen.append(
                {
                    "channel": interaction.channel,
                    "app_permissions": interaction.app_permissions,
                    "channel_id": interaction.channel_id,
                }
            )
            await interaction.response.send_message("here", view=ButtonView(self))

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.deleted_threads.append(payload)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.deleted_channels.append(channel.id)

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        self.thread_updates.append((after.id, after.archived))

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        metadata = payload.data["thread_metadata"]
        self.raw_thread_updates.append(
            (payload.thread_id, metadata["locked"], metadata["archived"], payload.thread is not None)
        )


class ButtonView(discord.ui.View):
    def __init__(self, bot: ThreadBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Go", custom_id="go")
    async def go(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.bot.seen.append(
            {
                "interaction": interaction,
                "channel": interaction.channel,
                "app_permissions": interaction.app_permissions,
                "channel_id": interaction.channel_id,
            }
        )
        await interaction.response.defer()


@pytest.fixture
async def world():
    async with DiscordStandin() as standin:
        guild = standin.add_guild("Nimmt Club")
        channel = standin.add_text_channel(guild, "games")
        alice = standin.add_member(guild, "alice")
        bob = standin.add_member(guild, "bob")
        yield standin, guild, channel, alice, bob


async def _raises(coro, status: int, code: int) -> discord.HTTPException:
    with pytest.raises(discord.HTTPException) as info:
        await coro
    assert (info.value.status, info.value.code) == (status, code), info.value
    return info.value


async def _lobby_thread(bot: ThreadBot, channel_id: int, **kwargs: Any) -> tuple[discord.Message, discord.Thread]:
    lobby = await bot.get_channel(channel_id).send("Lobby")
    thread = await lobby.create_thread(name="Game 1", **kwargs)
    return lobby, thread


async def test_thread_from_message_shares_its_id_and_only_once(world: Any) -> None:
    standin, guild, channel, alice, _ = world
    async with standin.running(ThreadBot()) as bot:
        lobby, thread = await _lobby_thread(bot, channel.id, auto_archive_duration=60)
        assert thread.id == lobby.id
        stored = standin.channel(thread.id)
        assert (stored.type, stored.parent, stored.auto_archive_duration) == (11, channel, 60)
        assert standin.thread_members(stored) == {standin.bot_user.id}  # the creator is a member
        await standin.world.wait_until(lambda: bot.get_channel(thread.id), 2, "no THREAD_CREATE reached the bot")
        fetched = await bot.get_channel(channel.id).fetch_message(lobby.id)
        assert fetched.flags.has_thread and fetched.thread is not None and fetched.thread.id == thread.id
        raw = await bot.http.get_message(channel.id, lobby.id)  # the `thread` field itself, not the bot's cache
        assert raw["thread"]["id"] == str(thread.id) and raw["thread"]["thread_metadata"]["auto_archive_duration"] == 60
        await _raises(lobby.create_thread(name="again"), 400, 160004)
        await _raises(
            bot.http.start_thread_with_message(
                channel.id, (await bot.get_channel(channel.id).send("x")).id, name="bad", auto_archive_duration=30
            ),
            400,
            50035,
        )
        assert [e.body["code"] for e in standin.errors] == [160004, 50035]


async def test_threads_are_refused_where_discord_refuses_them(world: Any) -> None:
    standin, guild, channel, alice, _ = world
    forum = standin.add_forum_channel(guild, "lobbies")
    other = standin.add_text_channel(guild, "quiet")
    standin.deny_bot_permissions(other, discord.Permissions(create_public_threads=True))
    async with standin.running(ThreadBot()) as bot:
        _, thread = await _lobby_thread(bot, channel.id)
        inner = await thread.send("inside")
        await _raises(inner.create_thread(name="nested"), 400, 50024)  # no thread in a thread
        post, first = await standin.add_forum_post(forum, "post", alice, "hello")
        await _raises(
            bot.http.start_thread_with_message(forum.id, first.id, name="f", auto_archive_duration=60), 400, 50024
        )
        await _raises(
            bot.http.send_message(forum.id, params=discord.http.handle_message_parameters(content="x")), 400, 50024
        )
        dm = await (await bot.fetch_user(alice.id)).create_dm()
        dm_message = await dm.send("hi")
        await _raises(
            bot.http.start_thread_with_message(dm.id, dm_message.id, name="d", auto_archive_duration=60), 400, 50024
        )
        quiet = await bot.get_channel(other.id).send("no threads here")
        await _raises(quiet.create_thread(name="denied"), 403, 50013)
        assert other.id not in [c.parent.id for c in standin.world.channels.values() if c.is_thread and c.parent]
        assert standin.bot_permissions_in(channel).create_public_threads  # the overwrite is per channel


async def test_members_archiving_and_the_archived_thread_rules(world: Any) -> None:
    standin, guild, channel, alice, bob = world
    async with standin.running(ThreadBot()) as bot:
        _, thread = await _lobby_thread(bot, channel.id)
        stored = standin.channel(thread.id)
        await thread.add_user(discord.Object(alice.id))
        await thread.add_user(discord.Object(alice.id))  # already a member: still 204
        assert standin.thread_members(stored) == {standin.bot_user.id, alice.id}
        # Guilds intent only: THREAD_MEMBERS_UPDATE only for the bot's own membership.
        session = next(iter(standin.server.gateway.sessions.values()))
        updates = [f["d"] for f in session.backlog if f["t"] == "THREAD_MEMBERS_UPDATE"]
        assert [[m["user_id"] for m in u["added_members"]] for u in updates] == [[str(standin.bot_user.id)]]

        posted = await thread.send("Round 1")
        await thread.edit(archived=True)
        assert standin.is_archived(stored)
        await standin.world.wait_until(lambda: (thread.id, True) in bot.thread_updates, 2, "no THREAD_UPDATE")
        await _raises(thread.add_user(discord.Object(bob.id)), 400, 50083)
        await _raises(posted.edit(content="Round 2"), 400, 50083)
        with pytest.raises(InteractionRejected):
            await standin.slash(alice, stored, "where")
        # Threads.md: "Sending a message will automatically unarchive the thread, unless the thread
        # has been locked by a moderator."
        await thread.send("back")
        assert not standin.is_archived(stored)
        await posted.edit(content="Round 2")
        await standin.archive(stored, locked=True)
        await _raises(thread.send("locked?"), 403, 160005)
        await _raises(thread.edit(archived=False), 403, 50013)  # locked: MANAGE_THREADS only
        await standin.unarchive(stored)
        await thread.add_user(discord.Object(bob.id))
        assert bob.id in standin.thread_members(stored)
        await _raises(thread.edit(locked=True), 403, 50013)  # locking needs MANAGE_THREADS
        assert [e.body["code"] for e in standin.errors] == [50083, 50083, 160005, 50013, 50013]


async def test_a_moderator_locks_and_unlocks_a_thread(world: Any) -> None:
    standin, guild, channel, alice, bob = world
    async with standin.running(ThreadBot()) as bot:
        _, thread = await _lobby_thread(bot, channel.id)
        stored = standin.channel(thread.id)
        await thread.add_user(discord.Object(alice.id))
        posted = await thread.send("Round 1")
        moderator = standin.server.threads
        await moderator.moderate(stored, locked=True)
        await standin.world.wait_until(lambda: bot.raw_thread_updates, 2, "no THREAD_UPDATE")
        assert bot.raw_thread_updates == [(thread.id, True, False, True)]
        assert bot.get_channel(thread.id).locked
        # Threads.md, Locked Threads: no messages, no edits, no title without MANAGE_THREADS ...
        await _raises(thread.send("locked?"), 403, 160005)
        await _raises(posted.edit(content="Round 2"), 403, 160005)
        await _raises(thread.edit(name="renamed"), 403, 160005)
        await _raises(thread.add_user(discord.Object(bob.id)), 403, 160005)
        # ... and unlocking is for MANAGE_THREADS only (Editing & Deleting Threads).
        await _raises(thread.edit(locked=False), 403, 50013)
        # Locked and archived: editing is refused for the archive first; unarchiving needs MANAGE_THREADS.
        await moderator.moderate(stored, archived=True)
        await _raises(posted.edit(content="Round 2"), 400, 50083)
        await _raises(thread.edit(archived=False), 403, 50013)
        await _raises(thread.send("still locked?"), 403, 160005)
        # An archived thread leaves discord.py's cache: its unlock fires on_raw_thread_update only.
        await moderator.moderate(stored, locked=False, archived=False)
        await standin.world.wait_until(lambda: len(bot.raw_thread_updates) == 3 or None, 2, "no THREAD_UPDATE")
        assert bot.raw_thread_updates[1:] == [(thread.id, True, True, True), (thread.id, False, False, False)]
        # on_thread_update saw the lock and the archive, not the unlock: it found no cached thread.
        assert bot.thread_updates == [(thread.id, False), (thread.id, True)]
        await posted.edit(content="Round 2")
        await thread.send("open again")
        # A lock whose THREAD_UPDATE never reaches the bot: the refusal is all it learns.
        await moderator.moderate(stored, locked=True, announce=False)
        await _raises(thread.send("locked?"), 403, 160005)
        assert len(bot.raw_thread_updates) == 3 and not bot.get_channel(thread.id).locked
        # A bot that may manage threads still posts in a locked thread.
        standin.set_bot_permissions(discord.Permissions(standin.world.bot_permissions.value, manage_threads=True))
        await thread.send("moderator bot")
        await posted.edit(content="Round 3")
        assert [e.body["code"] for e in standin.errors] == [
            160005,
            160005,
            160005,
            160005,
            50013,
            50083,
            50013,
            160005,
            160005,
        ]


async def test_inactive_threads_archive_on_the_standins_clock(world: Any) -> None:
    standin, guild, channel, alice, _ = world
    async with standin.running(ThreadBot()) as bot:
        _, thread = await _lobby_thread(bot, channel.id, auto_archive_duration=60)
        _, quiet = await _lobby_thread(bot, channel.id, auto_archive_duration=1440)
        stored = standin.channel(thread.id)
        standin.advance_time(50 * 60)
        await thread.send("still here")  # activity restarts the hour
        await standin.wait_for_commands("where")
        await (await standin.slash(alice, standin.channel(quiet.id), "where")).reply()  # so does an answer there
        standin.advance_time(50 * 60)
        assert not standin.is_archived(stored)
        standin.advance_time(11 * 60)
        assert standin.is_archived(stored) and not standin.is_archived(standin.channel(quiet.id))
        await standin.world.wait_until(lambda: (thread.id, True) in bot.thread_updates, 2, "no THREAD_UPDATE")
        fetched = await bot.fetch_channel(thread.id)
        assert fetched.archived and fetched.auto_archive_duration == 60
        await fetched.edit(archived=False)  # unarchiving is activity: a fresh hour
        standin.advance_time(59 * 60)
        assert not standin.is_archived(stored)
        standin.advance_time(2 * 60)
        assert standin.is_archived(stored)
        standin.advance_time(
            (50 + 1440 - 1 - 172) * 60
        )  # now 1489 min: past a day since creation, not since the answer
        assert not standin.is_archived(standin.channel(quiet.id))
    async with standin.running(ThreadBot()) as restarted:  # GUILD_CREATE carries the active threads only
        assert restarted.get_channel(quiet.id) is not None and restarted.get_channel(thread.id) is None
        assert restarted.get_channel(quiet.id).me is not None  # its thread member object came along
        active = await restarted.get_guild(guild.id).active_threads()
        assert [t.id for t in active] == [quiet.id]


async def test_thread_permissions_are_the_thread_ones(world: Any) -> None:
    standin, guild, channel, alice, _ = world
    async with standin.running(ThreadBot()) as bot:
        _, thread = await _lobby_thread(bot, channel.id)
        standin.deny_bot_permissions(channel, discord.Permissions(send_messages_in_threads=True))
        await bot.get_channel(channel.id).send("the channel itself is fine")
        await _raises(thread.send("in the thread"), 403, 50013)
        await _raises(thread.add_user(discord.Object(alice.id)), 403, 50013)
        with pytest.raises(ValueError):
            standin.deny_bot_permissions(standin.channel(thread.id), discord.Permissions(send_messages=True))
        await standin.slash(alice, standin.channel(thread.id), "where")
        await standin.world.wait_until(lambda: bot.seen, 2, "the command never ran")
        assert not bot.seen[0]["app_permissions"].send_messages_in_threads
        assert bot.seen[0]["app_permissions"].send_messages


async def test_interactions_from_a_thread_and_a_forum_post(world: Any) -> None:
    standin, guild, channel, alice, _ = world
    forum = standin.add_forum_channel(guild, "lobbies")
    async with standin.running(ThreadBot()) as bot:
        await standin.wait_for_commands("where")
        _, thread = await _lobby_thread(bot, channel.id)
        reply = await (await standin.slash(alice, standin.channel(thread.id), "where")).reply()
        assert reply.channel is standin.channel(thread.id)
        click = await standin.click(alice, reply, "go")
        await click.ack()
        post, _ = await standin.add_forum_post(forum, "my table", alice, "who plays?")
        await (await standin.slash(alice, post, "where")).reply()
        assert [type(s["channel"]) for s in bot.seen] == [discord.Thread] * 3
        assert [s["channel"].parent_id for s in bot.seen] == [channel.id, channel.id, forum.id]
        assert bot.seen[0]["channel_id"] == thread.id
        assert bot.seen[0]["app_permissions"].create_public_threads
        assert isinstance(bot.get_channel(forum.id), discord.ForumChannel)
        standin.assert_no_errors()


async def test_a_public_follow_up_keeps_the_thread_rules(world: Any) -> None:
    """A click's public follow-up is a message the bot user creates in the thread: refused while a
    moderator has the thread locked (Threads.md, Locked Threads), and it unarchives an archived
    thread that is not locked, as a message sent with the bot's token does."""
    standin, guild, channel, alice, _ = world
    async with standin.running(ThreadBot()) as bot:
        await standin.wait_for_commands("where")
        _, thread = await _lobby_thread(bot, channel.id)
        stored = standin.channel(thread.id)
        reply = await (await standin.slash(alice, stored, "where")).reply()
        await (await standin.click(alice, reply, "go")).ack()
        interaction: discord.Interaction = bot.seen[-1]["interaction"]
        moderator = standin.server.threads
        await moderator.moderate(stored, locked=True)
        await _raises(interaction.followup.send("reveal", wait=True), 403, 160005)
        private = await interaction.followup.send("only for you", ephemeral=True, wait=True)
        assert private.flags.ephemeral
        await moderator.moderate(stored, locked=False, archived=True)
        sent = await interaction.followup.send("reveal", wait=True)
        assert standin.message(sent.id).channel is stored and not stored.archived
        assert [e.body["code"] for e in standin.errors] == [160005]


async def test_deleting_threads_and_channels(world: Any) -> None:
    standin, guild, channel, alice, _ = world
    other = standin.add_text_channel(guild, "other")
    async with standin.running(ThreadBot()) as bot:
        _, thread = await _lobby_thread(bot, channel.id)
        _, doomed = await _lobby_thread(bot, other.id)
        await standin.world.wait_until(lambda: bot.get_channel(doomed.id), 2, "no THREAD_CREATE")
        await standin.delete_channel(standin.channel(thread.id))
        await standin.world.wait_until(lambda: bot.deleted_threads, 2, "no THREAD_DELETE")
        assert (bot.deleted_threads[0].thread_id, bot.deleted_threads[0].parent_id) == (thread.id, channel.id)
        await _raises(thread.send("gone?"), 404, 10003)
        await standin.delete_channel(other)
        await standin.world.wait_until(lambda: bot.deleted_channels, 2, "no CHANNEL_DELETE")
        assert bot.deleted_channels == [other.id] and bot.get_channel(doomed.id) is None
        await _raises(doomed.send("gone too?"), 404, 10003)
        await _raises(
            bot.http.send_message(other.id, params=discord.http.handle_message_parameters(content="x")), 404, 10003
        )


async def test_direct_messages_nonces_and_blocked_users(world: Any) -> None:
    standin, guild, channel, alice, bob = world
    async with standin.running(ThreadBot()) as bot:
        user = await bot.fetch_user(alice.id)
        await user.send("Your turn")
        dm = await user.create_dm()
        first = await dm.send("Reminder", nonce="r-1")  # discord.py sends enforce_nonce with a nonce
        again = await dm.send("Reminder", nonce="r-1")  # a retried send: Discord answers the first one
        assert again.id == first.id
        assert [m.content for m in standin.dm_messages(alice)] == ["Your turn", "Reminder"]
        standin.block_dms(bob)
        await _raises((await bot.fetch_user(bob.id)).send("Your turn"), 403, 50007)
        assert standin.dm_messages(bob) == []


async def test_a_message_that_pings_a_member_in_a_thread_adds_them(world: Any) -> None:
    standin, guild, channel, alice, bob = world
    async with standin.running(ThreadBot()) as bot:
        _, thread = await _lobby_thread(bot, channel.id)
        stored = standin.channel(thread.id)
        # A mention the message may not ping adds nobody (here: no user may be pinged at all).
        await thread.send(f"<@{alice.id}> <@{bob.id}>", allowed_mentions=discord.AllowedMentions.none())
        assert standin.thread_members(stored) == {standin.bot_user.id}
        await thread.send(
            f"Your move, <@{alice.id}> and <@{bob.id}>",
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(alice.id)]),
        )
        assert standin.thread_members(stored) == {standin.bot_user.id, alice.id}
        await thread.send(f"<@{bob.id}>")  # no allowed_mentions: every mention is parsed
        assert standin.thread_members(stored) == {standin.bot_user.id, alice.id, bob.id}
