"""Answering an interaction in time, however long the save behind it takes.

Discord wants every interaction answered (or deferred) within 3 s. A click or
command that changes a table saves it first, and a slow database (SQLite's
write lock held elsewhere, PostgreSQL restarting) can make that save take
longer. ``Reply`` is how every button, select and saving command answers:

    async with Reply(interaction, Answer.EDIT) as reply:
        await service.pick(...)
        await reply.edit(content=...)

If the block has not answered after ``DEFER_AFTER`` seconds, the interaction is
deferred the way its answer needs (``Answer``), and ``send``/``edit`` then
deliver the answer through the follow-up calls instead: the code inside never
needs to know whether it was deferred. Leaving the block waits for a deferral
under way, so an error handler that answers afterwards sees it.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time

import discord

from bot.app import SixNimmtBot, interaction_kind
from cogs.errors import answer_error

log = logging.getLogger(__name__)

#: Seconds an interaction may stay unanswered before it is deferred (Discord allows 3; the rest is
#: for a busy loop and the request itself: at 2 s, one click in 74,536 of a bad day missed it).
DEFER_AFTER = 1.5


class Answer(enum.Enum):
    """How an interaction is answered, and so how it is deferred when its answer is slow."""

    EDIT = "edit"  # a component edits its own message (or only acknowledges): a deferred update
    EPHEMERAL = "ephemeral"  # a new message only the user sees: an ephemeral "thinking…"
    PUBLIC = "public"  # a new message everyone sees: a public "thinking…"


class Reply:
    """The one way an action answers its interaction, before or after a deferral."""

    def __init__(self, interaction: discord.Interaction, answer: Answer, *, defer_after: float | None = None) -> None:
        self.interaction = interaction
        self.answer = answer
        self.defer_after = DEFER_AFTER if defer_after is None else defer_after
        self._lock = asyncio.Lock()  # a deferral and an answer never race each other
        self._timer: asyncio.Task | None = None
        self._deferral: asyncio.Task | None = None
        self._started = time.perf_counter()

    @property
    def answered(self) -> bool:
        return self.interaction.response.is_done()

    async def __aenter__(self) -> Reply:
        self._timer = asyncio.create_task(self._defer_later(), name="reply-defer-timer")
        return self

    async def __aexit__(self, *exc_info) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._deferral is not None:
            await asyncio.gather(self._deferral, return_exceptions=True)  # its failure is logged there

    async def _defer_later(self) -> None:
        await asyncio.sleep(self.defer_after)
        # Shielded: leaving the block must not cut a deferral off halfway through its request.
        self._deferral = asyncio.ensure_future(self.defer())

    def _first_answer(self) -> None:
        """The interaction has just been answered (or deferred) for the first time: the metrics
        learn how long that took."""
        client = self.interaction.client
        if isinstance(client, SixNimmtBot) and client.metrics is not None:
            client.metrics.answered(interaction_kind(self.interaction)[0], time.perf_counter() - self._started)

    async def defer(self) -> None:
        """Defer now, if nothing has answered yet: Discord then shows that an answer is coming."""
        async with self._lock:
            if self.answered:
                return
            try:
                if self.answer is Answer.EDIT:
                    await self.interaction.response.defer()
                else:
                    await self.interaction.response.defer(ephemeral=self.answer is Answer.EPHEMERAL, thinking=True)
                self._first_answer()
            except discord.HTTPException:
                log.warning("could not defer an interaction of user %s", self.interaction.user.id, exc_info=True)

    async def send(self, content: str | None = None, *, ephemeral: bool = True, **fields) -> int | None:
        """A new message as the answer; the id of the message sent (None if Discord did not say)."""
        async with self._lock:
            interaction = self.interaction
            if not self.answered:
                response = await interaction.response.send_message(content, ephemeral=ephemeral, **fields)
                self._first_answer()
                return response.message_id
            # After a "thinking…" deferral the first follow-up takes that message's place.
            message = await interaction.followup.send(
                content or discord.utils.MISSING, ephemeral=ephemeral, wait=True, **fields
            )
            return message.id

    async def edit(self, **fields) -> None:
        """Change the message the clicked component is on."""
        async with self._lock:
            if not self.answered:
                await self.interaction.response.edit_message(**fields)
                self._first_answer()
            else:
                await self.interaction.edit_original_response(**fields)

    async def acknowledge(self) -> None:
        """Answer without a message (another message shows the result)."""
        async with self._lock:
            if not self.answered:
                await self.interaction.response.defer()
                self._first_answer()

    async def error(self, text: str) -> None:
        """Tell only the user what went wrong."""
        async with self._lock:
            await answer_error(self.interaction, text)
