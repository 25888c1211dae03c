"""Records through the real bot: /leaderboard pages, /6nimmt stats, history + export, forget-me."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from cogs.render.chart import LINE_COLOURS, chart_size
from tests.data.helpers import finish_game, game_result, start_game
from tests.e2e.test_table_play import click_ok, open_table, play_until_over

OTHER_GUILD = 777


async def play_a_game(world) -> int:
    lobby = await open_table(world, rounds=1, ai_players=1, ai_level="easy")
    await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    table_id = world.bot.service.table_in(world.channel.id).id
    await play_until_over(world, [world.alice, world.bob], world.carol)
    await world.settle()
    return table_id


async def seed_other_players(store, guild_id: int) -> None:
    """24 more ranked players in this server (users 1..24; the odd ones with two games) and one elsewhere."""
    for pair in range(12):
        a, b = 2 * pair + 1, 2 * pair + 2
        specs = [(a, 10 + pair), (b, 20 + pair)]
        game_id = await start_game(store, specs, guild_id)
        await finish_game(store, game_id, game_result(game_id, specs, rounds=1))
    for pair in range(6):  # a second game for users 1, 5, 9, ...
        specs = [(4 * pair + 1, 5), (None, 30)]
        game_id = await start_game(store, specs, guild_id)
        await finish_game(store, game_id, game_result(game_id, specs, rounds=1))
    specs = [(99, 3), (None, 40)]
    game_id = await start_game(store, specs, OTHER_GUILD)
    await finish_game(store, game_id, game_result(game_id, specs, rounds=1))


async def slash(world, user, command, **options):
    return await (await world.standin.slash(user, world.channel, command, **options)).reply()


def rank_field(board):
    return next(f for f in board.embed["fields"] if f["name"].endswith("'s rank"))


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_leaderboard_pages_own_rank_metrics_scope_and_min_games(world):
    async with world.running_bot():
        await play_a_game(world)
        await seed_other_players(world.bot.service.store, world.guild.id)

        board = await slash(world, world.alice, "leaderboard", metric="wins")
        assert not board.ephemeral and "wins" in board.embed["title"]
        assert "Page 1 of 3 · 26 players · this server" in board.embed["footer"]["text"]
        assert board.embed["description"].count("\n") == 9  # ten lines a page
        assert "rating" in board.embed["description"], "the rating is on every line"
        assert "alice" in rank_field(board)["name"] and "won" in rank_field(board)["value"]
        prev, nxt = board.buttons
        assert prev["disabled"] and not nxt.get("disabled")

        # Anyone may page; the page is read anew and shows the presser's own rank.
        page2 = await (await world.standin.click(world.bob, board, nxt["custom_id"])).reply()
        assert page2 is board and "Page 2 of 3" in board.embed["footer"]["text"]
        assert "bob" in rank_field(board)["name"]
        last = await (await world.standin.click(world.carol, board, board.buttons[1]["custom_id"])).reply()
        assert "Page 3 of 3" in last.embed["footer"]["text"] and last.buttons[1]["disabled"]
        assert "carol is not ranked" in rank_field(last)["value"]

        # Metric, minimum games and scope.
        by_rate = await slash(world, world.alice, "leaderboard", metric="win_rate", min_games=2)
        assert "win rate" in by_rate.embed["title"]
        assert "6 players" in by_rate.embed["footer"]["text"] and not by_rate.buttons  # one page: no buttons
        assert "alice is not ranked here yet" in rank_field(by_rate)["value"]
        everywhere = await slash(world, world.alice, "leaderboard", scope="global", metric="games")
        assert "27 players · all servers" in everywhere.embed["footer"]["text"]
        by_points = await slash(world, world.bob, "leaderboard", metric="avg_points_per_round")
        assert "/round" in by_points.embed["description"]
        rated = await slash(world, world.bob, "leaderboard")
        assert "rating" in rated.embed["title"] and "rating" in rank_field(rated)["value"]
        world.standin.assert_no_errors()

    # The page buttons are restart-proof: a new process answers the old message.
    async with world.running_bot():
        again = await (await world.standin.click(world.alice, board, board.buttons[0]["custom_id"])).reply()
        assert "Page 2 of 3" in again.embed["footer"]["text"]
        forged = await (await world.standin.click_raw(world.alice, board, "6s:lb:x")).reply()
        assert forged.ephemeral_to.id == world.alice.id and "not valid" in forged.content
        # A well-formed page id that is not on the message: discord.py would drop it; it is answered.
        elsewhere = await (await world.standin.click_raw(world.alice, board, "6s:lb:s:o:1:7")).reply()
        assert elsewhere.ephemeral_to.id == world.alice.id and "not valid any more" in elsewhere.content
        world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_stats_history_export_and_forget_me(world):
    async with world.running_bot():
        game_id = await play_a_game(world)
        store = world.bot.service.store
        other = await start_game(store, [(5, 1), (6, 2)], OTHER_GUILD)

        stats = await slash(world, world.alice, "6nimmt stats")
        fields = {f["name"]: f["value"] for f in stats.embed["fields"]}
        assert "alice" in stats.embed["title"] and fields["Games"] == "1"
        for name in (
            "Wins",
            "Rating",
            "Points per round",
            "Points per game",
            "Best game",
            "Worst game",
            "Rows taken",
            "Sixth-card takes",
            "Low-card takes",
        ):
            assert name in fields, name
        assert f"game #{game_id}" in fields["Best game"]
        of_bob = await slash(world, world.alice, "6nimmt stats", member=world.bob)
        assert "bob" in of_bob.embed["title"]
        nobody = await slash(world, world.alice, "6nimmt stats", member=world.carol)
        assert "No finished games" in nobody.embed["description"]

        history = await slash(world, world.carol, "6nimmt history")
        assert f"**#{game_id}**" in history.embed["description"] and "alice" in history.embed["description"]

        export = await slash(world, world.bob, "6nimmt history", game=f"#{game_id}")
        assert export.ephemeral_to.id == world.bob.id
        files = {a.filename: a.data for a in export.attachments}
        log = json.loads(files[f"6nimmt-game-{game_id}.json"])
        assert log["format"] == "6nimmt-game-log/1" and log["game"]["game_id"] == game_id
        assert {"alice", "bob"} <= {s["display_name"] for s in log["seats"]}
        assert log["actions"] and {r["display_name"] for r in log["results"]} >= {"alice", "bob"}
        text = files[f"6nimmt-game-{game_id}.txt"].decode()
        assert "Revealed:" in text and "Final standings" in text and "Game over." in text
        # The score chart: each player's bullheads round by round, one line colour per seat.
        chart = Image.open(io.BytesIO(files[f"6nimmt-game-{game_id}-scores.png"])).convert("RGB")
        seats = len(log["seats"])
        assert chart.size == chart_size(seats)
        drawn = {colour for _, colour in chart.getcolors(maxcolors=1 << 20)}
        assert all(LINE_COLOURS[p] in drawn for p in range(seats))

        for bad, expected in (
            ("abc", "not a game number"),
            ("99999", "There is no game #99999"),
            (str(other), "not played in this server"),
        ):
            refused = await slash(world, world.bob, "6nimmt history", game=bad)
            assert refused.ephemeral_to.id == world.bob.id and expected in refused.content, refused.content

        # While alice sits at an open table she cannot be forgotten.
        lobby = await open_table(world)
        refused = await slash(world, world.alice, "6nimmt forget-me")
        assert refused.ephemeral and "seated at an open 6 nimmt! table" in refused.content
        assert not refused.buttons
        await click_ok(world, world.alice, lobby, lobby.button("Cancel")["custom_id"])
        await world.settle()

        ask = await slash(world, world.alice, "6nimmt forget-me")
        assert ask.ephemeral_to.id == world.alice.id
        kept = await (await world.standin.click(world.alice, ask, ask.button("Keep my data")["custom_id"])).reply()
        assert "Nothing was deleted" in kept.content and not kept.buttons
        ask = await slash(world, world.alice, "6nimmt forget-me")
        done = await (await world.standin.click(world.alice, ask, ask.button("Delete my data")["custom_id"])).reply()
        assert "deleted" in done.content

        board = await slash(world, world.bob, "leaderboard", metric="games")
        assert "alice" not in board.embed["description"] and "bob" in board.embed["description"]
        history = await slash(world, world.bob, "6nimmt history")
        assert "deleted player" in history.embed["description"] and "alice" not in history.embed["description"]
        export = await slash(world, world.bob, "6nimmt history", game=str(game_id))
        log = json.loads(export.attachments[0].data)
        assert "deleted player" in [s["display_name"] for s in log["seats"]]
        assert "alice" not in export.attachments[0].data.decode()
        gone = await slash(world, world.bob, "6nimmt stats", member=world.alice)
        assert "No finished games" in gone.embed["description"]
        # The store keeps the English; a reader of another language reads the seat in their words.
        world.bob.user.locale = "de"
        export = await slash(world, world.bob, "6nimmt history", game=str(game_id))
        assert "gelöschter Spieler" in export.content and "deleted player" not in export.content
        world.standin.assert_no_errors()
