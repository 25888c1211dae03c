"""The stand-in's world: users, guilds, roles and channels, plus their Discord JSON shapes.

Everything here is plain data. The REST and gateway layers turn it into the payloads
discord.py parses, so the payload builders live next to the data they describe.
"""

from __future__ import annotations

import datetime
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL_FLAG = 1 << 6
LOADING_FLAG = 1 << 7
HAS_THREAD_FLAG = (
    1 << 5
)  # docs/resources/Message.md, Message Flags: "HAS_THREAD: this message has an associated thread, with the same id as the message"

# What a freshly invited bot usually gets: enough to play a card game in text channels.
DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
)
# @everyone in a fresh guild: members can talk and use slash commands.
DEFAULT_MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    add_reactions=True,
    use_application_commands=True,
    embed_links=True,
    attach_files=True,
    # Change log, User-Installed Apps General Availability: "A new USE_EXTERNAL_APPS (1 << 50)
    # permission was added, and is enabled for servers by default."
    use_external_apps=True,
)

_counter = itertools.count()


def snowflake() -> int:
    """A real-looking, strictly increasing snowflake, so discord.py's created_at is sane."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def iso_at(monotonic_at: float) -> str:
    """The wall-clock ISO time of a moment on the stand-in's clock (world.now() scale)."""
    wall = time.time() - time.monotonic() + monotonic_at
    return datetime.datetime.fromtimestamp(wall, datetime.UTC).isoformat()


# Channel types (docs/resources/Channel.md, "Channel Types").
GROUP_DM = 3  # "a direct message between multiple users"
DM, GUILD_TEXT, GUILD_NEWS, NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD, GUILD_FORUM, GUILD_MEDIA = (
    1,
    0,
    5,
    10,
    11,
    12,
    15,
    16,
)
# docs/resources/Channel.md, thread metadata / Start Thread from Message: "can be set to: 60, 1440, 4320, 10080".
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


@dataclass(eq=False)
class User:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    accepts_dms: bool = True  # False: the user blocked the bot / closed DMs (DiscordStandin.block_dms)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    mentionable: bool = False  # "Allow anyone to @mention this role"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": self.mentionable,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    """A user's membership in one guild; this is who clicks and types in tests."""

    user: User
    guild: Guild
    nick: str | None = None
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def display_name(self) -> str:
        return self.nick or self.user.global_name or self.user.name

    @property
    def locale(self) -> str:
        return self.user.locale

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> discord.Permissions:
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        perms = discord.Permissions(value)
        if perms.administrator or self.guild.owner_id == self.id:
            return discord.Permissions.all()
        return perms

    def payload(self, *, with_permissions: bool = False) -> dict[str, Any]:
        data = {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions.value)
        return data


@dataclass(eq=False)
class Channel:
    """A guild text channel, a forum (type 15), a thread (type 10/11/12), the bot's DM with a user
    (type 1, `recipient`) or a group DM of users (type 3, `recipients`; the bot is never one)."""

    id: int
    name: str
    type: int = 0
    guild: Guild | None = None
    parent: Channel | None = None
    owner_id: int | None = None
    recipient: User | None = None
    recipients: list[User] = field(default_factory=list)  # a group DM's users
    topic: str | None = None
    position: int = 0
    # Threads (docs/topics/Threads.md, "Active & Archived Threads"); times are on world.now()'s scale.
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_changed_at: float = 0.0  # archive_timestamp: creating, (un)archiving, changing the duration
    last_activity: float = 0.0  # "Activity" = sending a message, unarchiving, changing the auto-archive time
    members: dict[int, str] = field(default_factory=dict)  # thread members: user id -> join timestamp
    message_count: int = 0
    last_message_id: int | None = None
    # Bits a channel permission overwrite denies the bot (DiscordStandin.deny_bot_permissions).
    bot_deny: int = 0
    # Bits a channel overwrite denies @everyone (DiscordStandin.set_use_external_apps).
    everyone_deny: int = 0
    deleted: bool = False
    clock: Callable[[], float] | None = field(default=None, repr=False)  # world.now, set by World.add_channel

    @property
    def is_thread(self) -> bool:
        return self.type in (NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def check_archived(self) -> bool:
        """Archived now? A thread inactive for longer than its auto_archive_duration archives itself
        (docs/topics/Threads.md: "Threads automatically archive after a period of inactivity");
        evaluated lazily, the moment it passed is its archive_timestamp."""
        if self.is_thread and not self.archived and self.clock is not None:
            due = self.last_activity + self.auto_archive_duration * 60
            if self.clock() >= due:
                self.archived = True
                self.archive_changed_at = due
        return self.archived

    def thread_member(self, user_id: int) -> dict[str, Any]:
        """A thread member object (docs/resources/Channel.md, "Thread Member Object")."""
        return {"id": str(self.id), "user_id": str(user_id), "join_timestamp": self.members[user_id], "flags": 0}

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "name": self.name, "flags": 0}
        if self.type == DM:
            data.pop("name")
            data["recipients"] = [self.recipient.payload()] if self.recipient else []
            data["last_message_id"] = str(self.last_message_id) if self.last_message_id else None
            return data
        if self.type == GROUP_DM:
            data.update(
                name=self.name or None,  # an unnamed group DM's name is null
                icon=None,
                owner_id=str(self.owner_id) if self.owner_id else None,
                recipients=[user.payload() for user in self.recipients],
                last_message_id=str(self.last_message_id) if self.last_message_id else None,
            )
            return data
        data["guild_id"] = str(self.guild.id) if self.guild else None
        data["last_message_id"] = str(self.last_message_id) if self.last_message_id else None
        data["rate_limit_per_user"] = 0
        if self.is_thread:
            self.check_archived()
            data.update(
                parent_id=str(self.parent.id) if self.parent else None,
                owner_id=str(self.owner_id) if self.owner_id else None,
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=min(len(self.members), 50),  # "stop counting at 50" (Threads.md)
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso_at(self.archive_changed_at) if self.archive_changed_at else iso_now(),
                    "locked": self.locked,
                },
            )
            if self.type == PRIVATE_THREAD:
                data["thread_metadata"]["invitable"] = True
        else:
            data.update(position=self.position, permission_overwrites=[], topic=self.topic, nsfw=False, parent_id=None)
            if self.type in (GUILD_FORUM, GUILD_MEDIA):
                data.update(
                    available_tags=[],
                    default_reaction_emoji=None,
                    default_sort_order=None,
                    default_forum_layout=0,
                    default_thread_rate_limit_per_user=0,
                )
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int = 0
    preferred_locale: str = "en-US"
    # False: a guild the bot was never added to (DiscordStandin.foreign_guild); its members may
    # still use the app if they installed it to their account (installs.py).
    bot_member: bool = True
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    @property
    def text_channels(self) -> list[Channel]:
        """The guild's channels that are not threads (text and forum channels)."""
        return [c for c in self.channels if not c.is_thread]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels if c.is_thread]

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "region": "",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "unavailable": False,
            "large": False,
            "joined_at": iso_now(),
            "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.text_channels],
            # docs/topics/Gateway_Events.md, Guild Create: "All active threads in the guild that current
            # user has permission to view" -- archived ones are not synced up front (Threads.md).
            "threads": [c.payload() for c in self.threads if not c.check_archived()],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
