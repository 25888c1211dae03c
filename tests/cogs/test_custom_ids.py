"""Every persistent item's custom id: built, at most 100 characters, and parsed back by its template.

A button outlives the process that sent it, so after a restart discord.py
finds the item by its template alone and rebuilds it with ``from_custom_id``:
what the click means must survive that round trip, for the largest ids too.
"""

from __future__ import annotations

import re

import discord
import pytest

from cogs import stats
from cogs.ui import ITEMS
from cogs.ui.base import FLAG, IdFormat, ReclaimButton, digits, one_of
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
from engine import Phase, Special

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


#: Buttons already sent carry these ids: each item must still build them and its template match them.
SENT = [
    (lambda: ReclaimButton(12), "6n:rc:12"),
    (lambda: LobbyButton("join", 12), "6n:l:join:12"),
    (lambda: LobbyButton("cancel", 12), "6n:l:cancel:12"),
    (lambda: HandButton(12), "6n:h:12"),
    (lambda: TrackerButton(12), "6n:tr:12"),
    (lambda: HintButton(12), "6n:hi:12"),
    (lambda: RemindButton(12, True), "6n:rm:12:1"),
    (lambda: RemindButton(12, False), "6n:rm:12:0"),
    (lambda: PickButton(12, 34, 56), "6n:p:12:34:56"),
    (lambda: RowButton(12, 34, 3), "6n:r:12:34:3"),
    (lambda: DraftSelect(12, 34, 2), "6n:d:12:34:2"),
    (lambda: RematchButton(12), "6n:m:12"),
    (lambda: ChoiceButton(12, 34, "p:shift:1:30:2:-"), "6n:sx:12:34:p:shift:1:30:2:-"),
    (lambda: ChoiceSelect(12, 34, 1), "6n:sc:12:34:1"),
    (lambda: DecideButton(12, 34), "6n:s:12:34"),
    (lambda: DeclineButton(12, 34, Phase.SPECIAL), "6n:sd:12:34:special"),
    (lambda: DeclineButton(12, 34, "swap"), "6n:sd:12:34:swap"),
    (lambda: SwapButton(12, 34, "stop"), "6n:sw:12:34:stop"),
    (lambda: PreferenceButton(12, "saving"), "6n:pf:12:saving"),
    (lambda: stats.LeaderboardPage("server", "rating", 5, 2), "6s:lb:s:o:5:2"),
    (lambda: stats.LeaderboardPage("global", "games", 0, 0), "6s:lb:a:g:0:0"),
    (lambda: stats.LeaderboardPage("a", "wins", 3, -1), "6s:lb:a:w:3:0"),
    (lambda: stats.ForgetButton(78, "yes"), "6s:fm:78:yes"),
    (lambda: stats.ForgetButton(78, "no"), "6s:fm:78:no"),
]

#: What each item's template admitted when those buttons were sent (a group's name aside).
TEMPLATES = {
    ReclaimButton: r"6n:rc:(\d{1,18})",
    LobbyButton: r"6n:l:(join|leave|ai|start|cancel):(\d{1,18})",
    HandButton: r"6n:h:(\d{1,18})",
    TrackerButton: r"6n:tr:(\d{1,18})",
    HintButton: r"6n:hi:(\d{1,18})",
    RemindButton: r"6n:rm:(\d{1,18}):([01])",
    PickButton: r"6n:p:(\d{1,18}):(\d{1,9}):(\d{1,3})",
    RowButton: r"6n:r:(\d{1,18}):(\d{1,9}):(\d)",
    DraftSelect: r"6n:d:(\d{1,18}):(\d{1,9}):(\d)",
    RematchButton: r"6n:m:(\d{1,18})",
    ChoiceButton: r"6n:sx:(\d{1,18}):(\d{1,9}):([pmw]:[a-z_]{1,20}(?::(?:\d{1,3}|-)){0,5})",
    ChoiceSelect: r"6n:sc:(\d{1,18}):(\d{1,9}):(\d)",
    DecideButton: r"6n:s:(\d{1,18}):(\d{1,9})",
    DeclineButton: r"6n:sd:(\d{1,18}):(\d{1,9}):(special|swap)",
    SwapButton: r"6n:sw:(\d{1,18}):(\d{1,9}):([a-z_]{1,20})",
    PreferenceButton: r"6n:pf:(\d{1,18}):(always|saving|big|never)",
    stats.LeaderboardPage: r"6s:lb:([sa]):([a-z]):(\d{1,4}):(\d{1,5})",
    stats.ForgetButton: r"6s:fm:(\d{1,20}):(yes|no)",
}


@pytest.mark.parametrize(("build", "sent"), SENT, ids=[sent for _, sent in SENT])
def test_items_build_the_ids_of_buttons_already_sent(build, sent):
    assert build().custom_id == sent


def test_templates_admit_what_they_admitted_when_those_buttons_were_sent():
    assert set(TEMPLATES) == set(EXAMPLES)
    for cls, admitted in TEMPLATES.items():
        assert re.sub(r"\(\?P<\w+>", "(", cls.__discord_ui_compiled_template__.pattern) == admitted, cls.__name__


async def test_a_paged_select_is_rebuilt_with_the_clicked_ones_options():
    for sent in (DraftSelect(12, 34, 2, [80, 81, 82]), ChoiceSelect(12, 34, 1, [("a", "m:menu"), ("b", "m:stop")])):
        cls = type(sent)
        match = cls.__discord_ui_compiled_template__.fullmatch(sent.custom_id)
        rebuilt = await cls.from_custom_id(None, sent.item, match)
        assert [o.value for o in rebuilt.item.options] == [o.value for o in sent.item.options]
        assert (rebuilt.table_id, rebuilt.step) == (12, 34)


def test_an_id_format_names_exactly_its_fields():
    """Every ``{field}`` has a part (``table_id`` and ``step`` have theirs), and every part a field."""
    assert IdFormat("6n:x:{table_id}:{step}:{card}", card=digits(3)).pattern == (
        r"6n:x:(?P<table_id>\d{1,18}):(?P<step>\d{1,9}):(?P<card>\d{1,3})"
    )
    with pytest.raises(ValueError):
        IdFormat("6n:x:{table_id}:{card}")  # no part for card
    with pytest.raises(ValueError):
        IdFormat("6n:x:{table_id}", card=digits(3))  # a part for no field


def test_an_id_format_reads_back_what_it_wrote():
    ids = IdFormat("6n:x:{table_id}:{dm}:{word}", dm=FLAG, word=one_of("yes", "no"))
    for dm in (True, False):
        built = ids.build(table_id=7, dm=dm, word="no")
        assert ids.parse(re.fullmatch(ids.pattern, built)) == {"table_id": 7, "dm": dm, "word": "no"}
