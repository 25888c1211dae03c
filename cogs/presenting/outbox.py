"""The posts a table owes its channel, each shown once and then marked shown in the store.

A post leaves the outbox only once Discord has accepted it, so a crash, a
clean stop or a refused request loses nothing: the next start shows what is
left. Posts carry a nonce made of the table and the post's number, so a post
re-sent after a crash is not shown twice; Discord remembers a nonce for a few
minutes only, so a post first tried longer ago (a long outage) is looked for in
the channel before it is sent again.

A post goes out as the follow-up of the table's newest click in its channel when
there is one (``clicks.py``): the click that completed a turn carries its reveal, and
the bot token's budget is left for what no click carries. A follow-up has no nonce,
so a post whose follow-up may have been taken without its answer arriving (a 5xx, a
lost connection, a stop), or which a process before this one may have sent that way,
is looked for in the channel before it is sent again.

Where the bot is not a member (``Table.carried``: a group DM, a server that never added it)
only a click's follow-up reaches the channel: a post waits for a click that can carry it
(``NoCarrier``), and is never looked for, as the bot's token cannot read that channel. A
follow-up that failed with a 5xx is tried again through the same click, at the risk of a
second copy if Discord had taken the first, since there is no nonce to tell.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord

from bot.tables.service import TableService
from bot.tables.table import Post, Table, TableSnapshot

from .budget import Priority
from .channels import TableChannels, locked_out, transient
from .clicks import Click
from .stage import TableStage

log = logging.getLogger(__name__)

#: How long Discord is trusted to remember a post's nonce (it checks "the past few minutes").
NONCE_TRUST = 60.0
#: How many of the channel's messages since a post's first try are read to find it there.
LOOK_BACK = 100
CUT = 1900  # the characters of a post's words compared with what the channel shows (content ≤ 2,000)

#: Shows one post of the table on the stage; the id of the live message it posted, if it posted one.
ShowPost = Callable[[TableStage, Table, Post, bool], Awaitable["int | None"]]
#: Whether a table's post that Discord refused with this error waits (is neither shown nor dropped).
HoldsBack = Callable[[TableStage, discord.HTTPException], bool]


class NoCarrier(Exception):
    """A table only interactions reach has something to show and no click that can carry it now:
    it waits, owed, for the next click (``Presenter``)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id}: no click can carry its message")
        self.table_id = table_id


def post_nonce(table_id: int, post: Post) -> str:
    """The same for every attempt at one post, so Discord creates its message once; a post's
    number is never given twice (see ``Post``), so a nonce always carries one content."""
    return f"6n{table_id}.{post.seq}"[:25]  # Discord's limit for a nonce


class OutboxDelivery:
    """Which posts a table still owes, their delivery in order, and the store's record of it, kept
    on the table's stage (``TableStage.outbox``).

    ``take`` learns a commit's posts; ``next_post`` is the oldest still owed;
    ``deliver`` shows it (through the ``ShowPost`` it is given) and marks it shown;
    ``send`` sends one message of a post, at most once.
    """

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        channels: TableChannels,
        holds_back: HoldsBack,
    ) -> None:
        self.client = client
        self.service = service
        self.channels = channels
        self.holds_back = holds_back

    # -- what is owed ---------------------------------------------------------------

    def take(self, stage: TableStage, snapshot: TableSnapshot, restored: bool = False) -> bool:
        """The posts of a commit, each to be drawn as the commit that made it left the table; whether
        it brought any not known before. ``restored``: a start-up's, owed since before it."""
        owed = stage.outbox
        pending = owed.pending
        new = [post for post in snapshot.posts if post.seq > owed.shown and post.seq not in pending]
        for post in new:
            pending[post.seq] = (post, snapshot)
            if restored:
                owed.restored.add(post.seq)
        return bool(new)

    def next_post(self, stage: TableStage) -> tuple[Post, TableSnapshot, bool] | None:
        """The oldest post still owed, the snapshot to draw it from, and whether it is the newest."""
        pending = stage.outbox.pending
        if not pending:
            return None
        seq = min(pending)
        post, snapshot = pending[seq]
        return post, snapshot, seq == max(pending)

    def priority(self, stage: TableStage, post: Post) -> Priority:
        """Players' requests go first; a post owed since before a restart waits behind those of the
        moves made since (the table it shows is drawn from the newest state anyway)."""
        return Priority.NORMAL if post.seq in stage.outbox.restored else Priority.PLAYERS

    def unmarked(self, stage: TableStage) -> bool:
        """Whether the store has yet to be told what the channel shows."""
        return stage.outbox.unmarked is not None

    def owes(self, stage: TableStage) -> bool:
        return bool(stage.outbox.pending) or stage.outbox.unmarked is not None

    # -- delivering -----------------------------------------------------------------

    async def deliver(
        self, stage: TableStage, snapshot: TableSnapshot, post: Post, newest: bool, show: ShowPost
    ) -> None:
        """Show ``post`` and record that it was shown; what Discord refuses for good is skipped."""
        table = snapshot.table
        owed = stage.outbox
        # Its commit time, read before showing it moves a late post's clock: no earlier try exists.
        owed.since.setdefault(post.seq, post.at)
        message_id = None
        try:
            message_id = await show(stage, table, post, newest)
        except discord.HTTPException as exc:
            if not self.refused_for_good(stage, exc):
                raise  # not shown: it stays owed, and is tried again later (or by the next start)
            log.warning("table %s: Discord refused post %s for good (%s)", table.id, post.seq, exc)
        owed.since.pop(post.seq, None)
        owed.restored.discard(post.seq)
        owed.unsure.pop(post.seq, None)
        # Shown: never again from this process, whatever the store says next.
        owed.pending.pop(post.seq, None)
        owed.shown = max(owed.shown, post.seq)
        _, message = owed.unmarked or (None, None)
        owed.unmarked = (post.seq, message_id or message)
        await self.mark(stage)

    def refused_for_good(self, stage: TableStage, exc: discord.HTTPException) -> bool:
        """Whether Discord will never take the post ``exc`` refused, so it is skipped: a 4xx, but never
        a 5xx or a 429 (those are tried again, even after a stop: the next start shows the post), nor
        what ``holds_back`` keeps waiting (a game's locked thread, until it is unlocked)."""
        return not transient(exc) and not self.holds_back(stage, exc)

    def live_message_posted(self, stage: TableStage, message_id: int) -> None:
        """A live message posted without a post (a repost): the store is told its id."""
        owed = stage.outbox
        owed.unmarked = ((owed.unmarked or (None, None))[0], message_id)

    async def mark(self, stage: TableStage) -> None:
        """Tell the store what the channel has seen (raises if it cannot: the worker tries again)."""
        owed = stage.outbox
        told = owed.unmarked
        if told is None:
            raise LookupError(f"table {stage.id}: nothing to mark shown")
        upto, message_id = told
        await self.service.mark_shown(stage.id, upto=upto, message_id=message_id)
        if owed.unmarked == told:
            owed.unmarked = None

    def unsure(self, stage: TableStage, post: Post, tried: float) -> None:
        """``post``'s message may have been taken by Discord at ``tried`` (the wall clock's time)
        without its answer reaching us: it is looked for in the channel before it is sent again."""
        stage.outbox.unsure[post.seq] = tried

    async def send(
        self,
        stage: TableStage,
        table: Table,
        post: Post | None,
        words: str | None = None,
        nonce_tag: str = "",
        **fields: Any,
    ) -> discord.Message | None:
        """Send a message to the table's channel; for ``post``, once: with its nonce, and after a long
        outage only if the channel does not show it yet (``words``: what the post says; the content
        by default). ``nonce_tag`` marks a second message of the same post (its nonce differs by it)."""
        words = fields.get("content") if words is None else words
        return await self.send_to(
            self.channels.channel(table),
            stage,
            table,
            post,
            nonce_tag,
            (lambda message: says(message.content, words)) if words else None,
            **fields,
        )

    async def send_to(
        self,
        where: discord.abc.Messageable,
        stage: TableStage,
        table: Table,
        post: Post | None,
        nonce_tag: str,
        matches: Callable[[discord.Message], bool] | None,
        **fields: Any,
    ) -> discord.Message | None:
        """Send a message of ``post`` to ``where`` (its table's channel, or a player's direct
        messages), once: through the table's newest click there if it can, else with its nonce;
        before a try with the nonce, after a long outage or a follow-up whose fate is unknown, only
        if none of our messages there since the post's first try ``matches`` (None: nothing to
        look for)."""
        if table.carried:
            return await self._carried(stage, table, post, where, fields)
        if post is not None:
            sent = await self._sent_already(stage, table, post, where, matches)
            if sent is not None:
                return sent
            click = stage.clicks.newest
            channel_id = getattr(where, "id", None)  # a channel, or a player's direct messages
            if click is not None and channel_id is not None and await click.can_post_in(channel_id):
                sent = await self._through(click, stage, table, post, fields)
                if sent is not None:
                    return sent
                if post.seq in stage.outbox.unsure:  # the follow-up may have been taken: look before sending again
                    sent = await self._sent_already(stage, table, post, where, matches)
                    if sent is not None:
                        return sent
            fields["nonce"] = f"{post_nonce(table.id, post)}{nonce_tag}"[:25]
        for file in fields.get("files", ()):
            file.reset()  # a retried upload sends the picture from its start again
        return await where.send(**fields)

    async def _carried(
        self, stage: TableStage, table: Table, post: Post | None, where: discord.abc.Messageable, fields: dict[str, Any]
    ) -> discord.Message:
        """A message of a table only interactions reach, as the public follow-up of its newest click
        there; ``NoCarrier`` when none can carry it (none made, its token ran out, its follow-ups spent)."""
        channel_id = getattr(where, "id", None)
        click = stage.clicks.newest
        if click is None or channel_id is None or not await click.can_post_in(channel_id):
            raise NoCarrier(table.id)
        sent = await self._through(click, stage, table, post, fields)
        if sent is None:  # Discord refused that click (its token ran out, its follow-ups spent): the next one
            raise NoCarrier(table.id)
        return sent

    async def _sent_already(
        self,
        stage: TableStage,
        table: Table,
        post: Post,
        where: discord.abc.Messageable,
        matches: Callable[[discord.Message], bool] | None,
    ) -> discord.Message | None:
        """The message of ``post`` in ``where`` if one may have been sent already without a nonce to
        tell: a follow-up whose fate is unknown, a post the process before this one may have sent,
        or one first tried longer ago than Discord remembers a nonce."""
        if matches is None:
            return None
        owed = stage.outbox
        since = owed.since.get(post.seq)
        if post.seq in owed.unsure:
            since = owed.unsure[post.seq]
        elif since is None or (post.seq not in owed.restored and self.service.clock() - since <= NONCE_TRUST):
            return None
        return await self._sent_before(table, where, since, matches)

    async def _through(
        self, click: Click, stage: TableStage, table: Table, post: Post | None, fields: dict[str, Any]
    ) -> discord.Message | None:
        """``post``'s message as ``click``'s public follow-up; None if that failed (the bot's token
        sends it then, after looking for it in the channel if the follow-up may have been taken; at a
        table only interactions reach, a 5xx or a lost answer is raised, to be tried again)."""
        for file in fields.get("files", ()):
            file.reset()
        carried = {
            name: value for name, value in fields.items() if value is not None and name not in ("files", "nonce")
        }
        if fields.get("files"):
            if click.may_attach:
                carried["files"] = fields["files"]
            elif isinstance(carried.get("embed"), discord.Embed):  # apps may not attach files here
                carried["embed"] = carried["embed"].copy().set_image(url=None)
        webhook = click.webhook  # a settled click's (can_post_in)
        if webhook is None:
            return None
        tried = time.time()
        try:
            message = await webhook.send(wait=True, ephemeral=False, **carried)
            click.followed_up()
            stage.clicks.carried(click, message.id)
            return message
        except asyncio.CancelledError:
            if post is not None:
                self.unsure(stage, post, tried)
            raise
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            if locked_out(exc):
                raise  # a moderator locked the game's thread: the bot's own post would be refused too
            if transient(exc):  # a 5xx or a lost answer: Discord may have taken it
                if table.carried:
                    raise  # no other way to the channel: the same click, later
                if post is not None:
                    self.unsure(stage, post, tried)
            stage.clicks.drop(click)
            seq = post.seq if post is not None else None
            log.debug("table %s: post %s through a click failed (%s); the bot's own request", table.id, seq, exc)
            return None

    async def _sent_before(
        self, table: Table, where: discord.abc.Messageable, since: float, matches: Callable[[discord.Message], bool]
    ) -> discord.Message | None:
        """Our message that ``matches`` among those in ``where`` since ``since``: an earlier try that
        Discord took, too long ago for the nonce to tell; or None."""
        me = self.client.user
        after = discord.Object(discord.utils.time_snowflake(datetime.fromtimestamp(since - 5, UTC)))
        try:
            async for message in where.history(limit=LOOK_BACK, after=after):
                if me is not None and message.author.id == me.id and matches(message):
                    log.info("table %s: a post was already sent (message %s)", table.id, message.id)
                    return message
        except discord.HTTPException as exc:
            if transient(exc):  # the look is tried again later: sending now could show the post twice
                raise
            # Refused for good (no permission to read the channel): sending is all that is left.
            log.warning("table %s: could not look for an earlier post (%s)", table.id, exc)
        return None


def says(content: str, words: str) -> bool:
    """Whether a message's ``content`` is ``words``, or begins with them and goes on on a new line."""
    if content == words:
        return True
    words = words[:CUT] if len(words) > CUT else words + "\n"  # a long text may have been clipped
    return content.startswith(words)
