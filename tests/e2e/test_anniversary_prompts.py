"""Anniversary prompts at the default preference, as three players at a table of five see them.

A whole game through the real bot: every pick from the hand's buttons, every prompt opened
with the public **Decide** button. What is asserted is what the players read: each offered
choice names its consequence, a special card held twice is listed once with its count, a
retired Decide message says what was decided, and the table pauses for a special-card
decision at most every other turn (the target ``benchmarks/prompts.py`` measures at scale).
"""

from __future__ import annotations

import re

import pytest

from bot.tables.lobby import Lobby
from bot.tables.table import DEFAULT_PROMPTS
from tests.e2e.driver import turn_of
from tests.e2e.test_anniversary import assert_private_stays_private, start_anniversary
from tests.e2e.test_seats_and_helpers import reply
from tests.e2e.test_table_play import click_ok, open_table

SEED = 4  # a deal where a player holds two of a kind and big savings come up (see the asserts)
#: A choice's consequence, as special_text.consequence_text words it.
CONSEQUENCE = re.compile(
    r" → (take row \d — 🐮 -?\d+|\d+ in row \d — no take|"
    r"you choose a row to take — 🐮 -?\d+ at best|no take)$"
)
CHOICE_PREFIXES = ("6n:sx:", "6n:sd:")


def choice_labels(message) -> list[str]:
    """The labels of a prompt's plays and its decline (not Back, the preferences or menus)."""
    return [
        b["label"]
        for b in message.buttons
        if b["custom_id"].startswith(CHOICE_PREFIXES) and not b["label"].endswith("…") and b["label"] != "Back"
    ] + [o["label"] for s in message.selects for o in s["options"]]


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_a_game_at_the_default_asks_only_for_big_savings_and_says_what_each_choice_does(world, monkeypatch):
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: SEED))
    async with world.running_bot():
        lobby = await open_table(world, variant="anniversary", ai_players=2)
        for user in (world.bob, world.carol):
            await click_ok(world, user, lobby, lobby.button("Join")["custom_id"])
        await click_ok(world, world.alice, lobby, lobby.button("Start")["custom_id"])
        await world.settle()
        table = world.bot.service.table_in(world.channel.id)
        users = {table.seat_of(u.id): u for u in (world.alice, world.bob, world.carol)}
        assert len(table.seats) == 5 and all(table.seats[s].prompts == DEFAULT_PROMPTS for s in users)

        prompts = doubled = 0
        seen_turns = set()

        def card(hand):
            nonlocal doubled
            seen_turns.add(turn_of(hand.table))
            # A kind held twice is one line with its count.
            names = re.findall(r"\*\*([^*]+)\*\*(?: ×\d)? — ", hand.text)
            assert len(names) == len(set(names)), hand.text
            doubled += " ×2 — " in hand.text or " ×3 — " in hand.text
            cards = list(hand.cards)
            return cards[len(cards) // 2]

        async def decide(user, message):
            nonlocal prompts
            assert message.button("Decide") and f"<@{user.id}>" in message.content
            prompt = await (await world.standin.click(user, message, message.button("Decide")["custom_id"])).reply()
            prompts += 1
            shown = choice_labels(prompt)
            # Each choice, the decline included, says what it leads to; a kind held twice is one button.
            assert shown and all(CONSEQUENCE.search(label) for label in shown), shown
            menus = [b for b in prompt.buttons if b["custom_id"].startswith("6n:sx:") and b["label"].endswith("…")]
            kinds = [b["label"].split(" ×")[0].rstrip("…") for b in menus]
            assert len(kinds) == len(set(kinds))
            if menus:  # one click opens every choice of that card (Shift's card and target together)
                prompt = await (await world.standin.click(user, prompt, menus[0]["custom_id"])).reply()
                offered = choice_labels(prompt)
                assert offered and all(CONSEQUENCE.search(label) for label in offered), offered
            # The choice that saves the most: the big saving the default asked for.
            best = min(
                (b for b in prompt.buttons if b["custom_id"].startswith("6n:sx:") and CONSEQUENCE.search(b["label"])),
                default=None,
                key=lambda b: int((re.search(r"🐮 (-?\d+)", b["label"]) or [0, 0])[1]),
            )
            target = best or prompt.button(custom_id=r"6n:sd:.*")
            answer = await (await world.standin.click(user, prompt, target["custom_id"])).reply()
            assert "See the channel" in answer.content
            await world.settle()
            # The Decide message is superseded, never edited back: the messages after it go on from
            # the decision and tell what was played.
            assert world.standin.message(message.id).content == message.content
            later = [m for m in world.public() if m.id > message.id]
            assert later, "a newer message goes on from the decision"
            if "You played" in answer.content:
                assert any(" plays **" in (m.content or "") for m in later)

        await world.play([world.alice, world.bob, world.carol], card=card, decide=decide, moves=800)
        turns = len(seen_turns)
        assert turns == 24, "two rounds of twelve cards"
        assert prompts >= 1, "this deal has a big saving to ask about"
        assert doubled, "this deal gives a player two special cards of a kind"
        assert prompts / turns <= 0.5, (prompts, turns)
        assert_private_stays_private(world)
        world.standin.assert_no_errors()


def test_the_default_names_the_saving_it_asks_for():
    from bot.tables.specials import SAVING_MIN
    from cogs.ui.specials import PREFERENCES

    assert f"over {SAVING_MIN['big'] - 1}🐮" in PREFERENCES["big"][0]
    assert f"more than {SAVING_MIN['big'] - 1}🐮" in PREFERENCES["big"][1]


async def test_a_preference_button_from_before_the_rename_is_answered_not_dropped(world):
    """The "saving" preference was once called "taking"; a hand that still shows that button is
    answered that the button is no longer valid (it raised inside discord.py, unanswered)."""
    async with world.running_bot():
        table = await start_anniversary(world)
        before = table.seats[table.seat_of(world.alice.id)].prompts
        hand = await reply(world, world.alice, "6nimmt hand")
        old = f"6n:pf:{table.id}:taking"
        button = next(b for b in hand.buttons if b["custom_id"] == f"6n:pf:{table.id}:saving")
        button["custom_id"] = old  # the hand as it was drawn before the rename
        answer = await (await world.standin.click(world.alice, hand, old)).reply()
        assert answer.ephemeral_to.id == world.alice.id and "not valid" in answer.content
        assert table.seats[table.seat_of(world.alice.id)].prompts == before, "nothing was changed"
        world.standin.assert_no_errors()
