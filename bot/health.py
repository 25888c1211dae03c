"""A health signal a container can check: a heartbeat file the running bot rewrites.

The bot writes a small JSON object every ``INTERVAL`` seconds; ``python -m bot
--health`` (Docker's HEALTHCHECK) reads it and exits 0 only if it is fresh and
says the gateway is connected. A file, not a port: nothing to expose or secure,
and it works the same with one process per shard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import time
from collections.abc import Callable, Iterable, Sized
from pathlib import Path
from typing import Any, Protocol

#: What a heartbeat says: JSON-ready values by name.
Status = dict[str, Any]


# What the heartbeat reads of the running bot (``bot.app.SixNimmtBot``), which imports this
# module: described here rather than imported, and kept light for ``python -m bot --health``.
class WorkerPoolState(Protocol):
    @property
    def alive(self) -> bool: ...
    @property
    def started(self) -> bool: ...
    @property
    def restarts(self) -> int: ...


class AIState(Protocol):  # bot.tables.ai_seats.AISeats
    @property
    def pool(self) -> WorkerPoolState: ...
    @property
    def fallbacks(self) -> int: ...
    @property
    def crashes(self) -> int: ...
    @property
    def decisions(self) -> int: ...
    @property
    def decision_ms(self) -> Iterable[float]: ...


class ServiceState(Protocol):  # bot.tables.service.TableService
    @property
    def tables(self) -> Sized: ...
    @property
    def database_reachable(self) -> bool: ...
    @property
    def ai(self) -> AIState: ...


class SettingsState(Protocol):  # bot.server_settings.ServerSettingsBook
    @property
    def read_failures(self) -> int: ...


class BotState(Protocol):  # bot.app.SixNimmtBot
    @property
    def latency(self) -> float: ...
    @property
    def service(self) -> ServiceState | None: ...
    @property
    def _server_settings(self) -> SettingsState | None: ...
    def is_ready(self) -> bool: ...
    def is_closed(self) -> bool: ...


log = logging.getLogger(__name__)

INTERVAL = 20.0
#: A heartbeat older than this means the process is hung or gone.
MAX_AGE = 3 * INTERVAL


def heartbeat_path(database_path: str | os.PathLike[str], health_file: str | os.PathLike[str] | None) -> Path:
    """Where the heartbeat lives: HEALTH_FILE, else next to the database."""
    if health_file:
        return Path(health_file)
    database = Path(database_path)
    return database.with_name(database.name + ".health")


def write_atomically(path: Path, data: Status) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)  # a reader never sees half a file


class Heartbeat:
    """Rewrites ``path`` with ``status()`` until stopped; removes it on a clean stop."""

    def __init__(
        self,
        path: Path,
        status: Callable[[], Status],
        *,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self._status = status
        self.interval = interval
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    def beat(self) -> Status:
        data = {"time": self.clock(), **self._status()}
        try:
            write_atomically(self.path, data)
        except OSError as exc:  # a full disk must not take the games down with it
            log.warning("could not write the heartbeat %s: %s", self.path, exc)
        return data

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="heartbeat")

    async def stop(self) -> None:
        if self._task is None:
            return  # never started (e.g. ``--sync``): the file may be a running bot's
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        self._task = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _run(self) -> None:
        while True:
            self.beat()
            await asyncio.sleep(self.interval)


def bot_status(bot: BotState) -> Status:
    """What the heartbeat says about a discord.py client: connected, latency, shards, tables."""
    latency = bot.latency
    shards = sorted(getattr(bot, "shards", {}) or {})  # an AutoShardedClient's; a plain client has none
    service = bot.service
    return {
        "ready": bot.is_ready() and not bot.is_closed(),
        "latency": latency if math.isfinite(latency) else None,
        "shards": shards,
        "tables": len(service.tables) if service is not None else 0,
        # As the last save found it: the tables pause while it cannot be reached, and go on by themselves.
        "database": "ok" if service is None or service.database_reachable else "unreachable",
        # Reads of a server's settings that failed (each answered "cannot be read", never with defaults).
        "settings_read_failures": book.read_failures if (book := bot._server_settings) is not None else 0,
        **ai_status(service.ai if service is not None else None),
    }


def ai_status(ai: AIState | None) -> Status:
    """The searching AI's worker: up or not, restarts, decisions medium made in its place (and how
    many failures were the AI's own crashes, a bug), and
    how long the recent searching decisions took (p50/p95/max wall ms, queueing included)."""
    if ai is None:
        return {}
    status: Status = {
        "ai_worker": "up" if ai.pool.alive else ("down" if ai.pool.started else "not started"),
        "ai_worker_restarts": ai.pool.restarts,
        "ai_fallbacks": ai.fallbacks,
        "ai_crashes": ai.crashes,
        "ai_decisions": ai.decisions,
    }
    times = sorted(ai.decision_ms)
    if times:
        status["ai_decision_ms"] = {
            "of": len(times),
            "p50": round(_nearest_rank(times, 0.5), 1),
            "p95": round(_nearest_rank(times, 0.95), 1),
            "max": round(times[-1], 1),
        }
    return status


def _nearest_rank(ordered: list[float], share: float) -> float:
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def check(path: Path, *, now: float | None = None, max_age: float = MAX_AGE) -> tuple[bool, str]:
    """(healthy, one line saying why) for the heartbeat at ``path``."""
    now = time.time() if now is None else now
    try:
        data = json.loads(path.read_text())
        age = now - float(data["time"])
    except FileNotFoundError:
        return False, f"unhealthy: no heartbeat at {path} (the bot is not running, or still starting)"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return False, f"unhealthy: the heartbeat {path} cannot be read ({exc})"
    if age > max_age:
        return False, f"unhealthy: the last heartbeat is {age:.0f} s old (more than {max_age:.0f} s)"
    if not data.get("ready"):
        return False, "unhealthy: the bot is running but not connected to Discord"
    line = f"healthy: connected, {data.get('tables', 0)} table(s), heartbeat {age:.0f} s old"
    if data.get("database") == "unreachable":
        # Not a reason to restart the container either: a restart cannot bring the database back,
        # and every table carries on by itself once it is.
        line += "; the database is unreachable: tables are paused until it is back"
    if "ai_fallbacks" in data:
        # Not a reason to restart the container: the tables play on, but the operator should know.
        line += (
            f"; AI worker {data.get('ai_worker')}, {data.get('ai_worker_restarts', 0)} restart(s), "
            f"{data['ai_fallbacks']} fallback(s) to medium"
        )
        if data.get("ai_crashes"):  # a bug in the AI, not a worker that died: worth a report
            line += f", {data['ai_crashes']} crash(es) of the AI itself"
        timing = data.get("ai_decision_ms")
        if timing:
            line += f", hard decisions p95 {timing['p95']:g} ms (last {timing['of']})"
    return True, line
