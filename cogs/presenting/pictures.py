"""The table picture and the score chart, drawn in a worker process of their own.

Pillow holds the GIL for much of a ~15 ms render: a process of its own keeps the
event loop (and every other table's clicks) responsive on a second core.
"""

from __future__ import annotations

import functools
import logging

from bot.tables.table import Table
from bot.tables.workers import WorkerPool
from cogs.i18n import language_of, tr
from cogs.render.chart import CHART_WORDS, render_score_chart
from cogs.render.images import WORDS, render_table
from cogs.render.specials import IMAGE_MARKERS
from engine import CardPlaced

log = logging.getLogger(__name__)

IMAGE_NAME = "table.png"
CHART_NAME = "scores.png"


class Pictures:
    """Draws in ``pool``, the process's worker (the table service's, which closes it)."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool

    async def table(self, table: Table, events: list, locale) -> bytes:
        """The rows as a picture, the cards ``events`` placed highlighted (raises if it cannot be drawn)."""
        placed = {e.card for e in events if isinstance(e, CardPlaced)}
        if table.game is None:
            raise ValueError(f"table {table.id} has no game to draw")
        view = table.game.view(None)
        markers = [[IMAGE_MARKERS[m] for m in row] for row in view.row_markers]
        render = functools.partial(
            render_table,
            [list(r.cards) for r in view.rows],
            highlight=placed,
            markers=markers,
            capacities=view.row_capacities,
            totals=[r.bullheads for r in view.rows],
            words={word: tr(locale, word) for word in WORDS},
            language=language_of(locale),
        )
        return await self.pool.run(render)

    async def chart(self, table: Table, locale) -> bytes | None:
        """The score chart of a finished game; the standings go out without it if it cannot be drawn."""
        history = table.game.view(None).history if table.game is not None else ()
        if not history:
            return None
        points = [[round_points[seat] for round_points in history] for seat in range(len(table.seats))]
        render = functools.partial(
            render_score_chart,
            [s.name for s in table.seats],
            points,
            {word: tr(locale, word) for word in CHART_WORDS},
            language_of(locale),
        )
        try:
            return await self.pool.run(render)
        except Exception:
            log.exception("table %s: the score chart could not be drawn", table.id)
            return None
