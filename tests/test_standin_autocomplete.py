"""The stand-in's autocomplete: what Discord sends while an option is typed, and the limits it puts
on the bot's answer (25 choices, names of 1 to 100 characters)."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.standin import DiscordStandin, InteractionRejected, StandinTimeout

seen: list[tuple[str, object, dict]] = []


async def numbers(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    seen.append((interaction.command.qualified_name, current, dict(vars(interaction.namespace))))
    count = 30 if current == "too many" else 3
    name = "x" * 101 if current == "too long" else "game {n}"
    return [app_commands.Choice(name=name.format(n=n), value=n) for n in range(1, count + 1)]


class Picker(commands.Cog):
    group = app_commands.Group(name="pick", description="Pick things")

    @group.command(name="game", description="Pick a game")
    @app_commands.autocomplete(number=numbers)
    async def game(
        self, interaction: discord.Interaction, who: discord.Member, number: int, note: str | None = None
    ) -> None:
        await interaction.response.send_message(f"{who.display_name} {number}")


class PickerBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

    async def setup_hook(self) -> None:
        await self.add_cog(Picker())
        await self.tree.sync()


async def test_autocomplete_sends_the_typed_text_and_checks_the_answer() -> None:
    seen.clear()
    async with DiscordStandin() as standin:
        guild = standin.add_guild("Club")
        channel = standin.add_text_channel(guild, "games")
        alice = standin.add_member(guild, "alice", display_name="Alice")
        async with standin.running(PickerBot()):
            await standin.wait_for_commands("pick")
            # Required options may still be missing while one is typed; the focused one is text.
            choices = await standin.autocomplete(alice, channel, "pick game", option="number", value="1")
            assert choices == [{"name": f"game {n}", "value": n} for n in (1, 2, 3)]
            assert seen[-1][:2] == ("pick game", "1")
            # Options filled in already come along, resolved as in a command.
            await standin.autocomplete(alice, channel, "pick game", option="number", who=alice, note="hi")
            assert seen[-1][2]["note"] == "hi" and seen[-1][2]["who"].id == alice.id
            # Only an option declared with autocomplete is asked about, and only about text.
            for option, value in (("note", ""), ("number", 5)):
                with pytest.raises(InteractionRejected):
                    await standin.autocomplete(alice, channel, "pick game", option=option, value=value)
            # Discord refuses more than 25 choices or a name over 100 characters. The refused answer
            # is none: the user's deadline passes unanswered (shortened here from Discord's 3 s).
            standin.ack_deadline = 1.0
            for typed in ("too many", "too long"):
                with pytest.raises(StandinTimeout):
                    await standin.autocomplete(alice, channel, "pick game", option="number", value=typed)
            assert [e.status for e in standin.errors] == [400, 400]
