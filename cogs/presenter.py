"""Turns the service's ``TableUpdate``s into channel messages, one table at a time.

The presenter is the only writer of public table messages. Each table has its
own queue, so a table's messages appear in order while tables never wait for
each other. A turn posts one new message (the reveal plus the table) and
strips the buttons from the previous one, so the live table is always at the
bottom of the channel.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import public_locale, render, tr
from bot.table import Table, TableStatus
from bot.workers import WorkerPool
from engine import CardPlaced

from .components import lobby_view, rematch_view, table_view
from .images import WORDS, render_table
from .render import clip, lobby_embed, reveal_text, seat_name, table_embed
from .special_items import DecideMessages
from .special_text import IMAGE_MARKERS, waiting_line

IMAGE_NAME = "table.png"

if TYPE_CHECKING:
    from bot.service import TableService, TableUpdate

log = logging.getLogger(__name__)


async def post_lobby(interaction: discord.Interaction, service: "TableService", table: Table) -> None:
    """Answer the interaction with the public lobby and remember its message."""
    locale = public_locale(interaction)
    response = await interaction.response.send_message(embed=lobby_embed(table, locale),
                                                       view=lobby_view(table, locale))
    message_id = response.message_id or (await interaction.original_response()).id
    if not await service.set_message(table.id, message_id, lobby=True):
        # The game began (or the lobby closed) before Discord told us this message's id,
        # so nothing else knows to take its buttons away.
        await interaction.edit_original_response(embed=lobby_embed(table, locale), view=None)


#: How long a "someone picked" edit waits for the next pick, so a turn edits the table once or twice.
PICK_EDIT_DELAY = 0.75


class Presenter:
    def __init__(self, client: discord.Client, service: "TableService") -> None:
        self.client = client
        self.service = service
        self._queues: dict[int, asyncio.Queue] = {}
        self._workers: dict[int, asyncio.Task] = {}
        self._without_picture: set[int] = set()  # tables whose live message was posted without one
        self.pick_edit_delay = PICK_EDIT_DELAY
        self._decide = DecideMessages()  # a retired Decide nudge says what was decided
        # Pillow holds the GIL for much of a ~15 ms render: a process of its own keeps the
        # event loop (and every other table's clicks) responsive on a second core.
        self._images = WorkerPool()

    def __call__(self, update: "TableUpdate") -> None:
        table_id = update.table.id
        queue = self._queues.get(table_id)
        if queue is None:
            queue = self._queues[table_id] = asyncio.Queue()
            self._workers[table_id] = asyncio.create_task(self._work(table_id, queue), name=f"present-{table_id}")
        queue.put_nowait(update)

    async def idle(self) -> None:
        """Wait until every queued update is shown (tests and shutdown)."""
        for queue in list(self._queues.values()):
            await queue.join()

    async def close(self) -> None:
        for task in self._workers.values():
            task.cancel()
        await asyncio.gather(*self._workers.values(), return_exceptions=True)
        self._images.close()

    async def _work(self, table_id: int, queue: asyncio.Queue) -> None:
        while True:
            update = await queue.get()
            try:
                if update.kind == "picked":
                    await asyncio.sleep(self.pick_edit_delay)
                    if not queue.empty():
                        continue  # a later update shows the same table, newer
                await self._show(update)
            except discord.HTTPException as exc:
                log.warning("table %s: Discord refused an update (%s)", table_id, exc)
            except Exception:
                log.exception("table %s: could not show an update", table_id)
            finally:
                queue.task_done()

    async def _image(self, table: Table, events: list, locale) -> bytes:
        placed = {e.card for e in events if isinstance(e, CardPlaced)}
        view = table.game.view(None)
        markers = getattr(view, "row_markers", None)  # Anniversary only, as are capacities
        if markers is not None:
            markers = [[IMAGE_MARKERS[m] for m in row] for row in markers]
        render = functools.partial(render_table, [list(r) for r in table.game.rows], highlight=placed,
                                   markers=markers, capacities=getattr(view, "row_capacities", None),
                                   words={word: tr(locale, word) for word in WORDS})
        return await self._images.run(render)

    def _channel(self, table: Table):
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _edit(self, table: Table, message_id: int | None, **fields) -> None:
        if message_id is not None:
            await self._channel(table).get_partial_message(message_id).edit(**fields)

    def _locale(self, table: Table):
        """Public table messages speak the server's language (English when unknown)."""
        guild = self.client.get_guild(table.guild_id)
        return guild.preferred_locale if guild is not None else None

    async def _show(self, update: "TableUpdate") -> None:
        table = update.table
        kind = update.kind
        locale = self._locale(table)
        notices = [render(locale, notice) for notice in update.notices]
        if kind == "cancelled":
            closed = "\n".join(notices) or tr(locale, "The table was closed.")
            if table.status is TableStatus.LOBBY:
                await self._edit(table, table.message_id, embed=lobby_embed(table, locale), view=None)
            else:
                await self._edit(table, table.message_id, view=None)
            await self._channel(table).send(closed)
            return
        if table.status is TableStatus.LOBBY:
            await self._edit(table, table.message_id, embed=lobby_embed(table, locale), view=lobby_view(table, locale))
            return
        # An update reads the live table: one queued before the game began, or one that is
        # no news after it ended, must not post a table message of its own.
        if kind == "lobby" or (kind in ("picked", "notice", "restored") and table.status is not TableStatus.PLAYING):
            return
        if kind in ("picked", "notice", "restored"):
            embed = table_embed(table, locale, notices)
            if table.game.rows and table.id not in self._without_picture:
                embed.set_image(url=f"attachment://{IMAGE_NAME}")  # the image already attached
            await self._edit(table, table.message_id, embed=embed, view=table_view(table, locale))
            return
        if kind == "started":
            await self._edit(table, table.message_id, embed=lobby_embed(table, locale), view=None)
        text = reveal_text(table, update.events, locale)
        # pings a special-card decider
        nudge = waiting_line(table, lambda seat: seat_name(table, seat, locale), locale)
        text = "\n".join(t for t in (text, nudge) if t)
        if kind == "finished":
            message = await self._channel(table).send(clip(text or tr(locale, "The game is over.")),
                                                      view=rematch_view(table.id, locale))
            await self._edit(table, table.message_id, view=None,
                             **self._decide.retired(table, update.events, update.notices, locale))
            return
        # A new decision point: post the reveal with the fresh table, retire the old message.
        previous = table.message_id
        embed = table_embed(table, locale, notices)
        files = []
        image = None
        if table.game.rows:
            try:
                image = await self._image(table, update.events, locale)
            except Exception:  # the picture only repeats the rows in the text: post the table without it
                log.exception("table %s: the table picture could not be drawn", table.id)
        if image is None:
            self._without_picture.add(table.id)
        else:
            self._without_picture.discard(table.id)
            files.append(discord.File(io.BytesIO(image), filename=IMAGE_NAME,
                                      description=tr(locale, "The rows; the text above says the same")))
            embed.set_image(url=f"attachment://{IMAGE_NAME}")
        message = await self._channel(table).send(
            content=clip(text) if text else None, embed=embed, view=table_view(table, locale), files=files,
        )
        if kind != "started":
            await self._edit(table, previous, view=None,
                             **self._decide.retired(table, update.events, update.notices, locale))
        self._decide.posted(table.id, clip(text) if text else None, nudge)
        if table.is_open:
            await self.service.set_message(table.id, message.id)
