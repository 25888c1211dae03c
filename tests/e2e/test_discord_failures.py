"""Discord failing one request in ten: every reveal and the standings still reach the channel, once."""

from __future__ import annotations

import pytest

from tests.e2e.test_outbox import reveals
from tests.e2e.test_table_play import click_ok, open_table

MESSAGES = ["/channels/{channel}/messages", "/channels/{channel}/messages/{message}"]
FOLLOW_UP = "/webhooks/{app}/{token}"


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_game_through_failing_requests_shows_everything_once(world):
    async with world.running_bot():
        world.bot.get_cog("Tables").presenter.channels.retry_first = 0.01  # the backoff's shape, faster
        lobby = await open_table(world, rounds=2, ai_players=1, ai_level="easy")
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        # One post or edit in ten is refused (503: discord.py passes it on at once), and one post in
        # twenty is applied by Discord but answered 503 anyway, so the bot sends it again. The
        # first clicks' follow-ups are cut off (one of them after Discord took it), so those posts
        # are left to the bot's token; one follow-up in ten is answered 503 (discord.py tries again).
        world.standin.fail_next("POST", FOLLOW_UP, drop=True, times=4)
        world.standin.fail_next("POST", FOLLOW_UP, drop=True, applied=True, times=1)
        world.standin.fail_next("POST", MESSAGES[0], status=503, applied=True, times=3)
        world.standin.fail_requests(0.1, status=503, routes=[*MESSAGES, FOLLOW_UP], seed=7)
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.play([world.alice, world.bob])
        await world.settle()
        assert len(world.standin.injected_faults) >= 5, "the test failed requests"
        assert any(f.applied for f in world.standin.injected_faults)
        assert len(reveals(world)) == 20, "each turn of both rounds revealed once"
        assert sum("Game over" in (m.content or "") for m in world.public()) == 1
        assert world.public()[-1].button("Rematch") and world.table_message() is None, "the standings come last"
        world.standin.assert_no_errors()
