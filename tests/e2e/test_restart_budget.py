"""A restart with 300 open games: the catch-up of everything they owe their channels keeps to the
bot token's global limit in every sliding second, not only per calendar second.

Discord's limit is 50 requests in any second; the bot keeps to 45 (``cogs.presenter.REQUESTS_PER_SECOND``)
in any 1.1 s (``REACH``: the network's lateness). The start-up is the busiest time of the loop (300
tables restored, their pictures drawn), when a request let through may be written late: each
counts from its write (``cogs.presenting.budget``). The bot process records when it wrote each
request, which is what Discord receives a network's delay later; the stand-in, in this test's
process, may read a burst late when the machine is busy, so its own times only report.
"""

from __future__ import annotations

import pytest

from bot.tables.service import TableService
from bot.tables.table import TableOptions
from cogs.presenter import REQUESTS_PER_SECOND
from data import open_store
from tests.e2e.test_crash import BotProcess
from tests.standin import DiscordStandin
from tests.standin.ratelimits import GLOBAL_PER_SECOND

TABLES = 300

pytestmark = pytest.mark.slow


async def open_tables_owing_their_posts(path, guild, host, channels) -> None:
    """Tables committed by a process that died before it showed anything: half lobbies, half games
    begun (their lobby and their first table message owed)."""
    store = await open_store(path)
    service = TableService(store)
    try:
        for i, channel in enumerate(channels):
            options = TableOptions(rounds=1, target=None, ai_seats=2, ai_level="easy")
            table = await service.open_lobby(guild.id, channel.id, host.id, "alice", options)
            if i % 2:
                await service.begin(table.id, host.id)
    finally:
        await service.close()
        await store.close()


def busiest_second(times: list[float]) -> tuple[int, float]:
    """The most requests in any sliding second, and when that second began."""
    times = sorted(times)
    most, began, first = 0, 0.0, 0
    for last, at in enumerate(times):
        while times[first] <= at - 1.0:
            first += 1
        if last - first + 1 > most:
            most, began = last - first + 1, times[first]
    return most, began


def is_bot_token_request(path: str) -> bool:
    """A REST call of the bot token: interaction callbacks and the interaction's webhook are exempt."""
    return path.startswith("/api/") and "/interactions/" not in path and "/webhooks/" not in path


async def test_a_restart_with_300_open_games_stays_under_the_global_limit_in_every_sliding_second(tmp_path):
    """The bot in its own process, as deployed: the stand-in counts each request as it arrives."""
    async with DiscordStandin(rate_limits=True) as standin:
        guild = standin.add_guild("Bullpen")
        alice = standin.add_member(guild, "alice")
        channels = [standin.add_text_channel(guild, f"games-{i}") for i in range(TABLES)]
        bot = BotProcess(standin, tmp_path, seed=1)
        writes = tmp_path / "writes.txt"
        await open_tables_owing_their_posts(bot.db, guild, alice, channels)
        try:
            await bot.start(SIXNIMMT_WRITES=str(writes))

            def shown() -> bool:
                lobbies = [m for c in channels for m in standin.channel_messages(c) if "6n:l:" in str(m.custom_ids)]
                games = [m for c in channels for m in standin.channel_messages(c) if "6n:h:" in str(m.custom_ids)]
                return len(lobbies) == TABLES // 2 and len(games) == TABLES // 2

            await standin.world.wait_until(shown, 60, "every table's lobby or game shown")
            await bot.kill()
        finally:
            await bot.ensure_stopped()
        # Each lobby once, each game's table once.
        for channel in channels:
            messages = standin.channel_messages(channel)
            assert len(messages) in (1, 2), [m.content for m in messages]
        requests = [r for r in standin.requests if is_bot_token_request(r.path)]
        written = [float(line) for line in writes.read_text().split()]
        busiest, _ = busiest_second(written)
        received, _ = busiest_second([r.at for r in requests])
        refused = sum(r.status == 429 for r in standin.requests)
        print(
            f"{len(written)} bot-token requests written; the most in any sliding second: {busiest} written, "
            f"{received} as the stand-in read them; 429s: {refused}"
        )
        assert len(written) == len(requests) >= TABLES * 3 // 2
        assert busiest <= REQUESTS_PER_SECOND < GLOBAL_PER_SECOND
