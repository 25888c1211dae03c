"""Interactions a test triggers: building INTERACTION_CREATE payloads and tracking the bot's answer.

An `Interaction` is the test's handle on "alice clicked Start": await `.ack()` for the callback,
`.reply()` for the message the user saw, `.followup(n)` for follow-ups; `.owners` is what it says
authorized it (authorizing_integration_owners), `.payload()` what the bot was sent.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from .installs import (
    CONTEXT_NAMES,
    GUILD_INSTALL,
    app_permissions,
    authorizing_owners,
    context_of,
    contexts_of,
    forced_ephemeral,
    member_permissions_in,
    why_not_authorized,
)
from .message import Message
from .model import Channel, Member, User, snowflake
from .world import TOKEN_LIFETIME, Command, World

OPTION_SUBCOMMAND, OPTION_GROUP = 1, 2
_OPTION_TYPE_NAMES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}
CALLBACK_NAMES = {
    1: "PONG",
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "AUTOCOMPLETE_RESULT",
    9: "MODAL",
    12: "LAUNCH_ACTIVITY",
}


class InteractionRejected(AssertionError):
    """Discord itself would refuse this interaction (unknown command, button not on message, ...)."""


class Interaction:
    """One user action sent to the bot, plus everything the bot did in answer to it."""

    def __init__(
        self,
        world: World,
        *,
        kind: int,
        actor: Member | User,
        channel: Channel,
        data: dict[str, Any],
        message: Message | None = None,
        describe: str = "",
        ack_deadline: float = 3.0,
        owners: dict[str, str] | None = None,
    ) -> None:
        """`owners` is the interaction's authorizing_integration_owners (installs.py): a command's come
        from `offered_owners`, a component's from the interaction that sent its message; by default the
        place's server install ({"0": guild id}, or {"0": "0"} in the bot's DM)."""
        self.world = world
        self.id = snowflake()
        self.token = "standin-" + secrets.token_urlsafe(24)
        self.kind = kind
        self.actor = actor
        self.user: User = actor.user if isinstance(actor, Member) else actor
        self.channel = channel
        self.data = data
        self.message = message  # the message whose component was used, if any
        self.describe = describe
        self.ack_deadline = ack_deadline
        self.created_at = world.now()
        self.dispatched_at: float | None = None  # time.monotonic() when INTERACTION_CREATE went out
        self.acked_at: float | None = None
        self.callback_type: int | None = None
        self.callback_data: dict[str, Any] = {}
        self.original: Message | None = None  # the @original message (for components: the clicked one)
        self.followups: list[Message] = []
        self.force_expired = False
        self.edits_at_ack = 0  # len(original.history) when the bot acknowledged
        self.modal: dict[str, Any] | None = None
        self.autocomplete_choices: list[dict[str, Any]] | None = None
        self.owners = owners if owners is not None else authorizing_owners(world, self.user, channel, (GUILD_INSTALL,))
        # Use External Apps off for this member here, and only the user install behind the interaction:
        # Discord makes every response ephemeral (installs.py).
        self.forced_ephemeral = forced_ephemeral(actor, channel, self.owners)
        self.followup_posts = 0  # Create Followup Message calls that succeeded (5 at most for user installs)

    def __repr__(self) -> str:
        return f"<Interaction {self.describe} by {self.user.name} callback={CALLBACK_NAMES.get(self.callback_type)}>"

    # --- lifetimes --------------------------------------------------------------------------

    @property
    def token_expired(self) -> bool:
        return self.force_expired or self.world.now() > self.created_at + TOKEN_LIFETIME

    @property
    def too_late_to_ack(self) -> bool:
        return self.dispatched_at is not None and time.monotonic() > self.dispatched_at + self.ack_deadline

    @property
    def ack_latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE dispatch to the callback POST."""
        if self.acked_at is None or self.dispatched_at is None:
            return None
        return self.acked_at - self.dispatched_at

    # --- awaiting the bot -------------------------------------------------------------------

    async def ack(self, timeout: float | None = None) -> int:
        """Wait for the interaction callback and return its type (4, 5, 6, 7, 8 or 9)."""
        limit = self.ack_deadline if timeout is None else timeout
        await self.world.wait_until(
            lambda: self.callback_type is not None,
            limit + 0.05,
            f"the bot did not answer {self.describe} by {self.user.name}",
        )
        return self.callback_type  # type: ignore[return-value]

    async def reply(self, timeout: float = 3.0) -> Message:
        """The message the user sees as the answer (waits through a deferred "thinking..." state).

        For component interactions answered with UPDATE_MESSAGE or DEFERRED_UPDATE this is the
        clicked message, after the edit.
        """
        kind = await self.ack(timeout)
        if kind in (8, 9):
            raise InteractionRejected(f"the bot answered {self.describe} with {CALLBACK_NAMES[kind]}, not a message")
        if kind == 6:
            return await self.world.wait_until(
                lambda: self.original if self.original and len(self.original.history) > self.edits_at_ack else None,
                timeout,
                f"the bot never edited the message after deferring {self.describe}",
            )
        return await self.world.wait_until(
            lambda: self.original if self.original is not None and not self.original.loading else None,
            timeout,
            f"the bot never sent a response message for {self.describe}",
        )

    async def followup(self, index: int = 0, timeout: float = 3.0) -> Message:
        """The index-th follow-up message (a follow-up that replaced the "thinking..." message counts)."""
        return await self.world.wait_until(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout,
            f"the bot did not send follow-up #{index} for {self.describe}",
        )

    @property
    def messages(self) -> list[Message]:
        """Everything this interaction produced that a user can see, oldest first."""
        seen = [self.original] if self.original is not None and self.original is not self.message else []
        return seen + [m for m in self.followups if m is not self.original]

    # --- payload ----------------------------------------------------------------------------

    def payload(self) -> dict[str, Any]:
        world, channel = self.world, self.channel
        data: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(world.application_id),
            "type": self.kind,
            "data": self.data,
            "token": self.token,
            "version": 1,
            "locale": self.user.locale,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            # Receiving_and_Responding.md, Interaction Object: app_permissions is the "Bitwise set of
            # permissions the app has in the source location of the interaction" (installs.py).
            "app_permissions": str(app_permissions(world, channel)),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": dict(self.owners),
            "context": context_of(channel),
        }
        if isinstance(self.actor, Member):
            guild = self.actor.guild
            # Guild.md, Guild Member Object: permissions are the "Total permissions of the member in the
            # channel, including overwrites, returned when in the interaction object".
            permissions = str(member_permissions_in(self.actor, channel))
            data["channel"]["permissions"] = permissions
            data.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=self.actor.payload() | {"permissions": permissions},
            )
        else:
            data["user"] = self.user.payload()
        if self.message is not None:
            data["message"] = self.message.payload()
        return data


# --- slash command data ---------------------------------------------------------------------


def offered_owners(world: World, command: Command, actor: Member | User, channel: Channel) -> dict[str, str]:
    """The authorizing_integration_owners of `command` used by `actor` in `channel`, or
    InteractionRejected where the client would not offer it: a context the command excludes, or no
    installation that covers the place (installs.py). A guild command is its guild's, by its install."""
    user = actor.user if isinstance(actor, Member) else actor
    if command.guild_id is not None:
        return authorizing_owners(world, user, channel, (GUILD_INSTALL,))
    context = context_of(channel)
    allowed = contexts_of(command.data)
    if context not in allowed:
        offered = ", ".join(CONTEXT_NAMES[c] for c in allowed) or "nowhere"
        raise InteractionRejected(
            f"/{command.name} is not offered in {CONTEXT_NAMES[context]}: its contexts are {offered}"
        )
    owners = authorizing_owners(world, user, channel, command.integration_types)
    if not owners:
        raise InteractionRejected(why_not_authorized(world, user, channel, command.integration_types))
    return owners


def find_command(world: World, channel: Channel, name: str) -> Command:
    guild_commands = world.guild_commands.get(channel.guild.id, {}) if channel.guild else {}
    command = guild_commands.get(name) or world.global_commands.get(name)
    if command is None:
        known = sorted(set(guild_commands) | set(world.global_commands))
        raise InteractionRejected(f"/{name} is not a registered command (did the bot sync its tree?); known: {known}")
    return command


def build_command_data(
    world: World, command: Command, path: list[str], options: dict[str, Any], actor: Member | User
) -> dict[str, Any]:
    """Turn `slash(user, ch, "6nimmt start", variant="classic")` into Discord's nested option JSON."""
    node = command.data
    chain: list[dict[str, Any]] = []
    for part in path:
        subs = {o["name"]: o for o in node.get("options") or [] if o["type"] in (OPTION_SUBCOMMAND, OPTION_GROUP)}
        if part not in subs:
            raise InteractionRejected(f"/{command.name} has no subcommand {part!r}; it has {sorted(subs)}")
        node = subs[part]
        chain.append(node)
    leftover = [o["name"] for o in node.get("options") or [] if o["type"] in (OPTION_SUBCOMMAND, OPTION_GROUP)]
    if leftover:
        raise InteractionRejected(f"/{' '.join([command.name, *path])} needs a subcommand, one of {leftover}")

    resolved: dict[str, dict[str, Any]] = {}
    values = [_option_value(o, options, resolved, actor) for o in node.get("options") or [] if o["name"] in options]
    defined = {o["name"] for o in node.get("options") or []}
    unknown = set(options) - defined
    if unknown:
        raise InteractionRejected(
            f"/{' '.join([command.name, *path])} has no option(s) {sorted(unknown)}; it has {sorted(defined)}"
        )
    missing = [o["name"] for o in node.get("options") or [] if o.get("required") and o["name"] not in options]
    if missing:
        raise InteractionRejected(f"/{' '.join([command.name, *path])} is missing required option(s) {missing}")

    return _command_data(command, chain, values, resolved)


def _command_data(
    command: Command, chain: list[dict[str, Any]], values: list[dict[str, Any]], resolved: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """An interaction's ``data`` for ``command``: ``values`` nested in its subcommand ``chain``."""
    nested: list[dict[str, Any]] = values
    for sub in reversed(chain):
        nested = [{"type": sub["type"], "name": sub["name"], "options": nested}]
    data: dict[str, Any] = {"id": str(command.id), "name": command.name, "type": 1, "options": nested}
    if command.guild_id:
        data["guild_id"] = str(command.guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def _option_value(
    spec: dict[str, Any], options: dict[str, Any], resolved: dict[str, dict[str, Any]], actor: Member | User
) -> dict[str, Any]:
    name, kind, value = spec["name"], spec["type"], options[spec["name"]]
    where = f"option {name!r} ({_OPTION_TYPE_NAMES.get(kind, kind)})"
    if kind == 3 and not isinstance(value, str):
        raise InteractionRejected(f"{where} needs a str, got {value!r}")
    if kind == 4 and (not isinstance(value, int) or isinstance(value, bool)):
        raise InteractionRejected(f"{where} needs an int, got {value!r}")
    if kind == 5 and not isinstance(value, bool):
        raise InteractionRejected(f"{where} needs a bool, got {value!r}")
    if kind == 10 and not isinstance(value, (int, float)):
        raise InteractionRejected(f"{where} needs a number, got {value!r}")
    if kind in (6, 7, 8, 9):
        value = _resolve(kind, value, resolved, where)
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise InteractionRejected(f"{where} must be one of {[c['value'] for c in choices]}, got {value!r}")
    for bound, check in (("min_value", lambda v, b: v >= b), ("max_value", lambda v, b: v <= b)):
        if spec.get(bound) is not None and kind in (4, 10) and not check(value, spec[bound]):
            raise InteractionRejected(f"{where} violates {bound}={spec[bound]}: {value!r}")
    if kind == 3 and (len(value) < spec.get("min_length", 0) or len(value) > spec.get("max_length", 6000)):
        raise InteractionRejected(f"{where} length out of bounds: {value!r}")
    return {"name": name, "type": kind, "value": value}


def _resolve(kind: int, value: Any, resolved: dict[str, dict[str, Any]], where: str) -> str:
    """Snowflake options carry an id plus a `resolved` entry, as Discord sends them."""
    if isinstance(value, Member):
        resolved.setdefault("users", {})[str(value.id)] = value.user.payload()
        member = value.payload(with_permissions=True)
        member.pop("user")
        resolved.setdefault("members", {})[str(value.id)] = member
    elif isinstance(value, User):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
    elif isinstance(value, Channel) and kind == 7:
        resolved.setdefault("channels", {})[str(value.id)] = value.payload() | {"permissions": "0"}
    elif hasattr(value, "permissions") and hasattr(value, "payload") and kind in (8, 9):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
    else:
        raise InteractionRejected(f"{where} needs a stand-in object, got {value!r}")
    return str(value.id)


# --- autocomplete data ----------------------------------------------------------------------


def build_autocomplete_data(
    world: World,
    command: Command,
    path: list[str],
    options: dict[str, Any],
    actor: Member | User,
    focused: str,
    value: str,
) -> dict[str, Any]:
    """What Discord sends while `focused` is being typed: the options filled in so far, checked as
    for a command but with none required, and the focused one as the raw text typed (a string even
    for an integer option) with ``"focused": true``. Discord sends this only for an option
    declared with ``autocomplete: true``."""
    node, chain = command.data, []
    for part in path:
        node = next(
            (
                o
                for o in node.get("options") or []
                if o["type"] in (OPTION_SUBCOMMAND, OPTION_GROUP) and o["name"] == part
            ),
            None,
        )
        if node is None:
            raise InteractionRejected(f"/{command.name} has no subcommand {part!r}")
        chain.append(node)
    specs = {o["name"]: o for o in node.get("options") or [] if o["type"] not in (OPTION_SUBCOMMAND, OPTION_GROUP)}
    spec = specs.get(focused)
    if spec is None or not spec.get("autocomplete"):
        raise InteractionRejected(f"/{' '.join([command.name, *path])} has no autocomplete option {focused!r}")
    if not isinstance(value, str):
        raise InteractionRejected(f"the text typed into {focused!r} is a str, got {value!r}")
    unknown = set(options) - set(specs)
    if unknown:
        raise InteractionRejected(f"/{' '.join([command.name, *path])} has no option(s) {sorted(unknown)}")
    resolved: dict[str, dict[str, Any]] = {}
    values = [_option_value(specs[name], options, resolved, actor) for name in options if name != focused]
    values.append({"name": focused, "type": spec["type"], "value": value, "focused": True})
    return _command_data(command, chain, values, resolved)
