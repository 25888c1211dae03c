"""Threads: starting them, their members, archiving, editing, and the rules Discord documents for them.

Sources are named next to each rule: docs/resources/Channel.md (Start Thread from Message, Modify
Channel's thread part, the thread-member routes), docs/topics/Threads.md, docs/topics/Permissions.md,
docs/topics/Gateway_Events.md and the JSON error code table in docs/topics/Opcodes_and_Status_Codes.md.
Where the docs name a refusal but not its HTTP status, the status chosen here is said so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .model import (
    AUTO_ARCHIVE_DURATIONS,
    DM,
    GUILD_FORUM,
    GUILD_MEDIA,
    GUILD_NEWS,
    NEWS_THREAD,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Channel,
    iso_at,
)
from .plumbing import UNKNOWN_MESSAGE, DiscordError, json_response, no_content, read_body, unknown

if TYPE_CHECKING:
    from .rest import RestApi
    from .world import World

# JSON error codes (docs/topics/Opcodes_and_Status_Codes.md, "JSON Error Codes").
MISSING_PERMISSIONS = 50013  # "You lack permissions to perform that action"
WRONG_CHANNEL_TYPE = 50024  # "Cannot execute action on this channel type"
ARCHIVED_THREAD = 50083  # "Tried to perform an operation on an archived thread, such as editing a message or adding a user to the thread"
THREAD_ALREADY_CREATED = 160004  # "A thread has already been created for this message"
THREAD_LOCKED = 160005  # "Thread is locked"
UNKNOWN_MEMBER = 10007


def missing_permissions() -> DiscordError:
    return DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")


def thread_locked() -> DiscordError:
    # The docs give the code, not the status; 403 as for the other refusals of what the bot may not do.
    return DiscordError(403, THREAD_LOCKED, "Thread is locked")


def archived_thread() -> DiscordError:
    # The docs give the code, not the status; the stand-in answers 400 like other refused operations.
    return DiscordError(400, ARCHIVED_THREAD, "Thread is archived")


def wrong_channel_type() -> DiscordError:
    return DiscordError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")


def invalid_field(name: str, code: str, message: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", {name: {"_errors": [{"code": code, "message": message}]}})


def check_thread_fields(payload: dict[str, Any]) -> None:
    """name 1-100 characters; auto_archive_duration one of 60, 1440, 4320, 10080
    (docs/resources/Channel.md, Start Thread from Message / Modify Channel, Thread)."""
    if "name" in payload:
        name = payload.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise invalid_field("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    if (
        payload.get("auto_archive_duration") is not None
        and payload["auto_archive_duration"] not in AUTO_ARCHIVE_DURATIONS
    ):
        raise invalid_field(
            "auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {set(AUTO_ARCHIVE_DURATIONS)}."
        )


class ThreadApi:
    """The thread routes; they share the REST half's auth, channel look-up and dispatch helpers."""

    def __init__(self, world: World, rest: RestApi) -> None:
        self.world = world
        self.rest = rest

    def add_routes(self, app: web.Application, prefix: str) -> None:
        r = app.router
        r.add_post(prefix + "/channels/{channel}/threads", self.start_without_message)
        r.add_post(prefix + "/channels/{channel}/messages/{message}/threads", self.start_from_message)
        r.add_patch(prefix + "/channels/{channel}", self.modify_channel)
        r.add_delete(prefix + "/channels/{channel}", self.delete_channel)
        r.add_get(prefix + "/channels/{channel}/thread-members", self.list_members)
        r.add_get(prefix + "/channels/{channel}/thread-members/{user}", self.get_member)
        r.add_put(prefix + "/channels/{channel}/thread-members/{user}", self.add_member)
        r.add_delete(prefix + "/channels/{channel}/thread-members/{user}", self.remove_member)
        r.add_get(prefix + "/guilds/{guild}/threads/active", self.active_threads)

    # --- starting threads -------------------------------------------------------------------

    async def start_from_message(self, request: web.Request) -> web.Response:
        parent = self.rest._channel(request)
        # Channel.md, Start Thread from Message: "When called on a GUILD_TEXT channel, creates a
        # PUBLIC_THREAD. When called on a GUILD_ANNOUNCEMENT channel, creates a ANNOUNCEMENT_THREAD.
        # Does not work on a GUILD_FORUM or a GUILD_MEDIA channel." Threads live in guilds only, and a
        # thread has no threads of its own: anything else is 50024 (opcodes table, the docs give no
        # more specific code).
        if parent.type not in (0, GUILD_NEWS):
            raise wrong_channel_type()
        message = self.world.messages.get(int(request.match_info["message"]))
        if message is None or message.channel is not parent or message.deleted or message.ephemeral:
            raise unknown("Message", UNKNOWN_MESSAGE)
        perms = self.world.bot_permissions_in(parent)
        # Permissions.md: CREATE_PUBLIC_THREADS "Allows for creating public and announcement threads".
        if not (perms.view_channel and perms.create_public_threads):
            raise missing_permissions()
        payload, _ = await read_body(request)
        check_thread_fields(payload | {"name": payload.get("name")})
        # "The id of the created thread will be the same as the id of the source message, and as such
        # a message can only have a single thread created from it."  -> 160004 for a second one.
        if message.thread is not None or message.id in self.world.channels:
            raise DiscordError(400, THREAD_ALREADY_CREATED, "A thread has already been created for this message")
        thread = self._new_thread(message.id, payload, parent, PUBLIC_THREAD if parent.type == 0 else NEWS_THREAD)
        message.thread = thread
        await self._announce_created(thread)
        # "Fires a Thread Create and a Message Update Gateway event."
        await self.rest.dispatch_message("MESSAGE_UPDATE", message)
        return json_response(thread.payload() | {"member": thread.thread_member(self.world.bot.id)}, 201)

    async def start_without_message(self, request: web.Request) -> web.Response:
        parent = self.rest._channel(request)
        payload, _ = await read_body(request)
        if parent.type in (GUILD_FORUM, GUILD_MEDIA):
            # Channel.md, Start Thread in Forum or Media Channel: the post needs its first message, and
            # SEND_MESSAGES is the permission it requires.
            return await self._start_forum_post(request, parent, payload)
        if parent.type not in (0, GUILD_NEWS):
            raise wrong_channel_type()
        # Channel.md, Start Thread without Message: type defaults to PRIVATE_THREAD (the "type" field).
        kind = int(payload.get("type") or PRIVATE_THREAD)
        needed = "create_private_threads" if kind == PRIVATE_THREAD else "create_public_threads"
        perms = self.world.bot_permissions_in(parent)
        if not (perms.view_channel and getattr(perms, needed)):
            raise missing_permissions()
        check_thread_fields(payload | {"name": payload.get("name")})
        thread = self._new_thread(None, payload, parent, kind)
        await self._announce_created(thread)
        return json_response(thread.payload() | {"member": thread.thread_member(self.world.bot.id)}, 201)

    async def _start_forum_post(self, request: web.Request, forum: Channel, payload: dict[str, Any]) -> web.Response:
        from .message import Message
        from .plumbing import apply_payload

        perms = self.world.bot_permissions_in(forum)
        if not (perms.view_channel and perms.send_messages):
            raise missing_permissions()
        check_thread_fields(payload | {"name": payload.get("name")})
        first = payload.get("message")
        if not isinstance(first, dict):
            raise invalid_field("message", "BASE_TYPE_REQUIRED", "This field is required")
        thread = self._new_thread(None, payload, forum, PUBLIC_THREAD)
        # A forum post's first message has the post's id. The docs say so for threads started from a
        # message (Threads.md: "The created thread and the message it was started from will share the
        # same id"); for forum posts it is what Discord does and what libraries rely on (discord.js's
        # fetchStarterMessage: "The starter message has the same id as the thread itself").
        message = Message(id=thread.id, channel=thread, author=self.world.bot)
        apply_payload(self.world, self.rest.base_url, message, first, {}, is_edit=False)
        self.world.store(message)
        self.world.touch(thread, message.id)
        await self._announce_created(thread)
        await self.rest.dispatch_message("MESSAGE_CREATE", message)
        return json_response(
            thread.payload() | {"message": message.payload(), "member": thread.thread_member(self.world.bot.id)}, 201
        )

    def _new_thread(self, thread_id: int | None, payload: dict[str, Any], parent: Channel, kind: int) -> Channel:
        from .model import snowflake

        thread = self.world.add_channel(
            Channel(
                id=thread_id or snowflake(),
                name=payload["name"],
                type=kind,
                guild=parent.guild,
                parent=parent,
                owner_id=self.world.bot.id,
                auto_archive_duration=payload.get("auto_archive_duration") or 1440,
            )
        )
        # The creator is the thread's first member (THREAD_CREATE carries its thread member object).
        thread.members[self.world.bot.id] = iso_at(self.world.now())
        return thread

    async def _announce_created(self, thread: Channel) -> None:
        # Gateway_Events.md, Thread Create: "When a thread is created, includes an additional
        # newly_created boolean field"; Threads.md: a Thread Members Update "is always sent when the
        # current user is added to or removed from a thread".
        await self.world.dispatch("THREAD_CREATE", thread.payload() | {"newly_created": True})
        await dispatch_members_update(self.world, thread, added=[self.world.bot.id])

    # --- editing, archiving, deleting -------------------------------------------------------

    async def modify_channel(self, request: web.Request) -> web.Response:
        channel = self.rest._channel(request)
        payload, _ = await read_body(request)
        if channel.type == DM:
            raise wrong_channel_type()
        if not channel.is_thread:
            # Channel.md, Modify Channel, Guild channel: "Requires the MANAGE_CHANNELS permission for the guild".
            if not self.world.bot_permissions_in(channel).manage_channels:
                raise missing_permissions()
            if "name" in payload:
                check_thread_fields({"name": payload["name"]})
                channel.name = payload["name"]
            if "topic" in payload:
                channel.topic = payload["topic"]
            await self.world.dispatch("CHANNEL_UPDATE", channel.payload())
            return json_response(channel.payload())
        return json_response(await self.modify_thread(channel, payload, by_bot=True))

    async def modify_thread(self, thread: Channel, payload: dict[str, Any], *, by_bot: bool) -> dict[str, Any]:
        world = self.world
        check_thread_fields(payload)
        if by_bot:
            perms = world.bot_permissions_in(thread)
            creator = thread.owner_id == world.bot.id
            unarchive = payload.get("archived") is False
            locked_after = payload.get("locked", thread.locked)
            # Channel.md, Modify Channel, Thread: "When setting archived to false, when locked is also
            # false, only the SEND_MESSAGES permission is required. Otherwise, requires the
            # MANAGE_THREADS permission." ... "Requires the thread to have archived set to false or be
            # set to false in the request."
            if thread.check_archived() and not unarchive:
                raise archived_thread()
            if unarchive and thread.archived:
                if locked_after or thread.locked:
                    if not perms.manage_threads:
                        raise missing_permissions()
                elif not (perms.send_messages or perms.manage_threads):
                    raise missing_permissions()
            # Threads.md, Editing & Deleting Threads: "Editing a thread to change the name, archived,
            # auto_archive_duration fields requires MANAGE_THREADS or that the current user is the
            # thread creator"; "Editing a thread to change rate_limit_per_user or locked requires MANAGE_THREADS".
            if ("locked" in payload or "rate_limit_per_user" in payload) and not perms.manage_threads:
                raise missing_permissions()
            touches_creator_fields = (
                "name" in payload or "auto_archive_duration" in payload or payload.get("archived") is True
            )
            if touches_creator_fields and not (perms.manage_threads or creator):
                raise missing_permissions()
            if touches_creator_fields and not unarchive:
                require_thread_unlocked(world, thread)  # "or update properties like its title"
        apply_thread_change(world, thread, payload)
        await world.dispatch("THREAD_UPDATE", thread.payload())
        return thread.payload()

    async def moderate(
        self, thread: Channel, *, locked: bool | None = None, archived: bool | None = None, announce: bool = True
    ) -> None:
        """A moderator (MANAGE_THREADS, which may change every thread field: Threads.md, Editing &
        Deleting Threads) locks or unlocks, archives or unarchives `thread`. The bot hears of it as a
        THREAD_UPDATE carrying the thread (Gateway_Events.md, Thread Update: "Sent when a thread is
        updated"), whose thread_metadata says `locked` and `archived`; `announce=False`: that event
        never reaches the bot (lost with a gateway session that could not be resumed)."""
        change = {name: value for name, value in (("locked", locked), ("archived", archived)) if value is not None}
        apply_thread_change(self.world, thread, change)
        self.world.notify()
        if announce:
            await self.world.dispatch("THREAD_UPDATE", thread.payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self.rest._channel(request)
        if channel.type == DM:
            # Channel.md, Delete/Close Channel: "Delete a channel, or close a private message" -- closing
            # a DM changes nothing the bot could see again (the same DM channel comes back).
            return json_response(channel.payload())
        perms = self.world.bot_permissions_in(channel)
        # Threads.md: "Deleting a thread requires the MANAGE_THREADS permission"; Channel.md, Delete/Close
        # Channel: "Requires the MANAGE_CHANNELS permission for the guild, or MANAGE_THREADS if the channel is a thread".
        if not (perms.manage_threads if channel.is_thread else perms.manage_channels):
            raise missing_permissions()
        payload = channel.payload()
        await self.delete(channel)
        return json_response(payload)

    async def delete(self, channel: Channel) -> None:
        """Remove `channel` (and a channel's threads) and tell the bot: THREAD_DELETE carries "just the
        id, guild_id, parent_id, and type fields" (Gateway_Events.md, Thread Delete); a channel's
        deletion is a CHANNEL_DELETE with the channel object (discord.py drops its threads with it)."""
        payload = channel.payload()
        self.world.remove_channel(channel)
        if channel.is_thread:
            await self.world.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild.id),
                    "parent_id": str(channel.parent.id) if channel.parent else None,
                    "type": channel.type,
                },
            )
        else:
            await self.world.dispatch("CHANNEL_DELETE", payload)

    # --- members ----------------------------------------------------------------------------

    def _thread(self, request: web.Request) -> Channel:
        thread = self.rest._channel(request)
        if not thread.is_thread:
            raise wrong_channel_type()
        return thread

    def _user_id(self, request: web.Request, thread: Channel) -> int:
        raw = request.match_info["user"]
        user_id = self.world.bot.id if raw == "@me" else int(raw)
        if user_id not in thread.guild.members:
            raise unknown("Member", UNKNOWN_MEMBER)
        return user_id

    async def add_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = self._user_id(request, thread)
        # Channel.md, Add Thread Member: "Requires the ability to send messages in the thread. Also
        # requires the thread is not archived." Join Thread (@me): "Also requires the thread is not archived."
        if thread.check_archived():
            raise archived_thread()
        if user_id != self.world.bot.id:
            require_thread_unlocked(self.world, thread)  # a locked thread takes no message of the bot's
        perms = self.world.bot_permissions_in(thread)
        if not (perms.view_channel and perms.send_messages_in_threads):
            raise missing_permissions()
        # "Returns a 204 empty response if the member is successfully added or was already a member of
        # the thread. Fires a Thread Members Update Gateway event."
        if user_id not in thread.members:
            thread.members[user_id] = iso_at(self.world.now())
            self.world.notify()
            await dispatch_members_update(self.world, thread, added=[user_id])
        return no_content()

    async def remove_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = self._user_id(request, thread)
        if thread.check_archived():
            raise archived_thread()  # Leave Thread / Remove Thread Member: "requires the thread is not archived"
        # Remove Thread Member: "Requires the MANAGE_THREADS permission, or the creator of the thread if
        # it is a PRIVATE_THREAD." Leaving (@me) needs nothing more.
        if user_id != self.world.bot.id:
            perms = self.world.bot_permissions_in(thread)
            creator = thread.type == PRIVATE_THREAD and thread.owner_id == self.world.bot.id
            if not (perms.manage_threads or creator):
                raise missing_permissions()
        if thread.members.pop(user_id, None) is not None:
            self.world.notify()
            await dispatch_members_update(self.world, thread, removed=[user_id])
        return no_content()

    async def get_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = self._user_id(request, thread)
        if user_id not in thread.members:
            raise unknown("Member", UNKNOWN_MEMBER)
        return json_response(thread.thread_member(user_id))

    async def list_members(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        return json_response([thread.thread_member(u) for u in thread.members])

    async def active_threads(self, request: web.Request) -> web.Response:
        """Guild.md, List Active Guild Threads: "Returns all active threads in the guild, including public
        and private threads" with "a thread member object for each returned thread the current user has joined"."""
        guild = self.rest.guild(request)
        if guild is None:
            raise unknown("Guild", 10004)
        active = [t for t in guild.threads if not t.check_archived()]
        me = self.world.bot.id
        return json_response(
            {
                "threads": [t.payload() for t in active],
                "members": [t.thread_member(me) for t in active if me in t.members],
            }
        )


def require_thread_open_for_edit(thread: Channel) -> None:
    """Threads.md: "Users cannot edit messages, add reactions, use application commands, or join
    archived threads. The only operation that should happen within an archived thread is messages
    being deleted." -> 50083."""
    if thread.is_thread and thread.check_archived():
        raise archived_thread()


def require_thread_unlocked(world: World, thread: Channel) -> None:
    """Threads.md, Locked Threads: "Users (including bot users) without the MANAGE_THREADS permission
    are more restricted in locked threads. Users won't be able to create or update messages in locked
    threads, or update properties like its title or tags." -> 160005 "Thread is locked" (opcodes table),
    whether the thread is archived or not."""
    if thread.is_thread and thread.locked and not world.bot_permissions_in(thread).manage_threads:
        raise thread_locked()


async def dispatch_members_update(
    world: World, thread: Channel, *, added: list[int] = (), removed: list[int] = ()
) -> None:
    """Gateway_Events.md, Thread Members Update: "Sent when anyone is added to or removed from a
    thread. If the current user does not have the GUILD_MEMBERS Gateway Intent, then this event
    will only be sent if the current user was added to or removed from the thread." (The gateway
    filters it per session: gateway.Session.wants.)"""
    data: dict[str, Any] = {
        "id": str(thread.id),
        "guild_id": str(thread.guild.id),
        "member_count": min(len(thread.members), 50),
    }
    if added:
        data["added_members"] = [thread.thread_member(u) for u in added]
    if removed:
        data["removed_member_ids"] = [str(u) for u in removed]
    await world.dispatch("THREAD_MEMBERS_UPDATE", data)


def apply_thread_change(world: World, thread: Channel, payload: dict[str, Any]) -> None:
    """Threads.md: "archive_timestamp is changed when creating, archiving, or unarchiving a thread,
    and when changing the auto_archive_duration field"; "Activity" is "sending a message,
    unarchiving a thread, or changing the auto-archive time"."""
    now = world.now()
    thread.check_archived()
    if "name" in payload:
        thread.name = payload["name"]
    if "locked" in payload:
        thread.locked = bool(payload["locked"])
    if (
        payload.get("auto_archive_duration") is not None
        and payload["auto_archive_duration"] != thread.auto_archive_duration
    ):
        thread.auto_archive_duration = payload["auto_archive_duration"]
        thread.archive_changed_at = thread.last_activity = now
    if "archived" in payload and bool(payload["archived"]) != thread.archived:
        thread.archived = bool(payload["archived"])
        thread.archive_changed_at = now
        if not thread.archived:
            thread.last_activity = now


async def add_pinged_members(world: World, thread: Channel, pinged: Iterable[int]) -> None:
    """A message in a thread adds the members it pings (``Message.pinged_users``, mentions.py) to the
    thread: Discord's help on threads says a mentioned user is added to the thread, and its blog that
    private threads show for those "added manually, or @mentioned within the Thread itself"."""
    added = [user_id for user_id in sorted(pinged) if user_id in thread.guild.members and user_id not in thread.members]
    for user_id in added:
        thread.members[user_id] = iso_at(world.now())
    if added:
        world.notify()
        await dispatch_members_update(world, thread, added=added)
