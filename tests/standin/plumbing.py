"""Shared REST plumbing: reading JSON or multipart bodies, Discord-shaped errors, and
turning a message payload into a stored Message (create or edit)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from aiohttp import web

from .faults import Fault, InjectedFault, channel_of, error_body, route_of, too_many_answer
from .mentions import allowed_mentions_errors, pings_of
from .message import Attachment, Message
from .model import EPHEMERAL_FLAG, LOADING_FLAG, iso_now, snowflake
from .ratelimits import Refusal, major_of
from .validation import validate_message
from .world import ApiError, RequestRecord, World

# Flags a bot may set on a message it sends (ephemeral, suppress embeds/notifications, components v2).
_SETTABLE_FLAGS = EPHEMERAL_FLAG | (1 << 2) | (1 << 12) | (1 << 15)


# Per-request notes for the request log and error records.
INTERACTION_ID = web.RequestKey("interaction_id", int)
PAYLOAD = web.RequestKey("standin_payload", dict)


def json_response(data: Any, status: int = 200) -> web.Response:
    """discord.py only parses bodies whose Content-Type is exactly application/json."""
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


class DiscordError(Exception):
    """Raise inside a handler to answer like Discord does; the server records it in world.errors."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


def unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK = 10003, 10008, 10062, 10015


def error_middleware(world: World, prefix: str = ""):
    """Log every request (with a monotonic timestamp), turn DiscordError into JSON answers, hold
    REST calls to Discord's rate limits when they are on (ratelimits.py: a 429 instead, or the
    X-RateLimit-* headers on the answer), and fail the calls `world.faults` picks (faults.py
    says how and what discord.py does then)."""

    @web.middleware
    async def middleware(request: web.Request, handler):
        record_at = time.monotonic()
        if not request.path.startswith(prefix):  # the gateway and attachments: no REST limits
            return await _answer(world, request, handler, record_at)
        route = route_of(request, prefix)
        limits = world.rate_limits
        headers: dict[str, str] = {}
        fault = (
            world.faults.pick(request.method, route, channel_of(request, world.interactions_by_token))
            if world.faults.rules
            else None
        )
        # A 429 is a refusal (Rate_Limits.md): the request takes no room in the limits it was refused
        # by. An injected failure that changed nothing (a 429, a 5xx or a cut before Discord took the
        # request) takes none either; one Discord applied before failing its answer was admitted.
        if limits.enabled and (fault is None or (fault.applied and fault.status != 429)):
            refusal, headers = limits.admit(request.method, route, major_of(request.match_info))
            if refusal is not None:
                return _too_many(world, request, route, refusal, record_at)
        if fault is not None:
            response = await _inject(world, request, handler, fault, record_at)
        else:
            response = await _answer(world, request, handler, record_at)
        response.headers.update(headers)
        limits.count(route, response.status)
        return response

    return middleware


def _too_many(world: World, request: web.Request, route: str, refusal: Refusal, record_at: float) -> web.Response:
    """A 429 as Discord sends it (ratelimits.py); the request changed nothing."""
    response = json_response(refusal.body(), 429)
    response.headers.update(refusal.headers)
    world.requests.append(
        RequestRecord(
            at=record_at,
            method=request.method,
            path=request.path,
            status=429,
            interaction_id=request.get(INTERACTION_ID),
        )
    )
    world.rate_limits.count(route, 429, refusal.scope)
    world.notify()
    return response


async def _answer(world: World, request: web.Request, handler, record_at: float) -> web.Response:
    """Run the handler; a DiscordError (or aiohttp's 4xx) becomes Discord's JSON error answer."""
    try:
        response = await handler(request)
    except DiscordError as exc:
        world.record_error(ApiError(request.method, request.path, exc.status, exc.body, request.get(PAYLOAD)))
        response = json_response(exc.body, exc.status)
    except web.HTTPClientError as exc:
        body = {"message": f"{exc.status}: {exc.reason}", "code": 0}
        hint = {"hint": "route not implemented by the stand-in"}
        world.record_error(ApiError(request.method, request.path, exc.status, body | hint))
        response = json_response(body, exc.status)
    world.requests.append(
        RequestRecord(
            at=record_at,
            method=request.method,
            path=request.path,
            status=response.status,
            interaction_id=request.get(INTERACTION_ID),
        )
    )
    return response


async def _inject(world: World, request: web.Request, handler, fault: Fault, record_at: float) -> web.StreamResponse:
    if fault.applied:
        # refused anyway: nothing was applied, and the bot still gets the injected error
        with contextlib.suppress(DiscordError, web.HTTPClientError):
            await handler(request)
    status = 0 if fault.drop else world.faults.status_for(fault)
    world.faults.injected.append(InjectedFault(record_at, request.method, request.path, status, fault.applied))
    world.requests.append(
        RequestRecord(
            at=record_at,
            method=request.method,
            path=request.path,
            status=status,
            interaction_id=request.get(INTERACTION_ID),
        )
    )
    world.notify()
    if fault.drop:
        if request.transport is not None:
            request.transport.abort()
        raise asyncio.CancelledError()  # nothing can be answered on a cut connection
    if status == 429:
        body, headers = too_many_answer()
        response = json_response(body, 429)
        response.headers.update(headers)
        return response
    return json_response(error_body(status), status)


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[str, Attachment]]:
    """JSON body, or multipart with payload_json + files[n]; returns (payload, uploads by index)."""
    uploads: dict[str, Attachment] = {}
    # The raw header, not ``request.content_type``: aiohttp parses that with the standard library's
    # email package, a tenth of the stand-in's CPU under load, which the bot on the same cores then
    # went without.
    if request.headers.get("Content-Type", "").lower().startswith("multipart/"):
        payload: dict[str, Any] = {}
        reader = await request.multipart()
        async for part in reader:
            name = part.name
            if name == "payload_json":
                payload = json.loads(await part.text())
            elif name and name.startswith("files["):
                index = name[len("files[") : -1]
                uploads[index] = Attachment(
                    id=snowflake(),
                    filename=part.filename or f"file{index}",
                    data=bytes(await part.read()),
                    content_type=part.headers.get("Content-Type"),
                )
        request[PAYLOAD] = payload
        return payload, uploads
    if request.can_read_body:
        payload = await request.json()
        request[PAYLOAD] = payload
        return payload, uploads
    return {}, uploads


def check_message_payload(payload: dict[str, Any], uploads: dict[str, Attachment], *, is_edit: bool) -> None:
    error = validate_message(payload | ({"_has_files": True} if uploads else {}), is_edit=is_edit)
    if error is not None:
        raise DiscordError(400, error["code"], error["message"], error["errors"])
    errors = allowed_mentions_errors(payload.get("allowed_mentions"))
    if errors is not None:
        raise DiscordError(400, 50035, "Invalid Form Body", errors)


def apply_payload(
    world: World,
    base_url: str,
    message: Message,
    payload: dict[str, Any],
    uploads: dict[str, Attachment],
    *,
    is_edit: bool,
) -> Message:
    """Write a create/edit payload onto `message`, keeping an edit history entry for edits."""
    check_message_payload(payload, uploads, is_edit=is_edit)
    if is_edit:
        message.history.append(message.snapshot())
        message.edited_timestamp = iso_now()
    message.written_at = time.monotonic()
    if "content" in payload:
        message.content = payload["content"] or ""
    if "embeds" in payload:
        message.embeds = payload["embeds"] or []
    if "components" in payload:
        message.components = payload["components"] or []
    if "flags" in payload and payload["flags"] is not None:
        keep = message.flags & EPHEMERAL_FLAG
        message.flags = (int(payload["flags"]) & _SETTABLE_FLAGS & ~EPHEMERAL_FLAG) | keep
    if is_edit:
        message.flags &= ~LOADING_FLAG
    if not is_edit or "content" in payload or "allowed_mentions" in payload:
        _record_pings(world, message, payload.get("allowed_mentions"))
    _apply_attachments(base_url, message, payload, uploads)
    world.notify()
    return message


def _record_pings(world: World, message: Message, allowed: dict[str, Any] | None) -> None:
    """Who the message pings now (mentions.py): its content's mentions under `allowed_mentions`,
    the bot's permissions in the channel and the guild's roles."""
    guild = message.channel.guild
    replied = world.messages.get(message.reference_id) if message.reference_id else None
    message.pings = pings_of(
        message.content,
        allowed,
        known_users=set(world.users),
        guild_roles={role.id: role.mentionable for role in guild.roles} if guild is not None else {},
        may_mention_everyone=guild is not None and world.bot_permissions_in(message.channel).mention_everyone,
        replied_author=replied.author.id if replied is not None else None,
    )
    message.pinged = [world.users[user_id] for user_id in sorted(message.pings.users)]


def _apply_attachments(
    base_url: str, message: Message, payload: dict[str, Any], uploads: dict[str, Attachment]
) -> None:
    listed = payload.get("attachments")
    if listed is None:
        message.attachments.extend(uploads.values())
    else:
        existing = {str(a.id): a for a in message.attachments}
        kept: list[Attachment] = []
        for entry in listed:
            key = str(entry.get("id"))
            if key in uploads:
                upload = uploads.pop(key)
                upload.description = entry.get("description")
                upload.filename = entry.get("filename") or upload.filename
                kept.append(upload)
            elif key in existing:
                kept.append(existing[key])
        message.attachments = kept + list(uploads.values())
    for attachment in message.attachments:
        if not attachment.url:
            attachment.url = f"{base_url}/attachments/{message.channel.id}/{attachment.id}/{attachment.filename}"
