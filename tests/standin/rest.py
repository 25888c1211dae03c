"""Bot-authenticated REST routes: login, command sync, channels, messages, threads, DMs."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .commands import command_problems, form_errors
from .installs import MISSING_ACCESS, bot_present, install_problems, integration_types_of
from .message import Message
from .model import Channel, Guild, snowflake
from .plumbing import (
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    DiscordError,
    apply_payload,
    check_message_payload,
    json_response,
    no_content,
    read_body,
    unknown,
)
from .threads import (
    THREAD_LOCKED,
    add_pinged_members,
    apply_thread_change,
    dispatch_members_update,
    require_thread_open_for_edit,
    require_thread_unlocked,
)
from .world import ApiError, Command, World


class RestApi:
    def __init__(self, world: World, base_url: str) -> None:
        self.world = world
        self.base_url = base_url

    def add_routes(self, app: web.Application, prefix: str) -> None:
        r = app.router
        r.add_get(prefix + "/users/@me", self.get_me)
        r.add_get(prefix + "/oauth2/applications/@me", self.get_application)
        r.add_get(prefix + "/applications/@me", self.get_application)
        r.add_patch(prefix + "/applications/@me", self.get_application)
        r.add_get(prefix + "/gateway", self.get_gateway)
        r.add_get(prefix + "/gateway/bot", self.get_gateway)
        for scope in ("/applications/{app}/commands", "/applications/{app}/guilds/{guild}/commands"):
            r.add_get(prefix + scope, self.get_commands)
            r.add_put(prefix + scope, self.put_commands)
            r.add_post(prefix + scope, self.post_command)
        r.add_get(prefix + "/channels/{channel}", self.get_channel)
        r.add_get(prefix + "/channels/{channel}/messages", self.get_messages)
        r.add_post(prefix + "/channels/{channel}/messages", self.post_message)
        r.add_get(prefix + "/channels/{channel}/messages/{message}", self.get_message)
        r.add_patch(prefix + "/channels/{channel}/messages/{message}", self.patch_message)
        r.add_delete(prefix + "/channels/{channel}/messages/{message}", self.delete_message)
        r.add_post(prefix + "/channels/{channel}/typing", self.typing)
        r.add_put(prefix + "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", self.react)
        r.add_delete(prefix + "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", self.react)
        r.add_post(prefix + "/users/@me/channels", self.create_dm)
        r.add_get(prefix + "/users/{user}", self.get_user)
        r.add_get(prefix + "/guilds/{guild}", self.get_guild)
        r.add_get(prefix + "/guilds/{guild}/channels", self.get_guild_channels)
        r.add_get(prefix + "/guilds/{guild}/members/{user}", self.get_member)

    # --- helpers ----------------------------------------------------------------------------

    def _auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.world.token}":
            raise DiscordError(401, 0, "401: Unauthorized")

    def _channel(self, request: web.Request) -> Channel:
        """The channel of the request's path. One in a place the bot is not in (a server it was not
        added to, a group DM) is 403 / 50001 "Missing Access" for every bot-token request (installs.py)."""
        self._auth(request)
        channel = self.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            raise unknown("Channel", UNKNOWN_CHANNEL)
        if not bot_present(channel):
            raise missing_access()
        return channel

    def guild(self, request: web.Request) -> Guild | None:
        """The guild of the request's path, None if there is none; 403 / 50001 for a guild the bot is not in."""
        self._auth(request)
        guild_id = int(request.match_info["guild"])
        if guild_id in self.world.foreign_guilds:
            raise missing_access()
        return self.world.guilds.get(guild_id)

    def _message(self, request: web.Request) -> Message:
        channel = self._channel(request)
        message = self.world.messages.get(int(request.match_info["message"]))
        # Ephemeral messages are invisible to channel endpoints, exactly like on Discord.
        if message is None or message.channel is not channel or message.deleted or message.ephemeral:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return message

    async def dispatch_message(self, event: str, message: Message) -> None:
        if message.ephemeral:
            return
        payload = message.payload()
        if message.guild is not None and message.author.id in message.guild.members:
            member = message.guild.members[message.author.id].payload()
            member.pop("user")
            payload["member"] = member
        await self.world.dispatch(event, payload)

    # --- login ------------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        self._auth(request)
        return json_response(self.world.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0})

    async def get_application(self, request: web.Request) -> web.Response:
        self._auth(request)
        world = self.world
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot.name,
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": world.bot.payload(),
                "owner": world.bot.payload(),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "interactions_endpoint_url": None,
                "tags": [],
                "redirect_uris": [],
                # Application.md: "Default scopes and permissions for each supported installation context".
                "integration_types_config": self._integration_types_config(),
            }
        )

    def _integration_types_config(self) -> dict[str, Any]:
        install = {
            "0": {"scopes": ["applications.commands", "bot"], "permissions": str(self.world.bot_permissions.value)},
            "1": {"scopes": ["applications.commands"], "permissions": "0"},
        }
        return {
            str(kind): {"oauth2_install_params": install[str(kind)]}
            for kind in sorted(self.world.app_integration_types)
        }

    async def get_gateway(self, request: web.Request) -> web.Response:
        url = self.base_url.replace("http://", "ws://", 1) + "/gateway"
        return json_response(
            {
                "url": url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
            }
        )

    # --- application commands ---------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> tuple[int | None, dict[str, Command]]:
        self._auth(request)
        if int(request.match_info["app"]) != self.world.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild")
        if guild is None:
            return None, self.world.global_commands
        if int(guild) not in self.world.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return int(guild), self.world.guild_commands.setdefault(int(guild), {})

    def _command_payload(self, command: Command) -> dict[str, Any]:
        """A command as Discord answers it: ``integration_types`` in force (the app's when the sync left
        them out), ``contexts`` as synced (null when left out: the docs type it ``?list``)."""
        data = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
        } | command.data
        data.update(
            id=str(command.id),
            application_id=str(self.world.application_id),
            version=str(command.id),
            integration_types=list(command.integration_types),
        )
        if command.guild_id:
            data["guild_id"] = str(command.guild_id)
        return data

    def _register(self, guild_id: int | None, scope: dict[str, Command], data: dict[str, Any]) -> Command:
        name = data.get("name", "")
        supported = self.world.app_integration_types
        if problems := command_problems(data) + install_problems(data, supported):
            raise DiscordError(400, 50035, "Invalid Form Body", form_errors(problems))
        old = scope.get(name)
        command = Command(
            id=old.id if old else snowflake(),
            guild_id=guild_id,
            data=data,
            integration_types=integration_types_of(data, supported),
        )
        scope[name] = command
        return command

    async def get_commands(self, request: web.Request) -> web.Response:
        _, scope = self._command_scope(request)
        return json_response([self._command_payload(c) for c in scope.values()])

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id, scope = self._command_scope(request)
        previous = dict(scope)
        scope.clear()
        try:
            registered = [self._register(guild_id, scope, data) for data in await request.json()]
        except DiscordError:
            scope.update(previous)
            raise
        self.world.notify()
        return json_response([self._command_payload(c) for c in registered])

    async def post_command(self, request: web.Request) -> web.Response:
        guild_id, scope = self._command_scope(request)
        command = self._register(guild_id, scope, await request.json())
        self.world.notify()
        return json_response(self._command_payload(command), 201)

    # --- channels & messages ----------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        data = channel.payload()
        if channel.is_thread and self.world.bot.id in channel.members:
            # Threads.md: getting a channel returns "the thread member object for the current user as a
            # property on the channel, if the current user is a member of the thread".
            data["member"] = channel.thread_member(self.world.bot.id)
        return json_response(data)

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        found = [m for m in self.world.channel_messages(channel) if after < m.id < before]
        newest_first = sorted(found, key=lambda m: m.id, reverse=True)
        if "after" in request.query:
            newest_first = sorted(found, key=lambda m: m.id)[:limit][::-1]
        return json_response([_fetched(m) for m in newest_first[:limit]])

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(_fetched(self._message(request)))

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, uploads = await read_body(request)
        perms = self.world.bot_permissions_in(channel)
        # Permissions.md: SEND_MESSAGES "Allows for sending messages in a channel and creating threads
        # in a forum (does not allow sending messages in threads)"; SEND_MESSAGES_IN_THREADS "Allows for
        # sending messages in threads".
        allowed = perms.send_messages_in_threads if channel.is_thread else perms.send_messages
        if channel.type != 1 and not (perms.view_channel and allowed):
            raise DiscordError(403, 50013, "Missing Permissions")
        if channel.type in (15, 16):
            # A forum/media channel holds posts (threads), not messages: opcodes table, 50024.
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if channel.type == 1 and channel.recipient is not None and not channel.recipient.accepts_dms:
            # Opcodes_and_Status_Codes.md: 50007 "Cannot send messages to this user" (a user who
            # blocked the bot or turned off DMs from server members).
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        check_message_payload(payload, uploads, is_edit=False)
        nonce = _nonce(payload)
        if nonce is not None and payload.get("enforce_nonce"):
            first = self.world.message_with_nonce(self.world.bot, nonce)
            if first is not None:
                return self._repeated_nonce(request, channel, first)
        reference = (payload.get("message_reference") or {}).get("message_id")
        message = Message(
            id=snowflake(),
            channel=channel,
            author=self.world.bot,
            reference_id=int(reference) if reference else None,
            nonce=nonce,
        )
        if channel.is_thread:
            await self.reopen_for_message(channel)
        apply_payload(self.world, self.base_url, message, payload, uploads, is_edit=False)
        self.world.store(message)
        if nonce is not None:
            self.world.remember_nonce(message)
        if channel.is_thread:
            self.world.touch(channel, message.id)
            await add_pinged_members(self.world, channel, message.pinged_users)
        else:
            channel.last_message_id = message.id
        await self.dispatch_message("MESSAGE_CREATE", message)
        return json_response(message.payload())

    async def reopen_for_message(self, thread: Channel) -> None:
        """Threads.md, Active & Archived Threads: "Sending a message will automatically unarchive the
        thread, unless the thread has been locked by a moderator" (locked: 160005 "Thread is locked";
        the docs give no status, 403 as for other refusals of what the bot may do). Channel.md also
        says "The API will helpfully automatically add users to a thread when sending a message in
        that thread"."""
        from .model import iso_at

        require_thread_unlocked(self.world, thread)
        if thread.check_archived():
            if thread.locked:
                raise DiscordError(403, THREAD_LOCKED, "Thread is locked")
            apply_thread_change(self.world, thread, {"archived": False})
            await self.world.dispatch("THREAD_UPDATE", thread.payload())
        if self.world.bot.id not in thread.members:
            thread.members[self.world.bot.id] = iso_at(self.world.now())
            await dispatch_members_update(self.world, thread, added=[self.world.bot.id])

    def _repeated_nonce(self, request: web.Request, channel: Channel, first: Message) -> web.Response:
        """enforce_nonce: the same author's create with a recent nonce returns the first message
        (no new message, no MESSAGE_CREATE); if that one was deleted meanwhile, Unknown Message."""
        if first.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        if first.channel is not channel:
            # Discord documents the check per author, not per channel: the answer is a message in
            # another channel, which a bot reusing nonces across channels would mistake for its post.
            self.world.record_error(
                ApiError(
                    request.method,
                    request.path,
                    200,
                    {
                        "message": f"nonce {first.nonce!r} reused across channels: Discord answers with message "
                        f"{first.id} in #{first.channel.name} and posts nothing here"
                    },
                )
            )
        return json_response(first.payload())

    async def patch_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message.author is not self.world.bot:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        require_thread_open_for_edit(message.channel)
        require_thread_unlocked(self.world, message.channel)
        payload, uploads = await read_body(request)
        apply_payload(self.world, self.base_url, message, payload, uploads, is_edit=True)
        await self.dispatch_message("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message.author is not self.world.bot and not self.world.bot_permissions_in(message.channel).manage_messages:
            raise DiscordError(403, 50013, "Missing Permissions")
        message.deleted = True
        self.world.notify()
        data = {"id": str(message.id), "channel_id": str(message.channel.id)}
        if message.guild:
            data["guild_id"] = str(message.guild.id)
        await self.world.dispatch("MESSAGE_DELETE", data)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()

    async def react(self, request: web.Request) -> web.Response:
        message = self._message(request)
        require_thread_open_for_edit(message.channel)
        users = message.reactions.setdefault(request.match_info["emoji"], set())
        if request.method == "PUT":
            users.add(self.world.bot.id)
        else:
            users.discard(self.world.bot.id)
        self.world.notify()
        return no_content()

    async def get_user(self, request: web.Request) -> web.Response:
        """User.md, Get User: a user object for a given user ID (10013 Unknown User otherwise)."""
        self._auth(request)
        user = self.world.users.get(int(request.match_info["user"]))
        if user is None:
            raise unknown("User", 10013)
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        self._auth(request)
        user = self.world.users.get(int((await request.json())["recipient_id"]))
        if user is None:
            raise DiscordError(400, 50035, "Invalid Form Body")
        return json_response(self.world.dm_channel(user).payload())

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        if guild is None:
            raise unknown("Guild", 10004)
        data = guild.payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        if guild is None:
            raise unknown("Guild", 10004)
        return json_response([c.payload() for c in guild.text_channels])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        member = guild.members.get(int(request.match_info["user"])) if guild else None
        if member is None:
            raise unknown("Member", 10007)
        return json_response(member.payload())


def _fetched(message: Message) -> dict[str, Any]:
    """A message as the read endpoints give it: the stand-in echoes a nonce only where Discord
    documents it (the create's answer and its event), so no bot here finds a post by its nonce."""
    data = message.payload()
    data.pop("nonce", None)
    return data


def _nonce(payload: dict[str, Any]) -> str | None:
    """A message nonce is an integer or a string of at most 25 characters (Discord's limit)."""
    nonce = payload.get("nonce")
    if nonce is None:
        return None
    if isinstance(nonce, bool) or not isinstance(nonce, (int, str)) or len(str(nonce)) > 25:
        raise DiscordError(
            400,
            50035,
            "Invalid Form Body",
            {
                "nonce": {
                    "_errors": [
                        {
                            "code": "BASE_TYPE_BAD_LENGTH",
                            "message": "Nonce must be an integer or a string of at most 25 characters",
                        }
                    ]
                }
            },
        )
    return str(nonce)


def missing_access() -> DiscordError:
    """Opcodes_and_Status_Codes.md, 50001 "Missing access": the bot has no access to the place."""
    return DiscordError(403, MISSING_ACCESS, "Missing Access")
