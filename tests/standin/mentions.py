"""Whom a message pings, as Discord decides it, recorded on the stored message.

docs/resources/Message.md (earlier Channel.md), "Allowed Mentions Object":

* Mentions are read from the content: a user ``<@id>`` or ``<@!id>``, a role ``<@&id>``, and
  ``@everyone`` / ``@here`` (docs/reference.md, "Message Formatting"). The stand-in reads them
  from the raw text, markdown or not: the docs say nothing of markdown stopping a ping, so only a
  broken syntax counts as no mention (discord.py's ``escape_mentions`` puts a zero-width space
  after the ``@``).
* "If ``allowed_mentions`` is *not* passed in (i.e. the key does not exist), the mentions will be
  parsed via the content": everything mentioned pings. discord.py sends it only when the client
  or the call sets one.
* Passed in, ``parse`` lists the kinds ("users", "roles", "everyone") parsed from the content,
  and ``users`` / ``roles`` list the ids that may ping; "Note that the IDs of entities not present
  in the message's content will simply be ignored". ``parse: []`` suppresses every mention.
* "The ``parse`` field is mutually exclusive with the other fields": "users" in ``parse`` together
  with a ``users`` list (or "roles" with ``roles``) is a validation error; each list holds at most
  100 ids. "Passing a Falsy value ([], null) into the users field does not trigger a validation error."
* ``replied_user``: "For replies, whether to mention the author of the message being replied to
  (default false)"; without ``allowed_mentions`` a reply pings its author.
* "check against user/bot permissions": ``@everyone`` and ``@here`` ping only if the author may
  MENTION_EVERYONE in the channel (docs/topics/Permissions.md); a role pings only if it is
  mentionable (its ``mentionable`` field) or the author has that permission, which the client
  names "Mention @everyone, @here, and All Roles".

The message's ``mentions``, ``mention_roles`` and ``mention_everyone`` are what pings; the stand-in
keeps them as ``Message.pinged_users``, ``pinged_roles`` and ``pinged_everyone`` (and on each edit's
snapshot), so tests can count who a message pinged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

USER_MENTION = re.compile(r"<@!?(\d{1,20})>")
ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")
EVERYONE = re.compile(r"@(?:everyone|here)")
PARSE_KINDS = ("users", "roles", "everyone")
MAX_IDS = 100


@dataclass(frozen=True)
class Pings:
    """Who one version of a message pings."""

    users: frozenset[int] = field(default_factory=frozenset)
    roles: frozenset[int] = field(default_factory=frozenset)
    everyone: bool = False


def allowed_mentions_errors(allowed: Any) -> dict[str, Any] | None:
    """The "Invalid Form Body" errors of an ``allowed_mentions`` object, or None if Discord takes it."""
    if allowed is None:
        return None
    if not isinstance(allowed, dict):
        return {
            "allowed_mentions": {
                "_errors": [{"code": "MODEL_TYPE_CONVERT", "message": "Only dictionaries may be used in a ModelType"}]
            }
        }
    errors: dict[str, Any] = {}
    parse = allowed.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in PARSE_KINDS:
            errors.setdefault("parse", {})[str(index)] = {
                "_errors": [{"code": "BASE_TYPE_CHOICES", "message": f"Value must be one of {PARSE_KINDS}."}]
            }
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if len(ids) > MAX_IDS:
            errors[kind] = {
                "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {MAX_IDS} or fewer in length."}]
            }
        elif ids and kind in parse:
            # Message.md: parse: ["users"] with users: [...] "we would throw a validation error".
            errors[kind] = {
                "_errors": [
                    {
                        "code": "SET_TYPE_ALREADY_CONTAINS_VALUE",
                        "message": f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                    }
                ]
            }
    return {"allowed_mentions": errors} if errors else None


def pings_of(
    content: str,
    allowed: dict[str, Any] | None,
    *,
    known_users: set[int],
    guild_roles: dict[int, bool],
    may_mention_everyone: bool,
    replied_author: int | None,
) -> Pings:
    """Who ``content`` pings under ``allowed`` (None: the key was absent).

    ``known_users``: the users that exist (a mention of any other id pings nobody);
    ``guild_roles``: the channel's guild's roles, id → mentionable; ``may_mention_everyone``: the
    author's MENTION_EVERYONE in the channel; ``replied_author``: for a reply, its author."""
    users = {int(i) for i in USER_MENTION.findall(content)} & known_users
    roles = {int(i) for i in ROLE_MENTION.findall(content)} & set(guild_roles)
    everyone = bool(EVERYONE.search(content))
    if allowed is None:
        parse, allowed_users, allowed_roles, replied = set(PARSE_KINDS), set(), set(), True
    else:
        parse = set(allowed.get("parse") or [])
        allowed_users = {int(i) for i in allowed.get("users") or []}
        allowed_roles = {int(i) for i in allowed.get("roles") or []}
        replied = bool(allowed.get("replied_user"))
    users = users if "users" in parse else users & allowed_users
    roles = roles if "roles" in parse else roles & allowed_roles
    roles = {r for r in roles if guild_roles[r] or may_mention_everyone}
    everyone = everyone and "everyone" in parse and may_mention_everyone
    if replied and replied_author is not None:
        users.add(replied_author)
    return Pings(frozenset(users), frozenset(roles), everyone)
