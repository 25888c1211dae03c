"""``/6nimmt-admin``: tools for the bot's owner (OWNER_IDS, or the application's owner).

Hidden from everyone but server administrators by default, and refused to
anyone who is not an owner, since a sync is rate-limited across the whole bot.
"""

from __future__ import annotations


import discord
from discord import app_commands
from discord.ext import commands

from cogs.errors import answer_error
from cogs.i18n import N_, tr, user_locale
from bot.sync import sync_commands
from bot.app import SixNimmtBot


SYNC_SCOPES = [app_commands.Choice(name=N_("This server (at once)"), value="here"),
               app_commands.Choice(name=N_("Every server (within an hour)"), value="global")]


class Admin(commands.Cog):
    def __init__(self, bot: SixNimmtBot) -> None:
        self.bot = bot

    admin = app_commands.Group(name="6nimmt-admin", description=N_("Tools for the bot's owner"),
                               default_permissions=discord.Permissions(administrator=True))

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
        results = await sync_commands(self.bot, None if scope == "global" else [interaction.guild_id])
        (guild, count), = results
        text = (tr(locale, "Synced {count} commands to every server; Discord shows them within an hour.",
                   count=count) if guild is None
                else tr(locale, "Synced {count} commands to this server; they show at once.", count=count))
        await interaction.followup.send(text, ephemeral=True)


async def setup(bot: SixNimmtBot) -> None:
    await bot.add_cog(Admin(bot))
