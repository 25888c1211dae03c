"""The clicks whose interaction tokens carry a table's messages outside the bot token's budget.

Discord does not count an interaction's answer, nor what its webhook sends or edits
afterwards, against the bot token's 50 requests a second. So the newest click on a
table's buttons, once answered, and for as long as its token lasts (15 minutes), can carry:

* an edit of the message it was on, when it was answered with no message of its own (a
  lobby's players: ``LiveMessages``);
* a new public message of the table's into the channel the click was made in, as the
  click's follow-up (a reveal: ``OutboxDelivery``);
* later edits of that follow-up, while its token lasts: who has picked, on the live table
  the follow-up is (``LiveMessages``).

A turn's reveal is then carried by the click that completed the turn, and costs the bot
token nothing; so does showing, during the next turn, who has picked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

#: How long a click's token may be used: Discord gives 15 minutes, less a margin.
CLICK_TOKEN_SECONDS = 14 * 60
#: How long a request waits for the click it goes through to be answered (Discord's deadline is 3 s).
CLICK_ANSWER_SECONDS = 3.0
#: The follow-ups an interaction of an app installed to the user alone may send (Discord's limit;
#: a sixth is refused with 40094, which drops the click like any refusal).
USER_INSTALL_FOLLOW_UPS = 5


class OneTryOn5xx:
    """The HTTP session a click's follow-ups go through: an answer of 5xx is raised at once, as
    ``discord.DiscordServerError``, where discord.py would try the request again.

    Discord may have taken a request it answers 5xx, and a follow-up has no nonce by which it
    would drop a second copy: a second try could show a reveal twice. The outbox looks for the
    post in the channel instead, before the bot's token sends it with its nonce."""

    __slots__ = ("_session",)

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session

    def request(self, *args: Any, **kwargs: Any) -> _RaiseOn5xx:
        return _RaiseOn5xx(self._session.request(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class _RaiseOn5xx:
    """One request of ``OneTryOn5xx``, used as discord.py's webhook adapter uses a request:
    ``async with session.request(...) as response``."""

    __slots__ = ("_request",)

    def __init__(self, request: Any) -> None:
        self._request = request

    async def __aenter__(self) -> aiohttp.ClientResponse:
        response: aiohttp.ClientResponse = await self._request.__aenter__()
        if response.status >= 500:
            try:
                text = await response.text()
            finally:
                await self._request.__aexit__(None, None, None)
            raise discord.DiscordServerError(response, text)
        return response

    async def __aexit__(self, *exc_info: Any) -> None:
        await self._request.__aexit__(*exc_info)


class Click:
    """A click on one of a table's messages (public, or a player's own hand), as its callback
    answers it: ``settled`` once the callback is done, ``edits_original`` if the interaction's
    original message is ``message_id``: the message clicked, when its answer was no message of its
    own (a deferred update), or its own answer (``answered_with``: the command that opened a lobby).

    Once settled it keeps only what it carries requests with (the interaction's webhook, where it
    was made): an interaction holds the whole message clicked, in reference cycles, and a click
    kept for seconds outlives the young collections, so thousands a minute would pile up for the
    full ones. Only a click on a lobby keeps its interaction, whose original message it edits.
    """

    __slots__ = (
        "interaction",
        "clock",
        "made_at",
        "channel_id",
        "message_id",
        "keeps_interaction",
        "settled",
        "edits_original",
        "answered_as",
        "webhook",
        "replaced",
        "may_attach",
        "follow_ups_left",
    )

    def __init__(
        self, interaction: discord.Interaction, clock: Callable[[], float], keeps_interaction: bool = False
    ) -> None:
        self.interaction: discord.Interaction | None = interaction
        self.clock = clock  # the bot's clock: Discord's, and a test's when a test moves time on
        self.made_at = clock()
        self.channel_id = interaction.channel_id
        self.message_id = interaction.message.id if interaction.message is not None else None
        self.keeps_interaction = keeps_interaction
        self.settled = asyncio.Event()
        self.edits_original = False
        self.answered_as: discord.InteractionResponseType | None = None
        self.webhook: discord.Webhook | None = None
        self.replaced: Click | None = None  # the table's newest click before it, until it is settled
        # What its follow-ups may carry where the app has no bot: files (``app_permissions``), and how
        # many more (an app installed only to the user who clicked may send five; None: no limit).
        self.may_attach = interaction.app_permissions.attach_files
        self.follow_ups_left: int | None = None if installed_here(interaction) else USER_INSTALL_FOLLOW_UPS

    def settle(self) -> None:
        """The callback is done: how it answered, and the webhook its follow-ups go through."""
        self.replaced = None
        interaction = self.interaction
        if interaction is not None:
            self.answered_as = interaction.response.type
            self.edits_original = self.answered_as is discord.InteractionResponseType.deferred_message_update
            self.webhook = interaction.followup
            self.webhook.session = OneTryOn5xx(self.webhook.session)  # type: ignore[assignment]
            if not self.keeps_interaction:
                self.interaction = None
        self.settled.set()

    def answered_with(self, message_id: int, made_at: float) -> None:
        """Its answer is message ``message_id`` (a lobby, its opener's answer): its token, which lasts
        from ``made_at`` (when the command came), may edit it."""
        self.made_at = made_at
        self.message_id = message_id
        self.settle()
        self.edits_original = True

    def followed_up(self) -> None:
        """One follow-up sent through it."""
        if self.follow_ups_left is not None:
            self.follow_ups_left -= 1

    def on(self, message_id: int) -> bool:
        return self.message_id == message_id

    def lasts(self) -> bool:
        return self.clock() - self.made_at < CLICK_TOKEN_SECONDS

    async def _settle(self) -> bool:
        """Whether the callback is done, waiting a moment for it."""
        if not self.lasts():
            return False
        try:
            await asyncio.wait_for(self.settled.wait(), CLICK_ANSWER_SECONDS)
        except TimeoutError:
            return False
        return True

    async def can_edit(self) -> bool:
        """Whether the click can edit the message it was on now."""
        return await self._settle() and self.edits_original and self.interaction is not None

    async def can_post_in(self, channel_id: int) -> bool:
        """Whether the click can send a public follow-up into ``channel_id`` now: it was made there,
        and answered. Not after a "thinking…" deferral: its first follow-up would take the
        placeholder's place, and keep it private."""
        if self.channel_id != channel_id or not await self._settle():
            return False
        kind = self.answered_as
        return (
            self.follow_ups_left != 0
            and self.webhook is not None
            and kind is not None
            and kind is not discord.InteractionResponseType.deferred_channel_message
        )


def installed_here(interaction: discord.Interaction) -> bool:
    """Whether the app is installed to the place of ``interaction`` (a server that added it, or the DM
    with its bot), not only to the user who made it."""
    return interaction.is_guild_integration() or interaction.context.dm_channel


@dataclass(eq=False)
class TableClicks:
    """One table's clicks: its newest (for its posts), the newest on its lobby message (for that
    message's edits) and the one whose follow-up is its live message (for that message's edits):
    three at most."""

    newest: Click | None = None
    on_lobby: Click | None = None
    follow_up: tuple[int, Click] | None = None  # (message id, the click that sent it)
    only_clicks: bool = False  # the table is ``Table.carried``: nothing but clicks reaches its channel

    def opened(self, click: Click) -> None:
        """``click`` (settled) answered with the table's lobby: its edits go through it, until a click on it."""
        if self.on_lobby is None:
            self.on_lobby = click

    def clicked(self, click: Click, on_lobby: bool) -> None:
        click.replaced = self.newest
        self.newest = click
        if on_lobby:
            self.on_lobby = click

    def refused(self, click: Click) -> None:
        """``click`` was refused (not the clicker's table, a stale button): it carries nothing of the
        table's, and the click it replaced carries again. Call it before ``settle``."""
        if self.newest is click:
            self.newest = click.replaced
        if self.on_lobby is click:
            self.on_lobby = None

    def carried(self, click: Click, message_id: int) -> None:
        """``click``'s follow-up is ``message_id``, the table's newest message: its webhook may edit it."""
        self.follow_up = (message_id, click)

    def carrier(self, message_id: int) -> Click | None:
        """The click whose webhook can still edit ``message_id`` (its follow-up), or None."""
        found = self.follow_up
        if found is None or found[0] != message_id or found[1].webhook is None or not found[1].lasts():
            return None
        return found[1]

    def drop(self, click: Click) -> None:
        """``click`` failed to carry a request (its token ran out, a 5xx): the bot's token takes over."""
        if self.newest is click:
            self.newest = None
        if self.on_lobby is click:
            self.on_lobby = None
        if self.follow_up is not None and self.follow_up[1] is click:
            self.follow_up = None


#: Where a command's click waits in its interaction's ``extras`` until the command has answered.
COMMAND_CLICK = "6nimmt.click"


def command_answered(interaction: discord.Interaction) -> int | None:
    """A command that may carry a table's messages (``Clicks.command``) has answered: its click is
    settled now; the table's id, or None for a command that carries none."""
    kept = interaction.extras.pop(COMMAND_CLICK, None)
    if kept is None:
        return None
    table_id, click = kept
    click.settle()
    return int(table_id)


class Clicks:
    """Where the clicks on a table's buttons are registered, as their callbacks begin and end; each
    table's are kept with the rest of what the presenter holds of it (``held``: None for a table it
    holds nothing of and that is not open, whose click would carry nothing)."""

    def __init__(
        self,
        clock: Callable[[], float],
        held: Callable[[int], TableClicks | None],
        arrived: Callable[[int], None] = lambda table_id: None,
    ) -> None:
        self.clock = clock
        self.held = held
        self.arrived = arrived  # told of every click kept: a table only clicks reach may wait for one

    def clicked(self, table_id: int, interaction: discord.Interaction, on_lobby: bool = False) -> Click:
        """A click on ``table_id``'s buttons (``on_lobby``: on its lobby message), before its
        callback runs; the callback sets ``settled``."""
        click = Click(interaction, self.clock, keeps_interaction=on_lobby)
        clicks = self.held(table_id)
        if clicks is not None:
            clicks.clicked(click, on_lobby)
            self.arrived(table_id)
        return click

    def only_clicks(self, table_id: int) -> bool:
        """Whether ``table_id`` is a table only clicks reach (``TableClicks.only_clicks``)."""
        clicks = self.held(table_id)
        return clicks is not None and clicks.only_clicks

    def command(self, table_id: int, interaction: discord.Interaction) -> None:
        """A command about ``table_id`` (a table only clicks reach) carries its next messages like a
        click; it is settled once the command has answered (``command_answered``)."""
        if COMMAND_CLICK not in interaction.extras:
            interaction.extras[COMMAND_CLICK] = (table_id, self.clicked(table_id, interaction))

    def refused(self, table_id: int, click: Click) -> None:
        """``click`` was refused: the table's clicks are as they were before it (``TableClicks.refused``)."""
        clicks = self.held(table_id)
        if clicks is not None:
            clicks.refused(click)
