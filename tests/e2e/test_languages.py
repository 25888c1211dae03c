"""Every language played through the real bot, on a server set to it with players who read it.

For each catalog: an administrator sets the server's public language with
``/6nimmt-admin settings`` (the server's own Discord language stays English, as on every server
without the Community features), then everyone reads that language: a refusal, a lobby, a hand,
an Anniversary prompt (Stop), a row choice, ``/6nimmt rules`` and ``status``, a whole game to
its standings, ``/leaderboard``, ``/6nimmt stats`` and ``history``. Every version of every
message any of them was shown is then read: no text of the catalog left in English, no raw
``{placeholder}``, and no lookup the catalog could not answer.
"""

from __future__ import annotations

import logging
import re

import discord
import pytest

from cogs.i18n import fields_of, languages, tr
from cogs.render.specials import label
from engine import Game, Special
from tests.e2e.conftest import World
from tests.e2e.test_anniversary import seat_position
from tests.ops.test_i18n import catalog_of, discord_locales, extracted
from tests.standin import DiscordStandin
from tests.standin.fixtures import WINDOW_SCALE

#: How many words in a row make an English phrase that would be noticed.
WORDS = 4
#: Placeholders that reached a reader unfilled.
RAW_FIELD = re.compile(r"\{[a-z_]+\}")


def english_phrases(language: str) -> set[str]:
    """The English phrases of the catalog's texts that a reader of ``language`` must never see: every
    run of four words of a template (between its fields) that the translation does not itself keep
    (a brand name like "6 nimmt!" may stay)."""
    catalog = catalog_of(language)
    phrases = set()
    for message in extracted():
        if not message.id or message.context:  # command names: Discord shows them, not the bot
            continue
        forms = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        entry = catalog.get(message.id)
        translated = " ".join([entry.string] if isinstance(entry.string, str) else entry.string)
        for form in forms:
            for run in re.split(r"\{[a-z_]+\}", form):
                words = run.split()
                for start in range(len(words) - WORDS + 1):
                    phrase = " ".join(words[start : start + WORDS])
                    if re.search(r"[a-z]{3}", phrase) and phrase not in translated:
                        phrases.add(phrase)
    return phrases


def texts_of(message) -> list[str]:
    """Every text of every version of a message: content, embeds, and the components' words."""
    versions = [*message.history, message]
    texts = []
    for version in versions:
        texts.append(version.content or "")
        for embed in version.embeds:
            texts += [embed.get("title") or "", embed.get("description") or ""]
            texts += [(embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
            for field in embed.get("fields") or []:
                texts += [field.get("name") or "", field.get("value") or ""]
        for row in version.components:
            for component in row.get("components", []):
                texts += [component.get("label") or "", component.get("placeholder") or ""]
                for option in component.get("options") or []:
                    texts += [option.get("label") or "", option.get("description") or ""]
    return [text for text in texts if text]


def custom_id(message, prefix: str, contains: str = "") -> str:
    found = [cid for cid in message.custom_ids if cid.startswith(prefix) and contains in cid]
    assert found, f"no {prefix}…{contains} button on {message.content[:80]!r} ({message.custom_ids})"
    return found[0]


async def click(world, user, message, cid):
    interaction = await world.standin.click(user, message, cid)
    await interaction.ack()
    return interaction


async def seat(world, table, alice, bob, rows, alice_hand, bob_hand):
    """A classic position for the table's own config (one round): the game ends after these hands."""
    hands = [None, None]
    hands[table.seat_of(alice.id)], hands[table.seat_of(bob.id)] = alice_hand, bob_hand
    async with world.bot.service.tx.acting(table):
        table.game = Game.from_position(table.game.config, rows=rows, hands=hands)
        await world.bot.service.tx.commit(table)


@pytest.fixture
def english(language) -> set[str]:
    """``english_phrases(language)``, worked out before the test's event loop runs (the extraction
    reads the command tree, which runs a loop of its own)."""
    return english_phrases(language)


@pytest.mark.slow
@pytest.mark.parametrize("language", languages())
async def test_a_server_plays_a_whole_evening_in_its_language(language, english, tmp_path, caplog):
    reader = discord_locales(language)[0].value  # the players' Discord language (es: es-ES ...)
    caplog.set_level(logging.WARNING, logger="cogs.i18n")
    # a whole evening: held to Discord's rate limits (windows shortened: tests/standin/fixtures.py)
    async with DiscordStandin(rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        world = World(standin, tmp_path, locale=reader)
        guild, alice, bob, carol = world.guild, world.alice, world.bob, world.carol
        guild.preferred_locale = "en-US"  # no Community features: Discord says en-US, the server chooses its own
        dora = standin.add_member(guild, "dora", locale=reader, permissions=discord.Permissions(manage_guild=True))
        second = standin.add_text_channel(guild, "more-games")
        async with world.running_bot():
            # The server's language, chosen by its administrator.
            chosen = await (
                await standin.slash(dora, world.channel, "6nimmt-admin settings", language=language)
            ).reply()
            assert chosen.ephemeral_to.id == dora.id

            # A refusal.
            refused = await (await standin.slash(alice, world.channel, "6nimmt history", game="abc")).reply()
            assert refused.ephemeral_to.id == alice.id and "`abc`" in refused.content

            # A lobby; bob joins; carol, not seated, is refused; alice starts.
            lobby = await (await standin.slash(alice, world.channel, "6nimmt start", variant="anniversary")).reply()
            assert not lobby.ephemeral
            await click(world, bob, lobby, custom_id(lobby, "6n:l:join:"))
            intruder = await (await standin.click(carol, lobby, custom_id(lobby, "6n:l:start:"))).reply()
            assert intruder.ephemeral_to.id == carol.id
            await click(world, alice, lobby, custom_id(lobby, "6n:l:start:"))
            await world.settle()
            for user in (alice, bob):
                await (await standin.slash(user, world.channel, "6nimmt prompts", when="always")).reply()
            table = world.bot.service.table_in(world.channel.id)
            # A Stop for alice: her 22 would take row 1 (as in tests/e2e/test_anniversary.py); her 1
            # is lower than every row's end next turn, so she chooses a row.
            await seat_position(
                world, table, alice, bob, [[5, 9, 12, 16, 20], [7, 18], [40], [60]], [22, 1], [90, 91], [Special.STOP]
            )

            # Hands, the reveal and the Anniversary prompt.
            hand = await (
                await standin.click(alice, world.table_message(), custom_id(world.table_message(), "6n:h:"))
            ).reply()
            assert hand.ephemeral_to.id == alice.id and label(Special.STOP, language) in hand.content
            await click(world, alice, hand, custom_id(hand, "6n:p:", ":22"))
            other = await (
                await standin.click(bob, world.table_message(), custom_id(world.table_message(), "6n:h:"))
            ).reply()
            await click(world, bob, other, custom_id(other, "6n:p:", ":90"))
            await world.settle()
            reveal = world.public()[-1]
            prompt = await (await standin.click(alice, reveal, custom_id(reveal, "6n:s:"))).reply()
            assert prompt.ephemeral_to.id == alice.id
            stops = [cid for cid in prompt.custom_ids if cid.split(":")[4:6] in (["m", "stop"], ["p", "stop"])]
            await click(world, alice, prompt, stops[0])
            prompt = standin.message(prompt.id)
            await click(world, alice, prompt, custom_id(prompt, "6n:sx:", ":p:stop"))
            await world.settle()

            # The rules and the table again, mid-game.
            rules = await (await standin.slash(carol, world.channel, "6nimmt rules")).reply()
            assert rules.ephemeral_to.id == carol.id
            status = await (await standin.slash(carol, world.channel, "6nimmt status")).reply()
            assert status.ephemeral_to.id == carol.id

            # A row choice: alice's 1 is lower than every row's end.
            for user, card in ((alice, 1), (bob, 91)):
                message = world.table_message()
                picked = await (await standin.click(user, message, custom_id(message, "6n:h:"))).reply()
                await click(world, user, picked, custom_id(picked, "6n:p:", f":{card}"))
            await world.settle()
            choice = world.table_message()
            await click(world, alice, choice, custom_id(choice, "6n:r:"))
            await world.settle()

            # A whole (one-round) classic game in the other channel, to its standings.
            opened = await (await standin.slash(alice, second, "6nimmt start", rounds=1)).reply()
            await click(world, bob, opened, custom_id(opened, "6n:l:join:"))
            await click(world, alice, opened, custom_id(opened, "6n:l:start:"))
            await world.settle()
            finished = world.bot.service.table_in(second.id)
            await seat(world, finished, alice, bob, [[10], [20], [30], [40]], [5, 50], [60, 70])
            for cards in ((5, 60), (50, 70)):
                for user, card in zip((alice, bob), cards, strict=True):
                    message = world.table_message(second)
                    picked = await (await standin.click(user, message, custom_id(message, "6n:h:"))).reply()
                    await click(world, user, picked, custom_id(picked, "6n:p:", f":{card}"))
                await world.settle()
                if (choosing := world.table_message(second)) and any(
                    c.startswith("6n:r:") for c in choosing.custom_ids
                ):
                    await click(world, alice, choosing, custom_id(choosing, "6n:r:"))
                    await world.settle()
            assert world.table_message(second) is None, "the game did not end"
            standings = world.public(second)[-1]
            assert "🏆" in standings.content

            # The leaderboard, stats and history.
            board = await (await standin.slash(carol, world.channel, "leaderboard")).reply()
            stats = await (await standin.slash(alice, world.channel, "6nimmt stats")).reply()
            listed = await (await standin.slash(alice, world.channel, "6nimmt history")).reply()
            one = await (await standin.slash(alice, world.channel, "6nimmt history", game=str(finished.id))).reply(
                timeout=10
            )
            assert not board.ephemeral and stats and listed and one.attachments

        shown = [
            text
            for message in {
                m.id: m
                for user in (alice, bob, carol, dora)
                for m in standin.visible_to(user)
                if m.author.id == standin.bot_user.id
            }.values()
            for text in texts_of(message)
        ]
        everything = "\n".join(shown)
        # What each step showed is in the language: the names the catalog gives.
        assert tr(language, "6 nimmt! — table open") in everything or language == "en"
        left_in_english = sorted(phrase for phrase in english if phrase in everything)
        assert left_in_english == []
        assert RAW_FIELD.findall(everything) == []
        missing = [r.getMessage() for r in caplog.records if f"no {language} translation" in r.getMessage()]
        assert missing == []
        standin.assert_no_errors()


def test_the_check_finds_english_and_raw_fields():
    """The checks above can fail: an English sentence or an unfilled field is found."""
    language = languages()[0]
    phrases = english_phrases(language)
    assert "You are not at" in phrases and "the host can start" in phrases
    assert not any(phrase in "6 nimmt! 🐮 <@1> 22 · 5🐮" for phrase in phrases)
    assert RAW_FIELD.findall("Ряд {row}") == ["{row}"] and not fields_of("Ряд 3")
