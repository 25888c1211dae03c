"""What one post shows, by its kind: the table moving on, the standings, a closing, a reminder."""

from __future__ import annotations

import io

import discord

from bot.tables.table import Post, Table
from cogs.i18n import render, tr
from cogs.render.pings import table_pings
from cogs.render.text import clip, final_standings, lobby_embed, reveal_text
from cogs.ui.lobby import rematch_view
from engine import GameEnded

from .budget import Priority, requests_for
from .channels import TableChannels
from .live import LiveMessages
from .outbox import OutboxDelivery
from .pictures import CHART_NAME, Pictures
from .reminders import Reminders
from .stage import TableStage


class News:
    """``show`` draws a post from the table as its commit left it and sends it (an ``outbox.ShowPost``)."""

    def __init__(
        self,
        client: discord.Client,
        channels: TableChannels,
        outbox: OutboxDelivery,
        live: LiveMessages,
        reminders: Reminders,
        pictures: Pictures,
    ) -> None:
        self.client = client
        self.channels = channels
        self.outbox = outbox
        self.live = live
        self.reminders = reminders
        self.pictures = pictures

    async def show(self, stage: TableStage, table: Table, post: Post, newest: bool) -> int | None:
        """Send ``post``; the id of the live message it posted, if it posted one."""
        if post.kind == "opened":
            return await self.live.open_lobby(stage, table, post)
        locale = self.channels.locale(table)
        notices = [render(locale, notice) for notice in post.notices]
        live = stage.live.message_id

        if post.kind == "cancelled":
            # The summary first: the closing words may find the game's thread deleted. A game's table
            # message is left as it is (a click on it is told the game is over).
            if table.game is None:
                await self.live.close_lobby(stage, table)
            if live != table.thread_id:  # a closed lobby is its own summary
                await self.live.summary(stage, table)
            text = "\n".join(notices) or tr(locale, "The table was closed.")
            await self.channels.retry(
                self.outbox.send, stage, table, post, content=text, allowed_mentions=table_pings(table, text)
            )
            self.live.retire_thread(table)
            return None
        if post.kind == "reminder":
            await self.reminders.remind(stage, table, post, locale)
            return None
        text = reveal_text(table, list(post.events), locale)
        if post.kind == "finished":
            await self._standings(stage, table, post, text, notices, locale)
            return None
        if newest and table.is_open:
            posted = await self.live.post(stage, table, post, text, notices)
        else:
            posted = None
            await self._older_news(stage, table, post, text, notices, locale)
        if post.kind == "started" and live is not None:
            # The lobby says the game began, the table posted below it (or in its thread).
            with requests_for(Priority.COSMETIC):
                await self.live.edit_message(stage, table, live, embed=lobby_embed(table, locale), view=None)
        return posted

    async def _older_news(
        self, stage: TableStage, table: Table, post: Post, text: str, notices: list[str], locale
    ) -> None:
        # Older news behind a newer post: its words only; the newest post carries the table. Whoever
        # owes the move it opened is still told, if the game still waits on that move.
        calls = bool(post.remind) and stage.waits_on(post)
        text = "\n".join(
            t for t in (text, *notices, self.reminders.mention_line(table, post, locale) if calls else "") if t
        )
        if text:
            await self.channels.retry(
                self.outbox.send, stage, table, post, content=clip(text), allowed_mentions=table_pings(table, text)
            )
        if calls:
            await self.reminders.message_players(stage, table, post, locale)

    async def _standings(
        self, stage: TableStage, table: Table, post: Post, text: str, notices: list[str], locale
    ) -> None:
        """The final standings (with the score chart and Rematch), then the end of the live message,
        the channel's summary and the thread's timer."""
        outcome = table.game.view(None).outcome if table.game is not None else None
        if outcome is not None and not any(isinstance(e, GameEnded) for e in post.events):
            # Ended before a crash with its last events unsaved: the outcome still says it all.
            text = "\n".join(t for t in (text, final_standings(table, GameEnded(outcome), locale)) if t)
        text = "\n".join(t for t in (text, *notices) if t)
        chart = await self.pictures.chart(table, locale)
        files = (
            []
            if chart is None
            else [
                discord.File(
                    io.BytesIO(chart), filename=CHART_NAME, description=tr(locale, "Bullheads after each round")
                )
            ]
        )
        text = clip(text or tr(locale, "The game is over."))
        standings = await self.channels.retry(
            self.outbox.send,
            stage,
            table,
            post,
            content=text,
            view=rematch_view(table.id, locale),
            files=files,
            allowed_mentions=table_pings(table, text),
        )
        await self.live.summary(stage, table, standings.id if standings is not None else None)
        self.live.retire_thread(table)
