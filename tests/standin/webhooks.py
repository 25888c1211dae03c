"""Interaction callbacks and the interaction webhook (follow-ups, @original edits).

These routes are authenticated by the interaction token in the URL, not the bot token, and they
enforce Discord's rules: one acknowledgement per interaction (40060), 3 s to acknowledge
(10062 afterwards), tokens valid 15 minutes (50027 afterwards), and for an interaction only a user
install authorized, 5 follow-ups (40094 afterwards) and responses made ephemeral where the server
turned "Use External Apps" off (installs.py).
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .installs import MAX_FOLLOWUPS_REACHED, USER_INSTALL_FOLLOWUPS, bot_present, user_install_only
from .interactions import Interaction
from .message import Message
from .model import EPHEMERAL_FLAG, LOADING_FLAG, snowflake
from .plumbing import (
    INTERACTION_ID,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    DiscordError,
    apply_payload,
    json_response,
    no_content,
    read_body,
    unknown,
)
from .rest import RestApi
from .threads import add_pinged_members
from .world import World

_COMPONENT_KINDS = (3, 5)  # MESSAGE_COMPONENT, MODAL_SUBMIT


class WebhookApi:
    def __init__(self, world: World, rest: RestApi) -> None:
        self.world = world
        self.rest = rest

    def add_routes(self, app: web.Application, prefix: str) -> None:
        r = app.router
        r.add_post(prefix + "/interactions/{id}/{token}/callback", self.callback)
        r.add_post(prefix + "/webhooks/{app}/{token}", self.followup)
        for verb, handler in (("GET", self.get_message), ("PATCH", self.edit_message), ("DELETE", self.delete_message)):
            r.add_route(verb, prefix + "/webhooks/{app}/{token}/messages/{message}", handler)

    # --- callback ---------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        arrived = time.monotonic()
        interaction = self.world.interactions.get(int(request.match_info["id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        request[INTERACTION_ID] = interaction.id
        payload, uploads = await read_body(request)
        if interaction.callback_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if interaction.too_late_to_ack:
            raise DiscordError(
                404,
                UNKNOWN_INTERACTION,
                f"Unknown interaction (acknowledged after the {interaction.ack_deadline:g} s limit)",
            )
        kind, data = int(payload.get("type", 0)), payload.get("data") or {}
        resource = self._respond(interaction, kind, data, uploads)
        interaction.callback_type = kind
        interaction.callback_data = data
        interaction.acked_at = arrived
        self.world.notify()
        if interaction.original is not None and kind in (4, 5):
            await self.rest.dispatch_message("MESSAGE_CREATE", interaction.original)
        elif kind == 7 and interaction.original is not None:
            await self.rest.dispatch_message("MESSAGE_UPDATE", interaction.original)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        original = interaction.original if kind in (4, 5, 7) else None
        body: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.kind,
                "activity_instance_id": None,
                "response_message_id": str(original.id) if original else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(original and original.ephemeral),
            }
        }
        if resource is not None:
            body["resource"] = resource
        return json_response(body)

    def _respond(self, interaction: Interaction, kind: int, data: dict[str, Any], uploads) -> dict[str, Any] | None:
        """Apply one callback; returns the `resource` part of the with_response answer."""
        is_component = interaction.kind in _COMPONENT_KINDS
        if kind in (4, 5):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL_FLAG) or interaction.forced_ephemeral
            message = self._new_message(interaction, ephemeral=ephemeral)
            if kind == 4:
                apply_payload(self.world, self.rest.base_url, message, data, uploads, is_edit=False)
            else:
                message.flags |= LOADING_FLAG
            interaction.original = self.world.store(message)
            return {"type": kind, "message": message.payload()}
        if kind in (6, 7):
            if not is_component or interaction.message is None:
                raise DiscordError(400, 40004, "Interaction callback type is only valid for component interactions")
            if kind == 7:
                apply_payload(self.world, self.rest.base_url, interaction.message, data, uploads, is_edit=True)
            interaction.original = interaction.message
            interaction.edits_at_ack = len(interaction.message.history)
            return {"type": kind, "message": interaction.message.payload()} if kind == 7 else None
        if kind == 8 and interaction.kind == 4:
            interaction.autocomplete_choices = _checked_choices(data.get("choices", []))
            return None
        if kind == 9 and interaction.kind in (2, 3):
            interaction.modal = data
            return None
        raise DiscordError(
            400,
            50035,
            "Invalid Form Body",
            {
                "type": {
                    "_errors": [
                        {"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": f"Invalid callback type {kind} here"}
                    ]
                }
            },
        )

    def _new_message(self, interaction: Interaction, *, ephemeral: bool) -> Message:
        message = Message(
            id=snowflake(),
            channel=interaction.channel,
            author=self.world.bot,
            flags=EPHEMERAL_FLAG if ephemeral else 0,
            ephemeral_to=interaction.user if ephemeral else None,
            interaction_id=interaction.id,
            webhook_id=self.world.application_id,
        )
        if interaction.channel.is_thread and not ephemeral and not interaction.channel.check_archived():
            # A message in a thread is activity: it restarts the auto-archive timer (Threads.md).
            self.world.touch(interaction.channel, message.id)
        return message

    # --- webhook ----------------------------------------------------------------------------

    def _interaction(self, request: web.Request) -> Interaction:
        token = request.match_info["token"]
        interaction = self.world.interactions_by_token.get(token)
        if interaction is None or int(request.match_info["app"]) != self.world.application_id:
            raise unknown("Webhook", UNKNOWN_WEBHOOK)
        request[INTERACTION_ID] = interaction.id
        if interaction.token_expired:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        if interaction.callback_type is None:
            raise unknown("Webhook", UNKNOWN_WEBHOOK)  # follow-ups need an acknowledged interaction
        return interaction

    def _target(self, request: web.Request, interaction: Interaction) -> Message:
        ref = request.match_info["message"]
        if ref == "@original":
            message = interaction.original
        else:
            candidates = [interaction.original, *interaction.followups]
            message = next((m for m in candidates if m is not None and m.id == int(ref)), None)
        if message is None or message.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return message

    async def followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        if user_install_only(interaction.owners) and interaction.followup_posts >= USER_INSTALL_FOLLOWUPS:
            # Receiving_and_Responding.md, Create Followup Message: 5 follow-ups at most for an interaction
            # only a user install authorized (installs.py); the code from Opcodes_and_Status_Codes.md.
            raise DiscordError(
                400, MAX_FOLLOWUPS_REACHED, "This interaction has hit the maximum number of follow up messages"
            )
        payload, uploads = await read_body(request)
        original = interaction.original
        if interaction.callback_type == 5 and original is not None and original.loading:
            # The first follow-up after a "thinking" defer replaces the placeholder (and keeps its visibility).
            message = apply_payload(self.world, self.rest.base_url, original, payload, uploads, is_edit=True)
            message.history.pop()
            message.edited_timestamp = None
            await self.rest.dispatch_message("MESSAGE_UPDATE", message)
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & EPHEMERAL_FLAG) or interaction.forced_ephemeral
            if interaction.channel.is_thread and not ephemeral and bot_present(interaction.channel):
                # A public follow-up is a message the bot user creates in the thread: Threads.md's
                # rules for sending one hold ("Users (including bot users) without MANAGE_THREADS
                # ... won't be able to create or update messages in locked threads"; sending one
                # unarchives an archived thread that is not locked).
                await self.rest.reopen_for_message(interaction.channel)
            message = self._new_message(interaction, ephemeral=ephemeral)
            apply_payload(self.world, self.rest.base_url, message, payload, uploads, is_edit=False)
            self.world.store(message)
            if interaction.channel.is_thread and not ephemeral:
                await add_pinged_members(self.world, interaction.channel, message.pinged_users)
            await self.rest.dispatch_message("MESSAGE_CREATE", message)
        interaction.followups.append(message)
        interaction.followup_posts += 1
        self.world.notify()
        if request.query.get("wait") in ("true", "1", "True"):
            return json_response(message.payload())
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        return json_response(self._target(request, interaction).payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        message = self._target(request, interaction)
        payload, uploads = await read_body(request)
        apply_payload(self.world, self.rest.base_url, message, payload, uploads, is_edit=True)
        self.world.notify()
        await self.rest.dispatch_message("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        message = self._target(request, interaction)
        message.deleted = True
        self.world.notify()
        if not message.ephemeral:
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.guild:
                data["guild_id"] = str(message.guild.id)
            await self.world.dispatch("MESSAGE_DELETE", data)
        return no_content()


def _checked_choices(choices: Any) -> list[dict[str, Any]]:
    """An autocomplete answer as Discord accepts it: at most 25 choices, each a name of 1 to 100
    characters and a string or number value (an integer option's may not pass ±2^53)."""
    problems = []
    if not isinstance(choices, list) or len(choices) > 25:
        problems.append("choices must be a list of at most 25")
    else:
        for index, choice in enumerate(choices):
            name, value = choice.get("name"), choice.get("value")
            if not isinstance(name, str) or not 1 <= len(name) <= 100:
                problems.append(f"choices[{index}].name must be 1 to 100 characters: {name!r}")
            if (
                isinstance(value, bool)
                or not isinstance(value, (str, int, float))
                or (isinstance(value, int) and abs(value) > 2**53)
            ):
                problems.append(f"choices[{index}].value is not a valid choice value: {value!r}")
    if problems:
        raise DiscordError(
            400,
            50035,
            "Invalid Form Body",
            {"data": {"choices": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": p} for p in problems]}}},
        )
    return choices
