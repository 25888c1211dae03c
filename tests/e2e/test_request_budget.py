"""The bot token's requests, counted at the stand-in: a whole game keeps to the process's budget."""

from __future__ import annotations

from tests.e2e.test_timers_and_restarts import start_game
from tests.e2e.test_takeovers import play_to_the_end
from tests.e2e.test_outbox import reveals


def bot_token_requests(world, since: int = 0):
    """The requests the bot made with its token from the ``since``-th on: interaction callbacks and
    the interaction's webhook (follow-ups, edits of its answers) are not counted against the limit."""
    return [r for r in world.standin.requests[since:]
            if "/interactions/" not in r.path and "/webhooks/" not in r.path]


def most_in(times: list[float], seconds: float) -> int:
    """The most requests that arrived within any ``seconds``."""
    return max((sum(1 for other in times if start - seconds < other <= start) for start in times), default=0)


async def test_a_game_keeps_to_the_process_budget_and_shows_everything(world):
    settings = world.settings()
    world.settings = lambda: settings.model_copy(update={"process_requests_per_second": 4})
    async with world.running_bot():
        assert world.bot.get_cog("Tables").presenter.budget.limit == 4
        first = len(world.standin.requests)
        await start_game(world, rounds=1)
        await play_to_the_end(world, [world.alice, world.bob])
        await world.settle()
        assert len(reveals(world)) == 10 and sum("Game over" in (m.content or "") for m in world.public()) == 1
        times = [r.at for r in bot_token_requests(world, first)]
        assert len(times) > 12, "the game made enough requests to meet the budget"
        # Four a second: a little under a second (the stand-in's clock is not the bot's) holds four.
        assert most_in(times, 0.9) <= 4, most_in(times, 0.9)
        assert world.bot.get_cog("Tables").presenter.budget.waited > 0, "the budget held some back"
        world.standin.assert_no_errors()
