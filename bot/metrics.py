"""Metrics for operators: a Prometheus endpoint, off unless ``METRICS_PORT`` is set.

What is counted as it happens (interactions, answers, store writes, posts
shown, requests to Discord) is kept in prometheus-client's counters and
histograms; what is a state (tables open, the presenter's queue, the AI
worker, the database) is read from the bot when the endpoint is scraped, so
nothing has to keep it up to date. The endpoint is served by aiohttp on the
bot's own event loop: a scrape reads the bot's state from the loop's thread,
never beside it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace
from typing import Any

import aiohttp
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .tables.observer import Observer
from .tables.service import TableService
from .tables.table import PACES, TableStatus

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: Latency buckets in seconds: Discord's 3 s answer deadline and the 100 ms players feel sit on edges.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
#: A post may wait out an outage: the reveal's buckets reach further.
POST_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


def request_scope(path: str) -> str:
    """Whose budget a request to Discord's ``path`` counts against: "interaction" for the answers
    to interactions (callbacks, and follow-ups through the interaction's webhook), which Discord
    exempts from the global limit; "bot" for every other request made with the bot token."""
    if "/interactions/" in path or "/webhooks/" in path:
        return "interaction"
    return "bot"


class Metrics(Observer):
    """The bot's metrics in a registry of their own (several bots in one test process never mix)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.interactions = Counter(
            "sixnimmt_interactions",
            "Interactions received, by kind (click, command, autocomplete, modal)",
            ["kind"],
            registry=registry,
        )
        self.commands = Counter(
            "sixnimmt_commands", "Slash commands used, by their full name", ["command"], registry=registry
        )
        self.answers = Histogram(
            "sixnimmt_answer_seconds",
            "From an interaction's arrival to its answer (or deferral), by kind",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.posts = Histogram(
            "sixnimmt_post_shown_seconds",
            "From the commit that made a post to Discord showing it, by kind (turn: the last pick to its reveal)",
            ["kind"],
            buckets=POST_BUCKETS,
            registry=registry,
        )
        self.store_writes = Histogram(
            "sixnimmt_store_write_seconds",
            "Store writes (commits, new tables, posts marked shown), by outcome",
            ["outcome"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.requests = Counter(
            "sixnimmt_discord_requests",
            "Requests to Discord's REST API, by scope (bot: counts against the bot token's global limit; "
            "interaction: answers, exempt) and status class",
            ["scope", "status"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "sixnimmt_discord_rate_limited",
            "429 answers from Discord, by the scope it gave (global, user, shared)",
            ["scope"],
            registry=registry,
        )
        #: Read at each scrape: the table service (once it is up), the presenter's queue (once it is).
        self.service: TableService | None = None
        self.presenter_queue: Callable[[], int] | None = None
        registry.register(_StateCollector(self))
        self._runner: web.AppRunner | None = None

    # -- what the bot reports --------------------------------------------------------------

    def store_write(self, seconds: float, ok: bool) -> None:
        self.store_writes.labels("ok" if ok else "failed").observe(seconds)

    def post_shown(self, kind: str, seconds: float) -> None:
        self.posts.labels(kind).observe(max(seconds, 0.0))

    def interaction(self, kind: str, command: str | None = None) -> None:
        self.interactions.labels(kind).inc()
        if command:
            self.commands.labels(command).inc()

    def answered(self, kind: str, seconds: float) -> None:
        self.answers.labels(kind).observe(seconds)

    def trace_config(self) -> aiohttp.TraceConfig:
        """Counts every request discord.py makes (its HTTP client's session carries the interaction
        answers too), by scope and status, and each 429 by the scope Discord gave."""
        trace = aiohttp.TraceConfig()

        async def on_end(
            session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            status = params.response.status
            if status < 200:  # 101: the gateway's websocket upgrade, no REST request
                return
            self.requests.labels(request_scope(params.url.path), f"{status // 100}xx").inc()
            if status == 429:
                self.rate_limited.labels(params.response.headers.get("X-RateLimit-Scope", "unknown")).inc()

        async def on_exception(
            session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
        ) -> None:
            self.requests.labels(request_scope(params.url.path), "failed").inc()

        trace.on_request_end.append(on_end)
        trace.on_request_exception.append(on_exception)
        return trace

    # -- the endpoint ------------------------------------------------------------------------

    async def serve(self, host: str, port: int) -> None:
        """Serve ``/metrics`` on ``host:port`` until ``close``."""
        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        log.info("metrics at http://%s:%d/metrics", host, port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _scrape(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE})


class _StateCollector(Collector):
    """The bot's state at the moment of a scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def describe(self) -> Iterable[Metric]:
        return []  # unknown until the bot is up: collected fresh at every scrape

    def collect(self) -> Iterator[Metric]:
        service, presenter_queue = self._metrics.service, self._metrics.presenter_queue
        if service is None:
            return
        tables = GaugeMetricFamily(
            "sixnimmt_tables", "Tables open in this process, by state and pace", labels=["state", "pace"]
        )
        # Every open state and pace has a sample, 0 when none: a series that vanishes when the last
        # table closes reads as "no data", not as none open.
        counts: dict[tuple[str, str], int] = {
            (status.value, pace): 0 for status in (TableStatus.LOBBY, TableStatus.PLAYING) for pace in PACES
        }
        for table in list(service.tables.values()):
            key = (table.status.value, table.options.pace)
            counts[key] = counts.get(key, 0) + 1
        for (status, pace), count in sorted(counts.items()):
            tables.add_metric([status, pace], count)
        yield tables
        yield _gauge(
            "sixnimmt_database_up",
            "1 while the last store write reached the database, else 0",
            1 if service.database_reachable else 0,
        )
        if presenter_queue is not None:
            yield _gauge(
                "sixnimmt_presenter_tables", "Tables with news or an edit still to show in Discord", presenter_queue()
            )
        yield from _ai_metrics(service.ai)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _ai_metrics(ai: Any) -> Iterator[Metric]:
    """The searching AI: its decisions, those medium made because the worker failed, its worker."""
    decisions = CounterMetricFamily("sixnimmt_ai_decisions", "Searching AI decisions asked of the worker")
    decisions.add_metric([], ai.decisions)
    yield decisions
    fallbacks = CounterMetricFamily(
        "sixnimmt_ai_fallbacks", "Searching AI decisions the worker failed, made by the medium AI instead"
    )
    fallbacks.add_metric([], ai.fallbacks)
    yield fallbacks
    restarts = CounterMetricFamily("sixnimmt_ai_worker_restarts", "Times the AI worker process was replaced")
    restarts.add_metric([], ai.pool.restarts)
    yield restarts
    yield _gauge("sixnimmt_ai_worker_up", "1 while the AI worker process is up", 1 if ai.pool.alive else 0)
