"""The live message: the one public message that shows a table now, with its buttons.

A lobby's live message is the lobby itself; a game's is the newest table message,
posted with the news that moved it on. A message the next post supersedes is never
edited again: a click on its buttons is answered, privately, that the table has
moved on. Between posts what players wait on is edited in: a lobby's players, a
Pro draft's next pick, and during a turn who has picked (✅) and who is still thinking
(⏳), at most once per ``edit_interval``, so several picks make one edit. A live message
that a click's follow-up created is edited through that click's webhook while its token
lasts, which the bot token's budget does not count; any other edit waits for the budget's
room, as cosmetic work.
"""

from __future__ import annotations

import io
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from bot.tables.ai_seats import SEARCHING_LEVELS
from bot.tables.service import TableService
from bot.tables.table import Post, Table, TableSnapshot, TableStatus
from bot.tables.updates import TableUpdate
from cogs.i18n import tr, user_locale
from cogs.render.links import message_link
from cogs.render.pings import table_pings
from cogs.render.specials import waiting_line
from cogs.render.text import clip, lobby_embed, seat_name, table_embed
from cogs.reply import Reply
from cogs.threads import start_thread
from cogs.ui.lobby import LobbyButton, lobby_view, server_lines
from cogs.ui.table import table_view
from engine import Phase

from .budget import Priority, RequestBudget, requests_for
from .channels import TableChannels, transient
from .clicks import Click
from .outbox import OutboxDelivery
from .pictures import IMAGE_NAME, Pictures
from .reminders import Reminders
from .stage import TableStage

log = logging.getLogger(__name__)

#: The least time between two edits of a table's live message; posts never wait for it.
EDIT_INTERVAL = 1.0
#: Minutes without a message after which a finished game's thread archives itself (Discord's least).
THREAD_ARCHIVE_AFTER_GAME = 60


class LiveMessages:
    """``learn`` which message is live; ``post`` a new one (with a post's news above the table);
    ``edit`` it to the newest state; ``summary`` and ``retire_thread`` at the end. What it knows of a
    table's live message is kept on the table's stage (``TableStage.live``)."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        channels: TableChannels,
        outbox: OutboxDelivery,
        pictures: Pictures,
        reminders: Reminders,
        budget: RequestBudget,
    ) -> None:
        self.client = client
        self.service = service
        self.channels = channels
        self.budget = budget
        self.outbox = outbox
        self.pictures = pictures
        self.reminders = reminders
        self.edit_interval = EDIT_INTERVAL

    def learn(self, stage: TableStage, snapshot: TableSnapshot) -> None:
        """A restored table's live message, or the lobby's answer."""
        live = stage.live
        if snapshot.message_id is not None and (live.message_id is None or snapshot.status is TableStatus.LOBBY):
            live.message_id = snapshot.message_id

    def wait_before_edit(self, stage: TableStage) -> float:
        """Seconds until the live message may be edited again (0 or less: now)."""
        live = stage.live
        last = live.last_edit.get(live.message_id, -1e9) if live.message_id is not None else -1e9
        return last + self.edit_interval - time.monotonic()

    def needs_edit(self, stage: TableStage, update: TableUpdate) -> bool:
        """Whether ``update``, bringing no post (which would draw the table anew), changed what the
        live message shows: a lobby's players, a Pro draft's pick, who has picked this turn. Not
        a lobby's new thread (Discord shows it under the lobby message)."""
        if update.kind in ("finished", "cancelled"):
            return False
        snapshot = update.snapshot
        if update.kind == "picked":
            return True
        if update.kind == "resumed":  # a game back from its locked thread: a new deadline
            return True
        if update.kind == "restored":
            return may_be_behind(snapshot)
        if snapshot.status is TableStatus.LOBBY:
            players = lobby_players(snapshot.table)
            # A new lobby's first commit is what its message (the command's answer) was drawn from.
            if stage.live.lobby_drawn is None:
                stage.live.lobby_drawn = players
            return stage.live.lobby_drawn != players
        return snapshot.drafting

    def fall_behind(self, stage: TableStage) -> None:
        """A commit changed what the live message shows."""
        stage.live.behind = True

    def ask_repost(self, stage: TableStage) -> None:
        """Post the live message anew at the bottom of its channel (``/6nimmt status``)."""
        stage.live.repost = True

    def owes_change(self, stage: TableStage) -> bool:
        return stage.live.behind or stage.live.repost

    def settle(self, stage: TableStage) -> None:
        """The table's worker ended: the next commit says again what is behind."""
        stage.live.behind = False
        stage.live.repost = False

    async def catch_up(
        self, stage: TableStage, snapshot: TableSnapshot, pause: Callable[[float], Awaitable[None]]
    ) -> None:
        """The live message's next change: posted anew, or edited to ``snapshot`` (after ``pause``
        until ``edit_interval`` has passed since its last edit, so a burst of changes is one edit)."""
        live = stage.live
        if live.repost:
            live.repost = False
            live.behind = False
            if snapshot.is_open:
                await self.post(stage, snapshot.table, None)
            return
        wait = self.wait_before_edit(stage)
        if wait > 0 and not self.channels.closing:
            await pause(wait)  # a post arriving meanwhile goes first
            return
        if snapshot.table.carried and not await self.edits_through_a_click(stage):
            # Only a click reaches its channel, and none can edit the live message (its token ran out,
            # a restart forgot it): the table is posted anew through the newest click, if one can.
            live.behind = False
            click = stage.clicks.newest
            if snapshot.is_open and click is not None and await click.can_post_in(snapshot.table.home_id):
                if stage.outbox.pending:  # a post came meanwhile: it draws the table anew, from the newest state
                    return
                await self.post(stage, stage.snapshot.table, None)
            return
        priority = edit_priority(snapshot.table)
        if (
            not self.budget.room_for(priority)
            and not self.channels.closing
            and not self.can_edit_through_a_click(stage)
        ):
            # The budget is short: players' requests first; this edit then draws the newest state.
            await pause(self.budget.seconds_to_room())
            return
        live.behind = False
        with requests_for(priority):
            await self.edit(stage, snapshot.table)

    # -- posting and editing -------------------------------------------------------------

    async def post(self, stage: TableStage, table: Table, post: Post | None, text: str = "", notices=()) -> int | None:
        """Post the live table with ``post``'s news above it (the message before it is left as it
        is: the new one supersedes it); the new message's id. Without a post (``/6nimmt status``),
        the table or the lobby anew, with a nonce of its own for every try of this repost."""
        locale = self.channels.locale(table)
        live = stage.live
        repost = {} if post is not None else {"nonce": f"6r{table.id}.{secrets.token_hex(4)}"[:25]}
        if table.status is TableStatus.LOBBY:
            if post is not None:
                raise ValueError(f"table {table.id}: a lobby's post is its opening ({post.kind})")
            message = await self.channels.retry(
                self.outbox.send,
                stage,
                table,
                None,
                embed=lobby_embed(table, locale, server=server_lines(self.client, table.guild_id, locale)),
                view=lobby_view(table, locale),
                **repost,
            )
            if message is None:
                return None
            live.lobby_drawn = lobby_players(table)
            live.message_id = message.id
            self.outbox.live_message_posted(stage, message.id)
            return message.id
        live.behind = False  # the new message shows the newest state
        if post is not None:
            late = self.service.clock() - post.at
            if late > 0:
                try:
                    await self.service.post_seen_late(table.id, post, late)
                except Exception as exc:  # its timer is only less generous: show the news
                    log.debug("table %s: the timer could not wait for a late post (%s)", table.id, exc)
        own = text  # the post's own words: the calls and the buttons follow the state, which moves on
        text = "\n".join(t for t in (text, *self._calls(table, post, locale)) if t)
        live.news = list(notices)
        embed = table_embed(table, locale, list(notices))
        files = []
        image = None
        if table.game is not None and table.game.view(None).rows:  # none during a Pro draft
            try:
                image = await self.pictures.table(table, list(post.events) if post else [], locale)
            except Exception:  # the picture only repeats the rows in the text: post the table without it
                log.exception("table %s: the table picture could not be drawn", table.id)
        live.without_picture = image is None
        if image is not None:
            files.append(
                discord.File(
                    io.BytesIO(image),
                    filename=IMAGE_NAME,
                    description=tr(locale, "The rows; the text above says the same"),
                )
            )
            embed.set_image(url=f"attachment://{IMAGE_NAME}")
        previous = live.message_id
        message = await self.channels.retry(
            self.outbox.send,
            stage,
            table,
            post,
            content=clip(text) if text else None,
            words=own,
            embed=embed,
            view=table_view(table, locale),
            files=files,
            allowed_mentions=table_pings(table, text),
            **repost,
        )
        if previous is not None:
            live.last_edit.pop(previous, None)  # superseded: never edited again
        if message is not None:
            live.message_id = message.id
        if post is not None and post.remind:
            await self.reminders.message_players(stage, table, post, locale)
        if message is None:
            return None
        if post is None:  # a repost: no post to mark, only the message to remember
            self.outbox.live_message_posted(stage, message.id)
        return message.id

    def _calls(self, table: Table, post: Post | None, locale) -> list[str]:
        """The lines of a new live message that call players (and ping them, ``table_pings``): a game
        that begins in its thread calls its players there (Discord adds whoever a message mentions to
        its thread, so no request adds them); a special card's decider is nudged; in a turn-based game
        whoever owes the move it opens is told (unless they asked for a direct message)."""
        lines: list[str] = []
        if post is not None and post.kind == "started" and table.thread_id is not None:
            players = [seat.user_id for seat in table.humans if seat.user_id is not None]
            if players:
                lines.append(
                    tr(
                        locale,
                        "🎲 The game begins: {players}",
                        players=" ".join(f"<@{user_id}>" for user_id in players),
                    )
                )
        nudge = waiting_line(table, lambda seat: seat_name(table, seat, locale), locale)
        if nudge:
            lines.append(nudge)
        if post is not None and post.remind:  # a turn-based decision opens
            lines.append(self.reminders.mention_line(table, post, locale))
        return lines

    # -- a lobby's message ------------------------------------------------------------------

    async def open_lobby(self, stage: TableStage, table: Table, post: Post) -> int | None:
        """Show a new lobby (its "opened" post), as its opener's answer where that is in the lobby's
        channel, else in the channel (once: its nonce, or a look for it); then start its game's
        thread on it, and tell the opener where it is and why it has no thread. The message's id."""
        locale = self.channels.locale(table)
        embed = lobby_embed(table, locale, server=server_lines(self.client, table.guild_id, locale))
        view = lobby_view(table, locale)
        opening = stage.opening
        opener = opening.reply if opening is not None else None
        here = opener is not None and opener.interaction.channel_id == table.channel_id
        message_id = await self._answer_with_lobby(opener, stage, table, post, embed, view) if opener and here else None
        answered = message_id is not None
        if message_id is None:
            message = await self.channels.retry(
                self.outbox.send_to,
                self.channels.lobby_channel(table),
                stage,
                table,
                post,
                "",
                lambda message: shows_lobby(message, table.id),
                embed=embed,
                view=view,
            )
            message_id = message.id if message is not None else None
        if message_id is None:
            return None
        stage.live.message_id = message_id
        stage.live.lobby_drawn = lobby_players(table)
        if answered and opening is not None:  # its token edits the lobby (a /6nimmt join) until someone clicks on it
            opened = Click(opening.reply.interaction, self.service.clock, keeps_interaction=True)
            opened.answered_with(message_id, opening.at)
            stage.clicks.opened(opened)
        why = opening.why if opening is not None else None
        if table.threaded and table.thread_id is None:  # its game's thread starts on it
            why = await start_thread(self.client, self.service, table, message_id, table.host_name, locale) or why
        if opener is not None and (answered or not here):  # an answer Discord failed is not tried again
            await self._tell_opener(opener, table, message_id, not here, why)
        stage.opened()
        return message_id

    async def _answer_with_lobby(
        self, opener: Reply, stage: TableStage, table: Table, post: Post, embed: discord.Embed, view: discord.ui.View
    ) -> int | None:
        """The lobby as its opener's public answer; None if Discord did not take it (the bot's token
        posts it then, after looking for it when Discord may have taken it after all)."""
        tried = time.time()
        try:
            message_id = await opener.send(ephemeral=False, embed=embed, view=view)
            if message_id is None:
                message_id = (await opener.interaction.original_response()).id
            return message_id
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            if transient(exc):
                self.outbox.unsure(stage, post, tried)
            log.info("table %s: its lobby could not be its opener's answer (%s); posted in the channel", table.id, exc)
            return None

    async def _tell_opener(
        self, opener: Reply, table: Table, message_id: int, elsewhere: bool, why: str | None
    ) -> None:
        """The opener learns where the lobby is (``elsewhere``: it is not the answer) and why its game has
        no thread; best effort: the lobby is shown either way."""
        try:
            if elsewhere:
                link = message_link(table.server_id, table.channel_id, message_id)
                await opener.send(tr(user_locale(opener.interaction), "The new table is open: {link}", link=link))
            if why:
                await opener.send(why)
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.info("table %s: its opener could not be told where it is (%s)", table.id, exc)

    async def edit(self, stage: TableStage, table: Table) -> None:
        """Bring the live message up to the table's state (who has picked, the lobby's players)."""
        live = stage.live.message_id
        if live is None or not table.is_open:
            return
        locale = self.channels.locale(table)
        fields: dict[str, Any]
        if table.status is TableStatus.LOBBY:
            fields = {
                "embed": lobby_embed(table, locale, server=server_lines(self.client, table.guild_id, locale)),
                "view": lobby_view(table, locale),
            }
            stage.live.lobby_drawn = lobby_players(table)
        else:
            embed = table_embed(table, locale, stage.live.news)
            if table.game is not None and table.game.view(None).rows and not stage.live.without_picture:
                embed.set_image(url=f"attachment://{IMAGE_NAME}")  # the image already attached
            fields = {"embed": embed, "view": table_view(table, locale)}
        stage.live.last_edit[live] = time.monotonic()
        await self.edit_message(stage, table, live, **fields)

    async def close_lobby(self, stage: TableStage, table: Table) -> None:
        """A lobby that closed before its game began says so, without its buttons (it stays in the
        channel as the table's summary)."""
        locale = self.channels.locale(table)
        with requests_for(Priority.COSMETIC):
            await self.edit_message(stage, table, stage.live.message_id, view=None, embed=lobby_embed(table, locale))

    # -- a game in a thread ----------------------------------------------------------------

    async def summary(
        self, stage: TableStage, table: Table, standings: int | None = None, priority: Priority = Priority.COSMETIC
    ) -> None:
        """A game in a thread: the lobby message in the channel says where it is played, who plays,
        whether it waits for its locked thread and, at the end, who won (``standings``: the message
        to jump to)."""
        if table.thread_id is not None:
            locale = self.channels.locale(table)
            with requests_for(priority):
                await self.edit_message(
                    stage, table, table.thread_id, view=None, embed=lobby_embed(table, locale, standings=standings)
                )

    # -- edits through a click -------------------------------------------------------------

    async def edit_message(self, stage: TableStage, table: Table, message_id: int | None, **fields: Any) -> None:
        """Edit one of ``table``'s messages, through a click when one can (a click on it, or the
        click whose follow-up it is), else with the bot's token (tried until Discord accepts it)."""
        clicks = stage.clicks
        click = clicks.on_lobby
        if click is not None and message_id is not None and click.on(message_id) and await click.can_edit():
            interaction = click.interaction  # a lobby's click keeps it (can_edit)
            try:
                if interaction is not None:
                    await interaction.edit_original_response(**fields)
                    return
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:  # its token ran out, or a 5xx
                clicks.drop(click)
                log.debug("table %s: an edit through a click failed (%s); the bot's own request", table.id, exc)
        carrier = clicks.carrier(message_id) if message_id is not None else None
        if carrier is not None and carrier.webhook is not None and message_id is not None:
            try:
                await carrier.webhook.edit_message(message_id, **fields)
                return
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:  # ran out, a 5xx, a lock
                clicks.drop(carrier)
                log.debug("table %s: an edit through its follow-up failed (%s); the bot's own request", table.id, exc)
        if table.carried:  # the bot's token cannot reach its channel: the next post shows the newest state
            return
        await self.channels.retry(self.channels.edit, table, message_id, **fields)

    async def edits_through_a_click(self, stage: TableStage) -> bool:
        """Whether a click can edit the live message now: one on it (or the answer that is it), once
        answered, or the click whose follow-up it is."""
        live = stage.live.message_id
        if live is None:
            return False
        click = stage.clicks.on_lobby
        if click is not None and click.on(live) and await click.can_edit():
            return True
        return stage.clicks.carrier(live) is not None

    def can_edit_through_a_click(self, stage: TableStage) -> bool:
        click = stage.clicks.on_lobby
        if click is not None and click.edits_original and click.lasts():
            return True
        live = stage.live.message_id
        return live is not None and stage.clicks.carrier(live) is not None

    def retire_thread(self, table: Table) -> None:
        """After the game its thread archives itself once an hour has passed without a message:
        the Rematch button's hour, Discord's shortest inactivity timer (no task of ours waits for it).
        A live game's thread was started with that timer already (cogs.threads)."""
        if table.thread_id is None or not table.options.turn_based:
            return
        with requests_for(Priority.COSMETIC):  # the chore's task inherits it
            self.channels.background(
                self.channels.retry(
                    self.client.http.edit_channel, table.thread_id, auto_archive_duration=THREAD_ARCHIVE_AFTER_GAME
                ),
                f"table {table.id}: its thread's archive timer",
            )


def edit_priority(table: Table) -> Priority:
    """A draft's edit shows whose pick it is; any other edit (a lobby's players, who has picked)
    only repeats what each player's own answer said."""
    game = table.game
    if table.status is TableStatus.PLAYING and game is not None and game.phase is Phase.DRAFT:
        return Priority.PLAYERS
    return Priority.COSMETIC


def may_be_behind(snapshot: TableSnapshot) -> bool:
    """Whether a table restored at start-up may show less than it committed, beyond the posts it
    still owes (which draw it anew): what changes a live message without a post may have been
    committed just before the stop, unshown, and nothing records which change it shows. That is a
    lobby's players, a Pro draft's picks, a game back from a locked thread (its deadline), and who
    has picked this turn (a turn nobody has picked in yet shows as its post drew it)."""
    return (
        snapshot.status is TableStatus.LOBBY or snapshot.drafting or snapshot.resumed or someone_picked(snapshot.table)
    )


def someone_picked(table: Table) -> bool:
    """Whether a game's turn has picks its table message may not have shown when it was posted: a
    player's, or a searching AI seat's, which follows the post (an AI seat that needs no search
    picks in the commit that posts the turn, so its message shows that pick)."""
    game = table.game
    if table.status is not TableStatus.PLAYING or game is None:
        return False
    view = game.view(None)
    return view.phase is Phase.PICK and any(
        picked and (not seat.is_ai or seat.ai_level in SEARCHING_LEVELS)
        for picked, seat in zip(view.picked, table.seats, strict=True)
    )


def shows_lobby(message: discord.Message, table_id: int) -> bool:
    """Whether ``message`` is ``table_id``'s lobby (found by its Join button)."""
    wanted = LobbyButton("join", table_id).custom_id
    return any(
        getattr(child, "custom_id", None) == wanted
        for row in message.components
        for child in getattr(row, "children", ())
    )


def lobby_players(table: Table) -> tuple[object, ...]:
    """What a lobby message shows that its commits change: the seats and who hosts."""
    return tuple((seat.user_id, seat.name, seat.ai_level) for seat in table.seats), table.host_id
