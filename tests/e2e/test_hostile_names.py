"""Players whose names look like mentions or markup, through the real bot to the final standings.

On a server that gave the bot a broad role (it may mention @everyone and every role), six players
named like a role mention, a bystander's mention, ``@everyone``, markdown and a right-to-left
override play a whole game in its thread. No public message may ping anyone but the players it
calls on purpose, and every name reads as typed wherever it is shown: the reveals, the standings,
``/leaderboard``, ``/6nimmt stats`` and the thread's name.
"""

from __future__ import annotations

import re

import discord
import pytest

from tests.e2e.test_table_play import click_ok
from tests.standin.model import DEFAULT_BOT_PERMISSIONS

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: everything after it on the line would read backwards
#: The direction controls (UAX #9): embeddings and overrides closed by PDF, isolates closed by PDI.
EMBEDDINGS, PDF, ISOLATES, PDI = "\u202a\u202b\u202d\u202e", "\u202c", "\u2066\u2067\u2068", "\u2069"


def visible(name: str) -> str:
    """A name's characters as a reader sees them: direction controls draw nothing."""
    return "".join(char for char in name if char not in EMBEDDINGS + PDF + ISOLATES + PDI)


def drawn(text: str) -> str:
    """The characters Discord draws of markdown ``text`` (a backslash before a symbol shows the
    symbol), without the invisible ones: a zero-width space and direction controls."""
    return visible(re.sub(r"\\([^\w\s])", r"\1", text).replace("\u200b", ""))


def contained(line: str) -> bool:
    """Whether every direction control in ``line`` is closed before the line ends, so nothing
    after a name is reordered by it."""
    opened: list[str] = []
    closes = {PDF: EMBEDDINGS, PDI: ISOLATES}
    for char in line:
        if char in EMBEDDINGS or char in ISOLATES:
            opened.append(char)
        elif char in closes and (not opened or opened.pop() not in closes[char]):
            return False
    return not opened


def assert_shown_as_typed(text: str, names: list[str], raw: list[str], where: str) -> None:
    """Each of ``names`` reads as typed in ``text``, none of them as markup or a mention (``raw``:
    what must not stand in ``text`` as it is, since Discord would draw or ping it)."""
    for name in names:
        assert visible(name) in drawn(text), f"{name!r} is not shown as typed in {where}: {text!r}"
    for markup in raw:
        assert markup not in text, f"{markup!r} is live markup or a mention in {where}: {text!r}"
    assert all(contained(line) for line in text.split("\n")), f"a name reorders its line in {where}: {text!r}"


def calls(text: str) -> set[int]:
    """The users ``text`` mentions as Discord reads them."""
    return {int(user_id) for user_id in re.findall(r"<@!?(\d+)>", text)}


async def play_with_hostile_names(world):
    """Six players with hostile names play a one-round game in its thread to the standings;
    returns (players, names, the raw forms that must never stand in a message, the thread)."""
    standin = world.standin
    standin.set_bot_permissions(DEFAULT_BOT_PERMISSIONS | discord.Permissions(mention_everyone=True))
    regulars = standin.add_role(world.guild, "regulars")
    bystander = world.carol  # in the server, not playing
    names = [
        f"{RLO}evil twin",
        f"<@&{regulars.id}>",
        f"<@{bystander.id}>",
        "@everyone",
        "**bold** ||spoil||",
        "`x` > q",
    ]
    raw = [f"<@&{regulars.id}>", f"<@{bystander.id}>", "@everyone", "@here", "**bold**", "||spoil||", "`x`"]
    players = [standin.add_member(world.guild, f"player{i}", display_name=name) for i, name in enumerate(names)]
    host = players[0]
    lobby = await (await standin.slash(host, world.channel, "6nimmt start", rounds=1)).reply()
    thread = await standin.world.wait_until(lambda: standin.world.channels.get(lobby.id), 3, "the game's thread")
    for player in players[1:]:
        await click_ok(world, player, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, host, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    await world.play(players, thread)
    await world.settle()
    return players, names, raw, thread


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_hostile_names_ping_nobody_and_read_as_typed(world):
    world.threads = True
    async with world.running_bot():
        players, names, raw, thread = await play_with_hostile_names(world)
        standin = world.standin
        seated = {player.id for player in players}
        messages = standin.channel_messages(world.channel) + standin.channel_messages(thread)

        # Every version of every public message pings only players it calls by their mention.
        for message in messages:
            for version in message.versions():
                assert not version.pings.roles and not version.pings.everyone, (version.content, version.pings)
                assert version.pings.users <= calls(version.content) & seated, (version.content, version.pings)
        assert world.carol.id not in {user for m in messages for v in m.versions() for user in v.pings.users}

        # The thread's name: the host's override cannot turn the rest of it around.
        assert "evil twin" in thread.name and contained(thread.name), repr(thread.name)

        # The reveals and the standings show every name as typed.
        reveals = [m.content for m in standin.channel_messages(thread) if "🃏 Revealed" in m.content]
        assert len(reveals) >= 10
        first = next(line for line in reveals[0].split("\n") if line.startswith("🃏 Revealed"))
        assert_shown_as_typed(first, names, raw, "a reveal")
        for reveal in reveals:
            assert_shown_as_typed(reveal, [], raw, "a reveal")
        standings = [m for m in standin.channel_messages(thread) if "Game over" in m.content]
        assert len(standings) == 1
        assert_shown_as_typed(standings[0].content, names, raw, "the standings")
        summary = standin.message(thread.id)  # the lobby in the channel, now the game's summary
        assert_shown_as_typed(str(summary.embed), [], raw, "the summary")

        # /leaderboard lists them all, and each player's own rank is titled with their name.
        for player, name in zip(players, names, strict=True):
            board = await (await standin.slash(player, world.channel, "leaderboard", metric="games")).reply()
            assert_shown_as_typed(board.embed["description"], names, raw, "the leaderboard")
            rank = next(f for f in board.embed["fields"] if f["name"].endswith("'s rank"))
            assert_shown_as_typed(rank["name"], [name], raw, "the leaderboard's rank title")
            # /6nimmt stats: the title names the player.
            stats = await (await standin.slash(player, world.channel, "6nimmt stats")).reply()
            assert_shown_as_typed(stats.embed["title"], [name], raw, "the stats title")
            for answer in (board, stats):
                assert not answer.pinged_users and not answer.pinged_roles and not answer.pinged_everyone
        standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_the_winners_line_pings_the_winners(world):
    """The standings call the winners by their mention: it pings them, and only them."""
    world.threads = True
    async with world.running_bot():
        _, _, _, thread = await play_with_hostile_names(world)
        standings = next(m for m in world.standin.channel_messages(thread) if "Game over" in m.content)
        winners = calls(next(line for line in standings.content.split("\n") if line.startswith("🏆")))
        assert winners and standings.pinged_users == winners
