"""DiscordStandin: the object tests talk to. Build a world, run a bot, act as users, observe."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

import discord as dpy

from .env import API_BASE_ENV, GATEWAY_URL_ENV, pointed_at
from .faults import Fault, InjectedFault
from .installs import InstallsMixin
from .interactions import (
    Interaction,
    InteractionRejected,
    build_autocomplete_data,
    build_command_data,
    find_command,
    offered_owners,
)
from .message import Message
from .model import GROUP_DM, GUILD_FORUM, Channel, Guild, Member, Role, User, iso_at, snowflake
from .ratelimits import RateLimits, RouteLimit
from .server import StandinServer
from .threads import apply_thread_change
from .world import ApiError, Command, RequestRecord, StandinTimeout, World

Actor = Member | User


class DiscordStandin(InstallsMixin):
    """A fake Discord on 127.0.0.1 that a real discord.py bot can log in to.

    >>> async with DiscordStandin() as standin:
    ...     guild = standin.add_guild("Table")
    ...     channel = standin.add_text_channel(guild, "games")
    ...     alice = standin.add_member(guild, "alice")
    ...     async with standin.running(bot):
    ...         reply = await (await standin.slash(alice, channel, "6nimmt start", variant="classic")).reply()
    """

    def __init__(
        self,
        *,
        token: str = "standin-bot-token",
        bot_name: str = "Nimmt",
        ack_deadline: float = 3.0,
        rate_limits: bool = False,
        window_scale: float = 1.0,
    ) -> None:
        """``rate_limits=True``: hold the bot to Discord's rate limits (ratelimits.py), as
        ``set_rate_limits(True)`` does; ``window_scale`` shortens their route windows (1: Discord's)."""
        self.world = World(token=token, bot_name=bot_name)
        self.world.rate_limits.configure(rate_limits, window_scale=window_scale)
        self.server = StandinServer(self.world)
        self.ack_deadline = ack_deadline  # Discord's 3-second rule; raise it for slow CI if needed
        self._restore: list[contextlib.ExitStack] = []
        self._announcements: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> DiscordStandin:
        await self.server.start()
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()

    async def close(self) -> None:
        for stack in reversed(self._restore):
            stack.close()
        self._restore.clear()
        await self.server.close()

    # --- wiring discord.py ------------------------------------------------------------------

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def api_base(self) -> str:
        return self.server.api_base

    @property
    def gateway_url(self) -> str:
        return self.server.gateway_url

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot subprocess (it calls tests.standin.apply_env_overrides())."""
        return {API_BASE_ENV: self.api_base, GATEWAY_URL_ENV: self.gateway_url, "DISCORD_TOKEN": self.token}

    def configure_client(self) -> contextlib.AbstractContextManager[None]:
        """Point discord.py at this stand-in. Use as `with standin.configure_client():`, or call it
        bare and it stays patched until the stand-in closes."""
        stack = contextlib.ExitStack()
        stack.enter_context(pointed_at(self.api_base, self.gateway_url))
        self._restore.append(stack)
        return stack

    @contextlib.asynccontextmanager
    async def running(self, bot: dpy.Client, *, ready: bool = False, timeout: float = 5.0) -> AsyncIterator[dpy.Client]:
        """Run `bot` against the stand-in until the block ends, then close it (a clean shutdown).

        Returns once the gateway session has received its guilds; pass ready=True to also wait
        for on_ready (that takes the bot's guild_ready_timeout, 2 s by default).
        """
        with pointed_at(self.api_base, self.gateway_url):
            identified = self.server.gateway.identify_count
            task = asyncio.create_task(bot.start(self.token), name="standin-bot")
            try:
                await self.world.wait_until(
                    lambda: task.done() or (self.server.gateway.identify_count > identified and self.connected),
                    timeout,
                    "the bot did not connect to the gateway",
                )
                # The guilds went out with READY; wait until the bot has actually parsed them
                # (a sharded bot gets only the guilds of its shards).
                shard_ids, shard_count = getattr(bot, "shard_ids", None), bot.shard_count
                mine = [g for g in self.world.guilds if not shard_ids or (g >> 22) % shard_count in shard_ids]
                await _poll(
                    lambda: task.done() or all(bot.get_guild(g) for g in mine),
                    timeout,
                    "the bot did not receive its GUILD_CREATEs",
                )
                if task.done():
                    task.result()  # surface login/setup errors
                if ready:
                    await asyncio.wait_for(bot.wait_until_ready(), timeout)
                yield bot
            finally:
                await bot.close()
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait_for(task, timeout)

    async def wait_until_connected(self, timeout: float = 10.0) -> None:
        """For a bot in a subprocess: wait until it has IDENTIFYed (events after that arrive in order)."""
        await self.world.wait_until(lambda: self.connected, timeout, "no bot connected to the gateway")

    @property
    def connected(self) -> bool:
        return bool(self.server.gateway.live_sessions)

    async def wait_for_commands(self, *names: str, guild: Guild | None = None, timeout: float = 3.0) -> list[Command]:
        """Wait until the bot has synced commands with these names (globally, or to `guild`)."""
        scope = (lambda: self.world.guild_commands.get(guild.id, {})) if guild else (lambda: self.world.global_commands)
        return await self.world.wait_until(
            lambda: [scope()[n] for n in names] if all(n in scope() for n in names) else None,
            timeout,
            f"the bot did not sync commands {names}",
        )

    def commands(self, guild: Guild | None = None) -> dict[str, dict[str, Any]]:
        """The synced command JSON by name, exactly as the bot registered it."""
        scope = self.world.guild_commands.get(guild.id, {}) if guild else self.world.global_commands
        return {name: command.data for name, command in scope.items()}

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT; a healthy bot reconnects and RESUMEs its session."""
        await self.server.gateway.request_reconnect()

    def drop_gateway(self) -> int:
        """Cut the bot's gateway connections at the TCP level, as a network failure would (no close
        frame, no op 7). discord.py notices, reconnects and RESUMEs; events sent meanwhile are
        replayed from the session's backlog. Returns how many connections were cut."""
        return self.server.gateway.drop_connections()

    # --- failing on purpose (see faults.py for what discord.py retries) ----------------------

    def fail_requests(
        self,
        fraction: float,
        *,
        status: int | tuple[int, ...] = (500, 503),
        methods: Iterable[str] | None = None,
        routes: Iterable[str] | None = None,
        channel: int | None = None,
        seed: int = 0,
        applied: bool = False,
    ) -> Fault:
        """From now on answer `fraction` of the matching REST calls with `status` (one drawn at random
        from a tuple), changing nothing. Defaults: every method, every route but log-in and command
        sync. discord.py retries 500s itself (4 more tries over ~16 s) but not 503s: faults.py."""
        self.world.faults.rng.seed(seed)
        return self.world.faults.add(
            Fault(
                status=status,
                methods=_upper(methods),
                routes=frozenset(routes) if routes is not None else None,
                channel=channel,
                fraction=fraction,
                applied=applied,
            )
        )

    def fail_next(
        self,
        method: str,
        route: str,
        *,
        channel: int | None = None,
        times: int = 1,
        status: int = 503,
        applied: bool = False,
        drop: bool = False,
    ) -> Fault:
        """Fail the next `times` calls of `method` on `route` (a template such as
        "/channels/{channel}/messages/{message}"), in `channel` if given, before any random fault.
        `applied=True` applies the call and answers `status` anyway; `drop=True` cuts the
        connection instead of answering. Watch `.hits` / `.spent` on the returned rule."""
        return self.world.faults.add(
            Fault(
                status=status,
                methods=_upper([method]),
                routes=frozenset([route]),
                channel=channel,
                times=times,
                applied=applied,
                drop=drop,
            ),
            first=True,
        )

    def clear_faults(self) -> None:
        """Stop failing calls (the record of the ones failed so far stays in injected_faults)."""
        self.world.faults.clear()

    # --- rate limits (ratelimits.py: what Discord documents, and the numbers picked) ----------

    def set_rate_limits(
        self,
        enabled: bool = True,
        *,
        global_per_second: int | None = None,
        routes: dict[str, RouteLimit] | None = None,
        default: RouteLimit | None = None,
        window_scale: float | None = None,
    ) -> None:
        """Hold every REST call to Discord's rate limits from now on (``False``: no limits, the
        stand-in's default). The global limit is 50 bot-token requests a second (interaction
        callbacks and interaction webhooks exempt); the per-route buckets are ``ROUTE_LIMITS``.
        A test may shrink them to stay quick: ``global_per_second=5``, or ``routes={"POST
        /channels/{channel}/messages": RouteLimit(2, 0.5, "msg-create")}``, or every route's
        window alike: ``window_scale=0.1`` (kept as it was when not given)."""
        self.world.rate_limits.configure(
            enabled, global_per_second=global_per_second, routes=routes, default=default, window_scale=window_scale
        )

    @property
    def rate_limits(self) -> RateLimits:
        """The limits and what was counted: ``.figures()`` (bot-token requests a second, 429s by
        scope, invalid requests in any 10 minutes), ``.reset_figures()``, ``.limit_resource(id, s)``."""
        return self.world.rate_limits

    @property
    def injected_faults(self) -> list[InjectedFault]:
        return self.world.faults.injected

    @property
    def gateway_compression(self) -> str | None:
        """What the newest gateway connection negotiated: "zstd-stream", "zlib-stream" or None."""
        return self.server.gateway.compressions[-1] if self.server.gateway.compressions else None

    # --- world building ---------------------------------------------------------------------

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def set_bot_permissions(self, permissions: dpy.Permissions) -> None:
        self.world.bot_permissions = permissions
        for guild in self.world.guilds.values():
            guild.members[self.bot_user.id].roles[0].permissions = permissions.value

    def deny_bot_permissions(self, channel: Channel, permissions: dpy.Permissions) -> None:
        """A permission overwrite on `channel` that denies the bot `permissions` (on top of earlier
        denials). Threads have no overwrites of their own: deny on the parent, which they inherit."""
        if channel.is_thread:
            raise ValueError("threads take their permissions from their parent channel: deny on channel.parent")
        channel.bot_deny |= permissions.value

    def bot_permissions_in(self, channel: Channel) -> dpy.Permissions:
        return self.world.bot_permissions_in(channel)

    def add_guild(self, name: str = "Test Guild", *, locale: str = "en-US") -> Guild:
        guild = self.world.add_guild(name, locale=locale)
        self._announce("GUILD_CREATE", guild.payload)
        return guild

    def add_text_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        channel = self.world.add_channel(
            Channel(id=snowflake(), name=name, guild=guild, topic=topic, position=len(guild.channels))
        )
        self._announce("CHANNEL_CREATE", channel.payload)
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        private: bool = False,
        owner: Actor | None = None,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        """A thread `owner` (default: the bot) started without a message; the owner is its first member."""
        if owner is None and parent.guild is not None and not parent.guild.bot_member:
            raise ValueError(f"the bot is not in {parent.guild.name}: name the thread's owner")
        thread = self.world.add_channel(
            Channel(
                id=snowflake(),
                name=name,
                type=12 if private else 11,
                guild=parent.guild,
                parent=parent,
                owner_id=owner.id if owner else self.bot_user.id,
                auto_archive_duration=auto_archive_duration,
            )
        )
        thread.members[thread.owner_id] = iso_at(self.world.now())
        self._announce("THREAD_CREATE", lambda: thread.payload() | {"newly_created": True})
        return thread

    def add_forum_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        """A GUILD_FORUM channel (type 15): it holds posts (threads), never messages of its own."""
        forum = self.world.add_channel(
            Channel(id=snowflake(), name=name, type=GUILD_FORUM, guild=guild, topic=topic, position=len(guild.channels))
        )
        self._announce("CHANNEL_CREATE", forum.payload)
        return forum

    async def add_forum_post(self, forum: Channel, name: str, author: Actor, content: str) -> tuple[Channel, Message]:
        """`author` opens a post in `forum`: a public thread whose parent is the forum, and its first
        message, which has the thread's id (as on Discord: see threads.ThreadApi._start_forum_post)."""
        if forum.type != GUILD_FORUM:
            raise ValueError(f"#{forum.name} is not a forum channel")
        user = author.user if isinstance(author, Member) else author
        self._actor_in(author, forum)
        thread = self.world.add_channel(
            Channel(id=snowflake(), name=name, type=11, guild=forum.guild, parent=forum, owner_id=user.id)
        )
        thread.members[user.id] = iso_at(self.world.now())
        self._announce("THREAD_CREATE", lambda: thread.payload() | {"newly_created": True})
        message = self.world.store(Message(id=thread.id, channel=thread, author=user, content=content))
        self.world.touch(thread, message.id)
        if self.connected:
            await self.server.rest.dispatch_message("MESSAGE_CREATE", message)
        return thread, message

    def channel(self, channel_id: int) -> Channel:
        """A live channel or thread by id (e.g. the thread the bot started from a message)."""
        return self.world.channels[channel_id]

    def thread_members(self, thread: Channel) -> set[int]:
        return set(thread.members)

    def is_archived(self, thread: Channel) -> bool:
        """Archived by someone, or by inactivity on the stand-in's clock (see advance_time)."""
        return thread.check_archived()

    async def archive(self, thread: Channel, *, locked: bool = False) -> None:
        """A moderator archives `thread` (and locks it: then only MANAGE_THREADS may unarchive it)."""
        apply_thread_change(self.world, thread, {"archived": True, "locked": locked or thread.locked})
        await self.world.dispatch("THREAD_UPDATE", thread.payload())

    async def unarchive(self, thread: Channel) -> None:
        """A moderator unarchives `thread` (and unlocks it)."""
        apply_thread_change(self.world, thread, {"archived": False, "locked": False})
        await self.world.dispatch("THREAD_UPDATE", thread.payload())

    async def delete_channel(self, channel: Channel) -> None:
        """A user deletes a thread (THREAD_DELETE) or a channel (CHANNEL_DELETE; its threads go with
        it). Requests to them afterwards get 404 10003 Unknown Channel."""
        await self.server.threads.delete(channel)

    def block_dms(self, user: Actor, blocked: bool = True) -> None:
        """`user` no longer accepts DMs from the bot: sending them one is 403 50007."""
        (user.user if isinstance(user, Member) else user).accepts_dms = not blocked

    def dm_channel(self, user: Actor) -> Channel:
        """The DM channel between `user` and the bot (slash commands there carry `user`, not `member`)."""
        return self.world.dm_channel(user.user if isinstance(user, Member) else user)

    def add_role(
        self, guild: Guild, name: str, permissions: dpy.Permissions | None = None, *, mentionable: bool = False
    ) -> Role:
        value = permissions.value if permissions is not None else 0  # none by default
        role = Role(id=snowflake(), name=name, permissions=value, position=len(guild.roles), mentionable=mentionable)
        guild.roles.append(role)
        self._announce("GUILD_ROLE_CREATE", lambda: {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def add_member(
        self,
        guild: Guild,
        user: str | User,
        *,
        display_name: str | None = None,
        global_name: str | None = None,
        locale: str = "en-US",
        permissions: dpy.Permissions | None = None,
        roles: Iterable[Role] = (),
        owner: bool = False,
    ) -> Member:
        """Add a user (new, or an existing User for multi-guild setups) to `guild`.

        `permissions` are granted through a dedicated role, on top of @everyone's defaults.
        """
        if isinstance(user, str):
            user = self.world.add_user(user, global_name=global_name, locale=locale)
        member = Member(user=user, guild=guild, nick=display_name, roles=list(roles))
        if permissions is not None and permissions.value:
            member.roles.append(self.add_role(guild, f"{user.name}-perms", permissions))
        if owner:
            guild.owner_id = user.id
        guild.members[user.id] = member
        self._announce("GUILD_MEMBER_ADD", lambda: member.payload() | {"guild_id": str(guild.id)})
        return member

    def _announce_guild(self, guild: Guild) -> None:
        self._announce("GUILD_CREATE", guild.payload)

    def _announce(self, event: str, payload: Callable[[], dict[str, Any]]) -> None:
        """World changes made while a bot is connected reach it as gateway events."""
        if self.connected:
            task = asyncio.get_running_loop().create_task(self.world.dispatch(event, payload()))
            self._announcements.add(task)
            task.add_done_callback(self._announcements.discard)

    # --- acting as users --------------------------------------------------------------------

    async def slash(self, user: Actor, channel: Channel, command: str, /, **options: Any) -> Interaction:
        """`/command sub [group sub] option=value` typed by `user` in `channel`."""
        name, *path = command.strip().lstrip("/").split()
        registered = find_command(self.world, channel, name)
        actor = self._check_can_see(user, channel)
        owners = offered_owners(self.world, registered, actor, channel)
        if channel.is_thread and channel.check_archived():
            # Threads.md: "Users cannot edit messages, add reactions, use application commands, or join archived threads."
            raise InteractionRejected(f"#{channel.name} is archived: Discord offers no slash commands there")
        required = registered.data.get("default_member_permissions")
        # Application_Commands.md, Contexts: "command permissions for apps installed to a server"; a
        # server that has only its members' user installs holds none.
        held = required is not None and isinstance(actor, Member) and "0" in owners
        if held and int(required) & ~actor.permissions.value:
            raise InteractionRejected(f"{user.name} lacks the permissions /{name} requires ({required})")
        data = build_command_data(self.world, registered, path, options, user)
        return await self._dispatch(
            Interaction(
                self.world,
                kind=2,
                actor=actor,
                channel=channel,
                data=data,
                describe=f"/{command}",
                ack_deadline=self.ack_deadline,
                owners=owners,
            )
        )

    async def autocomplete(
        self, user: Actor, channel: Channel, command: str, /, *, option: str, value: str = "", **options: Any
    ) -> list[dict[str, Any]]:
        """`user` types `value` into the autocomplete option `option` of `/command` (with `options`
        filled in already); the choices the bot answered (callback type 8) within Discord's 3 s."""
        name, *path = command.strip().lstrip("/").split()
        registered = find_command(self.world, channel, name)
        actor = self._check_can_see(user, channel)
        owners = offered_owners(self.world, registered, actor, channel)
        data = build_autocomplete_data(self.world, registered, path, options, user, option, value)
        interaction = await self._dispatch(
            Interaction(
                self.world,
                kind=4,
                actor=actor,
                channel=channel,
                data=data,
                describe=f"autocomplete {option!r} of /{command}",
                ack_deadline=self.ack_deadline,
                owners=owners,
            )
        )
        kind = await interaction.ack()
        if kind != 8:
            raise InteractionRejected(f"the bot answered {interaction.describe} with callback type {kind}, not 8")
        return interaction.autocomplete_choices or []

    async def click(self, user: Actor, message: Message, custom_id: str) -> Interaction:
        """Press the button with `custom_id` on `message`; it must be there and enabled."""
        component = self._component_on(user, message, custom_id)
        if component["type"] != 2:
            raise InteractionRejected(f"{custom_id!r} is a select menu; use standin.select()")
        return await self.click_raw(user, message, custom_id)

    async def click_raw(
        self, user: Actor, message: Message, custom_id: str, *, component_type: int = 2, values: list[str] | None = None
    ) -> Interaction:
        """Send a component interaction without checking the message (forged custom_ids)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        # Receiving_and_Responding.md: authorizing_integration_owners "can be used to tell the difference
        # between the authorizing user and the user that triggered an interaction (like a message component)".
        origin = self.world.interactions.get(message.interaction_id) if message.interaction_id else None
        return await self._dispatch(
            Interaction(
                self.world,
                kind=3,
                actor=self._actor_in(user, message.channel),
                channel=message.channel,
                data=data,
                message=message,
                describe=f"component {custom_id!r}",
                ack_deadline=self.ack_deadline,
                owners=dict(origin.owners) if origin is not None else None,
            )
        )

    async def select(self, user: Actor, message: Message, custom_id: str, values: list[str]) -> Interaction:
        """Choose `values` in the select menu `custom_id` on `message`."""
        component = self._component_on(user, message, custom_id)
        if component["type"] == 2:
            raise InteractionRejected(f"{custom_id!r} is a button; use standin.click()")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise InteractionRejected(f"select {custom_id!r} takes {low}..{high} values, got {values}")
        if component["type"] == 3:
            offered = [o["value"] for o in component.get("options", [])]
            if not set(values) <= set(offered):
                raise InteractionRejected(f"select {custom_id!r} offers {offered}, not {values}")
        return await self.click_raw(user, message, custom_id, component_type=component["type"], values=values)

    async def say(self, user: Actor, channel: Channel, content: str) -> Message:
        """`user` posts a plain message (dispatched as MESSAGE_CREATE if the bot has the intent)."""
        actor = self._actor_in(user, channel)
        if channel.deleted:
            raise InteractionRejected(f"#{channel.name} was deleted")
        message = self.world.store(
            Message(
                id=snowflake(),
                channel=channel,
                author=actor if isinstance(actor, User) else actor.user,
                content=content,
            )
        )
        if channel.is_thread:
            # Threads.md: a user's message unarchives an archived thread (unless locked) and is activity.
            if channel.check_archived():
                if channel.locked:
                    raise InteractionRejected(f"#{channel.name} is locked")
                apply_thread_change(self.world, channel, {"archived": False})
                self._announce("THREAD_UPDATE", channel.payload)
            self.world.touch(channel, message.id)
        await self.server.rest.dispatch_message("MESSAGE_CREATE", message)
        return message

    def expire_token(self, interaction: Interaction) -> None:
        """Make the interaction's webhook token invalid now (as after 15 minutes)."""
        interaction.force_expired = True

    def advance_time(self, seconds: float) -> None:
        """Fast-forward the stand-in's clock (token expiry, thread auto-archiving); does not affect
        the bot's clocks. Threads whose inactivity passes their auto_archive_duration archive, and
        the bot gets a THREAD_UPDATE for each."""
        active = [c for c in self.world.channels.values() if c.is_thread and not c.check_archived()]
        self.world.clock_offset += seconds
        for thread in active:
            if thread.check_archived():
                self._announce("THREAD_UPDATE", thread.payload)

    async def _dispatch(self, interaction: Interaction) -> Interaction:
        if not self.connected:
            raise InteractionRejected("no bot is connected to the stand-in's gateway")
        self.world.interactions[interaction.id] = interaction
        self.world.interactions_by_token[interaction.token] = interaction
        interaction.dispatched_at = time.monotonic()
        await self.world.dispatch("INTERACTION_CREATE", interaction.payload())
        return interaction

    def _actor_in(self, user: Actor, channel: Channel) -> Actor:
        """Members act in their guild; a bare User acting in a guild channel becomes that member."""
        guild = channel.guild
        if guild is None:
            person = user.user if isinstance(user, Member) else user
            if channel.type == GROUP_DM and person not in channel.recipients:
                raise InteractionRejected(f"{person.name} is not in the group DM {channel.name or channel.id}")
            return person
        member = guild.members.get(user.id)
        if member is None:
            raise InteractionRejected(f"{user.name} is not a member of {guild.name}")
        return member

    def _check_can_see(self, user: Actor, channel: Channel) -> Actor:
        if channel.deleted:
            raise InteractionRejected(f"#{channel.name} was deleted")
        return self._actor_in(user, channel)

    def _component_on(self, user: Actor, message: Message, custom_id: str) -> dict[str, Any]:
        current = self.world.messages.get(message.id)
        if current is None or current.deleted:
            raise InteractionRejected(f"message {message.id} does not exist (deleted?)")
        if current.channel.deleted:
            raise InteractionRejected(f"#{current.channel.name} was deleted")
        if current.ephemeral and current.ephemeral_to.id != user.id:
            raise InteractionRejected(
                f"{user.name} cannot see an ephemeral message meant for {current.ephemeral_to.name}"
            )
        self._actor_in(user, current.channel)
        component = current.component(custom_id)
        if component is None:
            raise InteractionRejected(f"no component {custom_id!r} on {current!r}")
        if component.get("disabled"):
            raise InteractionRejected(f"component {custom_id!r} is disabled")
        return component

    # --- observing --------------------------------------------------------------------------

    def channel_messages(self, channel: Channel, *, include_deleted: bool = False) -> list[Message]:
        """Public messages in `channel`, oldest first (each with .history of earlier versions)."""
        return self.world.channel_messages(channel, include_deleted=include_deleted)

    def ephemerals(self, user: Actor) -> list[Message]:
        """Ephemeral messages only `user` can see, oldest first."""
        return self.world.ephemerals(user.user if isinstance(user, Member) else user)

    def dm_messages(self, user: Actor) -> list[Message]:
        target = user.user if isinstance(user, Member) else user
        return [
            m
            for m in self.world.messages.values()
            if m.channel.type == 1 and m.channel.recipient is target and not m.deleted
        ]

    def visible_to(self, user: Actor) -> list[Message]:
        """Everything `user` can currently see: public messages in their guilds, their ephemerals and DMs."""
        target = user.user if isinstance(user, Member) else user
        return [
            m
            for m in self.world.messages.values()
            if not m.deleted
            and (
                m.ephemeral_to is target
                or (not m.ephemeral and m.guild is not None and target.id in m.guild.members)
                or (m.channel.type == 1 and m.channel.recipient is target)
                or (not m.ephemeral and m.channel.type == GROUP_DM and target in m.channel.recipients)
            )
        ]

    def message(self, message_id: int) -> Message:
        return self.world.messages[message_id]

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool],
        timeout: float = 3.0,
        *,
        describe: str = "no matching message appeared",
    ) -> Message:
        """First live message (public or ephemeral) for which predicate(message) is true."""
        return await self.world.wait_until(
            lambda: next((m for m in self.world.messages.values() if not m.deleted and predicate(m)), None),
            timeout,
            describe,
        )

    @property
    def errors(self) -> list[ApiError]:
        """Every request the stand-in refused, Discord-style (validation, 40060, expired tokens, ...)."""
        return self.world.errors

    def assert_no_errors(self) -> None:
        assert not self.world.errors, "Discord would have refused:\n" + "\n".join(map(str, self.world.errors))

    @property
    def requests(self) -> list[RequestRecord]:
        return self.world.requests

    @property
    def interactions(self) -> list[Interaction]:
        return list(self.world.interactions.values())

    def ack_latencies(self) -> list[float]:
        """Seconds from INTERACTION_CREATE to callback POST, for every acknowledged interaction."""
        return [i.ack_latency for i in self.world.interactions.values() if i.ack_latency is not None]


def _upper(methods: Iterable[str] | None) -> frozenset[str] | None:
    return frozenset(m.upper() for m in methods) if methods is not None else None


async def _poll(check: Callable[[], bool], timeout: float, describe: str) -> None:
    """For conditions on the bot's side, which the stand-in gets no notification about."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise StandinTimeout(f"{describe} within {timeout:g} s")
        await asyncio.sleep(0.005)
