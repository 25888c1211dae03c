"""Every variant's table, drawn by the face at every step of a seeded game, within Discord's limits.

Classic at ten seats with the longest names, Pro through its draft, and
Anniversary through its special cards (with row markers) are played to the
end; at each step the public message, its buttons, every hand and the
helpers' tracker are rendered in English and every language with a catalog.
"""

from __future__ import annotations

import random

import discord
import pytest

from bot.tables.table import Seat, Table, TableOptions, TableStatus
from cogs.i18n import languages
from cogs.render.images import render_table
from cogs.render.specials import IMAGE_MARKERS
from cogs.render.text import clip, lobby_embed, reveal_text, table_embed
from cogs.render.tracker import tracker_text
from cogs.ui.hand import draft_hand_text, draft_hand_view, hand_text, hand_view
from cogs.ui.table import table_view
from engine import Game, Phase
from tests.engine.anniversary_helpers import random_anniversary_action
from tests.engine.helpers import random_action

LOCALES = (None, *languages())
LONG_NAME = "W" * 32  # Discord's longest display name, in its widest letter

VARIANTS = {  # variant → (seats, options)
    "classic": (10, dict(target=66)),
    "pro": (6, dict(rounds=2, target=None)),
    "anniversary": (8, dict()),
}


def embed_problems(embed: discord.Embed) -> list[str]:
    problems = []
    if len(embed.title or "") > 256:
        problems.append("title over 256")
    if len(embed.description or "") > 4096:
        problems.append("description over 4096")
    if len(embed.fields) > 25:
        problems.append("over 25 fields")
    for field in embed.fields:
        if not field.value or len(field.value) > 1024 or len(field.name) > 256:
            problems.append(f"field {field.name!r}: {len(field.value or '')} characters")
    if len(embed.footer.text or "") > 2048:
        problems.append("footer over 2048")
    if len(embed) > 6000:
        problems.append(f"embed of {len(embed)} characters")
    return problems


def view_problems(view) -> list[str]:
    if view is None or view is discord.utils.MISSING:
        return []
    problems = []
    if len(view.children) > 25:
        problems.append(f"{len(view.children)} components")
    for item in view.children:
        if len(getattr(item, "custom_id", "") or "") > 100:
            problems.append(f"custom id {item.custom_id!r}")
        if isinstance(item, discord.ui.Select) and len(item.options) > 25:
            problems.append("a select with over 25 options")
        if isinstance(item, discord.ui.Button) and len(item.label or "") > 80:
            problems.append(f"button label over 80: {item.label!r}")
        if isinstance(item, discord.ui.Select):
            if len(item.placeholder or "") > 150:
                problems.append(f"placeholder over 150: {item.placeholder!r}")
            problems += [f"option over 100: {o.label!r}" for o in item.options if len(o.label) > 100]
    rows: dict[int, int] = {}
    for item in view.children:
        rows[item._rendered_row or 0] = rows.get(item._rendered_row or 0, 0) + item.width
    if any(width > 5 for width in rows.values()):
        problems.append(f"a row over 5 wide: {rows}")
    return problems


def new_table(variant: str, seed: int) -> Table:
    seats, options = VARIANTS[variant]
    options = TableOptions(variant=variant, helpers=True, **options)
    table = Table(
        7, 1, 2, host_id=100, options=options, seats=[Seat(100 + i, f"{LONG_NAME[:31]}{i}") for i in range(seats)]
    )
    table.game = Game.new(options.game_config(seats), seed=seed)
    table.status = TableStatus.PLAYING
    table.deadline = 1_900_000_000
    return table


def check_state(table: Table, events: list, locale, views: list) -> list[str]:
    """``views``: each seat's ``game.view(seat)`` (the same in every language: made once a step)."""
    problems = embed_problems(table_embed(table, locale, notices=["x" * 300] * 5))
    problems += view_problems(table_view(table, locale))
    if events:
        text = reveal_text(table, events, locale)
        problems += [] if len(clip(text)) <= 2000 else ["reveal over 2000"]
    for seat, view in enumerate(views):
        if view.phase is Phase.DRAFT:
            text, buttons = draft_hand_text(view, locale), draft_hand_view(table, view, locale)
        else:
            text, buttons = hand_text(table, view, locale), hand_view(table, view, locale)
        if len(text) > 2000:
            problems.append(f"hand of seat {seat}: {len(text)} characters")
        problems += view_problems(buttons)
        if view.phase is not Phase.DRAFT and len(tracker_text(table, view, locale)) > 2000:
            problems.append(f"tracker of seat {seat} over 2000")
    return problems


#: Each variant's game is checked in every language, a third of them per test: the same game
#: (its random choices are seeded by the variant) in three tests that can run side by side.
SHARES = 3


@pytest.mark.slow
@pytest.mark.parametrize("share", range(SHARES))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_step_of_a_game_renders_within_discords_limits(variant, share):
    locales = LOCALES[share::SHARES]
    rng = random.Random(f"render-{variant}")
    table = new_table(variant, seed=rng.randrange(10**6))
    for locale in locales:
        assert embed_problems(lobby_embed(table, locale)) == []
    choose = random_anniversary_action if variant == "anniversary" else random_action
    seen_phases, marked = set(), 0
    steps = 0
    while not table.game.is_over:
        events = table.game.apply(choose(table.game, rng))
        table.step += 1
        steps += 1
        seen_phases.add(table.game.view(None).phase)
        markers = getattr(table.game.view(None), "row_markers", None)
        marked += bool(markers and any(markers))
        views = [table.game.view(seat) for seat in range(table.game.players)]
        for locale in locales:
            assert check_state(table, events, locale, views) == [], f"{variant}, step {steps}, {locale}"
    assert steps > 20
    if variant == "pro":
        assert Phase.DRAFT in seen_phases
    if variant == "anniversary":
        assert marked, "no state with a marker on a row was rendered"
        assert Phase.SPECIAL in seen_phases


def test_the_table_picture_draws_anniversary_markers():
    rng = random.Random("picture")
    table = new_table("anniversary", seed=3)
    while True:
        table.game.apply(random_anniversary_action(table.game, rng, eager=1.0))
        view = table.game.view(None)
        if any(view.row_markers) or table.game.is_over:
            break
    assert any(view.row_markers), "the game ended before any marker was laid"
    png = render_table(
        [r.cards for r in view.rows],
        markers=[[IMAGE_MARKERS[m] for m in row] for row in view.row_markers],
        capacities=view.row_capacities,
    )
    assert png.startswith(b"\x89PNG")


def test_the_limit_checks_see_a_broken_message():
    embed = discord.Embed(title="t", description="d")
    embed.add_field(name="n", value="x" * 1025)
    assert embed_problems(embed) == ["field 'n': 1025 characters"]
    view = discord.ui.View()
    for i in range(5):
        view.add_item(discord.ui.Button(label=str(i), custom_id=f"b{i}", row=0))
    view.add_item(discord.ui.Button(label="long", custom_id="x" * 101, row=1))
    assert view_problems(view) == [f"custom id {'x' * 101!r}"]
    labelled = discord.ui.View()
    labelled.add_item(discord.ui.Button(label="L" * 81, custom_id="b"))
    labelled.add_item(
        discord.ui.Select(
            custom_id="s", placeholder="P" * 151, options=[discord.SelectOption(label="O" * 101, value="o")]
        )
    )
    assert view_problems(labelled) == [
        f"button label over 80: {'L' * 81!r}",
        f"placeholder over 150: {'P' * 151!r}",
        f"option over 100: {'O' * 101!r}",
    ]
