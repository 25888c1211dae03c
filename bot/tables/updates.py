"""What the table service tells its listeners (the Discord face): which table changed, and how.

An update carries a snapshot of what was committed and a kind, never markup
or discord objects, and never the live table: the face draws the message from
the snapshot and reads its news from ``snapshot.posts``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .table import TableSnapshot


@dataclass(frozen=True)
class TableUpdate:
    """A table's change was committed; ``snapshot`` is what it committed.

    ``kind`` says what happened (lobby, started, picked, turn, notice, cancelled,
    finished, restored, replaced). News the channel reads once is in
    ``snapshot.posts`` (see ``Post``); the live message is drawn from the snapshot.
    """

    snapshot: TableSnapshot
    kind: str


Listener = Callable[[TableUpdate], None]
