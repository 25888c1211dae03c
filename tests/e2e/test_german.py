"""German through the real bot: the server's language for public messages, the user's for private ones.

Also the owner-only ``/6nimmt-admin sync``: hidden from non-administrators by Discord,
refused to administrators who are not owners, and a sync for an owner.
"""

from __future__ import annotations

import discord

from bot.app import SixNimmtBot
from bot.config import Settings
from tests.standin import DiscordStandin, InteractionRejected


async def test_public_messages_follow_the_server_and_private_ones_the_user(tmp_path):
    async with DiscordStandin() as standin:
        german_guild = standin.add_guild("Kuhstall", locale="de")
        german_channel = standin.add_text_channel(german_guild, "spiele")
        english_guild = standin.add_guild("Bullpen")
        english_channel = standin.add_text_channel(english_guild, "games")
        anna = standin.add_member(german_guild, "anna", locale="en-US")  # an English speaker on a German server
        jonas = standin.add_member(english_guild, "jonas", locale="de")  # a German speaker on an English server
        owner = standin.add_member(english_guild, "owner", locale="de",
                                   permissions=discord.Permissions(administrator=True))
        admin = standin.add_member(english_guild, "admin", permissions=discord.Permissions(administrator=True))
        settings = Settings(discord_token=standin.token, database_path=tmp_path / "bot.sqlite3",
                            owner_ids=[owner.id])
        async with standin.running(SixNimmtBot(settings)) as bot:
            await bot.tree.sync()
            commands = await standin.wait_for_commands("6nimmt", "leaderboard", "6nimmt-admin")
            assert commands[0].data["options"][0]["name_localizations"]["de"] == "eröffnen"

            # Public: the server's language, whoever asks.
            board = await (await standin.slash(anna, german_channel, "leaderboard")).reply()
            assert not board.ephemeral and board.embed["title"] == "6-nimmt!-Rangliste — Wertungszahl"
            assert "Eröffne eine Partie mit `/6nimmt eröffnen`!" in board.embed["description"]
            board = await (await standin.slash(jonas, english_channel, "leaderboard")).reply()
            assert board.embed["title"] == "6 nimmt! leaderboard — rating"
            stats = await (await standin.slash(jonas, english_channel, "6nimmt stats")).reply()
            assert stats.embed["description"] == "No finished games in this server yet."

            # Private: the user's language, wherever they are.
            forget = await (await standin.slash(jonas, english_channel, "6nimmt forget-me")).reply()
            assert forget.ephemeral and forget.content.startswith("Damit werden deine 6-nimmt!-Statistik")
            assert forget.button("Meine Daten löschen") and forget.button("Meine Daten behalten")
            kept = await (await standin.click(jonas, forget, forget.button("Meine Daten behalten")["custom_id"])
                          ).reply()
            assert standin.message(kept.id).content == "Es wurde nichts gelöscht."
            forget = await (await standin.slash(anna, german_channel, "6nimmt forget-me")).reply()
            assert forget.content.startswith("This deletes your 6 nimmt! stats")

            # /6nimmt-admin: Discord hides it from members without Administrator ...
            try:
                await standin.slash(jonas, english_channel, "6nimmt-admin sync")
                raise AssertionError("a member without Administrator could run /6nimmt-admin")
            except InteractionRejected:
                pass
            # ... the bot refuses an administrator who is not an owner ...
            refused = await (await standin.slash(admin, english_channel, "6nimmt-admin sync")).reply()
            assert refused.ephemeral and refused.content == "Only the bot's owner can sync its commands."
            assert standin.commands(english_guild) == {}
            # ... and an owner syncs this server at once (answered in the owner's German).
            synced = await (await standin.slash(owner, english_channel, "6nimmt-admin sync")).reply(timeout=10)
            assert synced.content == "3 Befehle an diesen Server gesendet; sie erscheinen sofort."
            assert set(standin.commands(english_guild)) == {"6nimmt", "leaderboard", "6nimmt-admin"}
        standin.assert_no_errors()
