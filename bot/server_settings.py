"""Each server's defaults for its tables: its own choices over the bot's settings.

A server (``/6nimmt-admin settings``) may choose whether games get threads, the
pace and live turn timer of a new game, the AI level, whether turn-based
games are allowed and the language of its public messages; whatever it leaves unset follows
the bot's settings (THREADS, DEFAULT_PACE, TURN_SECONDS, DEFAULT_AI_LEVEL, TURN_BASED; the
language follows the server's own Discord language). The book reads a server's choices from
the store once and keeps them (the most recently used guilds): each guild is served by one
process (its shard), which is also the one that changes them. Every stored choice is read at
start-up (``load``), so the language of a restored table's first message is known without
waiting. A read that fails is said so, never answered with the bot's defaults.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from data.errors import StoreUnavailable
from data.models import ServerSettings
from data.store import Store

from .config import Settings
from .tables.table import PACES

log = logging.getLogger(__name__)

#: Guilds whose settings are kept in memory, the most recently used (a few hundred bytes each).
CACHED_GUILDS = 10_000

#: The fields of ServerDefaults, in the order they are shown.
FIELDS = ("threads", "pace", "turn_seconds", "ai_level", "turn_based", "language")


class InvalidSettings(ValueError):
    """Settings a server cannot have; ``problem`` names which rule (for the Discord face):
    "pace_needs_turn_based" (a turn-based pace while turn-based games are off) or "value"."""

    def __init__(self, problem: str, message: str) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True)
class ServerDefaults:
    """What a server's new tables start with: every field set (its choice, else the bot's)."""

    threads: bool
    pace: str  # "live", "1h", "8h" or "24h"
    turn_seconds: int  # the live turn timer
    ai_level: str  # "easy", "medium" or "hard"
    turn_based: bool  # whether turn-based games are allowed
    language: str | None = None  # of public messages, a catalog's code; None: the server's Discord language

    @classmethod
    def from_settings(cls, settings: Settings) -> ServerDefaults:
        """The bot's own defaults, for servers that chose nothing."""
        return cls(
            threads=settings.threads,
            pace=settings.default_pace,
            turn_seconds=settings.turn_seconds,
            ai_level=settings.default_ai_level,
            turn_based=settings.turn_based,
        )


def effective(chosen: ServerSettings, bot: ServerDefaults) -> ServerDefaults:
    """The server's choices over the bot's defaults; without turn-based games the pace is live."""
    values = {name: getattr(bot, name) if getattr(chosen, name) is None else getattr(chosen, name) for name in FIELDS}
    if not values["turn_based"]:
        values["pace"] = "live"
    return ServerDefaults(**values)


def check(chosen: ServerSettings, bot: ServerDefaults) -> None:
    """Refuse what a server may not choose: a turn-based pace of its own while turn-based
    games are off (its own choice, or the bot's). A pace the bot set is made live instead."""
    allowed = bot.turn_based if chosen.turn_based is None else chosen.turn_based
    if chosen.pace not in (None, "live") and not allowed:
        raise InvalidSettings(
            "pace_needs_turn_based", f"pace {chosen.pace} is turn-based, but turn-based games are off"
        )


class ServerSettingsBook:
    """Every server's settings, read once per guild and kept (the most recent ``CACHED_GUILDS``);
    written through the store."""

    def __init__(self, store: Store, bot_defaults: ServerDefaults) -> None:
        self._store = store
        self.bot_defaults = bot_defaults
        # Loaded guilds, the most recently used last (ServerSettings() if none): a guild let go
        # is read again when next needed.
        self._chosen: OrderedDict[int, ServerSettings] = OrderedDict()
        # One change of a guild at a time, none lost: its lock, and how many changes hold or wait for it.
        self._saving: dict[int, tuple[asyncio.Lock, int]] = {}
        self.read_failures = 0  # reads that failed since start (the health line shows them)

    async def load(self, owns_guild: Callable[[int], bool] = lambda guild_id: True) -> None:
        """Read every stored choice of the guilds this process serves at once (start-up), so
        ``cached`` is right for them from the first message; a store that fails is logged and
        each guild is read when first asked (``fetch``)."""
        try:
            stored = await self._store.all_server_settings()
        except Exception:
            log.warning("server settings cannot be read at start-up; each is read when first needed", exc_info=True)
            return
        for guild_id, chosen in stored.items():
            if owns_guild(guild_id):
                self._keep(guild_id, chosen)

    async def fetch(self, guild_id: int) -> ServerDefaults:
        """The guild's defaults; read from the store the first time. A read that fails is logged
        with its cause, counted, and raised (StoreUnavailable…): never answered with the bot's
        defaults, which could open a game the server's own rules forbid."""
        chosen = self._chosen.get(guild_id)
        if chosen is None:
            chosen = await self._load(guild_id)
        else:
            self._chosen.move_to_end(guild_id)
        return effective(chosen, self.bot_defaults)

    def cached(self, guild_id: int) -> ServerDefaults:
        """The guild's defaults as known now, without waiting: the bot's if not loaded yet."""
        return effective(self._chosen.get(guild_id, ServerSettings()), self.bot_defaults)

    async def update(self, guild_id: int, **changes: Any) -> ServerDefaults:
        """Set the named fields (None: back to the bot's default), save, and return the new
        defaults. InvalidSettings for a value or a combination a server may not have; a save
        that fails (StoreUnavailable…) raises and changes nothing, here or in the database."""
        unknown = sorted(set(changes) - set(FIELDS))
        if unknown:
            raise InvalidSettings("value", f"no such setting: {', '.join(unknown)}")
        lock, users = self._saving.get(guild_id, (asyncio.Lock(), 0))
        self._saving[guild_id] = (lock, users + 1)
        try:
            async with lock:
                return await self._update(guild_id, changes)
        finally:
            lock, users = self._saving[guild_id]
            if users == 1:
                del self._saving[guild_id]  # nobody else holds or waits for it: kept, it would only grow
            else:
                self._saving[guild_id] = (lock, users - 1)

    async def _update(self, guild_id: int, changes: dict[str, Any]) -> ServerDefaults:
        current = self._chosen.get(guild_id)
        if current is None:
            current = await self._load(guild_id)
        try:
            chosen = ServerSettings.model_validate({**current.model_dump(), **changes})
        except ValidationError as exc:
            raise InvalidSettings(
                "value", "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
            ) from None
        check(chosen, self.bot_defaults)
        if chosen != current:
            await self._store.save_server_settings(guild_id, chosen)
            self._keep(guild_id, chosen)
        return effective(chosen, self.bot_defaults)

    def differences(self, guild_id: int) -> list[tuple[str, object]]:
        """(field, value) of each field whose effective value is not the bot's, in field order
        (the cached state: call ``fetch`` first to be sure the guild is loaded)."""
        mine = self.cached(guild_id)
        return [
            (name, getattr(mine, name)) for name in FIELDS if getattr(mine, name) != getattr(self.bot_defaults, name)
        ]

    async def _load(self, guild_id: int) -> ServerSettings:
        try:
            chosen = await self._store.server_settings(guild_id) or ServerSettings()
        except Exception as exc:
            self.read_failures += 1
            log.warning(
                "settings of guild %s cannot be read (%s: %s); %d failed read(s) since start",
                guild_id,
                type(exc).__name__,
                exc,
                self.read_failures,
                exc_info=not isinstance(exc, StoreUnavailable),
            )  # anything else is a bug: its traceback
            raise
        # A server's turn-based pace from before turn-based games were turned off (by the bot's
        # settings) stays stored; ``effective`` plays it live.
        self._keep(guild_id, chosen)
        return chosen

    def _keep(self, guild_id: int, chosen: ServerSettings) -> None:
        self._chosen[guild_id] = chosen
        self._chosen.move_to_end(guild_id)
        while len(self._chosen) > CACHED_GUILDS:
            self._chosen.popitem(last=False)


__all__ = ["FIELDS", "PACES", "InvalidSettings", "ServerDefaults", "ServerSettingsBook", "effective"]
