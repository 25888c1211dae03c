"""What the table service tells its listeners (the Discord face): which table changed, and how.

An update carries the table and a kind, never markup or discord objects: the
face draws the message from the table's committed state and reads its news
from ``table.outbox``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .table import Table


@dataclass
class TableUpdate:
    """The table changed; its committed state says what to show.

    ``kind`` says what happened (lobby, started, picked, turn, cancelled,
    finished, restored, replaced). News the channel reads once waits in
    ``table.outbox`` (see ``Post``); the live message is drawn from the state.
    """

    table: Table
    kind: str


Listener = Callable[[TableUpdate], None]
