"""The bot token's requests, counted at the stand-in: a whole game keeps to the process's budget."""

from __future__ import annotations

import asyncio
import re
from collections import Counter

import pytest

from bot.tables.lobby import Lobby
from tests.e2e.test_outbox import hold_posts, reveals
from tests.e2e.test_table_play import click_ok
from tests.e2e.test_threads import start_in_thread
from tests.e2e.test_timers_and_restarts import pick_first_card, start_game


def bot_token_requests(world, since: int = 0):
    """The requests the bot made with its token from the ``since``-th on: interaction callbacks and
    the interaction's webhook (follow-ups, edits of its answers) are not counted against the limit."""
    return [r for r in world.standin.requests[since:] if "/interactions/" not in r.path and "/webhooks/" not in r.path]


def most_in(times: list[float], seconds: float) -> int:
    """The most requests that arrived within any ``seconds``."""
    return max((sum(1 for other in times if start - seconds < other <= start) for start in times), default=0)


async def test_a_game_keeps_to_the_process_budget_and_shows_everything(world):
    """Every follow-up is cut off on its way (so no click carries a post): the bot's token sends
    them all, after looking for each in the channel, within the budget and each once."""
    settings = world.settings()
    world.settings = lambda: settings.model_copy(update={"process_requests_per_second": 4})
    async with world.running_bot():
        assert world.bot.get_cog("Tables").presenter.budget.limit == 4
        cut = world.standin.fail_next("POST", "/webhooks/{app}/{token}", times=10_000, drop=True)
        first = len(world.standin.requests)
        await start_game(world, rounds=1)
        await world.play([world.alice, world.bob])
        await world.settle()
        assert len(reveals(world)) == 10 and sum("Game over" in (m.content or "") for m in world.public()) == 1
        times = [r.at for r in bot_token_requests(world, first)]
        assert len(times) > 8, "the game made enough requests to meet the budget"
        # Four a second: a little under a second (the stand-in's clock is not the bot's) holds four.
        assert most_in(times, 0.9) <= 4, most_in(times, 0.9)
        assert world.bot.get_cog("Tables").presenter.budget.waited > 0, "the budget held some back"
        assert cut.hits >= 10, "every reveal was tried through a click first"
        world.standin.assert_no_errors()


#: A fixed deal, so the count is the same every run (the players play their lowest card each turn,
#: so about one turn in three asks for a row: more requests than most games).
SEED = 7


async def play_counting_requests(world, monkeypatch, **options):
    """alice, bob and an AI play a game in its thread, as a server plays by default: the requests
    made with the bot token from ``/6nimmt start`` to the standings, and the turns revealed."""
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: SEED))
    world.threads = True
    async with world.running_bot():
        first = len(world.standin.requests)
        lobby, thread = await start_in_thread(world, world.alice, ai_players=1, ai_level="easy", **options)
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.play([world.alice, world.bob], thread)
        await world.settle()
        standings = world.standin.channel_messages(thread)[-1]
        assert "Game over" in standings.content and world.bot.service.table_in(thread.id) is None
        turns = sum((m.content or "").count("🃏 Revealed") for m in world.standin.channel_messages(thread))
        made = bot_token_requests(world, first)
        world.standin.assert_no_errors()
    routes = Counter(f"{r.method} {re.sub(r'/[0-9]+', '/{id}', r.path)}" for r in made)
    return len(made) / turns, turns, routes


async def test_a_game_to_66_costs_at_most_one_and_a_half_requests_a_turn(world, monkeypatch):
    per_turn, turns, routes = await play_counting_requests(world, monkeypatch)
    assert turns > 20, "a game to 66 has rounds of ten turns"
    assert per_turn <= 1.5, (per_turn, turns, routes)


async def test_a_one_round_game_costs_at_most_two_requests_a_turn(world, monkeypatch):
    per_turn, turns, routes = await play_counting_requests(world, monkeypatch, rounds=1)
    assert turns == 10
    assert per_turn <= 2, (per_turn, turns, routes)
    # The lobby's edits (bob joins, the game starts, who won) went through the players' clicks on it;
    # who has picked, through the follow-ups each turn's message is. The one edit the bot's token
    # makes: alice's pick on the game's first table message, which the bot posted in the new thread
    # (no click was made there yet to carry it).
    assert routes["PATCH /api/v10/channels/{id}/messages/{id}"] == 1, routes


async def test_a_restart_redraws_only_the_tables_whose_messages_may_be_behind(world):
    """Three games in their threads; a stop comes while the third's reveal is still owed. The next
    start shows that reveal, and costs no request at all for the two games whose messages are up
    to date (before, a restart edited every open table's message)."""
    world.threads = True
    async with world.running_bot():
        games = []
        for host in (world.alice, world.bob, world.carol):
            lobby, thread = await start_in_thread(world, host, rounds=1, ai_players=1, ai_level="easy")
            await click_ok(world, host, lobby, lobby.button("Start")["custom_id"])
            await world.settle()
            games.append(thread)
        up_to_date, behind = games[:2], games[2]
        for thread, host in zip(up_to_date, (world.alice, world.bob), strict=True):
            await pick_first_card(world, host, world.table_message(thread))
        await world.settle()
        presenter = world.bot.get_cog("Tables").presenter
        presenter.drain_seconds = 0.2
        hold_posts(presenter, asyncio.Event())  # Discord hangs: the stop cannot wait for the reveal
        await pick_first_card(world, world.carol, world.table_message(behind))
    shown = {thread.id: list(world.standin.channel_messages(thread)) for thread in games}
    assert not any("🃏 Revealed" in (m.content or "") for m in shown[behind.id]), "the stop left the reveal owed"

    first = len(world.standin.requests)
    async with world.running_bot():
        await world.settle()
        made = bot_token_requests(world, first)
        for thread in up_to_date:
            # The thread's messages, and its summary in the channel (the message it was started on).
            assert [r for r in made if str(thread.id) in r.path] == [], "nothing asked of an up-to-date game"
            assert world.standin.channel_messages(thread) == shown[thread.id]
        reveal = world.table_message(behind)
        assert "🃏 Revealed" in reveal.content, "the owed reveal is shown, with the table"
        # The post, after a look for it in the thread: the process before may have sent it
        # through a click, whose follow-up carries no nonce.
        assert [r.method for r in made if str(behind.id) in r.path] == ["GET", "POST"], "the look, the post"
    world.standin.assert_no_errors()


@pytest.mark.slow  # paced at two requests a second
@pytest.mark.discord_rate_limits(window_scale=1.0)  # the buckets' own windows, as Discord's
async def test_with_discords_limits_a_game_at_the_budget_meets_no_429(world):
    """Discord's limits held small (3 requests a second for the token, which a test's quick clicks
    outrun) and the process's budget under them: a whole game is shown, paced by the budget and the
    buckets' headers, and Discord never answers 429."""
    settings = world.settings()
    world.settings = lambda: settings.model_copy(update={"process_requests_per_second": 2})
    async with world.running_bot():
        # From now on: the log-in's requests come before the budget is installed (at 45 a second
        # out of 50 a margin covers them; at 2 out of 3, none does).
        world.standin.set_rate_limits(global_per_second=3)
        world.standin.rate_limits.reset_figures()
        # No click carries a post (their follow-ups are cut off): the bot's token sends them all.
        world.standin.fail_next("POST", "/webhooks/{app}/{token}", drop=True, times=10_000)
        await start_game(world, rounds=1)
        await world.play([world.alice, world.bob])
        await world.settle()
        figures = world.standin.rate_limits.figures()
        assert len(reveals(world)) == 10 and sum("Game over" in (m.content or "") for m in world.public()) == 1
        assert figures.bot_requests > 10 and max(figures.per_second) <= 3, figures
        assert figures.too_many == {} and figures.invalid == 0, figures
    world.standin.assert_no_errors()
