"""The live tables of this process: by id, by the channel they were opened in, by their thread."""

from __future__ import annotations

from .errors import NoTable
from .table import Table
from .text import N_


class TableRegistry:
    """Which tables are open here. A channel holds any number of games in threads of their own,
    and at most one played in the channel itself (see ``Lobby.open_lobby``)."""

    def __init__(self) -> None:
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, dict[int, None]] = {}  # channel -> its tables' ids, oldest first
        self.by_thread: dict[int, int] = {}  # a game's thread -> its table
        self.opening: set[int] = set()  # channels whose in-place lobby is being created right now

    def __len__(self) -> int:
        return len(self.tables)

    def in_channel(self, channel_id: int) -> list[Table]:
        """The tables a command used in ``channel_id`` may mean: a game's thread means its game;
        a channel, every table opened there (oldest first)."""
        game = self.game_in_thread(channel_id)
        if game is not None:
            return [game]
        return [self.tables[t] for t in self.by_channel.get(channel_id, ())]

    def played_in(self, channel_id: int) -> Table | None:
        """The table whose game is played in ``channel_id`` itself, if any: a game's thread holds its
        game; a channel (or a thread no game started), the one table played in it, not in a thread."""
        game = self.game_in_thread(channel_id)
        if game is not None:
            return game
        for table_id in self.by_channel.get(channel_id, ()):
            table = self.tables[table_id]
            if not table.threaded:
                return table
        return None

    def game_in_thread(self, thread_id: int) -> Table | None:
        """The game whose thread ``thread_id`` is, if it is open here."""
        table_id = self.by_thread.get(thread_id)
        return None if table_id is None else self.tables[table_id]

    def of_guild(self, guild_id: int) -> list[Table]:
        return [t for t in self.tables.values() if t.guild_id == guild_id]

    def find(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise NoTable(N_("That table has ended. Start a new one with `/6nimmt start`."))
        return table

    def add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel.setdefault(table.channel_id, {})[table.id] = None
        if table.thread_id is not None:
            self.by_thread[table.thread_id] = table.id

    def moved(self, table: Table, old_thread_id: int | None) -> None:
        """``table`` plays in ``table.thread_id`` from now on (None: in its channel), no longer in
        ``old_thread_id``. Called once the move is committed."""
        if old_thread_id is not None and self.by_thread.get(old_thread_id) == table.id:
            del self.by_thread[old_thread_id]
        if table.thread_id is not None and table.id in self.tables:
            self.by_thread[table.thread_id] = table.id

    def remove(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        ids = self.by_channel.get(table.channel_id)
        if ids is not None:
            ids.pop(table.id, None)
            if not ids:
                del self.by_channel[table.channel_id]
        if table.thread_id is not None and self.by_thread.get(table.thread_id) == table.id:
            del self.by_thread[table.thread_id]
