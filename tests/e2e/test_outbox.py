"""What was committed is shown: across a clean stop, a stop that cannot wait, and a restart."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.driver import HAND_BUTTON, offers, turn_of
from tests.e2e.test_table_play import click_ok, open_table
from tests.e2e.test_timers_and_restarts import pick_first_card, start_game


def reveals(world) -> list[str]:
    return [m.content for m in world.public() if "🃏 Revealed" in (m.content or "")]


async def pick_both(world):
    table = world.table_message()
    await pick_first_card(world, world.alice, table)
    await pick_first_card(world, world.bob, table)


def hold_posts(presenter, release: asyncio.Event):
    """Let the presenter's posts wait for ``release``, as on a slow Discord."""
    send = presenter.outbox.send

    async def slow_send(*args, **kwargs):
        await release.wait()
        return await send(*args, **kwargs)

    presenter.outbox.send = slow_send


async def test_a_clean_stop_shows_the_news_it_has_queued(world):
    async with world.running_bot():
        await start_game(world, rounds=1)
        release = asyncio.Event()
        hold_posts(world.bot.get_cog("Tables").presenter, release)
        await pick_both(world)  # the reveal is committed; its post waits
        assert reveals(world) == []
        asyncio.get_running_loop().call_later(0.3, release.set)
        # Leaving the block stops the bot: the stop waits for the post (within its bound).
    assert len(reveals(world)) == 1
    world.standin.assert_no_errors()


async def test_news_a_stop_could_not_wait_for_is_shown_after_the_next_start(world):
    async with world.running_bot():
        await start_game(world, rounds=1)
        presenter = world.bot.get_cog("Tables").presenter
        presenter.drain_seconds = 0.2
        hold_posts(presenter, asyncio.Event())  # never released
        await pick_both(world)
    assert reveals(world) == [], "the stop gave up on the post"
    async with world.running_bot():
        await world.settle()
        assert len(reveals(world)) == 1, "the next start showed it, once"
        live = world.table_message()
        assert "🃏 Revealed" in live.content, "the table is posted with the reveal, and is live"
        assert live.id == world.public()[-1].id, "the newest message"
        # The game goes on from the new message, to its end.
        await world.play([world.alice, world.bob])
        assert len(reveals(world)) == 10
        assert sum("Game over" in (m.content or "") for m in world.public()) == 1
    world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_rematch_works_after_a_restart(world):
    async with world.running_bot():
        await start_game(world, rounds=1)
        await world.play([world.alice, world.bob])
        final = world.public()[-1]
        assert "Game over" in final.content
    async with world.running_bot():
        outsider = await (await world.standin.click(world.carol, final, final.button("Rematch")["custom_id"])).reply()
        assert "not at this table" in outsider.content
        lobby = await (await world.standin.click(world.bob, final, final.button("Rematch")["custom_id"])).reply()
        assert "table open" in lobby.embed["title"]
        assert "alice" in str(lobby.embed) or f"<@{world.alice.id}>" in str(lobby.embed)
        await click_ok(world, world.bob, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        assert world.table_message().button("Play a card")
    world.standin.assert_no_errors()


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_finished_table_leaves_nothing_behind(world):
    """Once its standings are shown, a table holds no task and is not kept in memory."""
    async with world.running_bot():
        presenter = world.bot.get_cog("Tables").presenter
        for _ in range(2):
            lobby = await open_table(world, rounds=1, ai_players=1)
            await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
            await world.play([world.alice])
        edited = []
        edit_live = presenter.live.edit

        async def counted_edit(stage, table):
            edited.append(table.message_id)
            await edit_live(stage, table)

        presenter.live.edit = counted_edit
        await start_game(world, rounds=1)  # bob's join edits the lobby
        await world.play([world.alice, world.bob])
        await world.settle()
        assert edited, "a live message was edited"
        assert presenter.busy_tables == 0
        assert presenter.tables_held == 0, "nothing of a closed table: its posts, live message, clicks"
        assert len(presenter.openings) == 0
        service = world.bot.service
        registry = service.registry
        assert registry.tables == {} and registry.by_channel == {} and not registry.opening
        assert not service._marking
        assert service.scheduler._deadlines == {} and len(service.scheduler._heap) <= 64
        views = world.bot._connection._view_store
        assert views._synced_message_views == {} and set(views._views) <= {None}, "no views kept per message"
        tasks = [t for t in asyncio.all_tasks() if t.get_name().startswith("present-")]
        assert tasks == []


async def test_a_game_is_held_while_open_and_let_go_of_once_over(world):
    """What the presenter holds of a table stays while the table is open, with nothing left to show
    (the posts it has shown, its live message, its clicks), and goes once its last post is shown."""
    async with world.running_bot():
        presenter = world.bot.get_cog("Tables").presenter
        lobby = await open_table(world, rounds=1)
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])  # a click kept on its lobby
        await world.settle()
        assert presenter.busy_tables == 0 and presenter.tables_held == 1, "an open lobby, all shown, is held"
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        assert presenter.busy_tables == 0 and presenter.tables_held == 1, "an open game, all shown, is held"
        await world.play([world.alice, world.bob])
        await world.settle()
        assert "Game over" in (world.public()[-1].content or "")
        assert presenter.busy_tables == 0 and presenter.tables_held == 0, "a finished game is let go of"
    world.standin.assert_no_errors()


async def test_a_cancelled_lobby_is_let_go_of(world):
    async with world.running_bot():
        presenter = world.bot.get_cog("Tables").presenter
        lobby = await open_table(world, rounds=1)
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await world.settle()
        assert presenter.tables_held == 1
        await click_ok(world, world.alice, lobby, lobby.button("Cancel")["custom_id"])
        await world.settle()
        assert "cancelled" in str(world.public()[-1].embed) + (world.public()[-1].content or "")
        assert presenter.busy_tables == 0 and presenter.tables_held == 0, "a cancelled lobby is let go of"
        assert len(presenter.openings) == 0
    world.standin.assert_no_errors()


async def test_a_failure_after_a_saved_pick_says_the_pick_counts(world, monkeypatch):
    """The error reply says "nothing was changed" only when that is true."""
    from cogs.ui import hand as hand_items

    async with world.running_bot():
        table_message = await start_game(world, rounds=1)

        def broken_hand_text(table, view, locale):
            raise RuntimeError("rendering failed")

        hand = await (
            await world.standin.click(world.alice, table_message, table_message.button("Play a card")["custom_id"])
        ).reply()
        monkeypatch.setattr(hand_items, "hand_text", broken_hand_text)  # fails after the pick is saved
        card = next(cid for cid in hand.custom_ids if cid.startswith("6n:p:"))
        answer = await (await world.standin.click(world.alice, hand, card)).reply()
        assert "Your action was saved" in answer.content and "nothing was changed" not in answer.content
        table = world.bot.service.table_in(world.channel.id)
        assert table.game.picks[table.seat_of(world.alice.id)] == int(card.rsplit(":", 1)[1])

        # A failure before anything is saved still says so.
        other = await (
            await world.standin.click(world.bob, table_message, table_message.button("Play a card")["custom_id"])
        ).reply()
        assert "nothing was changed" in other.content


async def test_a_click_whose_save_fails_changes_nothing(world, monkeypatch):
    """The database is away for one click: the player is told nothing changed, and nothing did."""
    from data.errors import StoreUnavailable

    async with world.running_bot():
        table_message = await start_game(world, rounds=1)
        service = world.bot.service
        table = service.table_in(world.channel.id)
        before = table.checkpoint()
        commit = service.store.commit

        async def away(*args, **kwargs):
            raise StoreUnavailable("the database did not answer")

        monkeypatch.setattr(service.store, "commit", away)
        hand = await (
            await world.standin.click(world.alice, table_message, table_message.button("Play a card")["custom_id"])
        ).reply()
        card = next(cid for cid in hand.custom_ids if cid.startswith("6n:p:"))
        answer = await (await world.standin.click(world.alice, hand, card)).reply()
        assert "nothing was changed" in answer.content
        assert table.checkpoint() == before, "memory is back at the last checkpoint"

        monkeypatch.setattr(service.store, "commit", commit)  # the database is back
        again = await (await world.standin.click(world.alice, hand, card)).reply()
        assert "face down" in again.content
        assert table.game.picks[table.seat_of(world.alice.id)] == int(card.rsplit(":", 1)[1])


async def test_a_shown_post_whose_mark_fails_is_not_shown_again_and_is_marked_once_the_database_is_back(
    world, monkeypatch
):
    """The presenter could not record that a reveal was shown (the database is away): it shows no
    reveal twice, and records the mark once the database is back."""
    from data.errors import StoreUnavailable

    async with world.running_bot():
        presenter = world.bot.get_cog("Tables").presenter
        presenter.channels.retry_first = 0.01  # the test's pauses between tries
        await start_game(world, rounds=1)
        store = world.bot.service.store
        table_id = world.bot.service.table_in(world.channel.id).id
        mark_shown = store.mark_shown
        refused = []

        async def away_for_a_while(game_id, **kwargs):
            if len(refused) < 4:
                refused.append(kwargs)
                raise StoreUnavailable("the database cannot be reached")
            return await mark_shown(game_id, **kwargs)

        monkeypatch.setattr(store, "mark_shown", away_for_a_while)
        await pick_both(world)
        await asyncio.wait_for(world.settle(), 10)
        assert len(refused) == 4, "tried again after each failure, with a pause"
        assert len(reveals(world)) == 1, "shown once, though its mark failed four times"
        assert (await store.load_table(table_id)).posts == [], "every shown post is marked in the end"
        world.standin.assert_no_errors()


async def play_to_the_last_turn(world, players):
    """``players`` play until the table asks for the last card of each hand (a one-round game's
    tenth turn); the live table message then."""

    def last_turn(table):
        return offers(table, HAND_BUTTON) and turn_of(table) == (1, 10)

    return await world.play(players, until=last_turn)


def standings(world) -> list:
    return [m for m in world.public() if "Game over" in (m.content or "")]


async def test_a_5xx_during_a_clean_stop_leaves_the_standings_for_the_next_start(world):
    """Discord fails (503) while a stop shows the final standings: they stay owed, never dropped or
    marked shown, and the next start shows them, once."""
    async with world.running_bot():
        await start_game(world, rounds=1)
        table = await play_to_the_last_turn(world, [world.alice, world.bob])
        release = asyncio.Event()
        hold_posts(world.bot.get_cog("Tables").presenter, release)
        await pick_first_card(world, world.alice, table)
        await pick_first_card(world, world.bob, table)  # the game is over: its standings are owed
        assert world.bot.service.table_in(world.channel.id) is None
        # The stop begins; from now on Discord answers every message with 503 (and a click's
        # follow-up never arrives: the bot's token is left to send the standings).
        world.standin.fail_next("POST", "/webhooks/{app}/{token}", drop=True, times=10_000)
        world.standin.fail_requests(
            1.0, status=503, routes=["/channels/{channel}/messages", "/channels/{channel}/messages/{message}"]
        )
        asyncio.get_running_loop().call_later(0.3, release.set)
    assert any(f.status == 503 for f in world.standin.injected_faults), "the stop met Discord failing"
    assert standings(world) == []
    world.standin.clear_faults()
    async with world.running_bot():
        await world.settle()
        assert len(standings(world)) == 1, "the next start showed the standings, once"
        assert standings(world)[0].button("Rematch")
    world.standin.assert_no_errors()
