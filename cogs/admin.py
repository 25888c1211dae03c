"""``/6nimmt-admin``: a server's settings (Manage Server) and the bot owner's tools.

``settings`` shows and sets the server's defaults for its new games; ``sync`` is
for the bot's owner (OWNER_IDS, or the application's owner) alone, since a sync
is rate-limited across the whole bot.

The group's ``default_permissions`` is Manage Server: Discord applies a group's
default to every subcommand, and with Administrator a member who may manage the
server (and so its settings) would not see the command at all. It is only what
Discord shows by default (a server can change it), so each callback checks for
itself: ``settings`` the member's Manage Server permission, ``sync`` the owner.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SixNimmtBot
from bot.server_settings import FIELDS, InvalidSettings
from bot.sync import sync_commands
from cogs.errors import answer_error
from cogs.group import SERVER_CONTEXTS, SERVER_INSTALLS
from cogs.i18n import ENGLISH, N_, language_name, languages, store_down_text, tr, trn, user_locale
from cogs.render.settings import settings_overview
from cogs.reply import Answer, Reply
from data.errors import StoreUnavailable

SYNC_SCOPES = [
    app_commands.Choice(name=N_("This server (at once)"), value="here"),
    app_commands.Choice(name=N_("Every server (within an hour)"), value="global"),
]
PACE_CHOICES = [
    app_commands.Choice(name=N_("Live"), value="live"),
    app_commands.Choice(name=N_("Turn-based: 1 hour a turn"), value="1h"),
    app_commands.Choice(name=N_("Turn-based: 8 hours a turn"), value="8h"),
    app_commands.Choice(name=N_("Turn-based: 24 hours a turn"), value="24h"),
]
#: The server's public language: English and every language with a catalog, each in its own words, or
#: back to the server's Discord language (its Community "primary language"). More than Discord's 25
#: fixed choices, so the option completes what the member types (``language_choices``).
SERVER_LANGUAGE = "server"
SERVER_LANGUAGE_NAME = N_("The server's Discord language")
MAX_CHOICES = 25


def language_options(locale: discord.Locale) -> list[app_commands.Choice[str]]:
    """Every value of the ``language`` option, the server's own language first, in the member's words."""
    return [app_commands.Choice(name=tr(locale, SERVER_LANGUAGE_NAME), value=SERVER_LANGUAGE)] + [
        app_commands.Choice(name=language_name(code), value=code) for code in (ENGLISH, *languages())
    ]


def chosen_language(locale: discord.Locale, typed: str) -> str | None:
    """The option's value for what a member sent: a suggestion's value, or a language's name or code
    typed without picking a suggestion ("deutsch", "pt-br"); None if it names none."""
    wanted = typed.strip().casefold().replace("-", "_")
    for option in language_options(locale):
        if wanted in (option.value.casefold(), option.name.casefold()):
            return option.value
    return None


async def language_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The suggestions for what the member has typed so far: by a language's own name or its code."""
    typed = current.strip().casefold()
    found = [
        option
        for option in language_options(user_locale(interaction))
        if typed in option.name.casefold() or option.value.casefold().startswith(typed.replace("-", "_"))
    ]
    return found[:MAX_CHOICES]


AI_LEVEL_CHOICES = [
    app_commands.Choice(name=N_("easy"), value="easy"),
    app_commands.Choice(name=N_("medium"), value="medium"),
    app_commands.Choice(name=N_("hard"), value="hard"),
]


class Admin(commands.Cog):
    def __init__(self, bot: SixNimmtBot) -> None:
        self.bot = bot

    admin = app_commands.Group(
        name="6nimmt-admin",
        description=N_("Server settings and the bot owner's tools"),
        default_permissions=discord.Permissions(manage_guild=True),
        allowed_installs=SERVER_INSTALLS,
        allowed_contexts=SERVER_CONTEXTS,
    )

    @admin.command(name="settings", description=N_("Show or change this server's defaults for new games"))
    @app_commands.describe(
        threads=N_("Play each game in a thread of its own"),
        pace=N_("How a new game is played: live, or turn-based with this long a turn"),
        timer=N_("Seconds a turn of a live game, 15-600"),
        ai_level=N_("How strong the AI players are"),
        turn_based=N_("Whether turn-based games are allowed"),
        language=N_("The language of public messages: tables, news, leaderboards (default: the server's)"),
        reset=N_("Back to the bot's defaults (before any other option here)"),
    )
    @app_commands.choices(pace=PACE_CHOICES, ai_level=AI_LEVEL_CHOICES)
    @app_commands.autocomplete(language=language_choices)
    async def settings(
        self,
        interaction: discord.Interaction,
        threads: bool | None = None,
        pace: str | None = None,
        timer: app_commands.Range[int, 15, 600] | None = None,
        ai_level: str | None = None,
        turn_based: bool | None = None,
        language: str | None = None,
        reset: bool = False,
    ) -> None:
        locale = user_locale(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await answer_error(interaction, tr(locale, "Settings belong to a server: use this command in one."))
            return
        if not interaction.permissions.manage_guild:
            await answer_error(
                interaction,
                tr(locale, "Only members with the Manage Server permission can see or change this server's settings."),
            )
            return
        changes: dict[str, object] = {}
        if reset:
            changes = dict.fromkeys(FIELDS)  # every field back to the bot's default
        given = {
            "threads": threads,
            "pace": pace,
            "turn_seconds": timer,
            "ai_level": ai_level,
            "turn_based": turn_based,
        }
        changes.update({name: value for name, value in given.items() if value is not None})
        if language is not None:
            value = chosen_language(locale, language)
            if value is None:
                names = ", ".join(option.name for option in language_options(locale))
                await answer_error(interaction, tr(locale, "Choose one of: {choices}.", choices=names))
                return
            changes["language"] = None if value == SERVER_LANGUAGE else value
        book = self.bot.server_settings
        async with Reply(interaction, Answer.EPHEMERAL) as reply:
            try:
                if changes:
                    current = await book.update(guild_id, **changes)
                else:
                    current = await book.fetch(guild_id)
            except StoreUnavailable:
                await reply.send(store_down_text(locale, False))
                return
            except InvalidSettings as exc:
                if exc.problem == "pace_needs_turn_based":
                    text = tr(
                        locale,
                        "A turn-based pace needs turn-based games allowed: allow them, or choose "
                        "the live pace. Nothing was changed.",
                    )
                else:
                    text = tr(locale, "Those settings do not work together; nothing was changed.")
                await reply.send(text)
                return
            title = (
                tr(locale, "Saved. This server's settings for new games:")
                if changes
                else tr(locale, "This server's settings for new games:")
            )
            overview = settings_overview(locale, current, book.bot_defaults, interaction.guild_locale)
            await reply.send(f"{title}\n{overview}")

    @admin.command(name="sync", description=N_("Send the slash commands to Discord (bot owner only)"))
    @app_commands.describe(scope=N_("Where the commands should show"))
    @app_commands.choices(scope=SYNC_SCOPES)
    async def sync(self, interaction: discord.Interaction, scope: str = "here") -> None:
        locale = user_locale(interaction)
        if not await self.bot.is_owner(interaction.user):
            await answer_error(interaction, tr(locale, "Only the bot's owner can sync its commands."))
            return
        if scope == "here" and interaction.guild_id is None:
            await answer_error(interaction, tr(locale, "There is no server here: choose every server."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # a sync can take longer than 3 s
        guild_ids = None if scope == "global" or interaction.guild_id is None else [interaction.guild_id]
        results = await sync_commands(self.bot, guild_ids)
        ((guild, count),) = results
        text = (
            trn(
                locale,
                "Synced {count} command to every server; Discord shows it within an hour.",
                "Synced {count} commands to every server; Discord shows them within an hour.",
                count,
                count=count,
            )
            if guild is None
            else trn(
                locale,
                "Synced {count} command to this server; it shows at once.",
                "Synced {count} commands to this server; they show at once.",
                count,
                count=count,
            )
        )
        await interaction.followup.send(text, ephemeral=True)


async def setup(bot: SixNimmtBot) -> None:
    await bot.add_cog(Admin(bot))
