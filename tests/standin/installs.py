"""Where the app can be used: installs to servers and to users, the three interaction contexts,
guilds the bot is not in and group DMs, as Discord's documentation describes them.

What a test builds (``DiscordStandin`` methods, from ``InstallsMixin`` below)::

    standin.set_installation_contexts(guild=True, user=True)  # the app may be installed to users too
    standin.user_install(alice)            # alice adds the app to her account
    elsewhere = standin.foreign_guild("Elsewhere")  # a server the bot was never added to
    lounge = standin.add_text_channel(elsewhere, "lounge")  # silently: the bot hears nothing of it
    carol = standin.add_member(elsewhere, alice.user)        # members too
    friends = standin.group_dm(alice, bob)  # a group DM (channel type 3), the bot not in it
    standin.set_use_external_apps(elsewhere, False)  # the server lets no user-installed app speak publicly
    await standin.slash(carol, lounge, "6nimmt start")  # context 0, owners {"1": alice's id}
    await standin.slash(alice, friends, "6nimmt start")  # context 2, owners {"1": alice's id}
    standin.add_bot_to(elsewhere)           # later someone invites the bot: GUILD_CREATE, owners get "0"

What Discord documents, and how the stand-in plays it (sources: docs/resources/Application.md,
"Installation Context" and "Application Integration Types"; docs/interactions/Application_Commands.md,
"Contexts" and the command structure's ``integration_types`` and ``contexts``;
docs/interactions/Receiving_and_Responding.md, Interaction Object, "Interaction Context Types",
"Authorizing Integration Owners Object" and ``app_permissions``, and "Create Followup Message";
docs/topics/Permissions.md, USE_EXTERNAL_APPS; the change log's "Calculated Permissions in
Interaction Payloads" (2022-06-29), "User-Installable Apps Preview" (2024-03-18) and "User-Installed
Apps General Availability" (2024-06-27)):

- **Installation contexts** (integration types): GUILD_INSTALL 0, USER_INSTALL 1. The app supports a
  set of them ("Setting Supported Installation Contexts"); the stand-in's app starts with both, as
  the bot's app is configured (the README says how). A command's ``integration_types`` may name only supported ones
  ("as long as any included contexts are already supported on the application-level") and defaults to
  the app's ("Defaults to your app's configured contexts"); the GET answers the value in force.
- **Interaction contexts**: GUILD 0, BOT_DM 1, PRIVATE_CHANNEL 2 ("Group DMs and DMs other than the
  app's bot user"). A command's ``contexts`` defaults to all three ("By default, contexts includes all
  interaction context types"), and "the PRIVATE_CHANNEL interaction context is only meaningful for
  commands installed to a user". Both fields are lists of those integers: anything else is refused at
  sync with 400 / 50035 and the field's path. The docs name no error code for these fields; the codes
  here (``ENUM_TYPE_COERCE`` and the like) are the stand-in's.
- **Who authorized an interaction** (``authorizing_integration_owners``): key "0" when the app is
  installed to the place's server (value: the guild's id) or the place is the DM with the bot (value
  "0"), key "1" (value: the user's id) when the user installed the app to their account; each only
  where the command supports that installation context. A slash command is offered only where its
  ``contexts`` include the place and at least one of the keys applies; anywhere else the stand-in
  refuses to send it (InteractionRejected), as the client would not offer it. Guild commands stay in
  their guild and guild installs ("only for globally-scoped commands").
- **A server without the bot**: no gateway events about it reach the bot, interactions excepted
  (there is no bot in it to receive them); every bot-token request for its channels, messages or
  itself is 403 / 50001 "Missing Access" (an invalid request for Rate_Limits.md's 10,000 in 10 min).
  The same for group DMs, which bots cannot be in.
- **app_permissions**: the bot's permissions in the channel where the bot is; in a server without it,
  "the same as the permissions for @everyone, but limited to the permissions that can be used in
  interaction responses (currently ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE, and
  USE_EXTERNAL_EMOJIS)" (the 2022 change log), @everyone's channel overwrites included; "ATTACH_FILES |
  EMBED_LINKS | MENTION_EVERYONE permissions for (G)DMs with other users, and additionally ...
  USE_EXTERNAL_EMOJIS for DMs with the app's bot user" (Interaction Structure).
- **Use External Apps**: "Allows user-installed apps to send public responses. When disabled, users
  will still be allowed to use their apps but the responses will be ephemeral. This only applies to
  apps not also installed to the server" (Permissions.md); "enabled for servers by default" (2024-06
  change log). The stand-in makes every response and follow-up of such an interaction ephemeral
  (flag 64); the payload says why the way Discord does: the member's ``permissions`` in the channel
  lack USE_EXTERNAL_APPS.
- **Five follow-ups**: "Apps are limited to 5 followup messages per interaction if it was initiated
  from a user-installed app and isn't installed in the server (meaning the authorizing integration
  owners object only contains USER_INSTALL)"; the sixth is 40094 "This interaction has hit the maximum
  number of follow up messages" (Opcodes_and_Status_Codes.md; the docs give no status, 400 here, as for
  the stand-in's other refusals of a request's content). "This only affects the Create Followup Message
  endpoint": every call to it that succeeded counts, the deprecated one that replaces a deferred
  response's placeholder too (the stricter reading).
- **Tokens**: valid 15 minutes after the interaction, on the stand-in's clock (``advance_time``); then
  401 / 50027 (webhooks.py), wherever the interaction came from.

Left as Discord leaves it undocumented, or not modelled: DMs between two users (the other kind of
PRIVATE_CHANNEL), the deprecated ``dm_permission`` (the stand-in decides from ``contexts`` alone),
and the preview's "follow-up messages are currently forced to be ephemeral in DMs".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from .model import DM, GROUP_DM, Channel, Guild, Member, User, snowflake

if TYPE_CHECKING:
    from .world import World

GUILD_INSTALL, USER_INSTALL = 0, 1  # Application.md, Application Integration Types
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # Receiving_and_Responding.md, Interaction Context Types
INTEGRATION_TYPES = (GUILD_INSTALL, USER_INSTALL)
CONTEXTS = (GUILD, BOT_DM, PRIVATE_CHANNEL)
CONTEXT_NAMES = {GUILD: "a server (GUILD)", BOT_DM: "the DM with the bot (BOT_DM)", PRIVATE_CHANNEL: "a group DM"}

MISSING_ACCESS = 50001  # Opcodes_and_Status_Codes.md: "Missing access"
MAX_FOLLOWUPS_REACHED = 40094  # "This interaction has hit the maximum number of follow up messages"
USER_INSTALL_FOLLOWUPS = 5
MAX_GROUP_DM_RECIPIENTS = 10  # Opcodes_and_Status_Codes.md, 30004: "Maximum number of recipients reached (10)"

_P = discord.Permissions
#: What an app without a bot in a server may use there (change log, 2022-06-29).
RESPONSE_PERMISSIONS = _P(attach_files=True, embed_links=True, mention_everyone=True, use_external_emojis=True).value
PRIVATE_CHANNEL_PERMISSIONS = _P(attach_files=True, embed_links=True, mention_everyone=True).value
BOT_DM_PERMISSIONS = PRIVATE_CHANNEL_PERMISSIONS | _P(use_external_emojis=True).value
USE_EXTERNAL_APPS = _P(use_external_apps=True).value


# --- places ----------------------------------------------------------------------------------


def context_of(channel: Channel) -> int:
    """The interaction context of a place: a server's channel, the bot's DM, or a group DM."""
    if channel.guild is not None:
        return GUILD
    return BOT_DM if channel.type == DM else PRIVATE_CHANNEL


def bot_present(channel: Channel) -> bool:
    """Whether the bot is in the place: a server it was added to, or its own DM (never a group DM)."""
    if channel.guild is not None:
        return channel.guild.bot_member
    return channel.type == DM


def member_permissions_in(member: Member, channel: Channel) -> int:
    """A member's permissions in `channel`: their roles', less what the channel's @everyone
    overwrite denies (a thread's are its parent's). Owners and administrators have everything."""
    base = member.permissions
    if base.administrator:
        return base.value
    source = channel.parent if channel.is_thread and channel.parent is not None else channel
    return base.value & ~source.everyone_deny


def app_permissions_without_bot(channel: Channel) -> int:
    """``app_permissions`` where the app has no bot: a group DM's fixed set, or in a server
    @everyone's permissions in the channel limited to those interaction responses use."""
    if channel.guild is None:
        return PRIVATE_CHANNEL_PERMISSIONS
    everyone = channel.guild.everyone.permissions
    source = channel.parent if channel.is_thread and channel.parent is not None else channel
    return everyone & ~source.everyone_deny & RESPONSE_PERMISSIONS


def app_permissions(world: World, channel: Channel) -> int:
    """The interaction's ``app_permissions`` for `channel` (see the module's docstring)."""
    if not bot_present(channel):
        return app_permissions_without_bot(channel)
    value = world.bot_permissions_in(channel).value
    return value | BOT_DM_PERMISSIONS if channel.type == DM else value


# --- commands --------------------------------------------------------------------------------


def install_problems(data: dict[str, Any], supported: frozenset[int]) -> list[tuple[str, str]]:
    """What Discord refuses in a command's ``integration_types`` and ``contexts``, as (path, code)."""
    problems: list[tuple[str, str]] = []
    for key, allowed in (("integration_types", INTEGRATION_TYPES), ("contexts", CONTEXTS)):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list):
            problems.append((key, "LIST_TYPE_CONVERT"))
            continue
        for index, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int):
                problems.append((f"{key}.{index}", "NUMBER_TYPE_COERCE"))
            elif item not in allowed:
                problems.append((f"{key}.{index}", "ENUM_TYPE_COERCE"))
            elif key == "integration_types" and item not in supported:
                problems.append((f"{key}.{index}", "APPLICATION_INTEGRATION_TYPE_NOT_SUPPORTED"))
    return problems


def integration_types_of(data: dict[str, Any], supported: frozenset[int]) -> tuple[int, ...]:
    """A command's installation contexts: as given, or the app's at the time of the sync."""
    given = data.get("integration_types")
    return tuple(sorted(set(given))) if given is not None else tuple(sorted(supported))


def contexts_of(data: dict[str, Any]) -> tuple[int, ...]:
    """A command's interaction contexts: as given, or all three."""
    given = data.get("contexts")
    return tuple(sorted(set(given))) if given is not None else CONTEXTS


def authorizing_owners(
    world: World, user: User, channel: Channel, integration_types: tuple[int, ...]
) -> dict[str, str]:
    """Receiving_and_Responding.md, Authorizing Integration Owners Object: "0" -> the guild's id (or
    "0" in the bot's DM) where the app is installed to the place, "1" -> the user's id where the user
    installed it; each only if `integration_types` (the command's) includes that installation context."""
    owners: dict[str, str] = {}
    context = context_of(channel)
    if GUILD_INSTALL in integration_types and bot_present(channel):
        owners[str(GUILD_INSTALL)] = str(channel.guild.id) if channel.guild is not None and context == GUILD else "0"
    if USER_INSTALL in integration_types and user.id in world.user_installs:
        owners[str(USER_INSTALL)] = str(user.id)
    return owners


def why_not_authorized(world: World, user: User, channel: Channel, integration_types: tuple[int, ...]) -> str:
    """Why no installation lets `user` use a command with `integration_types` in `channel`."""
    where = f"#{channel.name}" if channel.guild is None else f"#{channel.name} of {channel.guild.name}"
    reasons = []
    if bot_present(channel):
        reasons.append(f"the command is not for server installs (integration_types {list(integration_types)})")
    elif channel.guild is not None:
        reasons.append(f"the app is not installed to {channel.guild.name}")
    else:
        reasons.append("a group DM has no server install")
    if user.id not in world.user_installs:
        reasons.append(f"{user.name} has not installed the app to their account (standin.user_install)")
    elif USER_INSTALL not in integration_types:
        reasons.append(f"the command is not for user installs (integration_types {list(integration_types)})")
    return f"Discord offers no such command to {user.name} in {where}: " + "; ".join(reasons)


def user_install_only(owners: dict[str, str]) -> bool:
    """ "the authorizing integration owners object only contains USER_INSTALL"."""
    return set(owners) == {str(USER_INSTALL)}


def forced_ephemeral(actor: Member | User, channel: Channel, owners: dict[str, str]) -> bool:
    """Whether the interaction's responses are made ephemeral: a user-installed app in a server it is
    not installed to, used by a member without USE_EXTERNAL_APPS in the channel (Permissions.md)."""
    if not user_install_only(owners) or channel.guild is None or not isinstance(actor, Member):
        return False
    return not member_permissions_in(actor, channel) & USE_EXTERNAL_APPS


# --- what the bot may see ----------------------------------------------------------------------


def hidden_from_bot(world: World, event: str, data: dict[str, Any]) -> bool:
    """A gateway event about a place the bot is not in: a server it was not added to, or a group DM.
    Interactions from there still come: user installs use the app in such places."""
    if event == "INTERACTION_CREATE":
        return False
    guild_id = data.get("guild_id")
    if guild_id is not None and int(guild_id) in world.foreign_guilds:
        return True
    channel_id = data.get("channel_id") or (data.get("id") if event.startswith(("CHANNEL_", "THREAD_")) else None)
    channel = world.channels.get(int(channel_id)) if channel_id is not None else None
    return channel is not None and not bot_present(channel)


# --- the test's side: DiscordStandin's methods ---------------------------------------------------


class InstallsMixin:
    """``DiscordStandin``'s world-building for installs, foreign guilds and group DMs."""

    world: World

    def set_installation_contexts(self, *, guild: bool = True, user: bool = False) -> None:
        """Where the app may be installed (Application.md, "Setting Supported Installation
        Contexts"): to servers, to users, or both. Commands synced later default to these."""
        if not (guild or user):
            raise ValueError("an app supports at least one installation context")
        self.world.app_integration_types = frozenset(
            kind for kind, wanted in ((GUILD_INSTALL, guild), (USER_INSTALL, user)) if wanted
        )

    def user_install(self, user: Member | User) -> None:
        """`user` installs the app to their account: its user-install commands follow them into every
        server, group DM and the bot's DM (Application.md, "User Context")."""
        if USER_INSTALL not in self.world.app_integration_types:
            raise ValueError("the app supports no user installs: standin.set_installation_contexts(user=True)")
        self.world.user_installs.add(user.id)

    def user_uninstall(self, user: Member | User) -> None:
        """`user` removes the app from their account."""
        self.world.user_installs.discard(user.id)

    def foreign_guild(self, name: str = "Elsewhere", *, locale: str = "en-US") -> Guild:
        """A server the bot was never added to. ``add_text_channel``, ``add_member``, ``add_thread``
        and ``add_role`` build it as any other, but the bot gets no gateway event about it, and its
        bot-token requests there are 403 / 50001; members who installed the app to their account can
        still use its user-install commands (context 0, owners {"1": their id})."""
        return self.world.add_foreign_guild(name, locale=locale)

    def add_bot_to(self, guild: Guild) -> None:
        """Someone invites the bot to a foreign guild: it becomes a member (GUILD_CREATE, if a bot is
        connected) and the server's install authorizes interactions there from now on."""
        if guild.bot_member:
            raise ValueError(f"the bot is in {guild.name} already")
        self.world.seat_bot(guild)
        self._announce_guild(guild)

    def group_dm(self, *users: Member | User, name: str | None = None) -> Channel:
        """A group DM (channel type 3) of `users`, the first its owner; a bot can never be in one
        (bots cannot join group DMs), so only user-installed apps are used there (context 2)."""
        people = [u.user if isinstance(u, Member) else u for u in users]
        if not 1 <= len(people) <= MAX_GROUP_DM_RECIPIENTS:
            raise ValueError(f"a group DM has 1 to {MAX_GROUP_DM_RECIPIENTS} recipients, not {len(people)}")
        channel = Channel(id=snowflake(), name=name or "", type=GROUP_DM, recipients=people, owner_id=people[0].id)
        return self.world.add_channel(channel)

    def set_use_external_apps(self, place: Guild | Channel, allowed: bool) -> None:
        """Turn "Use External Apps" on or off for @everyone, in a whole server (the @everyone role) or
        in one channel (an @everyone overwrite; a thread follows its parent). Off, a user-installed app
        that is not installed to the server answers there only ephemerally (Permissions.md)."""
        if isinstance(place, Guild):
            role = place.everyone
            role.permissions = (
                role.permissions | USE_EXTERNAL_APPS if allowed else role.permissions & ~USE_EXTERNAL_APPS
            )
            return
        if place.is_thread:
            raise ValueError("threads take their permissions from their parent channel: set it on channel.parent")
        place.everyone_deny = (
            place.everyone_deny & ~USE_EXTERNAL_APPS if allowed else place.everyone_deny | USE_EXTERNAL_APPS
        )

    def _announce_guild(self, guild: Guild) -> None:
        """Tell a connected bot about a guild it joined (DiscordStandin sends GUILD_CREATE)."""
        raise NotImplementedError
