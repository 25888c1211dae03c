"""The narrow interface the table service and cogs use to persist games.

Written as a Protocol so a PostgreSQL (asyncpg) implementation can be added
next to SQLiteStore without touching any caller: callers depend on ``Store``
and obtain an instance from ``data.open_store``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

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


@runtime_checkable
class Store(Protocol):
    async def close(self) -> None:
        """Flush pending writes and release the database."""

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
        """The games row, its seats (``commit.seats``) and its first checkpoint, in one
        transaction; the new game's id."""

    async def commit(self, game_id: int, commit: Commit) -> int | None:
        """Write everything ``commit`` changes in one transaction, or nothing.

        Group-committed with other tables' writes; one commit's error (GameNotFound,
        GameNotActive for actions on an ended game, InvalidTransition, ResultMismatch,
        ConstraintViolation) fails it alone, an outage (StoreUnavailable) the whole batch.
        A ``result`` for a game finished already is skipped (written exactly once).
        Returns the last logged action's seq, or None without actions.
        """

    async def mark_shown(self, game_id: int, *, upto: int | None = None, message_id: int | None = None) -> None:
        """Delete the game's outbox posts with seq <= ``upto`` and/or set its live message id:
        one small (group-committed) transaction, the checkpoint untouched. Idempotent."""

    async def load_unfinished(self) -> list[RestoredTable | CorruptTable]:
        """Every lobby/playing table; unreadable ones as CorruptTable. Never raises
        on bad rows."""

    async def load_unshown(self) -> list[RestoredTable | CorruptTable]:
        """Every ended table (finished, cancelled, abandoned) that still has outbox posts:
        its news must still reach the channel."""

    async def load_table(self, game_id: int) -> RestoredTable | CorruptTable | None:
        """One table in any status (None if there is no such game), e.g. for a rematch."""

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

    # -- servers ---------------------------------------------------------------
    async def server_settings(self, guild_id: int) -> ServerSettings | None:
        """The server's stored settings, None if it has none. A stored row that does not
        validate is logged and read as None (the bot's defaults)."""

    async def all_server_settings(self) -> dict[int, ServerSettings]:
        """Every server's stored settings by guild id (read once at start-up); rows that do not
        validate are logged and left out."""

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        """Replace the server's settings (all of them) in one small transaction."""

    # -- privacy ---------------------------------------------------------------
    async def forget_player(self, user_id: int) -> bool:
        """Delete the player's data and anonymise them in past games.

        Returns True if anything about the player was stored.
        """
