"""The ``/6nimmt`` table subcommands (thin calls into the table service) and the presenter that shows the tables.

The subcommands join the group declared in cogs/group.py; ``/leaderboard`` and the record
subcommands are in cogs.stats.
"""

from __future__ import annotations

import io
import logging
import weakref
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.app import SixNimmtBot
from bot.tables.errors import OptionError, SeatTakenOver, TableExists
from bot.tables.table import TableOptions, TableSnapshot, TableStatus
from cogs.client import Place, bot_of, channel_id_of, place_of
from cogs.errors import add_items, answer_error, remove_items
from cogs.i18n import N_, error_text, render, tr, user_locale
from cogs.presenting.clicks import command_answered
from cogs.render.links import message_link, table_link
from cogs.render.names import shown_name
from cogs.render.text import RULES, limits_text, lobby_embed, table_embed
from cogs.reply import Answer, Reply
from cogs.ui import ITEMS, PREFIX, lobby_answer, refuse, send_hand
from cogs.ui.base import service_of
from cogs.ui.specials import PREFERENCES
from engine import Variant, variant_spec
from engine.variants import MAX_PLAYERS, ROUNDS_CHOICES, TARGET_CHOICES

from .choose import ChooseTable, hosted, joinable, lobby_choices, seated, table_for, table_option
from .games import games_command
from .group import add_subcommands, remove_subcommands
from .presenter import IMAGE_NAME, Presenter
from .threads import Threads, game_thread_parent, why_not_in_thread

log = logging.getLogger(__name__)


def first_error(exc: ValidationError, locale) -> str:
    """The first problem: ours in ``locale``; pydantic's own (a limit the command allows) in its English."""
    error = exc.errors()[0]
    ours = (error.get("ctx") or {}).get("error")
    if isinstance(ours, OptionError):
        return render(locale, ours.text)
    field = ".".join(str(p) for p in error["loc"])
    message = error["msg"].removeprefix("Value error, ")
    return f"{field}: {message}" if field else message


#: Each bot's presenter, while its Tables cog is loaded.
_presenters: weakref.WeakKeyDictionary[discord.Client, Presenter] = weakref.WeakKeyDictionary()


def presenter_of(interaction: discord.Interaction) -> Presenter:
    presenter = _presenters.get(interaction.client)
    if presenter is None:
        raise RuntimeError("the Tables cog is not loaded")
    return presenter


# --------------------------------------------------------------------------- /6nimmt subcommands

# /6nimmt start's bounds and help, from the engine's variant registry.
TARGET_LOW, TARGET_HIGH = TARGET_CHOICES
ROUNDS_LOW, ROUNDS_HIGH = ROUNDS_CHOICES
AI_SEATS_HIGH = MAX_PLAYERS - 1
TARGET_HELP = (
    f"End after the round in which someone reaches this score (default {variant_spec(Variant.CLASSIC).target})"
)
ROUNDS_HELP = (
    f"Play this many rounds instead of a target score (Anniversary: always {variant_spec(Variant.ANNIVERSARY).rounds})"
)


PACE_CHOICES = [
    app_commands.Choice(name=label, value=value)
    for value, label in (
        ("live", N_("Live: everyone plays now (the timer below)")),
        ("1h", N_("Turn-based: 1 hour for each move")),
        ("8h", N_("Turn-based: 8 hours for each move")),
        ("24h", N_("Turn-based: 24 hours for each move")),
    )
]


@app_commands.command(name="start", description="Open a table in this channel")
@app_commands.describe(
    variant="Which rules to play",
    target=TARGET_HELP,
    rounds=ROUNDS_HELP,
    timer="Seconds per turn in a live game (default 60)",
    ai_players="AI players to seat now",
    ai_level="How strong the AI players are",
    helpers="Player aids for everyone: each hand can show the cards seen this round (default off)",
    pace="Live, or turn-based with hours for each move (the server's default otherwise)",
)
@app_commands.choices(pace=PACE_CHOICES)
async def start_command(
    interaction: discord.Interaction,
    variant: Literal["classic", "pro", "anniversary"] = "classic",
    target: app_commands.Range[int, TARGET_LOW, TARGET_HIGH] | None = None,
    rounds: app_commands.Range[int, ROUNDS_LOW, ROUNDS_HIGH] | None = None,
    timer: app_commands.Range[int, 15, 600] | None = None,
    ai_players: app_commands.Range[int, 0, AI_SEATS_HIGH] = 0,
    ai_level: Literal["easy", "medium", "hard"] | None = None,
    helpers: bool = False,
    pace: app_commands.Choice[str] | None = None,
) -> None:
    bot = bot_of(interaction)
    settings = bot.settings
    place = place_of(interaction)
    guild_id = place.scope_id
    locale = user_locale(interaction)
    service = service_of(interaction)
    if place.carried:
        refusal = why_not_carried(interaction, locale, pace)
        if refusal is not None:
            await answer_error(interaction, refusal)
            return
    # Inside a game's thread a command means that game (README): while it is on, no second table
    # there; once it is over, the next one opens in the channel, with a thread of its own.
    parent = game_thread_parent(interaction)
    if parent is not None:
        running = service.tables_in(channel_id_of(interaction))
        if running:
            link = table_link(running[0].as_committed())
            await answer_error(
                interaction,
                tr(locale, "This thread's game is still open: {link}. Start the next one once it is over.", link=link),
            )
            return
    channel_id = parent if parent is not None else channel_id_of(interaction)
    # Opened from a game's thread, the lobby goes to the channel and the answer says where: only
    # the player sees it, even if the save is slow and the answer deferred.
    async with Reply(interaction, Answer.PUBLIC if parent is None else Answer.EPHEMERAL) as reply:
        if parent is not None:  # the answer waits for the lobby's post with the bot's token: deferred at once
            await reply.defer()
        try:
            # A private channel has no server settings: the bot's defaults and the host's options.
            server = bot.server_settings.bot_defaults if place.private else await bot.server_settings.fetch(guild_id)
        except Exception:  # logged and counted by the book
            # The bot's defaults instead could open what this server's own rules forbid (threads, a
            # turn-based pace): nothing is opened, and the host can simply try again.
            await reply.error(
                tr(
                    locale,
                    "This server's settings cannot be read right now, so no table was "
                    "opened. Please try again in a moment.",
                )
            )
            return
        # Where only players' clicks can show the game, it is played live (why_not_carried).
        chosen = pace.value if pace is not None else "live" if place.carried else server.pace
        if chosen != "live" and not server.turn_based:
            await reply.error(tr(locale, "Turn-based games are turned off on this server: start a live one."))
            return
        if chosen != "live" and timer is not None:
            await reply.error(
                tr(locale, "The timer is for live games: a turn-based game gives every move the hours of its pace.")
            )
            return
        try:
            # The server's level and pace are stored as text: validated here, with the host's choices.
            options = TableOptions.model_validate(
                dict(
                    variant=Variant(variant),
                    target=target
                    if target is not None
                    else (None if rounds is not None else variant_spec(variant).target),
                    rounds=rounds,
                    turn_seconds=timer or server.turn_seconds,
                    choice_seconds=settings.choice_seconds,
                    special_seconds=settings.special_seconds,
                    ai_seats=ai_players,
                    ai_level=ai_level or server.ai_level,
                    helpers=helpers,
                    pace=chosen,
                )
            )
        except ValidationError as exc:
            await reply.error(tr(locale, "That table cannot be set up — {problem}.", problem=first_error(exc, locale)))
            return
        if place.carried:  # the bot cannot start a thread where it is not a member
            why = None
            threaded = False
        elif parent is not None:  # as a Rematch: a thread is tried on the lobby, the channel played in otherwise
            why = None
            threaded = server.threads
        else:
            why = why_not_in_thread(interaction, locale) if server.threads else None
            threaded = server.threads and why is None
        try:
            # The lobby is shown (and its thread started) by the presenter, as this command's answer
            # where it can be; the host alone learns why the game runs in the channel.
            async with lobby_answer(reply, channel_id, why):
                await service.open_lobby(
                    guild_id,
                    channel_id,
                    interaction.user.id,
                    interaction.user.display_name,
                    options,
                    threaded=threaded,
                    carried=place.carried,
                    private=place.private,
                    language=public_language(interaction, place),
                )
        except TableExists as exc:
            link = message_link(place.server_id, exc.channel_id, exc.message_id)
            await reply.error(
                tr(locale, "This channel already has a 6 nimmt! table: {link}", link=link) + (" " + why if why else "")
            )
            return


@app_commands.command(name="join", description="Sit down at this channel's table")
@table_option(lobby_choices)
async def join_command(interaction: discord.Interaction, table_id: int | None = None) -> None:
    table = table_for(interaction, table_id, joinable)
    async with Reply(interaction, Answer.EPHEMERAL) as reply:
        await service_of(interaction).join(table.id, interaction.user.id, interaction.user.display_name)
        await reply.send(tr(user_locale(interaction), "You joined the table."))


@app_commands.command(name="leave", description="Leave this channel's table (an AI takes over a running game)")
@table_option()
async def leave_command(interaction: discord.Interaction, table_id: int | None = None) -> None:
    table = table_for(interaction, table_id, seated)
    async with Reply(interaction, Answer.EPHEMERAL) as reply:
        service = service_of(interaction)
        await service.seen(table.id)  # a game that waited for a player to be back goes on first
        await service.leave(table.id, interaction.user.id)
        await reply.send(tr(user_locale(interaction), "You left the table."))


@app_commands.command(name="begin", description="Start the game (host only)")
@table_option()
async def begin_command(interaction: discord.Interaction, table_id: int | None = None) -> None:
    table = table_for(interaction, table_id, hosted)
    async with Reply(interaction, Answer.EPHEMERAL) as reply:
        await service_of(interaction).begin(table.id, interaction.user.id)
        await reply.send(tr(user_locale(interaction), "The game is on!"))


@app_commands.command(name="cancel", description="Close this channel's table (host or Manage Messages)")
@table_option()
async def cancel_command(interaction: discord.Interaction, table_id: int | None = None) -> None:
    table = table_for(interaction, table_id, hosted)
    can_manage = bool(interaction.permissions.manage_messages)
    async with Reply(interaction, Answer.EPHEMERAL) as reply:
        await service_of(interaction).cancel(table.id, interaction.user.id, can_manage)
        await reply.send(tr(user_locale(interaction), "The table is closed."))


@app_commands.command(name="kick", description="Remove a player (host only); an AI takes over their seat mid-game")
@app_commands.describe(member="The player to remove")
@table_option()
async def kick_command(interaction: discord.Interaction, member: discord.Member, table_id: int | None = None) -> None:
    table = table_for(interaction, table_id, hosted)
    async with Reply(interaction, Answer.EPHEMERAL) as reply:
        service = service_of(interaction)
        await service.seen(table.id)  # a game that waited for a player to be back goes on first
        await service.kick(table.id, interaction.user.id, member.id)
        await reply.send(tr(user_locale(interaction), "{name} was removed.", name=shown_name(member.display_name)))


@app_commands.command(name="hand", description="Show your hand (only you can see it)")
@table_option()
async def hand_command(interaction: discord.Interaction, table_id: int | None = None) -> None:
    table = table_for(interaction, table_id, seated)
    try:
        await send_hand(Reply(interaction, Answer.EPHEMERAL), service_of(interaction), table.id)
    except SeatTakenOver as exc:  # with its Take my seat back button
        await refuse(interaction, exc)


@app_commands.command(name="prompts", description="Anniversary: when to ask you about your special cards")
@app_commands.describe(when="always; when a special card saves you bullheads; only for big savings; or never")
@table_option()
@app_commands.choices(when=[app_commands.Choice(name=label, value=value) for value, (label, _) in PREFERENCES.items()])
async def prompts_command(
    interaction: discord.Interaction, when: app_commands.Choice[str], table_id: int | None = None
) -> None:
    table = table_for(interaction, table_id, seated)
    async with Reply(interaction, Answer.EPHEMERAL) as reply:
        service = service_of(interaction)
        await service.seen(table.id)  # a game that waited for a player to be back goes on first
        await service.set_prompts(table.id, interaction.user.id, when.value)
        await reply.send(tr(user_locale(interaction), PREFERENCES[when.value][1]))


def public_language(interaction: discord.Interaction, place: Place) -> str | None:
    """The language a table's public messages speak where no server setting reaches: the starter's in
    a private channel, the server's own in a server without the bot; None where the server's settings
    say it (``cogs.i18n.server_locale``)."""
    if not place.carried:
        return None
    return str(interaction.locale if place.private else interaction.guild_locale or interaction.locale)


def why_not_carried(interaction: discord.Interaction, locale, pace: app_commands.Choice[str] | None) -> str | None:
    """Why no table can open where the bot is not a member and only players' interactions show the
    game, or None: the server makes such apps answer privately (Use External Apps off), apps may not
    show embeds in the channel (``app_permissions``), or the host asked for a turn-based pace (a
    move may come hours after the last interaction that could show it)."""
    permissions = interaction.permissions
    if interaction.guild_id is not None and not permissions.use_external_apps:
        return tr(
            locale,
            "This server lets apps its members added answer only privately here, so nobody else could "
            "see the table: nothing was opened. A moderator can allow Use External Apps, or add the bot "
            "to the server.",
        )
    if not interaction.app_permissions.embed_links:
        return tr(
            locale, "Apps may not show embeds in this channel, so the table could not be shown: nothing was opened."
        )
    if pace is not None and pace.value != "live":
        return tr(
            locale,
            "Turn-based games need the bot in the server: here only players' clicks can show the game, "
            "so start a live one.",
        )
    return None


@app_commands.command(name="status", description="Show this channel's table again")
@table_option()
async def status_command(interaction: discord.Interaction, table_id: int | None = None) -> None:
    table = table_for(interaction, table_id, seated)
    if table.carried:  # this command carries the table (table_for)
        await carried_status(interaction, table.id)
        return
    # Decided on what was committed, which is what is shown: a game being started right now
    # is still a lobby there.
    snapshot = table.last_commit()
    shown = snapshot.table
    if shown.status is TableStatus.LOBBY or shown.game is None:
        await lobby_status(interaction, snapshot)
        return
    # The asker sees the table at once (rows as text and as the picture); everyone gets it
    # posted anew at the bottom of the channel, its buttons with it.
    locale = user_locale(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)  # the picture takes a moment
    embed = table_embed(shown, locale)
    files = []
    if shown.game.view(None).rows:  # none during a Pro draft
        try:
            image = await presenter_of(interaction).pictures.table(shown, [], locale)
        except Exception:  # the text says the same: answer without the picture
            log.exception("table %s: the status picture could not be drawn", table.id)
        else:
            files.append(discord.File(io.BytesIO(image), filename=IMAGE_NAME))
            embed.set_image(url=f"attachment://{IMAGE_NAME}")
    if shown.thread_id is not None and shown.thread_id != interaction.channel_id:
        said = tr(
            locale,
            "Here is the table; it is posted again at the bottom of its thread {thread}, with its buttons.",
            thread=f"<#{shown.thread_id}>",
        )
    else:
        said = tr(locale, "Here is the table; it is posted again at the bottom of the channel, with its buttons.")
    await interaction.followup.send(said, embed=embed, files=files, ephemeral=True)
    presenter_of(interaction).repost(snapshot)  # posts it anew at the bottom


async def carried_status(interaction: discord.Interaction, table_id: int) -> None:
    """``/6nimmt status`` where only players' interactions reach the channel: this one carries the
    table, posted anew below its answer (a game that waited for someone to be back goes on first)."""
    presenter = presenter_of(interaction)
    try:
        async with Reply(interaction, Answer.EPHEMERAL) as reply:
            await service_of(interaction).seen(table_id)
            await reply.send(
                tr(
                    user_locale(interaction),
                    "Here is the table; it is posted again at the bottom of the channel, with its buttons.",
                )
            )
    finally:
        command_answered(interaction)
    table = service_of(interaction).find(table_id)
    if table is not None:
        presenter.repost(table.last_commit())


async def lobby_status(interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
    """A lobby, to the asker; posted anew at the bottom of the channel where it is played in place (a
    game's thread starts on its lobby message, which therefore stays where it is)."""
    shown = snapshot.table
    locale = user_locale(interaction)
    embed = lobby_embed(shown, locale)
    if shown.thread_id is not None:
        said = tr(locale, "The game will be played in its thread: {thread}", thread=f"<#{shown.thread_id}>")
    elif shown.message_id is not None and not shown.threaded:
        said = tr(locale, "Here is the table; it is posted again at the bottom of the channel, with its buttons.")
    else:  # its message is on its way (the presenter shows what was committed)
        said = None
    await interaction.response.send_message(said, embed=embed, ephemeral=True)
    if said is not None and shown.thread_id is None:
        presenter_of(interaction).repost(snapshot)


@app_commands.command(name="rules", description="A short summary of this table's rules")
@table_option()
async def rules_command(interaction: discord.Interaction, table_id: int | None = None) -> None:
    locale = user_locale(interaction)
    here = service_of(interaction).tables_in(channel_id_of(interaction))
    # The rules need no table: with none here (or several, and none chosen) the classic ones.
    chosen = table_for(interaction, table_id) if table_id is not None or len(here) == 1 else None
    shown = chosen.as_committed() if chosen is not None else None
    text = tr(locale, RULES[shown.options.variant if shown else Variant.CLASSIC])
    if shown is not None:  # and how this table plays: its goal and timers
        text += "\n" + tr(locale, "**This table:** {limits}", limits=limits_text(shown, locale))
    elif len(here) > 1:
        text += "\n" + error_text(locale, ChooseTable(len(here)))
    await interaction.response.send_message(text, ephemeral=True)


SUBCOMMANDS: tuple[app_commands.Command[Any, Any, Any], ...] = (
    start_command,
    join_command,
    leave_command,
    begin_command,
    cancel_command,
    kick_command,
    hand_command,
    prompts_command,
    status_command,
    rules_command,
    games_command,
)


class Tables(commands.Cog):
    """Shows the tables (its presenter listens to the service) and adds the table subcommands to /6nimmt."""

    def __init__(self, bot: SixNimmtBot) -> None:
        self.bot = bot
        self.service = bot.tables
        self.presenter = Presenter(bot, bot.tables, bot.settings.request_budget)
        if bot.metrics is not None:
            bot.metrics.presenter_queue = lambda: self.presenter.busy_tables
        bot.tables.add_listener(self.presenter)
        _presenters[bot] = self.presenter

    async def cog_load(self) -> None:
        add_subcommands(self.bot.tree, SUBCOMMANDS)

    async def cog_unload(self) -> None:
        remove_subcommands(self.bot.tree, SUBCOMMANDS)
        _presenters.pop(self.bot, None)
        await self.presenter.close()

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        """A command at a table only players' interactions reach has answered: it may carry the table's
        next messages now, and the presenter is told (a game that waited for a player to be back goes on:
        ``Presenter._step``)."""
        self._command_answered(interaction)

    @commands.Cog.listener()
    async def on_app_command_refused(self, interaction: discord.Interaction) -> None:
        """The same for a command that was refused (``cogs.errors``): whoever typed it is there."""
        self._command_answered(interaction)

    def _command_answered(self, interaction: discord.Interaction) -> None:
        table_id = command_answered(interaction)
        if table_id is not None:
            self.presenter.clicks.arrived(table_id)


async def setup(bot: SixNimmtBot) -> None:
    add_items(bot, PREFIX, N_("That button is not valid. Use the newest table message."), ITEMS)
    await bot.add_cog(Tables(bot))
    await bot.add_cog(Threads(bot.tables, bot))


async def teardown(bot: SixNimmtBot) -> None:
    remove_items(bot, PREFIX, ITEMS)
    await bot.remove_cog("Threads")  # defined in cogs.threads, so not removed with this extension
