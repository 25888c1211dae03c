"""The stand-in refuses a command sync as Discord's documentation says it does (Application Commands):
names and their localizations, descriptions, choices, locales and option counts."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.standin import DiscordStandin
from tests.standin.commands import command_problems, command_size


class Translated(app_commands.Translator):
    """Gives every string the same French text (the test's bad or good localization)."""

    def __init__(self, name: str, description: str = "Une description") -> None:
        self.name, self.description = name, description

    async def translate(self, string, locale, context):
        if locale is not discord.Locale.french:
            return None
        names = {
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.parameter_name,
        }
        return self.name if context.location in names else self.description


async def sync_with(standin: DiscordStandin, translator: Translated) -> list[app_commands.AppCommand]:
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(name="start", description="Open a table")
    @app_commands.describe(rounds="How many rounds")
    async def start(interaction: discord.Interaction, rounds: int) -> None: ...

    await tree.set_translator(translator)
    async with standin.running(client):
        return await tree.sync()


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("Ouvrir", "Ouvrir une table"),  # not lowercase
        ("ouvrir une table", "Ouvrir une table"),  # a space
        ("o" * 33, "Ouvrir une table"),  # over 32 characters
        ("ouvrir", "x" * 101),  # a description over 100
    ],
)
async def test_a_localization_outside_discords_rules_fails_the_sync(name, description):
    async with DiscordStandin() as standin:
        with pytest.raises(discord.HTTPException) as refused:
            await sync_with(standin, Translated(name, description))
        assert refused.value.status == 400 and refused.value.code == 50035
        assert standin.commands() == {}


async def test_a_localization_within_the_rules_is_kept():
    async with DiscordStandin() as standin:
        synced = await sync_with(standin, Translated("ouvrir", "Ouvrir une table"))
        assert synced[0].name_localizations[discord.Locale.french] == "ouvrir"
        assert standin.commands()["start"]["name_localizations"] == {"fr": "ouvrir"}


def test_what_discord_refuses_in_a_payload():
    good = {
        "name": "start",
        "description": "Open a table",
        "name_localizations": {"ja": "開始", "hi": "शुरू"},  # letters of any script
        "options": [
            {
                "type": 3,
                "name": "variant",
                "description": "Which rules",
                "name_localizations": {"fr": "variante"},
                "choices": [{"name": "classic", "value": "c", "name_localizations": {"fr": "Classique (104 cartes)"}}],
            }
        ],
    }
    assert command_problems(good) == []
    assert command_problems(good | {"name_localizations": {"xx": "start"}}) == [
        ("name_localizations.xx", "INVALID_LOCALE")
    ]
    twice = dict(good["options"][0], name="rounds")  # a second option named "variante" in French
    assert command_problems(good | {"options": [good["options"][0], twice]}) == [
        ("options.1.name", "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS")
    ]
    long_choice = {"name": "c", "value": "c", "name_localizations": {"fr": "x" * 101}}
    option = dict(good["options"][0], choices=[long_choice])
    assert command_problems(good | {"options": [option]}) == [
        ("options.0.choices.0.name_localizations.fr", "BASE_TYPE_BAD_LENGTH")
    ]
    assert command_problems(good | {"options": [option] * 26})[0] == ("options", "BASE_TYPE_MAX_LENGTH")


def test_a_command_over_4000_characters_counts_its_longest_localizations():
    option = {"type": 3, "name": "o", "description": "d" * 10, "description_localizations": {"fr": "f" * 100}}
    sized = {"name": "start", "description": "Open a table", "options": [dict(option, name=f"o{i}") for i in range(25)]}
    assert command_size(sized) == len("start") + len("Open a table") + 10 * 2 + 15 * 3 + 25 * 100  # o0 … o24
    assert command_problems(sized) == []
    choices = [{"name": "c" * 100, "value": "v" * 100}] * 10
    too_large = dict(sized, options=[*sized["options"][:24], dict(option, name="big", choices=choices)])
    assert ("_size", "APPLICATION_COMMAND_TOO_LARGE") in command_problems(too_large)
