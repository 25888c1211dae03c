"""Discord's rate limits, opt-in (``DiscordStandin(rate_limits=True)`` or ``standin.set_rate_limits(True)``).

What Discord documents (docs/topics/Rate_Limits.md, "Rate Limits"), and how the stand-in plays it:

- **Global limit**: "All bots can make up to 50 requests per second to our API", per bot token,
  "independent of any individual rate limit on a route". "Interaction endpoints are not bound to
  the bot's Global Rate Limit": the callback (POST /interactions/{id}/{token}/callback) and
  everything under /webhooks/{application_id}/{interaction_token} (follow-ups, edits of the
  original response). Played as a sliding window: at most ``global_per_second`` requests admitted
  in any 1 s. A request over it is answered 429 with ``"global": true``, ``X-RateLimit-Global`` and
  ``X-RateLimit-Scope: global``, and changes nothing.
- **Per-route limits**, "shared across a set of similar endpoints, indicated in the
  X-RateLimit-Bucket header", and counted per top-level resource: "channels (channel_id), guilds
  (guild_id), and webhooks (webhook_id or webhook_id + webhook_token)". Every answer carries
  ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and
  ``-Bucket`` (the same for every channel: "non-inclusive of top-level resources"). A bucket is
  a window that opens with its first request and admits ``limit`` requests until it resets; one
  more is answered 429 with ``X-RateLimit-Scope: user`` and changes nothing.
- **Shared (per-resource) limits**: ``X-RateLimit-Scope: shared``, a resource limited for everyone
  (``limit_resource``); the docs' example answers it with Remaining above 0.
- **429 bodies**: ``{"message", "retry_after", "global"}``, with ``Retry-After`` in whole seconds
  (the docs' examples: ``Retry-After: 65`` for ``retry_after: 64.57``).
- **Invalid requests**: "10,000 per 10 minutes. An invalid request is one that results in 401,
  403, or 429 statuses", except "429 errors returned with X-RateLimit-Scope: shared". Counted
  for every request (interaction endpoints too: the ban is per IP address), limits on or off.

Discord does not publish the per-route numbers ("rate limits should not be hard coded into your
app. Instead, your app should parse response headers"); ``ROUTE_LIMITS`` says where each number
the stand-in picked comes from. What discord.py 2.7 does with these answers (discord/http.py,
``HTTPClient.request`` and ``Ratelimit``): it keeps one bucket per route and major parameters,
waits when ``X-RateLimit-Remaining`` reaches 0 for ``X-RateLimit-Reset-After`` seconds, and on a
429 sleeps the body's ``retry_after`` (holding every request while ``global`` is true) and tries
again, five tries in all; a 429 without a ``Via`` header, or with a body that is not JSON, is taken
for a Cloudflare ban and raised at once, so every answer here carries ``Via`` as Discord's do.
The interaction webhook (discord/webhook/async_.py) waits on ``X-RateLimit-Remaining: 0`` too.

Limits run on the real monotonic clock, whatever ``advance_time`` did to the stand-in's: the bot
sleeps real seconds when it is told to wait. A test that would only wait for a window to pass
moves the limits' own clock on instead (``RateLimits.advance``); ``clock`` may be replaced whole.
``window_scale`` shortens every route bucket's window alike (0.1: five messages per 0.5 s in a
channel rather than per 5 s), headers included: the counts and the bot's obedience to the headers
stay Discord's, the waiting is a fraction. The global limit stays per real second, the window the
bot's own request budget (cogs/presenting/budget.py) keeps to.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

GLOBAL_PER_SECOND = 50  # Rate_Limits.md, Global Rate Limit
INVALID_WINDOW = 600.0  # "10,000 per 10 minutes"
INVALID_LIMIT = 10_000

#: The interaction endpoints (Receiving_and_Responding.md, Endpoints), exempt from the global limit.
INTERACTION_ROUTES = frozenset(
    {
        "/interactions/{id}/{token}/callback",
        "/webhooks/{app}/{token}",
        "/webhooks/{app}/{token}/messages/{message}",
    }
)

#: What discord.py checks for to tell Discord's 429 from a Cloudflare ban; Discord's answers come
#: through Google's load balancer and carry it (it is not in Discord's docs).
VIA = "1.1 google"


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds, per major parameter, in the bucket named ``bucket``."""

    limit: int
    per: float
    bucket: str


# Discord publishes no per-route numbers. These are the ones seen in Discord's answers and
# repeated by the libraries' and developers' notes, or else the docs' own header example.
_MESSAGE_CREATE = RouteLimit(5, 5.0, "msg-create")  # 5 per 5 s per channel: widely observed for message create
_MESSAGE_EDIT = RouteLimit(5, 5.0, "msg-edit")  # no figure known for edits: taken as create's, in a bucket of their own
_REACTION = RouteLimit(1, 0.25, "reaction")  # 1 per 0.25 s per channel: widely observed for reactions
_INTERACTION_WEBHOOK = RouteLimit(5, 2.0, "webhook")  # 5 per 2 s per webhook id + token: observed for webhooks
#: Everything else: the docs' header example ("X-RateLimit-Limit: 5", "X-RateLimit-Reset-After: 1"),
#: a bucket per route.
DEFAULT_LIMIT = RouteLimit(5, 1.0, "")

ROUTE_LIMITS: dict[str, RouteLimit] = {
    "POST /channels/{channel}/messages": _MESSAGE_CREATE,
    "PATCH /channels/{channel}/messages/{message}": _MESSAGE_EDIT,
    "PUT /channels/{channel}/messages/{message}/reactions/{emoji}/@me": _REACTION,
    "DELETE /channels/{channel}/messages/{message}/reactions/{emoji}/@me": _REACTION,
    "POST /webhooks/{app}/{token}": _INTERACTION_WEBHOOK,
    "GET /webhooks/{app}/{token}/messages/{message}": _INTERACTION_WEBHOOK,
    "PATCH /webhooks/{app}/{token}/messages/{message}": _INTERACTION_WEBHOOK,
    "DELETE /webhooks/{app}/{token}/messages/{message}": _INTERACTION_WEBHOOK,
}

#: The path parameters that are top-level resources, in the order the key names them.
MAJOR_PARAMETERS = ("channel", "guild", "app", "id", "token")


@dataclass
class _Window:
    resets_at: float
    remaining: int


@dataclass(frozen=True)
class Refusal:
    """A 429 the stand-in answers instead of running the request."""

    scope: str  # "global", "user" or "shared"
    retry_after: float
    headers: dict[str, str]

    def body(self) -> dict[str, object]:
        message = "The resource is being rate limited." if self.scope == "shared" else "You are being rate limited."
        return {"message": message, "retry_after": self.retry_after, "global": self.scope == "global"}


@dataclass
class RateFigures:
    """What a benchmark reports: the bot-token requests in each second (interaction endpoints
    excluded, 429s included: what the bot asked for), the 429s by scope and the invalid requests."""

    per_second: list[int]
    too_many: dict[str, int]
    invalid: int
    invalid_max_10min: int

    @property
    def bot_requests(self) -> int:
        return sum(self.per_second)

    def percentile(self, share: float) -> int:
        """Bot-token requests in the second at this share of the seconds, sorted (0.5: the median)."""
        ordered = sorted(self.per_second)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0


@dataclass
class RateLimits:
    """The limits (when ``enabled``) and the counts (always), for one bot token."""

    enabled: bool = False
    global_per_second: int = GLOBAL_PER_SECOND
    routes: dict[str, RouteLimit] = field(default_factory=lambda: dict(ROUTE_LIMITS))
    default: RouteLimit = DEFAULT_LIMIT
    clock: Callable[[], float] = time.monotonic  # real time: the bot sleeps real seconds when told to wait
    skipped: float = 0.0  # seconds the limits' clock was moved on past ``clock`` (``advance``)
    window_scale: float = 1.0  # a route bucket's window lasts its ``per`` times this (1: Discord's)
    _global: deque[float] = field(default_factory=deque)  # admission times in the last second
    _windows: dict[tuple[str, tuple[str, ...]], _Window] = field(default_factory=dict)
    _shared: dict[str, float] = field(default_factory=dict)  # resource id -> limited until
    _per_second: dict[int, int] = field(default_factory=dict)
    _too_many: dict[str, int] = field(default_factory=dict)
    _invalid: deque[float] = field(default_factory=deque)  # invalid answers in the last 10 minutes
    _invalid_total: int = 0
    _invalid_max: int = 0
    _since: int | None = None  # the first second counted (None: the first request's)

    def configure(
        self,
        enabled: bool,
        *,
        global_per_second: int | None = None,
        routes: dict[str, RouteLimit] | None = None,
        default: RouteLimit | None = None,
        window_scale: float | None = None,
    ) -> None:
        """Turn the limits on or off; tests may shrink them to stay quick (``routes`` are merged
        over ``ROUTE_LIMITS``, keyed like it: "METHOD /template"; ``window_scale``: see the
        module's notes, kept as it is when not given)."""
        self.enabled = enabled
        if window_scale is not None:
            if window_scale <= 0:
                raise ValueError("window_scale must be above 0")
            self.window_scale = window_scale
        self.global_per_second = global_per_second or GLOBAL_PER_SECOND
        self.routes = dict(ROUTE_LIMITS) | (routes or {})
        self.default = default or DEFAULT_LIMIT
        self._global.clear()
        self._windows.clear()

    def now(self) -> float:
        """The limits' time: ``clock`` plus what ``advance`` skipped."""
        return self.clock() + self.skipped

    def advance(self, seconds: float) -> None:
        """Move the limits' clock on, as if ``seconds`` had passed without a request: the global
        window and the buckets that reset meanwhile are free again (the bot's clocks are not moved)."""
        self.skipped += seconds

    def limit_resource(self, resource_id: int, seconds: float) -> None:
        """Discord limits this channel or guild for everyone for ``seconds``: its requests get 429
        with ``X-RateLimit-Scope: shared`` (not counted as invalid)."""
        self._shared[str(resource_id)] = self.now() + seconds

    # --- admission ----------------------------------------------------------------------------

    def route_limit(self, method: str, route: str) -> tuple[RouteLimit, str]:
        """The limit of a request and its bucket's name (a route's own when the table names none)."""
        limit = self.routes.get(f"{method} {route}", self.default)
        return limit, _bucket_name(limit.bucket or f"{method} {route}")

    def admit(self, method: str, route: str, major: tuple[str, ...]) -> tuple[Refusal | None, dict[str, str]]:
        """Either a refusal, or the headers to put on the answer; the request counts as made."""
        now = self.now()
        shared = next((self._shared[r] for r in major if r in self._shared and self._shared[r] > now), None)
        limit, bucket = self.route_limit(method, route)
        window = self._window(bucket, major, limit, now)
        if shared is not None:
            wait = _up(shared - now)
            headers = self._headers(limit, bucket, window, now) | _retry_headers(wait, "shared")
            return Refusal("shared", wait, headers), headers
        if route not in INTERACTION_ROUTES:
            while self._global and self._global[0] <= now - 1.0:
                self._global.popleft()
            if len(self._global) >= self.global_per_second:
                wait = _up(self._global[0] + 1.0 - now)
                headers = (
                    self._headers(limit, bucket, window, now)
                    | _retry_headers(wait, "global")
                    | {"X-RateLimit-Global": "true"}
                )
                return Refusal("global", wait, headers), headers
            self._global.append(now)
        if window.remaining <= 0:
            wait = _up(window.resets_at - now)
            headers = self._headers(limit, bucket, window, now) | _retry_headers(wait, "user")
            return Refusal("user", wait, headers), headers
        window.remaining -= 1
        return None, self._headers(limit, bucket, window, now)

    def _window(self, bucket: str, major: tuple[str, ...], limit: RouteLimit, now: float) -> _Window:
        key = (bucket, major)
        window = self._windows.get(key)
        if window is None or window.resets_at <= now:
            window = self._windows[key] = _Window(now + limit.per * self.window_scale, limit.limit)
        return window

    @staticmethod
    def _headers(limit: RouteLimit, bucket: str, window: _Window, now: float) -> dict[str, str]:
        after = _up(window.resets_at - now)
        return {
            "X-RateLimit-Limit": str(limit.limit),
            "X-RateLimit-Remaining": str(window.remaining),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket,
            "Via": VIA,
        }

    # --- counting -----------------------------------------------------------------------------

    def count(self, route: str, status: int, scope: str | None = None) -> None:
        """One answered API request (limits on or off); ``scope`` for a 429."""
        now = self.now()
        if route not in INTERACTION_ROUTES:
            second = int(now)
            if self._since is None:
                self._since = second
            self._per_second[second] = self._per_second.get(second, 0) + 1
        if status == 429:
            scope = scope or "user"
            self._too_many[scope] = self._too_many.get(scope, 0) + 1
        if status in (401, 403) or (status == 429 and scope != "shared"):
            self._invalid_total += 1
            self._invalid.append(now)
            while self._invalid[0] <= now - INVALID_WINDOW:
                self._invalid.popleft()
            self._invalid_max = max(self._invalid_max, len(self._invalid))

    def reset_figures(self) -> None:
        """Start counting afresh (a benchmark's measured part); the limits' state stays."""
        self._per_second.clear()
        self._too_many.clear()
        self._invalid.clear()
        self._invalid_total = self._invalid_max = 0
        self._since = int(self.now())

    def figures(self, until: float | None = None) -> RateFigures:
        """The counts since the last ``reset_figures`` (or the first request), every second up to
        ``until`` (on the limits' clock, ``now()``; default now) included, the quiet ones as 0."""
        last = int(until if until is not None else self.now())
        first = last if self._since is None else self._since
        return RateFigures(
            per_second=[self._per_second.get(s, 0) for s in range(first, max(first, last) + 1)],
            too_many=dict(self._too_many),
            invalid=self._invalid_total,
            invalid_max_10min=self._invalid_max,
        )


def major_of(match_info: dict[str, str]) -> tuple[str, ...]:
    """The top-level resources in a request's path (channel, guild, webhook id + token)."""
    return tuple(match_info[name] for name in MAJOR_PARAMETERS if name in match_info)


def _bucket_name(name: str) -> str:
    """A hash-like bucket name, as Discord's are (the docs' example is "abcd1234")."""
    return hashlib.sha1(name.encode()).hexdigest()[:16]


def _up(seconds: float) -> float:
    """Rounded up to the millisecond: a client that waits what it is told is never early."""
    return max(0.001, math.ceil(seconds * 1000) / 1000)


def _retry_headers(wait: float, scope: str) -> dict[str, str]:
    return {"Retry-After": str(math.ceil(wait)), "X-RateLimit-Scope": scope}
