"""The narrow interface the table service and cogs use to persist games.

Written as a Protocol so a PostgreSQL (asyncpg) implementation can be added
next to SQLiteStore without touching any caller: callers depend on ``Store``
and obtain an instance from ``data.open_store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .models import (
    CorruptTable,
    GameLog,
    GameResult,
    GameStatus,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    Metric,
    PlayerStats,
    RestoredTable,
    SeatInfo,
)


@runtime_checkable
class Store(Protocol):
    async def close(self) -> None:
        """Flush pending writes and release the database."""

    # -- identities ------------------------------------------------------------
    async def upsert_player(self, user_id: int, display_name: str) -> None:
        """Remember a player's display name as last seen."""

    async def upsert_guild(self, guild_id: int, name: str | None) -> None: ...

    # -- tables ----------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int | None,
        variant: str,
        options: dict[str, Any] | None = None,
        seats: Sequence[SeatInfo] = (),
        seed: int | None = None,
        message_ids: dict[str, int] | None = None,
    ) -> int:
        """Create the record of a new lobby; returns its game id."""

    async def update_game(
        self,
        game_id: int,
        *,
        status: GameStatus | None = None,
        message_ids: dict[str, int] | None = None,
        seats: Sequence[SeatInfo] | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        host_id: int | None = None,
    ) -> None:
        """Change status (not to 'finished': use record_results), messages or seats."""

    async def checkpoint(
        self,
        game_id: int,
        state: dict[str, Any],
        meta: dict[str, Any],
        action: dict[str, Any] | None = None,
        *,
        actions: Sequence[dict[str, Any]] = (),
        unshown: bool = False,
    ) -> int | None:
        """Atomically append ``action`` and then ``actions`` (if any) and replace the checkpoint.

        ``unshown``: the table has news (saved in ``meta``) that its channel has
        not been shown yet; ``load_unshown`` finds such tables after they ended.

        Several actions in one call (a player's move and the AI moves it set off)
        are one transaction: the log and the state never disagree.

        Returns the last action's sequence number, or None when no action was given.
        A state-only checkpoint is accepted in any status (e.g. the final state
        of a cancelled table); an action for an ended game raises GameNotActive.
        """

    async def load_unfinished(self) -> list[RestoredTable | CorruptTable]:
        """Every lobby/playing table; unreadable ones as CorruptTable. Never raises
        on bad rows."""

    async def load_unshown(self) -> list[RestoredTable | CorruptTable]:
        """Every ended table (finished, cancelled, abandoned) whose last checkpoint
        was written with ``unshown``: its news must still reach the channel."""

    async def load_table(self, game_id: int) -> RestoredTable | CorruptTable | None:
        """One table in any status (None if there is no such game), e.g. for a rematch."""

    async def record_results(self, game_id: int, result: GameResult) -> bool:
        """Write results, stats and ratings and finish the game, exactly once.

        Returns False (writing nothing) if the game is already finished.
        """

    # -- queries ---------------------------------------------------------------
    async def leaderboard(
        self,
        guild_id: int | None,
        metric: Metric = "wins",
        *,
        min_games: int = 1,
        limit: int = 10,
        offset: int = 0,
    ) -> LeaderboardPage: ...

    async def rank_of(
        self,
        user_id: int,
        guild_id: int | None,
        metric: Metric = "wins",
        *,
        min_games: int = 1,
    ) -> LeaderboardEntry | None:
        """The player's leaderboard line, or None if they do not qualify."""

    async def player_stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats: ...

    async def history(self, guild_id: int | None, limit: int = 10) -> list[GameSummary]: ...

    async def game_log(self, game_id: int) -> GameLog: ...

    # -- privacy ---------------------------------------------------------------
    async def forget_player(self, user_id: int) -> bool:
        """Delete the player's data and anonymise them in past games.

        Returns True if anything about the player was stored.
        """
