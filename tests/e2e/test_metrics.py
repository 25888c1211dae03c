"""The metrics endpoint of the real bot process, scraped while and after it plays a game.

The scrape is parsed with prometheus-client's own parser, as Prometheus would read it.
"""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.test_crash import BotProcess
from tests.e2e.test_postgres_shards import play_alone
from tests.standin import DiscordStandin
from tests.standin.fixtures import WINDOW_SCALE

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the endpoint: (name, sorted labels) -> value."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        value
        for (sample, sample_labels), value in samples.items()
        if sample == name and set(labels.items()) <= set(sample_labels)
    )


async def test_the_bot_serves_its_metrics_while_it_plays(tmp_path):
    port = free_port()
    async with DiscordStandin(ack_deadline=10, rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        guild = standin.add_guild("Bullpen")
        channel = standin.add_text_channel(guild, "games")
        dana = standin.add_member(guild, "dana")
        bot = BotProcess(standin, tmp_path, seed=7)
        try:
            await bot.start(sync=True, METRICS_PORT=str(port), METRICS_HOST="127.0.0.1")
            await standin.wait_for_commands("6nimmt", timeout=10)
            idle = await scrape(port)
            assert total(idle, "sixnimmt_tables") == 0
            # A sample of 0 for each open state and pace, not no series at all.
            assert idle[("sixnimmt_tables", (("pace", "live"), ("state", "lobby")))] == 0
            assert idle[("sixnimmt_tables", (("pace", "24h"), ("state", "playing")))] == 0
            assert total(idle, "sixnimmt_database_up") == 1

            lobby = await (
                await standin.slash(dana, channel, "6nimmt start", rounds=1, ai_players=1, ai_level="easy")
            ).reply(timeout=10)
            playing = await scrape(port)
            assert total(playing, "sixnimmt_tables", state="lobby", pace="live") == 1
            await (await standin.click(dana, lobby, lobby.button("Start")["custom_id"])).ack()
            playing = await scrape(port)
            assert total(playing, "sixnimmt_tables", state="playing", pace="live") == 1

            await play_alone(standin, channel, dana)
            for _ in range(100):  # the standings are in the channel; the presenter may still be marking them
                done = await scrape(port)
                if total(done, "sixnimmt_presenter_tables") == 0:
                    break
                await asyncio.sleep(0.1)
        finally:
            if bot.proc is not None and bot.proc.returncode is None:
                bot.proc.terminate()
                await bot.proc.wait()

    assert total(done, "sixnimmt_tables") == 0, "the finished game is no longer open"
    assert total(done, "sixnimmt_commands_total", command="6nimmt start") == 1
    clicks = total(done, "sixnimmt_interactions_total", kind="click")
    assert clicks >= 10, "the Start button, and at least a hand and a card for each of the ten turns"
    answered = total(done, "sixnimmt_answer_seconds_count", kind="click")
    assert 0 < answered <= clicks
    assert total(done, "sixnimmt_answer_seconds_bucket", kind="click", le="+Inf") == answered
    reveals = total(done, "sixnimmt_post_shown_seconds_count", kind="turn")
    assert reveals == 10, "each of the ten turns' reveals reached the channel, and only those"
    assert total(done, "sixnimmt_store_write_seconds_count", outcome="ok") > reveals
    assert total(done, "sixnimmt_store_write_seconds_count", outcome="failed") == 0
    # Each reveal is sent once: by the bot's token, or as the follow-up of the click that completed the turn.
    sent = total(done, "sixnimmt_discord_requests_total", scope="bot", status="2xx")
    through_clicks = total(done, "sixnimmt_discord_requests_total", scope="interaction", status="2xx")
    assert sent + through_clicks >= reveals + answered
    assert total(done, "sixnimmt_discord_rate_limited_total") == 0
    # The gateway's websocket upgrade (101) is no REST request.
    assert total(done, "sixnimmt_discord_requests_total", status="1xx") == 0
    assert ("sixnimmt_presenter_tables", ()) in done
    assert total(done, "sixnimmt_ai_fallbacks_total") == 0
    assert ("sixnimmt_ai_worker_up", ()) in done
