"""Turn-based reminders: whoever owes a move is mentioned in the game's channel, or sent a
direct message if they asked for one (and mentioned after all if their direct messages are closed)."""

from __future__ import annotations

import logging
import re

import discord

from bot.tables.table import Post, Table
from cogs.i18n import tr
from cogs.render.links import message_link
from cogs.render.pings import table_pings

from .channels import TableChannels
from .outbox import OutboxDelivery
from .stage import TableStage

log = logging.getLogger(__name__)

#: Discord's error code for a user who accepts no direct messages from the bot (403).
CLOSED_DMS = 50007
#: Stands for the deadline in a direct message's words while they are compared.
WHEN = "\x00when\x00"


class Reminders:
    """``mention_line`` for a post that opens a decision; ``message_players`` after it is shown;
    ``remind`` for a reminder post of its own (75 % of a move's time gone)."""

    def __init__(self, client: discord.Client, channels: TableChannels, outbox: OutboxDelivery) -> None:
        self.client = client
        self.channels = channels
        self.outbox = outbox

    def mention_line(self, table: Table, post: Post, locale) -> str:
        """The line mentioning the players of ``post.remind`` who did not ask for direct messages."""
        return call_line(table, [user_id for user_id in post.remind if not wants_dm(table, user_id)], locale)

    async def remind(self, stage: TableStage, table: Table, post: Post, locale) -> None:
        """A turn-based reminder, once: only while the game still waits on that decision."""
        if not stage.waits_on(post):
            return  # the game moved on (or ended) before it could be shown: nobody owes that move now
        line = self.mention_line(table, post, locale)
        if line:
            await self.channels.retry(
                self.outbox.send, stage, table, post, content=line, allowed_mentions=table_pings(table, line)
            )
        await self.message_players(stage, table, post, locale)

    async def message_players(self, stage: TableStage, table: Table, post: Post, locale) -> None:
        """After ``post`` is shown (never before it: a reveal does not wait for them), the direct
        messages to its players who asked for them; whoever cannot be messaged (closed direct
        messages) is mentioned in the game's channel instead, once (its own nonce)."""
        closed = [
            user_id
            for index, user_id in enumerate(post.remind)
            if wants_dm(table, user_id) and not await self._direct_message(stage, table, post, index, locale)
        ]
        if closed:
            line = call_line(table, closed, locale)
            await self.channels.retry(
                self.outbox.send,
                stage,
                table,
                post,
                content=line,
                nonce_tag="m",
                allowed_mentions=table_pings(table, line),
            )

    async def _direct_message(self, stage: TableStage, table: Table, post: Post, index: int, locale) -> bool:
        """Tell ``post.remind[index]`` privately that the game waits on them; False if they cannot be
        messaged (closed direct messages: the channel mentions them instead). Sent once, like any
        post: its nonce, and after a long outage a look among the direct messages for it."""
        where = message_link(table.server_id, table.home_id)  # its newest message is the table

        def text(when: str) -> str:
            return tr(
                locale,
                "⏰ Your move in your 6 nimmt! game (table #{table}) — time runs out {when}: {link}",
                table=table.id,
                when=when,
                link=where,
            )

        # The deadline may have moved since an earlier try (a post seen late gives its time back).
        same = re.compile(re.escape(text(WHEN)).replace(re.escape(WHEN), r"<t:\d+:R>"))
        try:
            channel = await self.channels.retry(self.client.create_dm, discord.Object(post.remind[index]))
            await self.channels.retry(
                self.outbox.send_to,
                channel,
                stage,
                table,
                post,
                f"d{index}",
                lambda message: same.fullmatch(message.content) is not None,
                content=text(deadline_mark(table)),
            )
        except discord.Forbidden as exc:
            if exc.code != CLOSED_DMS:
                raise  # refused for another reason: the post says so, as for any refusal
            log.info("table %s: a reminder could not be sent privately (%s)", table.id, exc)
            return False
        return True


def call_line(table: Table, user_ids: list[int], locale) -> str:
    """ "⏰ <players>: your move — time runs out <when>." for ``user_ids``; empty for nobody."""
    if not user_ids:
        return ""
    # Translators: {players} is one or more mentions ("@Anna" or "@Anna @Ben"): word it for one and for several.
    return tr(
        locale,
        "⏰ {players}: your move — time runs out {when}.",
        players=" ".join(f"<@{user_id}>" for user_id in user_ids),
        when=deadline_mark(table),
    )


def deadline_mark(table: Table) -> str:
    """The current decision's deadline as Discord shows it to each reader ("in 2 hours")."""
    return f"<t:{int(table.deadline or 0)}:R>"


def wants_dm(table: Table, user_id: int) -> bool:
    """Whether a turn-based player asked for their reminders as direct messages."""
    seat = table.seat_of(user_id)
    return seat is not None and table.seats[seat].remind_by_dm
