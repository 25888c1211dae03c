"""Injected Discord failures: REST calls answered 5xx or 429 (or cut off), by chance or on purpose.

What a fault does to the world, as on real Discord:

- by default the call is refused BEFORE its handler runs, so it changes nothing (a 5xx from
  Discord means "not applied");
- ``applied=True`` runs the handler first and then answers the error anyway ("applied but
  answered 503"): the nasty case a sender must survive by being idempotent (a message create
  with ``nonce`` + ``enforce_nonce`` re-sent afterwards returns the first message);
- ``drop=True`` cuts the TCP connection instead of answering.

What reaches the bot's code depends on discord.py 2.7's own retries (``HTTPClient.request``
for bot-token routes, ``AsyncWebhookAdapter.request`` for interaction callbacks and webhooks):

- bot-token routes (channel messages, edits, deletes ...): 500, 502, 504 and 524 are retried
  unconditionally, 5 tries in all, sleeping 1 + 2 x try seconds after each failure (1, 3, 5,
  7, 9 s): only five failures in a row reach the caller, as ``DiscordServerError``, 25 s after
  the first. 503 (and any other 5xx) is NOT retried: one 503 reaches the caller at once.
  So ``fail_next(..., status=503)`` fails one call for the bot's code; with 500 set
  ``times=5`` and wait 25 s;
- interaction callbacks and webhook routes (follow-ups, @original edits): every status >= 500,
  503 included, is retried the same way (5 tries, 25 s): set ``times=5`` to make a failure reach
  the caller (a retried callback lands after the 3 s acknowledgement deadline from the third
  try on, and is then refused with 10062 like on Discord);
- a dropped connection is not retried on Linux (discord.py retries only errno 54/10054,
  the macOS/Windows "connection reset"): it reaches the caller at once as an
  ``aiohttp.ClientConnectionError`` / ``ServerDisconnectedError``, not a ``discord.HTTPException``.
  (aiohttp itself retries an idempotent request — GET, PUT, DELETE — once when its
  connection is cut: drop those with ``times=2``; a PATCH or POST is never retried.)

The random draws come from one seeded ``random.Random``; with concurrent requests their order
(and so which ones fail) follows arrival order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# What a bot calls while logging in and syncing commands: random faults spare these by
# default, so a restarted bot can come up (ask for them by name in `routes` to fail them).
STARTUP_ROUTES = frozenset(
    {
        "/users/@me",
        "/oauth2/applications/@me",
        "/applications/@me",
        "/gateway",
        "/gateway/bot",
        "/applications/{app}/commands",
        "/applications/{app}/guilds/{guild}/commands",
    }
)


@dataclass
class Fault:
    """One failure rule. A request matches when its method, route and channel all match.

    ``routes`` are the stand-in's route templates without the /api/v10 prefix, e.g.
    ``"/channels/{channel}/messages/{message}"`` (a channel message edit or delete),
    ``"/channels/{channel}/messages"`` (a post), ``"/interactions/{id}/{token}/callback"``,
    ``"/webhooks/{app}/{token}"``, ``"/webhooks/{app}/{token}/messages/{message}"``.
    ``None`` means every route except STARTUP_ROUTES. ``channel`` filters on the channel in
    the path, or for interaction webhooks the channel the interaction happened in.
    """

    status: int | tuple[int, ...] = 503
    methods: frozenset[str] | None = None
    routes: frozenset[str] | None = None
    channel: int | None = None
    fraction: float = 1.0
    times: int | None = None  # how many more matching calls to fail; None: no limit
    applied: bool = False
    drop: bool = False
    hits: int = 0  # calls this rule failed so far

    @property
    def spent(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def matches(self, method: str, route: str, channel: int | None) -> bool:
        if self.spent or (self.methods is not None and method not in self.methods):
            return False
        if self.routes is None and route in STARTUP_ROUTES:
            return False
        if self.routes is not None and route not in self.routes:
            return False
        return self.channel is None or self.channel == channel


@dataclass
class InjectedFault:
    """A call the stand-in failed on purpose (kept apart from ``world.errors``, which are the bot's mistakes)."""

    at: float
    method: str
    path: str
    status: int  # 0 for a dropped connection
    applied: bool


@dataclass
class Faults:
    rules: list[Fault] = field(default_factory=list)
    injected: list[InjectedFault] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(0))

    def add(self, fault: Fault, *, first: bool = False) -> Fault:
        _check(fault)
        if first:
            self.rules.insert(0, fault)
        else:
            self.rules.append(fault)
        return fault

    def clear(self) -> None:
        self.rules.clear()

    def pick(self, method: str, route: str, channel: int | None) -> Fault | None:
        """The rule that fails this call, if any (it is counted as used)."""
        for rule in self.rules:
            if rule.matches(method, route, channel) and (rule.fraction >= 1.0 or self.rng.random() < rule.fraction):
                rule.hits += 1
                return rule
        return None

    def status_for(self, rule: Fault) -> int:
        return rule.status if isinstance(rule.status, int) else self.rng.choice(rule.status)


def _check(fault: Fault) -> None:
    statuses = (fault.status,) if isinstance(fault.status, int) else fault.status
    if not statuses or any(not (500 <= s <= 599 or s == 429) for s in statuses):
        raise ValueError(f"an injected fault answers a 5xx status or 429, not {fault.status!r}")
    if 429 in statuses and fault.applied:
        raise ValueError("a 429 is never applied: Discord refuses the request before it acts")
    if not 0.0 < fault.fraction <= 1.0:
        raise ValueError(f"fraction must be in (0, 1], not {fault.fraction!r}")
    if fault.times is not None and fault.times < 1:
        raise ValueError(f"times must be at least 1, not {fault.times!r}")
    unknown = {r for r in fault.routes or () if not r.startswith("/")}
    if unknown:
        raise ValueError(f"routes are templates like '/channels/{{channel}}/messages', not {sorted(unknown)}")


def route_of(request: web.Request, prefix: str) -> str:
    """The template of the route a request hit, without the API prefix."""
    resource = request.match_info.route.resource
    canonical = resource.canonical if resource is not None else request.path
    return canonical[len(prefix) :] if canonical.startswith(prefix) else canonical


def channel_of(request: web.Request, interactions_by_token: dict[str, Any]) -> int | None:
    info = request.match_info
    if "channel" in info and info["channel"].isdigit():
        return int(info["channel"])
    interaction = interactions_by_token.get(info.get("token", ""))
    return interaction.channel.id if interaction is not None else None


#: The wait an injected 429 asks for (Rate_Limits.md: a 429's body says how long, in seconds).
INJECTED_RETRY_AFTER = 0.05


def too_many_answer() -> tuple[dict[str, Any], dict[str, str]]:
    """An injected 429 as Discord sends one on a route's own limit (Rate_Limits.md, "Exceeding A
    Rate Limit"): its body and headers; discord.py waits ``retry_after`` and tries again, five tries
    in all, and then raises it."""
    body = {"message": "You are being rate limited.", "retry_after": INJECTED_RETRY_AFTER, "global": False}
    headers = {"Retry-After": "1", "X-RateLimit-Scope": "user", "Via": "1.1 google"}
    return body, headers


def error_body(status: int) -> dict[str, Any]:
    # Discord's 5xx bodies are not documented; discord.py reads "message" and "code" if present.
    return {"message": f"{status}: injected by the stand-in", "code": 0}
