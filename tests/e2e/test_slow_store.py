"""A slow or absent database: every click and command that saves is answered within Discord's 3 s.

A save that takes longer than Discord waits (SQLite's write lock held elsewhere,
PostgreSQL restarting) gets the interaction deferred in time, then the usual
confirmation; a database that is away is told as such, and nothing was changed.
"""

from __future__ import annotations

import asyncio
import contextvars

import pytest

import cogs.reply
from data.errors import StoreUnavailable
from tests.e2e import driver
from tests.e2e.driver import lowest
from tests.e2e.test_table_play import click_ok, open_table
from tests.e2e.test_timers_and_restarts import start_game

# Discord's 3 s, the bot's 2 s before it defers and a 4 s save, each shortened: the same order
# (defer, then Discord's deadline, then the save's end) with the same second between the deferral
# and the deadline, and a fraction of the waiting.
DEADLINE = 1.5  # the stand-in's, for an answer (Discord's is 3 s)
DEFER_AFTER = 0.5  # cogs.reply.DEFER_AFTER (2 s)
SLOW_SAVE_SECONDS = 2.0  # longer than the deadline
GIVES_UP_AFTER = 1.75  # a store that retries past the deadline, then gives up (about 3.5 s)
MOVE_NOT_SAVED = "Your move could not be saved because the database is not reachable right now"
COMMAND_NOT_DONE = "That did not go through because the database is not reachable right now"
DEFERRED_UPDATE, THINKING = 6, 5

_inside = contextvars.ContextVar("inside_a_wrapped_save", default=False)


@pytest.fixture(autouse=True)
def shorter_deadlines(request):
    """The shortened deadline and deferral for every test here (a patch of its own: the tests undo
    their slow saves with ``monkeypatch.undo()``)."""
    if "world" in request.fixturenames:
        request.getfixturevalue("world").standin.ack_deadline = DEADLINE
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cogs.reply, "DEFER_AFTER", DEFER_AFTER)
        yield


def wrap_saves(monkeypatch, store, before_save) -> None:
    """Run ``before_save()`` ahead of each of the store's table saves (``commit``, and ``create_game``,
    which writes a new table's first commit).

    Each is wrapped; a save that calls another counts once.
    """
    for name in ("commit", "create_game"):
        save = getattr(store, name, None)
        if save is None:
            continue

        async def wrapped(*args, _save=save, **kwargs):
            if _inside.get():
                return await _save(*args, **kwargs)
            token = _inside.set(True)
            try:
                await before_save()
                return await _save(*args, **kwargs)
            finally:
                _inside.reset(token)

        monkeypatch.setattr(store, name, wrapped)


async def hang() -> None:
    """A save waiting for the database: SQLite's write lock held by another process."""
    await asyncio.sleep(SLOW_SAVE_SECONDS)


async def away() -> None:
    raise StoreUnavailable("the database server cannot be reached")


def slow_down(monkeypatch, store, name: str) -> None:
    """Make the store's ``name`` wait longer than Discord does before it answers."""
    method = getattr(store, name)

    async def slow(*args, **kwargs):
        await asyncio.sleep(SLOW_SAVE_SECONDS)
        return await method(*args, **kwargs)

    monkeypatch.setattr(store, name, slow)


def slow_saves(monkeypatch, world) -> None:
    wrap_saves(monkeypatch, world.bot.service.store, hang)


def saves_fail(monkeypatch, world) -> None:
    wrap_saves(monkeypatch, world.bot.service.store, away)


async def open_hand(world, user):
    """``user``'s hand, opened from the table: (the hand, its first card's button, that card)."""
    hand = await driver.open_hand(world.standin, user, world.table_message())
    card = lowest(hand)
    return hand.message, hand.cards[card], card


async def cards_logged(world) -> list[int]:
    """The cards the game log has picked so far."""
    table = world.bot.service.table_in(world.channel.id)
    log = await world.bot.service.store.game_log(table.id)
    return [entry.action["card"] for entry in log.actions if entry.action.get("kind") == "pick"]


async def click_a_card(world, monkeypatch, before_save, user=None):
    """Start a game, open ``user``'s hand, let every save run ``before_save`` first, and click a card.

    Returns the hand, the card's custom id, the card, and the click."""
    user = user or world.alice
    await start_game(world, rounds=1)
    hand, card_id, card = await open_hand(world, user)
    wrap_saves(monkeypatch, world.bot.service.store, before_save)
    return hand, card_id, card, await world.standin.click(user, hand, card_id)


def acked_in_time(interaction) -> None:
    assert interaction.ack_latency is not None and interaction.ack_latency < DEADLINE, interaction.ack_latency


async def test_a_slow_save_defers_the_click_then_confirms_the_move(world, monkeypatch):
    async with world.running_bot():
        _, _, card, click = await click_a_card(world, monkeypatch, hang)
        assert await click.ack() == DEFERRED_UPDATE, "deferred before Discord's deadline"
        acked_in_time(click)
        answer = await click.reply(timeout=SLOW_SAVE_SECONDS + 5)
        assert "face down" in answer.content and f"**{card}**" in answer.content, answer.content
        monkeypatch.undo()

        assert card in await cards_logged(world)
        world.standin.assert_no_errors()


async def test_a_click_while_the_database_is_away_is_told_nothing_was_saved(world, monkeypatch):
    async with world.running_bot():
        hand, card_id, card, click = await click_a_card(world, monkeypatch, away)
        answer = await click.reply()
        acked_in_time(click)
        assert answer.ephemeral_to.id == world.alice.id
        assert MOVE_NOT_SAVED in answer.content and "nothing was changed" in answer.content, answer.content
        assert "Something went wrong" not in answer.content
        monkeypatch.undo()

        assert card not in await cards_logged(world)
        # The database is back: the same click plays the card.
        again = await (await world.standin.click(world.alice, hand, card_id)).reply()
        assert "face down" in again.content
        assert card in await cards_logged(world)


async def test_a_save_that_gives_up_after_the_deadline_is_told_after_the_deferral(world, monkeypatch):
    """PostgreSQL restarting: the store retries past Discord's deadline, then gives up. The click was
    deferred meanwhile, so the could-not-be-saved answer comes as a private follow-up."""
    async with world.running_bot():

        async def retried_then_away():
            await asyncio.sleep(GIVES_UP_AFTER)
            await away()

        _, _, card, click = await click_a_card(world, monkeypatch, retried_then_away)
        assert await click.ack() == DEFERRED_UPDATE
        acked_in_time(click)
        answer = await click.followup(timeout=5)
        assert answer.ephemeral_to.id == world.alice.id and MOVE_NOT_SAVED in answer.content, answer.content
        monkeypatch.undo()
        assert card not in await cards_logged(world)
        world.standin.assert_no_errors()


async def test_the_answer_is_in_the_users_language(tmp_path, monkeypatch):
    from tests.e2e.conftest import World
    from tests.standin import DiscordStandin

    async with DiscordStandin() as standin:
        world = World(standin, tmp_path, bob_locale="de")  # bob speaks German on an English server
        async with world.running_bot():
            *_, click = await click_a_card(world, monkeypatch, away, world.bob)
            answer = await click.reply()
            assert "Dein Zug konnte nicht gespeichert werden" in answer.content, answer.content
            assert "es wurde nichts geändert" in answer.content


async def test_a_slow_start_is_deferred_and_then_posts_the_lobby(world, monkeypatch):
    async with world.running_bot():
        slow_saves(monkeypatch, world)
        start = await world.standin.slash(world.alice, world.channel, "6nimmt start", rounds=1)
        assert await start.ack() == THINKING
        acked_in_time(start)
        lobby = await start.reply(timeout=2 * SLOW_SAVE_SECONDS + 5)  # opening, then its message id
        assert lobby.ephemeral_to is None and "table open" in lobby.embed["title"]
        monkeypatch.undo()

        # The lobby works: bob joins from its button, alice starts.
        await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        assert world.table_message().button("Play a card")
        world.standin.assert_no_errors()


async def lobby_shown(world) -> None:
    """Wait until the service knows the lobby's message: /6nimmt start saves its id after answering."""
    table = world.bot.service.table_in(world.channel.id)
    for _ in range(300):
        if table.message_id is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the lobby's message id was never saved")


async def test_join_while_the_database_is_away_then_slow(world, monkeypatch):
    async with world.running_bot():
        await open_table(world, rounds=1)
        await lobby_shown(world)

        saves_fail(monkeypatch, world)
        away = await world.standin.slash(world.bob, world.channel, "6nimmt join")
        answer = await away.reply()
        acked_in_time(away)
        assert answer.ephemeral_to.id == world.bob.id and COMMAND_NOT_DONE in answer.content, answer.content
        assert "nothing was changed" in answer.content
        monkeypatch.undo()

        slow_saves(monkeypatch, world)
        slow = await world.standin.slash(world.bob, world.channel, "6nimmt join")
        assert await slow.ack() == THINKING
        acked_in_time(slow)
        joined = await slow.reply(timeout=SLOW_SAVE_SECONDS + 5)
        assert joined.ephemeral_to.id == world.bob.id and joined.content == "You joined the table.", (
            "bob was not seated by the join that failed"
        )
        monkeypatch.undo()
        await world.settle()
        assert f"<@{world.bob.id}>" in str(world.public()[0].embed), "the lobby shows bob seated"
        world.standin.assert_no_errors()


async def test_history_answers_at_once_while_the_store_is_slow(world, monkeypatch):
    async with world.running_bot():
        slow_down(monkeypatch, world.bot.service.store, "history")
        asked = await world.standin.slash(world.carol, world.channel, "6nimmt history")
        assert await asked.ack() == THINKING
        acked_in_time(asked)
        answer = await asked.reply(timeout=SLOW_SAVE_SECONDS + 5)
        assert answer.ephemeral_to is None and "No finished games yet" in answer.embed["description"]
        world.standin.assert_no_errors()


async def test_forget_me_confirmed_while_the_store_is_slow_edits_the_private_question(world, monkeypatch):
    async with world.running_bot():
        slow_down(monkeypatch, world.bot.service.store, "forget_player")
        ask = await (await world.standin.slash(world.alice, world.channel, "6nimmt forget-me")).reply()
        click = await world.standin.click(world.alice, ask, ask.button("Delete my data")["custom_id"])
        # The answer edits alice's own question: no public "thinking" message tells the channel.
        assert await click.ack() == DEFERRED_UPDATE
        acked_in_time(click)
        answer = await click.reply(timeout=SLOW_SAVE_SECONDS + 5)
        assert answer.id == ask.id and answer.ephemeral_to.id == world.alice.id, answer
        assert "nothing stored about you" in answer.content and not answer.buttons, answer.content
        assert all("nothing stored" not in m.content for m in world.public())
        world.standin.assert_no_errors()
