"""A local Discord stand-in (REST v10 + gateway) for driving a real discord.py bot in tests.

Typical use::

    from tests.standin import DiscordStandin, discord_standin  # the fixture, for pytest

    async def test_start(discord_standin):
        guild = discord_standin.add_guild()
        ...

Bots in a subprocess call `apply_env_overrides()` at start-up and get `standin.env`.

Failing on purpose: `standin.fail_next(...)` / `standin.fail_requests(...)` answer REST calls
with 5xx (faults.py says which of them discord.py retries), `standin.drop_gateway()` cuts the
gateway connection; a message create with `nonce` + `enforce_nonce` is deduplicated as on Discord.

Discord's rate limits, off by default: `DiscordStandin(rate_limits=True)` or `standin.set_rate_limits(True)`
holds the bot to the global limit (50 bot-token requests a second, interaction endpoints exempt) and
per-route buckets with the X-RateLimit-* headers, answering 429 as Discord does (ratelimits.py names
the docs and the numbers). `standin.rate_limits.figures()` counts, limits on or off, the bot-token
requests in each second, the 429s by scope and the invalid requests (401, 403, 429) in any 10 minutes.

Threads follow Discord's documented rules (threads.py names the docs): a thread started from a message
has the message's id, `advance_time` archives inactive threads, `archive`/`unarchive`/`delete_channel`
act as a moderator, `deny_bot_permissions(channel, perms)` is a channel overwrite against the bot,
`add_forum_channel`/`add_forum_post` build forums, `block_dms(user)` makes DMs to a user fail (50007).

Installs and contexts follow Discord's documentation too (installs.py names it and shows an example):
`set_installation_contexts(guild=, user=)` says where the app may be installed (servers only by default),
`user_install(user)` adds it to a user's account, `foreign_guild(name)` is a server the bot was never
added to (built with the usual helpers, silent towards the bot, 403 / 50001 to its token),
`add_bot_to(guild)` invites it there later, `group_dm(*users)` is a group DM (type 3) without the bot,
and `set_use_external_apps(guild_or_channel, allowed)` turns "Use External Apps" off (the answers of a
user-installed app there become ephemeral). `slash`, `click` and `say` work in all these places; a
command the client would not offer there (its `contexts`, or no install covering the place) is an
InteractionRejected, and each Interaction carries `owners` (its authorizing_integration_owners).
"""

from .api import DiscordStandin
from .env import apply_env_overrides
from .faults import Fault, InjectedFault
from .fixtures import discord_standin
from .interactions import Interaction, InteractionRejected
from .message import Attachment, Message, MessageSnapshot
from .model import Channel, Guild, Member, Role, User
from .ratelimits import RateFigures, RateLimits, RouteLimit
from .world import ApiError, RequestRecord, StandinTimeout

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "DiscordStandin",
    "Fault",
    "Guild",
    "InjectedFault",
    "Interaction",
    "InteractionRejected",
    "Member",
    "Message",
    "MessageSnapshot",
    "RateFigures",
    "RateLimits",
    "RequestRecord",
    "Role",
    "RouteLimit",
    "StandinTimeout",
    "User",
    "apply_env_overrides",
    "discord_standin",
]
