"""German through the real bot: the server's language for public messages, the user's for private ones.

Also the owner-only ``/6nimmt-admin sync``: hidden by Discord from members who cannot manage
the server, refused to administrators who are not owners, and a sync for an owner.
"""

from __future__ import annotations

import re

import discord

from bot.app import SixNimmtBot
from bot.config import Settings
from tests.e2e.driver import ROW_BUTTON
from tests.standin import DiscordStandin, InteractionRejected
from tests.standin.fixtures import WINDOW_SCALE


async def test_public_messages_follow_the_server_and_private_ones_the_user(tmp_path):
    async with DiscordStandin() as standin:
        german_guild = standin.add_guild("Kuhstall", locale="de")
        german_channel = standin.add_text_channel(german_guild, "spiele")
        english_guild = standin.add_guild("Bullpen")
        english_channel = standin.add_text_channel(english_guild, "games")
        anna = standin.add_member(german_guild, "anna", locale="en-US")  # an English speaker on a German server
        jonas = standin.add_member(english_guild, "jonas", locale="de")  # a German speaker on an English server
        owner = standin.add_member(
            english_guild, "owner", locale="de", permissions=discord.Permissions(administrator=True)
        )
        admin = standin.add_member(english_guild, "admin", permissions=discord.Permissions(administrator=True))
        settings = Settings(
            discord_token=standin.token, database_path=tmp_path / "bot.sqlite3", owner_ids=[owner.id], threads=False
        )
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
            kept = await (
                await standin.click(jonas, forget, forget.button("Meine Daten behalten")["custom_id"])
            ).reply()
            assert standin.message(kept.id).content == "Es wurde nichts gelöscht."
            forget = await (await standin.slash(anna, german_channel, "6nimmt forget-me")).reply()
            assert forget.content.startswith("This deletes your 6 nimmt! stats")

            # /6nimmt-admin: Discord hides it from members without Manage Server ...
            try:
                await standin.slash(jonas, english_channel, "6nimmt-admin sync")
                raise AssertionError("a member without Manage Server could run /6nimmt-admin")
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


async def test_a_german_table_speaks_german_and_an_english_player_reads_english_in_private(tmp_path):
    """Lobby, hand, pick, reveal, refusals and an Anniversary prompt on a German server.

    alice hosts and carol looks on, both in German; bob plays in English. Public messages are
    German for everyone; what only bob sees stays English.
    """
    from engine import Phase, Special
    from tests.e2e.conftest import World
    from tests.e2e.test_anniversary import seat_position
    from tests.e2e.test_table_play import click_ok

    async with DiscordStandin() as standin:
        world = World(standin, tmp_path, locale="de", bob_locale="en-US")
        alice, bob, carol = world.alice, world.bob, world.carol
        async with world.running_bot():
            # A set-up that does not fit is refused in the host's German.
            refused = await (
                await standin.slash(alice, world.channel, "6nimmt start", variant="pro", ai_players=9)
            ).reply()
            assert refused.ephemeral_to.id == alice.id and refused.content == (
                "Dieser Tisch lässt sich so nicht eröffnen — diese Variante hat höchstens 6 Plätze, "
                "also höchstens 5 KI-Spieler neben dir."
            )
            refused = await (await standin.slash(alice, world.channel, "6nimmt history", game="abc")).reply()
            assert (
                refused.content == "`abc` ist keine Partienummer: verwende die Nummer aus `/6nimmt verlauf`, "
                "z. B. `partie:12`."
            )
            # The lobby, in the server's German.
            lobby = await (await standin.slash(alice, world.channel, "6nimmt start", variant="anniversary")).reply()
            assert not lobby.ephemeral and lobby.embed["title"] == "6 nimmt! — Tisch offen"
            assert "Jubiläum 25 Jahre (Sonderkarten)" in lobby.embed["description"]
            assert "s pro Zug" in lobby.embed["description"]
            assert lobby.embed["fields"][0]["name"] == "Spieler (1/8)"
            assert {b["label"] for b in lobby.buttons} == {
                "Beitreten",
                "Verlassen",
                "KI hinzufügen",
                "Beginnen",
                "Abbrechen",
            }
            await click_ok(world, bob, lobby, lobby.button("Beitreten")["custom_id"])
            # Refusals speak the language of whoever clicked.
            refused = await (await standin.click(carol, lobby, lobby.button("Beginnen")["custom_id"])).reply()
            assert refused.ephemeral_to.id == carol.id
            assert refused.content == "Du sitzt nicht an diesem Tisch: drücke **Beitreten**, um Platz zu nehmen."
            refused = await (await standin.click(bob, lobby, lobby.button("Beginnen")["custom_id"])).reply()
            assert refused.content == "Only the host can start the game."
            await click_ok(world, alice, lobby, lobby.button("Beginnen")["custom_id"])
            await world.settle()

            table = world.bot.service.table_in(world.channel.id)
            message = world.table_message()
            assert message.embed["title"] == "6 nimmt! — Runde 1, Zug 1"
            assert "Reihe 1 ·" in message.embed["description"]
            assert [f["name"] for f in message.embed["fields"]][:3] == ["Spieler (Hornochsen)", "Sonderkarten", "Jetzt"]
            assert "drücke **Karte spielen**" in str(message.embed)

            # A Stop for alice before anyone plays (as in tests/e2e/test_anniversary.py).
            await seat_position(
                world, table, alice, bob, [[5, 9, 12, 16, 20], [7, 18], [40], [60]], [22, 1], [90, 91], [Special.STOP]
            )
            play = world.table_message().button("Karte spielen")["custom_id"]
            hand = await (await standin.click(alice, world.table_message(), play)).reply()
            assert hand.ephemeral_to.id == alice.id
            assert hand.content.startswith("**Deine Hand** — wähle eine Karte")
            assert "⛔ **Stopp** — sperre eine Reihe" in hand.content
            assert hand.button("Immer fragen") and hand.button("Nie fragen")
            # A Stop saving 8🐮 is no big saving: alice asks to be asked always, in German.
            always = await (await standin.click(alice, hand, hand.button("Immer fragen")["custom_id"])).reply()
            assert always.content.startswith("Ich frage dich jedes Mal, wenn eine Sonderkarte am Tisch etwas")
            await click_ok(world, alice, hand, hand.button("22 · 5🐮")["custom_id"])
            assert standin.message(hand.id).content.startswith("Du spielst verdeckt die **22**")

            english_hand = await (await standin.click(bob, world.table_message(), play)).reply()
            assert english_hand.content.startswith("**Your hand** — pick a card")
            assert "You hold no special cards." in english_hand.content
            assert english_hand.button("Always ask me") and english_hand.button("Never ask me")
            await click_ok(world, bob, english_hand, english_hand.button("90 · 3🐮")["custom_id"])
            assert standin.message(english_hand.id).content == (
                "You played **90**. Everyone has picked: see the reveal in the channel."
            )
            await world.settle()

            # The reveal and the nudge, in German.
            assert table.game.phase is Phase.SPECIAL
            reveal = world.public()[-1]
            assert reveal.content.startswith("🃏 Aufgedeckt: **22** alice, **90** bob")
            assert (
                f"✨ <@{alice.id}>: deine **22** wird als Nächstes angelegt — drücke **Entscheiden**" in reveal.content
            )
            decide = reveal.button("Entscheiden")["custom_id"]
            # An intruder's click and the wrong player's click are refused, each in their language.
            refused = await (await standin.click(carol, reveal, decide)).reply()
            assert (
                refused.content.startswith("Du sitzt nicht an diesem Tisch.")
                and "`/6nimmt eröffnen`" in refused.content
            )
            refused = await (await standin.click(bob, reveal, decide)).reply()
            assert refused.content == "This decision is not yours: the game is waiting for **alice**."

            # The Anniversary prompt, in alice's German.
            prompt = await (await standin.click(alice, reveal, decide)).reply()
            assert prompt.ephemeral_to.id == alice.id
            assert prompt.content.startswith(
                "Ohne Sonderkarte kommt deine **22** in Reihe 1 und du nimmst die Reihe: **8**🐮."
            )
            assert "drücke **Keine Sonderkarte**" in prompt.content
            assert prompt.button("Keine Sonderkarte → Reihe 1 nehmen — 🐮 8")
            choices = await (await standin.click(alice, prompt, prompt.button("Stopp…")["custom_id"])).reply()
            assert standin.message(prompt.id).content.startswith("**Stopp**: sperre eine Reihe")
            stop = standin.message(prompt.id).button("Stopp auf Reihe 1 → 22 in Reihe 2 — nichts nehmen")
            await click_ok(world, alice, choices, stop["custom_id"])
            assert standin.message(prompt.id).content == "Du hast **Stopp** gespielt. Was passiert, steht im Kanal."
            await world.settle()
            assert "✨ alice spielt **Stopp** auf Reihe 1, dann kommt 22 in Reihe 2." in world.public()[-1].content
            assert "[Stopp]" in world.table_message().embed["description"]

            # bob leaves: his confirmation in English, the channel's news in German.
            left = await (await standin.slash(bob, world.channel, "6nimmt leave")).reply()
            assert left.content == "You left the table."
            await world.settle()
            news = {f["name"]: f["value"] for f in world.table_message().embed["fields"]}["Neuigkeiten"]
            assert news == "**bob** hat den Tisch verlassen. Eine KI spielt ab jetzt auf diesem Platz."
        standin.assert_no_errors()


async def test_a_german_game_ends_with_german_round_and_game_summaries(tmp_path):
    from tests.e2e.conftest import World

    # a whole game: held to Discord's rate limits (windows shortened: tests/standin/fixtures.py)
    async with DiscordStandin(rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        world = World(standin, tmp_path, locale="de")
        async with world.running_bot():
            lobby = await (
                await standin.slash(world.alice, world.channel, "6nimmt start", rounds=1, ai_players=1)
            ).reply()
            assert "1 Runde" in lobby.embed["description"] and "🤖 Ada · mittel" in str(lobby.embed)
            interaction = await standin.click(world.alice, lobby, lobby.button("Beginnen")["custom_id"])
            await interaction.ack()

            async def in_german(table):
                """The table's buttons as the server reads them: "Karte spielen", or "Reihe …"."""
                rows = [cid for cid in table.custom_ids if cid.startswith(ROW_BUTTON)]
                if rows:
                    assert table.button(custom_id=rows[0])["label"].startswith("Reihe ")
                else:
                    table.button("Karte spielen")  # exactly one button so labelled, or LookupError

            await world.play([world.alice], before=in_german, moves=40)  # ten turns, each maybe with a row choice
            await world.settle()
            assert world.table_message() is None, "the game did not end"
            final = world.public()[-1]
            assert "📋 **Runde 1 ist vorbei.**" in final.content
            assert re.search(r"🏆 \*\*Partie vorbei!\*\* .+ (gewinnt|gewinnen) mit \d+🐮\.", final.content)
            assert final.button("Revanche")
        standin.assert_no_errors()
