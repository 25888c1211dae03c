"""Drives a tiny throwaway discord.py bot through the stand-in and checks what users see."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.standin import DiscordStandin, InteractionRejected, StandinTimeout, apply_env_overrides

CARD_PATTERN = r"card:(?P<game>[0-9]+):(?P<card>[0-9]+)"


class CardButton(discord.ui.DynamicItem[discord.ui.Button], template=CARD_PATTERN):
    """A stateless button that survives restarts: everything it needs is in its custom_id."""

    def __init__(self, game: int, card: int) -> None:
        super().__init__(discord.ui.Button(label=f"Card {card}", custom_id=f"card:{game}:{card}"))
        self.game, self.card = game, card

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> CardButton:
        return cls(int(match["game"]), int(match["card"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.display_name} played {self.card}", ephemeral=True)


class LobbyView(discord.ui.View):
    def __init__(self, game: int) -> None:
        super().__init__(timeout=None)
        self.players: list[str] = []
        self.add_item(CardButton(game, 7))

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.green)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.players.append(interaction.user.display_name)
        await interaction.response.edit_message(content=f"Players: {', '.join(self.players)}", view=self)

    @discord.ui.button(label="Hand", custom_id="lobby:hand")
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("Your hand", view=HandView(), ephemeral=True)


class HandView(discord.ui.View):
    @discord.ui.select(
        custom_id="hand:pick", options=[discord.SelectOption(label=str(n), value=str(n)) for n in (3, 55)]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"You picked {select.values[0]}", view=None)


class GameCog(commands.Cog):
    nimmt = app_commands.Group(name="6nimmt", description="Play 6 nimmt!")

    def __init__(self, bot: TinyBot) -> None:
        self.bot = bot

    @nimmt.command(name="start", description="Open a lobby")
    @app_commands.choices(
        variant=[app_commands.Choice(name="Classic", value="classic"), app_commands.Choice(name="Pro", value="pro")]
    )
    async def start(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 10] = 1,
    ) -> None:
        await interaction.response.send_message(f"Lobby: {variant.value}, {rounds} round(s)", view=LobbyView(42))

    @app_commands.command(name="leaderboard", description="Top players")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        embed = discord.Embed(title="Leaderboard", description="1. alice")
        await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(b"\x89PNG fake"), "board.png"))
        await interaction.followup.send("only for you", ephemeral=True)

    @app_commands.command(name="announce", description="Channel message round-trip")
    async def announce(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await interaction.channel.send("Round 1", embed=discord.Embed(title="Table"))
        await message.edit(content="Round 2")
        fetched = await interaction.channel.fetch_message(message.id)
        scratch = await interaction.channel.send("scratch")
        await scratch.delete()
        await interaction.edit_original_response(content=f"fetched: {fetched.content}")

    @app_commands.command(name="misbehave", description="Breaks Discord's rules on purpose")
    async def misbehave(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        with contextlib.suppress(discord.InteractionResponded):
            await interaction.response.send_message("again")  # discord.py raises before sending
        for attempt in (
            lambda: interaction.channel.send("x" * 2001),
            lambda: self.bot.http.request(  # raw second ack, bypassing discord.py's guard
                discord.http.Route("POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token),
                json={"type": 4, "data": {"content": "2nd"}},
            ),
        ):
            try:
                await attempt()
            except discord.HTTPException as exc:
                self.bot.failures.append((exc.status, exc.code))

    @app_commands.command(name="remind", description="Edits its ephemeral reply later")
    async def remind(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Reminder set", ephemeral=True)
        await self.bot.later.wait()
        try:
            await interaction.edit_original_response(content="Too late?")
        except discord.HTTPException as exc:
            self.bot.failures.append((exc.status, exc.code))

    @app_commands.command(name="slow", description="Answers after the 3 s window")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        try:
            await interaction.response.send_message("sorry, late")
        except discord.HTTPException as exc:
            self.bot.failures.append((exc.status, exc.code))


class TinyBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.failures: list[tuple[int, int]] = []
        self.later = asyncio.Event()

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self))
        self.add_dynamic_items(CardButton)
        self.add_view(LobbyView(0))
        guild = discord.Object(self.guild_id)

        @self.tree.command(name="ping", description="Guild-only command", guild=guild)
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        await self.tree.sync()
        await self.tree.sync(guild=guild)


@pytest.fixture
async def table():
    """A stand-in with one guild, a #games channel and two players."""
    async with DiscordStandin(ack_deadline=3.0) as standin:
        guild = standin.add_guild("Nimmt Club", locale="de")
        channel = standin.add_text_channel(guild, "games")
        alice = standin.add_member(guild, "alice", display_name="Alice", locale="de")
        bob = standin.add_member(guild, "bob", permissions=discord.Permissions(manage_messages=True))
        yield standin, guild, channel, alice, bob


async def test_login_sync_and_subcommand_reply(table: Any) -> None:
    standin, guild, channel, alice, _ = table
    async with standin.running(TinyBot(guild.id)) as bot:
        await standin.wait_for_commands("6nimmt", "leaderboard")
        await standin.wait_for_commands("ping", guild=guild)
        assert bot.application_id == standin.application_id
        assert bot.get_guild(guild.id).get_channel(channel.id).name == "games"

        start = await standin.slash(alice, channel, "6nimmt start", variant="classic", rounds=3)
        assert await start.ack() == 4
        lobby = await start.reply()
        assert lobby.content == "Lobby: classic, 3 round(s)" and not lobby.ephemeral
        assert lobby.button("Join")["custom_id"] == "lobby:join"
        assert lobby.button(custom_id=r"card:42:\d+")["label"] == "Card 7"
        assert standin.channel_messages(channel) == [lobby]

        pong = await (await standin.slash(alice, channel, "ping")).reply()
        assert pong.content == "pong"
    standin.assert_no_errors()
    assert all(latency < 3 for latency in standin.ack_latencies())


async def test_unknown_commands_and_options_are_rejected(table: Any) -> None:
    standin, guild, channel, alice, _ = table
    async with standin.running(TinyBot(guild.id)):
        await standin.wait_for_commands("6nimmt")
        for name, options in [
            ("nope", {}),
            ("6nimmt", {}),
            ("6nimmt stop", {}),
            ("6nimmt start", {"variant": "classic", "colour": "red"}),
            ("6nimmt start", {"variant": "anniversary"}),
            ("6nimmt start", {}),
            ("6nimmt start", {"variant": "pro", "rounds": 11}),
        ]:
            with pytest.raises(InteractionRejected):
                await standin.slash(alice, channel, name, **options)


async def test_buttons_ephemerals_and_selects(table: Any) -> None:
    standin, guild, channel, alice, bob = table
    async with standin.running(TinyBot(guild.id)):
        await standin.wait_for_commands("6nimmt")
        lobby = await (await standin.slash(alice, channel, "6nimmt start", variant="pro")).reply()

        join = await standin.click(bob, lobby, "lobby:join")
        assert await join.ack() == 7
        assert (await join.reply()).content == "Players: bob"
        assert [old.content for old in lobby.history] == ["Lobby: pro, 1 round(s)"]

        hand = await (await standin.click(alice, lobby, "lobby:hand")).reply()
        assert hand.ephemeral and standin.ephemerals(alice) == [hand]
        assert hand not in standin.visible_to(bob) and lobby in standin.visible_to(bob)
        with pytest.raises(InteractionRejected):
            await standin.select(bob, hand, "hand:pick", ["3"])
        with pytest.raises(InteractionRejected):
            await standin.select(alice, hand, "hand:pick", ["4"])
        with pytest.raises(InteractionRejected):
            await standin.click(alice, lobby, "lobby:leave")

        pick = await standin.select(alice, hand, "hand:pick", ["55"])
        assert await pick.ack() == 6
        assert (await pick.reply()).content == "You picked 55" and hand.components == []

        played = await (await standin.click(bob, lobby, "card:42:7")).reply()
        assert played.content == "bob played 7" and played.ephemeral_to is bob.user
    standin.assert_no_errors()


async def test_deferred_followups_files_and_channel_paths(table: Any) -> None:
    standin, guild, channel, alice, _ = table
    async with standin.running(TinyBot(guild.id)):
        await standin.wait_for_commands("leaderboard")
        board = await standin.slash(alice, channel, "leaderboard")
        assert await board.ack() == 5
        first = await board.followup(0)
        assert first is await board.reply() and not first.loading  # replaced the "thinking..." message
        assert first.embed["title"] == "Leaderboard"
        assert first.attachments[0].filename == "board.png" and first.attachments[0].data == b"\x89PNG fake"
        second = await board.followup(1)
        assert second.ephemeral and second.content == "only for you"
        async with aiohttp.ClientSession() as http, http.get(first.attachments[0].url) as resp:
            assert await resp.read() == b"\x89PNG fake"

        announce = await standin.slash(alice, channel, "announce")
        answer = await announce.reply()
        assert answer.ephemeral and answer.content == "fetched: Round 2"
        public = standin.channel_messages(channel)
        assert [m.content for m in public] == ["", "Round 2"]  # the leaderboard embed, then the announcement
        assert public[1].history[0].content == "Round 1"
        assert [m.content for m in standin.channel_messages(channel, include_deleted=True)][-1] == "scratch"
    standin.assert_no_errors()


async def test_discord_refusals_are_reported(table: Any) -> None:
    standin, guild, channel, alice, _ = table
    async with standin.running(TinyBot(guild.id)) as bot:
        await standin.wait_for_commands("misbehave")
        misbehave = await standin.slash(alice, channel, "misbehave")
        await standin.world.wait_until(lambda: len(bot.failures) == 2, 3, "bot saw no failures")
        assert bot.failures == [(400, 50035), (400, 40060)]
        assert standin.errors[0].body["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
        assert (await misbehave.reply()).content == "ok"


async def test_ack_deadline_and_expired_tokens(table: Any) -> None:
    standin, guild, channel, alice, _ = table
    standin.ack_deadline = 0.15
    async with standin.running(TinyBot(guild.id)) as bot:
        await standin.wait_for_commands("slow")
        slow = await standin.slash(alice, channel, "slow")
        with pytest.raises(StandinTimeout, match="did not answer /slow"):
            await slow.ack()
        await standin.world.wait_until(lambda: bot.failures, 3, "late answer was not refused")
        assert bot.failures == [(404, 10062)]

        standin.ack_deadline = 3.0
        remind = await standin.slash(alice, channel, "remind")
        await remind.reply()
        standin.expire_token(remind)
        bot.later.set()
        await standin.world.wait_until(lambda: len(bot.failures) == 2, 3, "expired edit was not refused")
        assert bot.failures[1] == (401, 50027)
        assert (await remind.reply()).content == "Reminder set"


async def test_restarted_bot_handles_old_buttons_and_resume(table: Any) -> None:
    standin, guild, channel, alice, bob = table
    async with standin.running(TinyBot(guild.id)):
        await standin.wait_for_commands("6nimmt")
        lobby = await (await standin.slash(alice, channel, "6nimmt start", variant="classic")).reply()

    assert not standin.connected
    async with standin.running(TinyBot(guild.id)):
        played = await (await standin.click(bob, lobby, "card:42:7")).reply()
        assert played.content == "bob played 7"

        await standin.force_reconnect()
        await standin.world.wait_until(lambda: standin.server.gateway.resume_count == 1, 3, "bot did not RESUME")
        join = await (await standin.click(alice, lobby, "lobby:join")).reply()
        assert join.content == "Players: Alice"
    standin.assert_no_errors()


async def test_gateway_refuses_unknown_compression_and_env_overrides_patch_discord_py(table: Any) -> None:
    standin = table[0]
    url = standin.gateway_url + "?v=10&encoding=json&compress=brotli-stream"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        await ws.receive()
        assert ws.close_code == 4000
    assert "zstd-stream" in standin.errors[0].body["message"]

    before = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        assert apply_env_overrides(standin.env)
        assert discord.http.Route("GET", "/users/@me").url == standin.api_base + "/users/@me"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == standin.gateway_url
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = before
    assert not apply_env_overrides({})


def test_message_validation_matches_discord_limits() -> None:
    from tests.standin.validation import validate_message

    def button(i: int) -> dict[str, Any]:
        return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}"}

    def row(*items: dict[str, Any]) -> dict[str, Any]:
        return {"type": 1, "components": list(items)}

    assert validate_message({"content": "hi", "components": [row(*map(button, range(5)))]}) is None
    assert validate_message({"content": "x" * 2001})["code"] == 50035
    assert validate_message({"content": ""}) is not None  # empty message
    too_many_rows = {"components": [row(button(i)) for i in range(6)]}
    assert "components" in validate_message(too_many_rows)["errors"]
    assert validate_message({"components": [row(*map(button, range(6)))]}) is not None
    assert validate_message({"components": [row({**button(0), "custom_id": "c" * 101})]}) is not None
    assert validate_message({"components": [row(button(0)), row(button(0))]}) is not None  # duplicate ids
    options = [{"label": str(i), "value": str(i)} for i in range(26)]
    assert validate_message({"components": [row({"type": 3, "custom_id": "s", "options": options})]}) is not None
    assert validate_message({"embeds": [{"title": "t" * 257}]}) is not None
    assert (
        validate_message({"embeds": [{"description": "d" * 4096, "fields": [{"name": "n", "value": "v" * 1024}] * 2}]})
        is not None
    )
