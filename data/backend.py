"""The Store methods both backends share, written once over two hooks of theirs.

A backend gives ``_transact`` (one write transaction running a step of
``data/writes.py``), ``_query`` (one read transaction running a function of
``data/queries.py``) and its batches for ``self._commits``; everything else,
from encoding payloads to which step a method runs, is here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from . import queries, writes
from .commit_queue import CommitQueue
from .models import (
    Commit,
    CorruptTable,
    GameLog,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    Metric,
    PlayerStats,
    RestoredTable,
    ServerSettings,
)
from .queries import Reader
from .rows import dump_object
from .writes import Outcome, Pending, Step

T = TypeVar("T")


class StoreBase(ABC):
    """Every method of the Store protocol, on a backend's ``_transact`` and ``_query``."""

    _clock: Callable[[], float]

    def __init__(self) -> None:
        self._commits = CommitQueue(self._write_batch)

    @abstractmethod
    def _transact(self, make_step: Callable[[], Step[T]]) -> Awaitable[T]:
        """Run the step ``make_step()`` makes in one write transaction (a backend that tries
        again makes a new one for each try); its result."""

    @abstractmethod
    def _query(self, read: Callable[[Reader], Awaitable[T]]) -> Awaitable[T]:
        """Run ``read`` in one read transaction (one snapshot)."""

    @abstractmethod
    async def _write_batch(self, batch: list[Pending]) -> list[Outcome]:
        """One batch of the group commit: ``writes.write_batch`` in one transaction."""

    # -- tables ----------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int | None,
        variant: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        commit: Commit,
    ) -> int:
        options_json = dump_object(options or {}, "options")
        first = writes.pending_commit(0, commit)  # its id comes with the row
        now = self._clock()
        return await self._transact(
            lambda: writes.create_game(guild_id, channel_id, host_id, variant, options_json, seed, now, first)
        )

    async def commit(self, game_id: int, commit: Commit) -> int | None:
        # Encoded here, outside the transaction: a bad payload fails fast and JSON encoding
        # does not lengthen anybody's transaction.
        return await self._commits.write(writes.pending_commit(game_id, commit))

    async def mark_shown(self, game_id: int, *, upto: int | None = None, message_id: int | None = None) -> None:
        if upto is not None or message_id is not None:
            await self._commits.write(Pending(game_id, shown_upto=upto, message_id=message_id))

    async def load_unfinished(self) -> list[RestoredTable | CorruptTable]:
        return await self._query(queries.load_unfinished)

    async def load_unshown(self) -> list[RestoredTable | CorruptTable]:
        return await self._query(queries.load_unshown)

    async def load_table(self, game_id: int) -> RestoredTable | CorruptTable | None:
        return await self._query(lambda conn: queries.load_table(conn, game_id))

    # -- queries ---------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int | None,
        metric: Metric = "wins",
        *,
        min_games: int = 1,
        limit: int = 10,
        offset: int = 0,
    ) -> LeaderboardPage:
        return await self._query(lambda conn: queries.leaderboard(conn, guild_id, metric, min_games, limit, offset))

    async def rank_of(
        self,
        user_id: int,
        guild_id: int | None,
        metric: Metric = "wins",
        *,
        min_games: int = 1,
    ) -> LeaderboardEntry | None:
        return await self._query(lambda conn: queries.rank_of(conn, user_id, guild_id, metric, min_games))

    async def player_stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        return await self._query(lambda conn: queries.player_stats(conn, user_id, guild_id))

    async def history(self, guild_id: int | None, limit: int = 10) -> list[GameSummary]:
        return await self._query(lambda conn: queries.history(conn, guild_id, limit))

    async def game_log(self, game_id: int) -> GameLog:
        return await self._query(lambda conn: queries.game_log(conn, game_id))

    # -- servers ---------------------------------------------------------------

    async def server_settings(self, guild_id: int) -> ServerSettings | None:
        return await self._query(lambda conn: queries.server_settings(conn, guild_id))

    async def all_server_settings(self) -> dict[int, ServerSettings]:
        return await self._query(queries.all_server_settings)

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        text = dump_object(settings.model_dump(mode="json", exclude_none=True), "server settings")
        now = self._clock()
        await self._transact(lambda: writes.save_server_settings(guild_id, text, now))

    # -- privacy ---------------------------------------------------------------

    async def forget_player(self, user_id: int) -> bool:
        return await self._transact(lambda: writes.forget_player(user_id))
