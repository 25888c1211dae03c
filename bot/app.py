"""Starting the Discord client: the one place ``bot/`` touches discord."""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar, cast

import aiohttp
import discord
import discord.gateway
from discord.ext import commands

from data import StoreError, open_store
from data.store import Store

from .config import Settings
from .health import Heartbeat, bot_status
from .invite import invite_url, user_install_url
from .logs import setup_logging
from .metrics import Metrics
from .server_settings import ServerDefaults, ServerSettingsBook
from .sync import sync_commands
from .tables.ai_seats import AIDecider, warm_up
from .tables.service import ServiceDefaults, TableService
from .tables.workers import WorkerPool

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Cogs loaded by ``setup_hook``; each is a discord.py extension in ``cogs/``, named here and
#: never imported (the shell sits below the face). cogs.errors first: it installs the tree's
#: error handler and translator before any command exists.
EXTENSIONS: tuple[str, ...] = ("cogs.errors", "cogs.tables", "cogs.stats", "cogs.admin")

TOKEN_REFUSED = "Discord refused the token: check DISCORD_TOKEN (it is on your application's Bot page)"


class HeartbeatTimedAtSend(discord.gateway.KeepAliveHandler):
    """discord.py's keep-alive, each heartbeat timed from when it is handed to the event loop.

    The library notes a heartbeat's send time in its own thread once it has woken up after the
    send; an acknowledgement the loop reads before that (Discord answers at once: a fast network,
    a busy process) was timed from the heartbeat before, a whole interval (41.25 s) earlier, and
    reported as latency ("Can't keep up, websocket is 41.3s behind", and in the health line)."""

    def get_payload(self) -> dict[str, Any]:
        self._last_send = time.perf_counter()
        return super().get_payload()


def time_heartbeats_at_send() -> None:
    """Make the gateway connections made from now on use ``HeartbeatTimedAtSend`` (discord.py
    looks its keep-alive class up by name each time it connects)."""
    discord.gateway.KeepAliveHandler = HeartbeatTimedAtSend  # type: ignore[misc]  # a class the library looks up by name: replaced on purpose


class SixNimmtBot(commands.Bot):
    """A thin bot: ``setup_hook`` opens the store, starts the table service and loads the cogs.

    ``start_tables=False`` loads the commands without restoring tables or starting
    timers: what ``python -m bot --sync`` needs to send the command tree.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        clock: Callable[[], float] = time.time,
        ai: AIDecider | None = None,
        start_tables: bool = True,
        **options: Any,
    ) -> None:
        time_heartbeats_at_send()
        intents = discord.Intents.none()
        intents.guilds = True  # slash commands and buttons need no privileged intents
        # Nothing the bot sends pings anyone unless the message names whom it means to ping: a
        # player's name such as "@everyone" or "<@&role>" is only ever text.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        if settings.sharded:
            options.setdefault("shard_count", settings.shard_count)
            options.setdefault("shard_ids", settings.shard_ids)
        #: Prometheus metrics, when METRICS_PORT asks for them (None otherwise)
        self.metrics: Metrics | None = Metrics() if settings.metrics_port is not None else None
        if self.metrics is not None:
            options.setdefault("http_trace", self.metrics.trace_config())
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            owner_ids=set(settings.owner_ids),
            **options,
        )
        self.settings = settings
        self._store = store
        self._clock = clock
        self._ai = ai
        self.start_tables = start_tables
        self.service: TableService | None = None
        self._server_settings: ServerSettingsBook | None = None
        self.heartbeat = Heartbeat(settings.heartbeat_path, lambda: bot_status(self), interval=settings.health_interval)
        #: The one worker process for CPU-heavy work (the searching AI, pictures, a game's files),
        #: closed last: the cogs may still draw while they wind down.
        self.workers = WorkerPool(warm_up)

    async def setup_hook(self) -> None:
        store = self._store or await open_store(self.settings.database, pool_size=self.settings.database_pool_size)
        self.service = TableService(
            store,
            clock=self._clock,
            ai=self._ai,
            defaults=ServiceDefaults(
                lobby_minutes=self.settings.lobby_minutes, replacement_ai_level=self.settings.default_ai_level
            ),
            observer=self.metrics,
            workers=self.workers,
        )
        if self.metrics is not None:
            self.metrics.service = self.service
        self._server_settings = ServerSettingsBook(store, ServerDefaults.from_settings(self.settings))
        if self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))
            log.info("link to add it to your own account: %s", user_install_url(self.application_id))
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if not self.start_tables:
            return
        if self.metrics is not None and self.settings.metrics_port is not None:
            await self.metrics.serve(self.settings.metrics_host, self.settings.metrics_port)
        self.service.ai.start()  # the searching AI's worker warms up while we restore and connect
        # Before the tables: a restored table's first message is in its server's chosen language.
        await self._server_settings.load(self.settings.owns_guild)
        # After the cogs, so restored tables are shown; only the tables of this process's shards.
        corrupt = await self.service.start(self.settings.owns_guild)
        if corrupt:
            log.warning("%d table(s) could not be restored; see the errors above", len(corrupt))
        self.heartbeat.start()

    @property
    def tables(self) -> TableService:
        """The table service, which ``setup_hook`` starts before any command or click is taken."""
        if self.service is None:
            raise RuntimeError("the table service is not running (before setup_hook, or after close)")
        return self.service

    @property
    def server_settings(self) -> ServerSettingsBook:
        """Each server's defaults for its tables (its own choices over the bot's settings)."""
        if self._server_settings is None:
            raise RuntimeError("the bot has not opened its store yet (setup_hook)")
        return self._server_settings

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Counts what arrives (the metrics); answering is the commands' and items' work."""
        if self.metrics is not None:
            self.metrics.interaction(*interaction_kind(interaction))

    async def close(self) -> None:
        await self.heartbeat.stop()
        if self.metrics is not None:
            await self.metrics.close()
        if self.service is not None:
            await self.service.close()
            for extension in list(self.extensions):
                await self.unload_extension(extension)
            await self.service.store.close()
            self.service = None
        await self.workers.close()
        await super().close()


def interaction_kind(interaction: discord.Interaction) -> tuple[str, str | None]:
    """("click" | "command" | "autocomplete" | "modal" | "other", a command's full name or None)."""
    kind = {
        discord.InteractionType.component: "click",
        discord.InteractionType.application_command: "command",
        discord.InteractionType.autocomplete: "autocomplete",
        discord.InteractionType.modal_submit: "modal",
    }.get(interaction.type, "other")
    if kind != "command":
        return kind, None
    data: Any = interaction.data or {}
    names = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group): its name, then its options
        names.append(str(options[0].get("name", "?")))
        options = options[0].get("options") or []
    return kind, " ".join(names)


class ShardedSixNimmtBot(SixNimmtBot, commands.AutoShardedBot):
    """The same bot on several gateway connections (SHARD_COUNT, optionally SHARD_IDS)."""


def make_bot(settings: Settings, **options: Any) -> SixNimmtBot:
    """The bot the settings ask for: sharded when SHARD_COUNT is set."""
    cls = ShardedSixNimmtBot if settings.sharded else SixNimmtBot
    return cls(settings, **options)


async def freeze_when_ready(bot: SixNimmtBot) -> None:
    """Once connected, move what start-up made (modules, commands, guilds, restored
    tables) out of the collector's reach: it lives as long as the process, and a
    full collection that walks it all again stalls every table's clicks."""
    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    log.debug("%d start-up objects frozen for the collector", gc.get_freeze_count())
    if freeze_survivors not in gc.callbacks:
        gc.callbacks.append(freeze_survivors)


#: Every this many full collections, one walks everything again (see ``freeze_survivors``).
THAW_EVERY = 5
_full_collections = 0


def freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """After a full collection, freeze what survived it: the open tables' games and messages,
    which live for minutes to days. A full collection walks every object not frozen; at 1,000
    tables each took some 110 ms, during which no click is answered, and came back every ten
    seconds to walk the same tables again.

    A frozen object is still freed when its last reference goes, but a reference cycle among
    frozen objects is not: a finished game's would stay (50 MB a thousand games). So every
    ``THAW_EVERY``-th full collection thaws everything first and walks it all once."""
    global _full_collections
    if info.get("generation") != 2:
        return
    if phase == "start":
        _full_collections += 1
        if _full_collections % THAW_EVERY == 0:
            gc.unfreeze()
    elif phase == "stop":
        gc.freeze()
        if _trim is not None:
            _trim(0)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS, Windows).

    C malloc keeps what was freed for the next allocation: after a thousand finished games a
    process held 15 MB so, in the gaps between what is still in use. ``malloc_trim`` hands the
    free pages back to the system (some 0.1 ms)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return cast(Callable[[int], int], trim)


_trim = _malloc_trim()


#: Net allocations of tracked objects between young collections in a serving bot (Python's: 700).
YOUNG_COLLECTION_EVERY = 10_000


def tune_interpreter() -> None:
    """Set the interpreter for a serving bot: busy event loop, a store thread, many tables.

    - The store's SQLite threads give up the GIL around every statement and must win it back
      from a busy event loop: 1 ms turns instead of Python's default 5 ms keep a checkpoint
      (and the click waiting on it) from queuing behind the loop's work.
    - A click makes thousands of objects that live for its few awaits. Young collections every
      700 allocations (Python's default) ran 23 times a second at 200 clicks a second, and each
      promoted what was alive at that moment, so most of a click's objects reached the old
      generation and full collections came every five seconds to walk them (42 ms each at p50,
      193 ms at worst). Every 10,000, they die young: 2 full collections where there were 39,
      and a third of the collector's time.
    """
    sys.setswitchinterval(0.001)
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, middle, old)


async def serve(bot: SixNimmtBot) -> None:
    """Run ``bot`` until Discord closes it or SIGTERM/SIGINT asks it to stop; then shut down cleanly.

    Docker stops a container with SIGTERM: the tables are checkpointed and the
    store closed before the process exits, instead of dying mid-write.
    """
    tune_interpreter()
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def on_signal(sig: signal.Signals) -> None:
        log.info("%s received: shutting down", sig.name)
        stopping.set()

    handled = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, on_signal, sig)
            handled.append(sig)
        except NotImplementedError:  # Windows: Ctrl-C still ends asyncio.run, less gracefully
            pass
    try:
        async with bot:
            running = asyncio.create_task(bot.start(bot.settings.discord_token.get_secret_value()), name="discord")
            stop = asyncio.create_task(stopping.wait(), name="stop-signal")
            settle = asyncio.create_task(freeze_when_ready(bot), name="freeze-start-up")
            await asyncio.wait({running, stop}, return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            settle.cancel()
            if not running.done():
                await bot.close()
            await running  # LoginFailure and the like surface here
        log.info("shut down cleanly")
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)


async def sync_once(settings: Settings, guild_ids: list[int] | None) -> list[tuple[int | None, int]]:
    """Log in, send the command tree (to ``guild_ids``, or globally for None) and log out."""
    bot = make_bot(settings, start_tables=False)
    async with bot:
        await bot.login(settings.discord_token.get_secret_value())
        return await sync_commands(bot, guild_ids)


def startup_problem(exc: BaseException, settings: Settings) -> str | None:
    """The one line that explains a failure to start or sync, or None for a bug (keep its traceback)."""
    if isinstance(exc, discord.LoginFailure):
        return TOKEN_REFUSED
    if isinstance(exc, StoreError):
        return f"the database {settings.database_label} cannot be used: {exc}"
    if isinstance(exc, discord.Forbidden):
        return (
            f"Discord refused ({exc.text or exc.status}): is the bot in that guild, invited with the "
            "applications.commands scope?"
        )
    if isinstance(exc, discord.HTTPException):
        return f"Discord refused: {exc.status} {exc.text}"
    if isinstance(exc, (aiohttp.ClientError, OSError)):
        return f"cannot reach Discord: {exc}"
    return None


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on the bot's event loop: uvloop's where it is installed, else asyncio's own.

    uvloop runs the loop and its sockets in C (libuv): the loop's own work and its transports were
    about a tenth of the bot's CPU per click on asyncio's loop, and the bot spends some 8 % less
    per interaction on uvloop. It does not build on Windows, where asyncio's loop serves as before.
    """
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def run(settings: Settings) -> int:
    setup_logging(settings)
    try:
        run_loop(serve(make_bot(settings)))
    except Exception as exc:
        problem = startup_problem(exc, settings)
        if problem is None:
            raise
        log.error(problem)
        return 1
    return 0
