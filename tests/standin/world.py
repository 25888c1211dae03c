"""World state shared by the REST and gateway halves: who exists, what was said, what went wrong.

The World outlives any one bot process, which is what lets a restarted bot (or a test)
see and click on messages the previous instance sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from .faults import Faults
from .installs import app_permissions_without_bot, bot_present
from .message import Message
from .model import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    Channel,
    Guild,
    Member,
    Role,
    User,
    snowflake,
)
from .ratelimits import RateLimits

T = TypeVar("T")
TOKEN_LIFETIME = 15 * 60.0
# Discord checks an enforced nonce "for uniqueness in the past few minutes"; the stand-in keeps
# the short end of that, so a sender that relies on it for longer is caught here first.
NONCE_WINDOW = 120.0


@dataclass
class RequestRecord:
    """One REST call the bot made; `at` is time.monotonic() when it arrived."""

    at: float
    method: str
    path: str
    status: int = 0
    interaction_id: int | None = None


@dataclass
class ApiError:
    """A request Discord would have refused; tests usually assert `discord.errors == []`."""

    method: str
    path: str
    status: int
    body: dict[str, Any]
    request: Any = None

    def __str__(self) -> str:
        return f"{self.status} {self.method} {self.path}: {self.body}"


@dataclass
class Command:
    """One registered application command, as the bot synced it (with our assigned id)."""

    id: int
    guild_id: int | None
    data: dict[str, Any] = field(default_factory=dict)
    # The installation contexts in force (installs.py): as synced, or the app's when the sync left them out.
    integration_types: tuple[int, ...] = (0,)

    @property
    def name(self) -> str:
        return self.data["name"]


class World:
    def __init__(self, *, token: str, bot_name: str) -> None:
        self.token = token
        self.application_id = snowflake()
        self.bot = User(id=self.application_id, name=bot_name, bot=True)
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}  # the guilds the bot is a member of
        # Installs (installs.py): guilds the bot was never added to, the users who installed the app
        # to their account, and where the app can be installed at all (Application.md, "Setting
        # Supported Installation Contexts"; the bot's app: servers and users).
        self.foreign_guilds: dict[int, Guild] = {}
        self.user_installs: set[int] = set()
        self.app_integration_types: frozenset[int] = frozenset({0, 1})
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        # The same messages by channel and by ephemeral owner: a load test with
        # thousands of messages must not scan them all for every look at a channel.
        self._public_by_channel: dict[int, list[Message]] = {}
        self._ephemeral_by_user: dict[int, list[Message]] = {}
        self.global_commands: dict[str, Command] = {}
        self.guild_commands: dict[int, dict[str, Command]] = {}
        self.errors: list[ApiError] = []
        # (author id, nonce) -> (message, world.now() at creation), oldest first, for enforce_nonce
        self.nonces: dict[tuple[int, str], tuple[Message, float]] = {}
        self.nonce_window = NONCE_WINDOW
        self.requests: list[RequestRecord] = []
        self.faults = Faults()  # REST calls to fail on purpose (DiscordStandin.fail_requests / fail_next)
        self.rate_limits = RateLimits()  # Discord's rate limits, off until asked for; counted always
        self.interactions: dict[int, Any] = {}  # id -> interactions.Interaction
        self.interactions_by_token: dict[str, Any] = {}
        self.clock_offset = 0.0
        self.bot_permissions = DEFAULT_BOT_PERMISSIONS
        self.dispatch: Callable[[str, dict[str, Any]], Awaitable[None]] = _no_gateway
        self._waiters: set[asyncio.Future[None]] = set()

    # --- clock ------------------------------------------------------------------------------

    def now(self) -> float:
        """Monotonic time plus whatever the test fast-forwarded with advance_time()."""
        return time.monotonic() + self.clock_offset

    # --- building ---------------------------------------------------------------------------

    def add_guild(self, name: str, *, locale: str = "en-US", owner: User | None = None) -> Guild:
        guild = Guild(id=snowflake(), name=name, preferred_locale=locale)
        guild.owner_id = owner.id if owner else 0
        guild.roles.append(Role(id=guild.id, name="@everyone", permissions=DEFAULT_MEMBER_PERMISSIONS.value))
        return self.seat_bot(guild)

    def seat_bot(self, guild: Guild) -> Guild:
        """The bot joins `guild` (with a role of its own, as an invite gives it): a foreign guild stops being one."""
        bot_role = Role(
            id=snowflake(), name=self.bot.name, permissions=self.bot_permissions.value, position=len(guild.roles)
        )
        guild.roles.append(bot_role)
        guild.members[self.bot.id] = Member(user=self.bot, guild=guild, roles=[bot_role])
        guild.bot_member = True
        self.foreign_guilds.pop(guild.id, None)
        self.guilds[guild.id] = guild
        return guild

    def add_foreign_guild(self, name: str, *, locale: str = "en-US") -> Guild:
        """A guild without the bot: only @everyone, no bot member, kept apart from `guilds`."""
        guild = Guild(id=snowflake(), name=name, preferred_locale=locale, bot_member=False)
        guild.roles.append(Role(id=guild.id, name="@everyone", permissions=DEFAULT_MEMBER_PERMISSIONS.value))
        self.foreign_guilds[guild.id] = guild
        return guild

    def add_channel(self, channel: Channel) -> Channel:
        if channel.guild is not None:
            channel.guild.channels.append(channel)
        self.channels[channel.id] = channel
        channel.clock = self.now
        if channel.is_thread:
            channel.last_activity = channel.archive_changed_at = self.now()
        return channel

    def remove_channel(self, channel: Channel) -> list[Channel]:
        """Delete a channel and, for a non-thread, its threads; returns every channel removed."""
        gone = [channel] + [c for c in self.channels.values() if c.parent is channel and c.is_thread]
        for item in gone:
            item.deleted = True
            self.channels.pop(item.id, None)
            if item.guild is not None and item in item.guild.channels:
                item.guild.channels.remove(item)
        self.notify()
        return gone

    def bot_permissions_in(self, channel: Channel) -> discord.Permissions:
        """The bot's permissions in `channel`: its roles, minus the overwrites on the channel (a thread
        has none of its own: docs/topics/Threads.md, "Threads generally inherit permissions from the
        parent channel"). ADMINISTRATOR overrides every overwrite (docs/topics/Permissions.md). Where the
        bot is not (a foreign guild, a group DM): what the app may use there (installs.py)."""
        if not bot_present(channel):
            return discord.Permissions(app_permissions_without_bot(channel))
        base = self.bot_permissions
        if channel.type == 1 or base.administrator:
            return discord.Permissions.all() if base.administrator else base
        source = channel.parent if channel.is_thread and channel.parent is not None else channel
        return discord.Permissions(base.value & ~source.bot_deny)

    def touch(self, thread: Channel, message_id: int | None = None) -> None:
        """Activity in a thread (a message): it restarts the thread's inactivity timer."""
        thread.last_activity = self.now()
        if message_id is not None:
            thread.last_message_id = message_id
            thread.message_count += 1

    def add_user(self, name: str, *, global_name: str | None = None, locale: str = "en-US", bot: bool = False) -> User:
        user = User(id=snowflake(), name=name, global_name=global_name, locale=locale, bot=bot)
        self.users[user.id] = user
        return user

    def dm_channel(self, user: User) -> Channel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient is user:
                return channel
        return self.add_channel(Channel(id=snowflake(), name=f"dm-{user.name}", type=1, recipient=user))

    # --- messages ---------------------------------------------------------------------------

    def store(self, message: Message) -> Message:
        if message.id not in self.messages:
            if message.ephemeral:
                self._ephemeral_by_user.setdefault(message.ephemeral_to.id, []).append(message)
            else:
                self._public_by_channel.setdefault(message.channel.id, []).append(message)
        self.messages[message.id] = message
        self.notify()
        return message

    def channel_messages(self, channel: Channel, *, include_deleted: bool = False) -> list[Message]:
        return [
            m
            for m in self._public_by_channel.get(channel.id, ())
            if m.channel is channel and (include_deleted or not m.deleted)
        ]

    def ephemerals(self, user: User) -> list[Message]:
        return [m for m in self._ephemeral_by_user.get(user.id, ()) if m.ephemeral_to is user and not m.deleted]

    def remember_nonce(self, message: Message) -> None:
        self.nonces[(message.author.id, message.nonce)] = (message, self.now())

    def message_with_nonce(self, author: User, nonce: str) -> Message | None:
        """The message `author` created with `nonce` within the nonce window, if any."""
        cutoff = self.now() - self.nonce_window
        while self.nonces:  # forget expired nonces, oldest first
            oldest = next(iter(self.nonces))
            if self.nonces[oldest][1] >= cutoff:
                break
            del self.nonces[oldest]
        found = self.nonces.get((author.id, nonce))
        return found[0] if found else None

    def record_error(self, error: ApiError) -> None:
        self.errors.append(error)
        self.notify()

    # --- waiting ----------------------------------------------------------------------------

    def notify(self) -> None:
        """Wake everybody blocked in wait_until(); they re-check their predicate."""
        waiters, self._waiters = self._waiters, set()
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait_until(self, check: Callable[[], T | None], timeout: float, describe: str) -> T:
        """Return check()'s first truthy result, or fail the test with `describe` after `timeout` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandinTimeout(f"{describe} within {timeout:g} s")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.add(fut)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(fut, min(remaining, 0.25))


class StandinTimeout(AssertionError):
    """Something the test waited for never happened (an AssertionError so pytest shows it plainly)."""


async def _no_gateway(event: str, data: dict[str, Any]) -> None:
    return None
