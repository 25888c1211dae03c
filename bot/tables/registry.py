"""The live tables of this process, by id and by channel."""

from __future__ import annotations

from .errors import NoTable
from .table import Table
from .text import N_


class TableRegistry:
    """Which tables are open here; one per channel (a thread is a channel of its own)."""

    def __init__(self) -> None:
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.opening: set[int] = set()  # channels whose lobby is being created right now

    def __len__(self) -> int:
        return len(self.tables)

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self.by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id is not None else None

    def find(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise NoTable(N_("That table has ended. Start a new one with `/6nimmt start`."))
        return table

    def add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def remove(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
