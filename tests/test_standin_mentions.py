"""Who a message pings, in the stand-in, driven by a plain discord.py client: each check is a rule of
Discord's "Allowed Mentions" reference (tests/standin/mentions.py quotes it), and discord.py reads
the same pings from the stand-in's answer as it would from Discord's."""

from __future__ import annotations

import discord
import pytest

from tests.standin import DiscordStandin
from tests.standin.model import DEFAULT_BOT_PERMISSIONS


def pings(stored) -> tuple[set[int], set[int], bool]:
    return set(stored.pinged_users), set(stored.pinged_roles), stored.pinged_everyone


@pytest.fixture
async def server():
    async with DiscordStandin() as standin:
        guild = standin.add_guild("Pings")
        channel = standin.add_text_channel(guild, "general")
        alice = standin.add_member(guild, "alice")
        bob = standin.add_member(guild, "bob")
        quiet = standin.add_role(guild, "quiet")
        loud = standin.add_role(guild, "loud", mentionable=True)
        yield standin, guild, channel, alice, bob, quiet, loud


async def test_what_a_message_pings_follows_allowed_mentions(server):
    standin, guild, channel, alice, bob, quiet, loud = server
    everything = f"@everyone <@{alice.id}> <@!{bob.id}> <@&{quiet.id}> <@&{loud.id}>"
    async with standin.running(discord.Client(intents=discord.Intents(guilds=True))) as client:
        where = client.get_partial_messageable(channel.id, guild_id=guild.id)

        # No allowed_mentions: every mention in the content parses, as far as the bot may ping:
        # without Mention Everyone, not @everyone and not a role that is not mentionable.
        sent = await where.send(everything)
        assert pings(standin.message(sent.id)) == ({alice.id, bob.id}, {loud.id}, False)
        # discord.py reads the same from the answer (Discord's mentions, mention_roles, mention_everyone).
        assert {user.id for user in sent.mentions} == {alice.id, bob.id}
        assert [role.id for role in sent.role_mentions] == [loud.id] and not sent.mention_everyone

        # parse: [] suppresses every mention.
        sent = await where.send(everything, allowed_mentions=discord.AllowedMentions.none())
        assert pings(standin.message(sent.id)) == (set(), set(), False)
        assert sent.mentions == [] and sent.role_mentions == []

        # A users list lets exactly those ping, and only if the content mentions them.
        sent = await where.send(
            everything,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(alice.id), discord.Object(12345678901234567)]
            ),
        )
        assert pings(standin.message(sent.id)) == ({alice.id}, set(), False)
        # A mention broken by a zero-width space (discord.utils.escape_mentions) is no mention.
        sent = await where.send(discord.utils.escape_mentions(everything))
        assert pings(standin.message(sent.id)) == (set(), set(), False)

        # "parse": ["users"] together with a users list is refused: the two are mutually exclusive.
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.send_message(
                channel.id,
                params=discord.http.MultipartParameters(
                    payload={"content": everything, "allowed_mentions": {"parse": ["users"], "users": [str(alice.id)]}},
                    multipart=None,
                    files=None,
                ),
            )
        assert refused.value.status == 400 and refused.value.code == 50035
        standin.world.errors.clear()

        # With Mention Everyone the bot may ping @everyone and any role, where allowed_mentions lets it.
        standin.set_bot_permissions(DEFAULT_BOT_PERMISSIONS | discord.Permissions(mention_everyone=True))
        sent = await where.send(everything)
        assert pings(standin.message(sent.id)) == ({alice.id, bob.id}, {quiet.id, loud.id}, True)
        assert sent.mention_everyone
        sent = await where.send(
            everything,
            allowed_mentions=discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(quiet.id)]),
        )
        assert pings(standin.message(sent.id)) == (set(), {quiet.id}, False)
        sent = await where.send("@here, look", allowed_mentions=discord.AllowedMentions(everyone=True))
        assert pings(standin.message(sent.id)) == (set(), set(), True)

        # A reply pings its author unless allowed_mentions says otherwise (replied_user, default false).
        said = await standin.say(alice, channel, "hello")
        sent = await where.get_partial_message(said.id).reply("hi")
        assert pings(standin.message(sent.id)) == ({alice.id}, set(), False)
        sent = await where.get_partial_message(said.id).reply("hi", mention_author=False)
        assert pings(standin.message(sent.id)) == (set(), set(), False)

        # An edit parses its new content again; each version keeps whom it pinged.
        sent = await where.send(f"<@{alice.id}>", allowed_mentions=discord.AllowedMentions.none())
        await sent.edit(content=f"<@{bob.id}>", allowed_mentions=discord.AllowedMentions(users=True))
        stored = standin.message(sent.id)
        assert [set(version.pings.users) for version in stored.versions()] == [set(), {bob.id}]
    standin.assert_no_errors()


async def test_a_client_default_applies_to_every_message_unless_one_passes_its_own(server):
    standin, guild, channel, alice, bob, _, loud = server
    standin.set_bot_permissions(DEFAULT_BOT_PERMISSIONS | discord.Permissions(mention_everyone=True))
    client = discord.Client(intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none())
    async with standin.running(client):
        where = client.get_partial_messageable(channel.id, guild_id=guild.id)
        sent = await where.send(f"@everyone <@{alice.id}> <@&{loud.id}>")
        assert pings(standin.message(sent.id)) == (set(), set(), False)
        # One message names whom it means to ping: only them, the rest of the default stays.
        sent = await where.send(
            f"@everyone <@{alice.id}> <@{bob.id}> <@&{loud.id}>",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(bob.id)]),
        )
        assert pings(standin.message(sent.id)) == ({bob.id}, set(), False)
    standin.assert_no_errors()
