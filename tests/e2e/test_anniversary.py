"""The Anniversary variant through the real bot: Decide prompts, every special card, swaps,
the prompt timer and preferences, intruders, a restart mid-prompt and a whole game with an AI.

Scenarios seat the live game at a chosen position (``AnniversaryGame.from_position``) before
anyone plays; from there every step is a real click or slash command.
"""

from __future__ import annotations

import os
import random

import pytest

from bot.tables.lobby import Lobby
from engine import AnniversaryGame, GameConfig, Phase, Special
from tests.e2e.driver import lowest, open_hand, play_card, turn_of
from tests.e2e.test_table_play import click_ok, open_table
from tests.e2e.test_timers_and_restarts import run_out_the_clock

CONFIG = GameConfig(2, "anniversary")
PRIVATE_PREFIXES = ("6n:p:", "6n:sx:", "6n:sc:", "6n:sd:", "6n:sw:", "6n:pf:")


async def start_anniversary(world, prompts: str | None = "always", **options):
    """Alice and Bob at an Anniversary table; both chose ``prompts`` (None: the default) with
    ``/6nimmt prompts``, so the scenarios below are asked about every special card."""
    lobby = await open_table(world, variant="anniversary", **options)
    await click_ok(world, world.bob, lobby, lobby.button("Join")["custom_id"])
    await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
    await world.settle()
    if prompts is not None:
        for user in (world.alice, world.bob):
            await (await world.standin.slash(user, world.channel, "6nimmt prompts", when=prompts)).reply()
    return world.bot.service.table_in(world.channel.id)


async def seat_position(
    world, table, alice, bob, rows, alice_hand, bob_hand, alice_specials, bob_specials=(), **kwargs
):
    """Replace the dealt game with a chosen position (seat order as the table has it), committed as
    any change is, so that what players are shown is drawn from it."""
    hands, specials = [None, None], [None, None]
    a, b = table.seat_of(alice.id), table.seat_of(bob.id)
    hands[a], hands[b] = alice_hand, bob_hand
    specials[a], specials[b] = list(alice_specials), list(bob_specials)
    transactions = world.bot.service.tx
    async with transactions.acting(table):
        table.game = AnniversaryGame.from_position(CONFIG, rows=rows, hands=hands, specials=specials, **kwargs)
        table.outlook = None  # the outlook of the dealt game's pause, which this one replaces
        await transactions.commit(table)


async def pick(world, user, card) -> str:
    """Open the hand from the table, play ``card``; returns what the hand said when opened."""
    hand = await open_hand(world.standin, user, world.table_message())
    await play_card(world.standin, hand, card)
    await world.settle()
    return hand.text


async def open_prompt(world, user):
    """Press the public Decide button; returns the ephemeral prompt."""
    message = world.table_message()
    prompt = await (await world.standin.click(user, message, message.button("Decide")["custom_id"])).reply()
    assert prompt.ephemeral_to.id == user.id
    return prompt


async def press(world, user, message, label_start):
    button = next(b for b in message.buttons if b.get("label", "").startswith(label_start))
    return await (await world.standin.click(user, message, button["custom_id"])).reply()


def last_public_text(world) -> str:
    return "\n".join((m.content or "") for m in world.public()[-3:])


def assert_private_stays_private(world):
    for message in world.public():
        assert not any(cid.startswith(PRIVATE_PREFIXES) for cid in message.custom_ids)
        assert "Your special cards" not in (message.content or "") + str(message.embeds)


async def test_every_special_card_through_the_real_buttons(world):
    async with world.running_bot():
        table = await start_anniversary(world)
        alice, bob = world.alice, world.bob

        # Stop (a choice among rows), then the placement the rulebook describes.
        await seat_position(
            world, table, alice, bob, [[5, 9, 12, 16, 20], [7, 18], [40], [60]], [22, 1], [90, 91], [Special.STOP]
        )
        await pick(world, alice, 22)
        await pick(world, bob, 90)
        assert table.game.phase is Phase.SPECIAL
        assert f"<@{alice.id}>: your **22** is next" in world.public()[-1].content
        prompt = await open_prompt(world, alice)
        assert "Without a special card your **22** goes to row 1 and you take it: **8**🐮." in prompt.content
        assert "**Stop** — block a row" in prompt.content
        choices = await press(world, alice, prompt, "Stop")
        done = await press(world, alice, choices, "Stop on row 1")
        assert "You played **Stop**" in done.content
        await world.settle()
        assert "alice plays **Stop** on row 1, then places 22 in row 2." in last_public_text(world)
        assert "[Stop]" in world.table_message().embed["description"]

        # 5th Row: the only way to play it, so its button plays it at once.
        await seat_position(world, table, alice, bob, [[10], [20], [30], [40]], [23, 1], [90, 91], [Special.FIFTH_ROW])
        await pick(world, alice, 23)
        await pick(world, bob, 90)
        await press(world, alice, await open_prompt(world, alice), "5th Row: 23 starts row 5")
        await world.settle()
        assert "alice plays **5th Row**: 23 starts row 5." in last_public_text(world)
        assert "[5th Row]" in world.table_message().embed["description"]

        # 7 nimmt! on the full row the card goes to.
        await seat_position(
            world, table, alice, bob, [[10, 11, 12, 13, 14], [60], [70], [80]], [20, 1], [90, 91], [Special.SEVEN_NIMMT]
        )
        await pick(world, alice, 20)
        await pick(world, bob, 90)
        await press(world, alice, await open_prompt(world, alice), "7 nimmt! on row 1")
        await world.settle()
        assert (
            "alice plays **7 nimmt!** on row 1: it now holds six cards, then places 20 in row 1."
            in last_public_text(world)
        )
        assert "[7 nimmt!]" in world.table_message().embed["description"]

        # Insert a low card between two cards instead of taking a row.
        await seat_position(world, table, alice, bob, [[5, 11], [40], [60], [80]], [10, 1], [90, 91], [Special.INSERT])
        await pick(world, alice, 10)
        await pick(world, bob, 90)
        prompt = await open_prompt(world, alice)
        assert "lower than every open row" in prompt.content
        await press(world, alice, await press(world, alice, prompt, "Insert"), "Insert into row 1 between 5 and 11")
        await world.settle()
        assert "alice plays **Insert**: 10 goes into row 1 at place 2." in last_public_text(world)

        # Replace: another card of the hand is placed instead.
        await seat_position(
            world, table, alice, bob, [[10], [20], [30], [40]], [25, 15, 2], [90, 91, 92], [Special.REPLACE]
        )
        await pick(world, alice, 25)
        await pick(world, bob, 90)
        await press(
            world, alice, await press(world, alice, await open_prompt(world, alice), "Replace"), "Place 15 instead"
        )
        await world.settle()
        assert (
            "alice plays **Replace**: 25 goes back to the hand, 15 is placed instead, then places 15 in row 1."
            in last_public_text(world)
        )
        assert 25 in table.game.hands[table.seat_of(alice.id)]

        # Shift: which card and where in one list, so two clicks.
        await seat_position(world, table, alice, bob, [[10, 20], [30], [40], [50]], [25, 1], [90, 91], [Special.SHIFT])
        await pick(world, alice, 25)
        await pick(world, bob, 90)
        where = await press(world, alice, await open_prompt(world, alice), "Shift")
        assert "Move 20 to row 2 → 25 in row 1 — no take" in [b["label"] for b in where.buttons]
        await press(world, alice, where, "Move 20 to row 2")
        await world.settle()
        assert "alice plays **Shift**: 20 moves from row 1 to row 2, then places 25 in row 1." in last_public_text(
            world
        )

        # Negative = Positive on a low card: 21 ways (row × card) come as a select.
        rows = [[10, 11, 12, 13, 14], [20, 21, 22, 23, 24], [30, 31, 32, 33, 34], [40, 41, 42, 43, 44, 45]]
        await seat_position(
            world,
            table,
            alice,
            bob,
            rows,
            [3, 1],
            [90, 91],
            [Special.NEGATIVE_POSITIVE],
            sevens=[False, False, False, True],
        )
        await pick(world, alice, 3)
        await pick(world, bob, 90)
        choices = await press(world, alice, await open_prompt(world, alice), "Negative = Positive")
        select = choices.selects[0]
        assert len(select["options"]) == 21
        value = next(o["value"] for o in select["options"] if o["label"].startswith("Take row 1, cancel with 11 →"))
        # Forged values are refused with a clear message and change nothing.
        before = table.game.to_dict()
        for forged, says in (
            ("p:stop:9:-:-:-", "do not hold a Stop"),
            ("drop table", "does not exist"),
            ("p:negative_positive:0:99:-:-", "name a number card"),
        ):
            refused = await world.standin.click_raw(
                alice, choices, select["custom_id"], component_type=3, values=[forged]
            )
            assert says in (await refused.reply()).content
        assert table.game.to_dict() == before
        await (await world.standin.select(alice, choices, select["custom_id"], [value])).reply()
        await world.settle()
        news = last_public_text(world)
        assert "alice plays **Negative = Positive** with 3." in news
        assert "alice's 11 cancels 10, 12 and 13 from their pile" in news
        assert_private_stays_private(world)
        world.standin.assert_no_errors()


async def test_decline_then_swap_and_an_intruder_is_refused(world):
    async with world.running_bot():
        table = await start_anniversary(world)
        alice, bob, carol = world.alice, world.bob, world.carol
        # Alice's 20 takes the full row; she declines her Stop, then may swap it.
        await seat_position(
            world, table, alice, bob, [[10, 11, 12, 13, 14], [60], [70], [80]], [20, 1], [90, 91], [Special.STOP]
        )
        await pick(world, alice, 20)
        await pick(world, bob, 90)
        message = world.table_message()
        decide = message.button("Decide")["custom_id"]
        before = table.game.to_dict()
        outsider = await (await world.standin.click(carol, message, decide)).reply()
        assert outsider.ephemeral_to.id == carol.id and "not at this table" in outsider.content
        other = await (await world.standin.click(bob, message, decide)).reply()
        assert other.ephemeral_to.id == bob.id and "not yours" in other.content and "alice" in other.content
        assert table.game.to_dict() == before, "refused clicks change nothing"

        prompt = await open_prompt(world, alice)
        again = await open_prompt(world, alice)  # a double click opens a second prompt
        assert "you take it" in prompt.content
        declined = await press(world, alice, prompt, "No special card")
        assert "no special card" in declined.content
        await world.settle()
        assert table.game.phase is Phase.SWAP
        assert f"<@{alice.id}>: you took a row" in world.public()[-1].content
        swap = await open_prompt(world, alice)
        # The second prompt is refused now: the game has moved on.
        stale = await press(world, alice, again, "No special card")
        assert "earlier turn" in stale.content
        await press(world, alice, swap, "Swap Stop")
        await world.settle()
        assert "alice swaps a **Stop** for the top card of the deck." in last_public_text(world)
        assert table.game.phase is Phase.PICK and len(table.game.specials[table.seat_of(alice.id)]) == 1
        assert_private_stays_private(world)
        world.standin.assert_no_errors()


async def test_declining_and_swapping_are_one_answer(world):
    async with world.running_bot():
        table = await start_anniversary(world, prompts="saving")
        alice, bob = world.alice, world.bob
        # Alice's 20 takes the full row (11🐮); her Stop there would save 8, so she is asked,
        # and she may decline and swap with one click instead of waiting for a second prompt.
        await seat_position(
            world, table, alice, bob, [[10, 11, 12, 13, 14], [60], [70], [80]], [20, 1], [90, 91], [Special.STOP]
        )
        await pick(world, alice, 20)
        await pick(world, bob, 90)
        prompt = await open_prompt(world, alice)
        assert prompt.button("No special card → take row 1 — 🐮 11")
        answer = await press(world, alice, prompt, "No special card, then swap Stop → take row 1 — 🐮 11")
        assert "You play no special card and swap a **Stop**" in answer.content
        await world.settle()
        assert table.game.phase is Phase.PICK, "no second pause for the swap"
        assert "alice swaps a **Stop** for the top card of the deck." in last_public_text(world)
        seat = table.seat_of(alice.id)
        assert table.game.piles[seat] == [10, 11, 12, 13, 14] and len(table.game.specials[seat]) == 1
        world.standin.assert_no_errors()


async def test_the_prompt_timer_plays_no_special_card(world):
    async with world.running_bot():
        table = await start_anniversary(world)
        alice, bob = world.alice, world.bob
        await seat_position(world, table, alice, bob, [[10, 20], [30], [40], [50]], [25, 1], [90, 91], [Special.STOP])
        await pick(world, alice, 25)
        await pick(world, bob, 90)
        decide = world.table_message()
        prompt = await open_prompt(world, alice)
        seconds = table.options.special_seconds
        assert table.deadline == world.clock() + seconds, "the short special-card timer, not the turn's"
        await run_out_the_clock(world, seconds + 1)
        assert table.game.phase is Phase.PICK and table.game.rows[0] == [10, 20, 25]
        # The newest table message says what the timer decided for alice; the Decide message it
        # superseded is never edited, and its button answers that the table moved on.
        newest = world.table_message()
        assert newest.id != decide.id
        assert "alice did not decide in time: no special card was played on their 25." in str(newest.embed)
        old = world.standin.message(decide.id)
        assert old.content == decide.content and old.button("Decide")
        moved = await (await world.standin.click(alice, old, old.button("Decide")["custom_id"])).reply()
        assert moved.ephemeral_to.id == alice.id and "earlier turn" in moved.content
        assert (
            f"The table has moved on: https://discord.com/channels/{world.guild.id}/{world.channel.id}/"
            f"{newest.id}" in moved.content
        )
        assert table.game.specials[table.seat_of(alice.id)] == [Special.STOP]
        assert table.seats[table.seat_of(alice.id)].missed_turns == 0, "declining is not missing a turn"
        late = await press(world, alice, prompt, "Stop")
        assert "earlier turn" in late.content
        world.standin.assert_no_errors()


async def test_preference_never_keeps_the_game_going(world):
    async with world.running_bot():
        table = await start_anniversary(world)
        alice, bob = world.alice, world.bob
        answer = await (await world.standin.slash(bob, world.channel, "6nimmt prompts", when="never")).reply()
        assert answer.ephemeral_to.id == bob.id and "will not ask you" in answer.content
        # From the hand: alice only wants to be asked when a special card saves her bullheads.
        hand = await (
            await world.standin.click(
                alice, world.table_message(), world.table_message().button("Play a card")["custom_id"]
            )
        ).reply()
        assert "Your special cards" in hand.content
        await press(world, alice, hand, "Ask when it saves me bullheads")
        assert [s.prompts for s in table.seats] == (
            ["saving", "never"] if table.seat_of(alice.id) == 0 else ["never", "saving"]
        )

        # Bob could Stop a row, alice too, but neither card takes a row: nobody is asked.
        await seat_position(
            world, table, alice, bob, [[10, 20], [30], [40], [50]], [25, 1], [35, 91], [Special.STOP], [Special.STOP]
        )
        await pick(world, alice, 25)
        await pick(world, bob, 35)
        assert table.game.phase is Phase.PICK and table.game.turn == 2
        assert table.game.rows == [[10, 20, 25], [30, 35], [40], [50]]
        assert not any("Decide" in str(m.buttons) for m in world.public()[-1:])
        world.standin.assert_no_errors()


async def test_a_restart_mid_prompt_keeps_the_prompt_and_its_timer(world):
    async with world.running_bot():
        table = await start_anniversary(world)
        await seat_position(
            world, table, world.alice, world.bob, [[10, 20], [30], [40], [50]], [25, 1], [90, 91], [Special.STOP]
        )
        await pick(world, world.alice, 25)
        await pick(world, world.bob, 90)
        message = world.table_message()
        old_prompt = await open_prompt(world, world.alice)
        deadline, step = table.deadline, table.step
    async with world.running_bot():
        await world.settle()
        table = world.bot.service.table_in(world.channel.id)
        assert table.game.phase is Phase.SPECIAL and table.step == step
        assert world.bot.service.wakes_at(table.id) == deadline
        # The public Decide button and the prompt opened before the restart both still work.
        prompt = await (await world.standin.click(world.alice, message, message.button("Decide")["custom_id"])).reply()
        assert "Without a special card your **25** goes to row 1." in prompt.content
        choices = await press(world, world.alice, old_prompt, "Stop")
        await press(world, world.alice, choices, "Stop on row 2")
        await world.settle()
        assert "alice plays **Stop** on row 2, then places 25 in row 1." in last_public_text(world)
        world.standin.assert_no_errors()


def spawned_processes() -> set[int]:
    """The bot's worker processes this process has started (alive now)."""
    found = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline") as cmdline:
                spawned = "bot.tables.workers" in cmdline.read()
        except OSError:  # ended meanwhile
            continue
        if parent == os.getpid() and spawned:
            found.add(int(pid))
    return found


@pytest.mark.slow
@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_whole_anniversary_game_with_an_ai_seat(world, monkeypatch):
    rng = random.Random(7)
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: 7))  # the same deal every run
    already_running = spawned_processes()
    async with world.running_bot():
        table = await start_anniversary(world, ai_players=1, ai_level="hard")  # the search, in the bot's worker
        assert len(table.seats) == 3 and table.options.rounds == 2 and table.options.target is None
        prompts = plays = told_round_two = 0

        def card(hand):
            nonlocal told_round_two
            told_round_two += turn_of(hand.table) == (2, 1) and "drew new special cards" in hand.text
            return lowest(hand)

        async def decide(user, message):
            nonlocal prompts, plays
            prompt = await open_prompt(world, user)
            prompts += 1
            offered = [b for b in prompt.buttons if b["custom_id"].startswith(("6n:sx:", "6n:sw:"))]
            if offered and rng.random() < 0.6:
                answer = await (await world.standin.click(user, prompt, rng.choice(offered)["custom_id"])).reply()
                # A menu: take its first choice (a select's first option, or the first button).
                while answer.selects or any(
                    b["custom_id"].startswith("6n:sx:") and b["label"] != "Back" for b in answer.buttons
                ):
                    if answer.selects:
                        select = answer.selects[0]
                        answer = await (
                            await world.standin.select(
                                user, answer, select["custom_id"], [select["options"][0]["value"]]
                            )
                        ).reply()
                    else:
                        first = next(
                            b for b in answer.buttons if b["custom_id"].startswith("6n:sx:") and b["label"] != "Back"
                        )
                        answer = await (await world.standin.click(user, answer, first["custom_id"])).reply()
                plays += "You played" in answer.content or "You swapped" in answer.content
            else:
                swap = any(cid.startswith("6n:sd:") and cid.endswith(":swap") for cid in prompt.custom_ids)
                await press(world, user, prompt, ("No special card", "Keep my cards")[swap])

        await world.play([world.alice, world.bob], card=card, decide=decide, moves=800)
        await world.settle()
        assert "Game over" in world.public()[-1].content
        assert prompts > 0 and plays > 0
        ai_seat = next(i for i, s in enumerate(table.seats) if s.is_ai)
        assert table.game.round == 2
        news = "\n".join(m.content or "" for m in world.public())
        assert "Everyone draws" in news, "round 2's special cards are announced (counts only)"
        assert told_round_two == 2, "each player's own hand tells them of round 2's special cards"
        ai_plays = [line for line in news.splitlines() if line.startswith(f"✨ {table.seats[ai_seat].name} plays **")]
        assert ai_plays, "the AI seat plays special cards through the AI interface"
        assert world.bot.service.ai.fallbacks == 0 and world.bot.service.ai.decisions > 0
        assert_private_stays_private(world)
        # The hard seat's searches, the table pictures and the score chart all ran in one worker.
        assert any(a.filename == "table.png" for m in world.public() for a in m.attachments)
        assert [a.filename for a in world.public()[-1].attachments] == ["scores.png"]
        assert len(spawned_processes() - already_running) == 1

        # The exported log tells the special cards as the channel did (plain text, no Markdown).
        export = await (
            await world.standin.slash(world.bob, world.channel, "6nimmt history", game=str(table.id))
        ).reply()
        log_text = next(a.data.decode() for a in export.attachments if a.filename.endswith(".txt"))
        played = [line.replace("**", "") for line in news.splitlines() if line.startswith("✨ ") and " plays " in line]
        assert played and all(line in log_text for line in played), (played, log_text)
        world.standin.assert_no_errors()
