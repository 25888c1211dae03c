"""Every persistent item's custom id: built, at most 100 characters, and parsed back by its template.

A button outlives the process that sent it, so after a restart discord.py
finds the item by its template alone and rebuilds it with ``from_custom_id``:
what the click means must survive that round trip, for the largest ids too.
"""

from __future__ import annotations

import discord
import pytest

from cogs import stats
from cogs.ui import ITEMS
from cogs.ui.base import ReclaimButton
from cogs.ui.draft import DraftSelect
from cogs.ui.hand import HandButton, HintButton, PickButton, RemindButton, TrackerButton
from cogs.ui.lobby import LOBBY_LABELS, LobbyButton, RematchButton
from cogs.ui.specials import (
    PREFERENCES,
    ChoiceButton,
    ChoiceSelect,
    DecideButton,
    DeclineButton,
    PreferenceButton,
    SwapButton,
)
from cogs.ui.table import RowButton
from engine import Special

BIG_TABLE = 10**18 - 1  # the templates allow 18 digits
BIG_STEP = 10**9 - 1
LONGEST_SPECIAL = max((s.value for s in Special), key=len)

#: item class → (what to build, the attributes a rebuilt item must carry the same)
EXAMPLES: dict[type, list[tuple[object, tuple[str, ...]]]] = {
    ReclaimButton: [(lambda: ReclaimButton(BIG_TABLE), ("table_id",))],
    LobbyButton: [(lambda a=a: LobbyButton(a, BIG_TABLE), ("action", "table_id")) for a in LOBBY_LABELS],
    HandButton: [(lambda: HandButton(BIG_TABLE), ("table_id",))],
    TrackerButton: [(lambda: TrackerButton(BIG_TABLE), ("table_id",))],
    HintButton: [(lambda: HintButton(BIG_TABLE), ("table_id",))],
    RemindButton: [(lambda dm=dm: RemindButton(BIG_TABLE, dm), ("table_id", "dm")) for dm in (True, False)],
    PickButton: [(lambda c=c: PickButton(BIG_TABLE, BIG_STEP, c), ("table_id", "step", "card")) for c in (1, 104)],
    RowButton: [(lambda r=r: RowButton(BIG_TABLE, BIG_STEP, r, 27), ("table_id", "step", "row")) for r in range(4)],
    DraftSelect: [(lambda: DraftSelect(BIG_TABLE, BIG_STEP, 3, list(range(80, 105))), ("table_id", "step"))],
    RematchButton: [(lambda: RematchButton(BIG_TABLE), ("table_id",))],
    ChoiceButton: [
        (lambda code=code: ChoiceButton(BIG_TABLE, BIG_STEP, code), ("table_id", "step", "code"))
        for code in (
            "m:menu",
            f"m:{LONGEST_SPECIAL}",
            "m:shift:3:104",
            f"w:{LONGEST_SPECIAL}",
            f"p:{LONGEST_SPECIAL}:3:104:3:5",
            "p:stop:-:-:-:-",
        )
    ],
    ChoiceSelect: [(lambda: ChoiceSelect(BIG_TABLE, BIG_STEP, 3, [("x", "m:menu")] * 25), ("table_id", "step"))],
    DecideButton: [(lambda: DecideButton(BIG_TABLE, BIG_STEP), ("table_id", "step"))],
    DeclineButton: [
        (lambda p=p: DeclineButton(BIG_TABLE, BIG_STEP, p), ("table_id", "step", "phase")) for p in ("special", "swap")
    ],
    SwapButton: [
        (lambda s=s: SwapButton(BIG_TABLE, BIG_STEP, s.value), ("table_id", "step", "special")) for s in Special
    ],
    PreferenceButton: [(lambda p=p: PreferenceButton(BIG_TABLE, p), ("table_id", "preference")) for p in PREFERENCES],
    stats.LeaderboardPage: [
        (lambda s=s, m=m: stats.LeaderboardPage(s, m, 1000, 99999), ("scope", "metric", "min_games", "page"))
        for s in ("server", "all")
        for m in stats.METRICS
    ],
    stats.ForgetButton: [(lambda a=a: stats.ForgetButton(10**20 - 1, a), ("user_id", "answer")) for a in ("yes", "no")],
}


def test_every_registered_item_has_examples():
    registered = set(ITEMS) | set(stats.ITEMS)
    assert registered == set(EXAMPLES), "add the new item to EXAMPLES (or register the example's class)"


CASES = [(cls, build, fields) for cls, examples in EXAMPLES.items() for build, fields in examples]


@pytest.mark.parametrize(
    ("cls", "build", "fields"), CASES, ids=[f"{cls.__name__}-{i}" for i, (cls, _, _) in enumerate(CASES)]
)
async def test_a_custom_id_parses_back_to_the_same_item(cls, build, fields):
    item = build()
    custom_id = item.custom_id
    assert len(custom_id) <= 100, custom_id
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, f"{cls.__name__}'s template does not match its own id {custom_id!r}"
    rebuilt = await cls.from_custom_id(None, item.item, match)
    assert type(rebuilt) is cls and rebuilt.custom_id == custom_id
    for name in fields:
        assert getattr(rebuilt, name) == getattr(item, name), name


def test_no_two_items_claim_the_same_id():
    """discord.py gives a click to the first template that matches: each id must have one owner."""
    for cls, build, _ in CASES:
        custom_id = build().custom_id
        owners = [other.__name__ for other in EXAMPLES if other.__discord_ui_compiled_template__.fullmatch(custom_id)]
        assert owners == [cls.__name__], (custom_id, owners)


def test_a_hand_card_id_names_only_table_step_and_card():
    """The card is secret: its id is only ever sent to the hand's owner, and carries nothing else."""
    assert PickButton(12, 34, 56).custom_id == "6n:p:12:34:56"
    assert isinstance(PickButton(12, 34, 56).item, discord.ui.Button)
