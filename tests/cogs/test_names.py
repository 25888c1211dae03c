"""A name a player chose is text: never a mention, never markup, never reordering its line; and a
table's message pings only the players it calls."""

from __future__ import annotations

import discord
import pytest

from bot.tables.table import Seat, Table, TableOptions
from bot.tables.text import Mention, Name, Text
from cogs.i18n import render
from cogs.render.chart import _drawable
from cogs.render.names import FSI, PDI, balanced_bidi, isolated, shown_name
from cogs.render.pings import pinging, table_pings

RLO, PDF, RLI = "\u202e", "\u202c", "\u2067"
ROLE, USER = 123456789012345678, 223456789012345678


@pytest.mark.parametrize(
    "name, shown",
    [
        ("alice", "alice"),  # a plain name is left as typed
        ("Jürgen Groß", "Jürgen Groß"),
        (f"<@&{ROLE}>", f"\\<@\u200b&{ROLE}>"),
        (f"<@{USER}>", f"\\<@\u200b{USER}>"),
        (f"<@!{USER}>", f"\\<@\u200b!{USER}>"),
        ("@everyone", "@\u200beveryone"),
        ("@here", "@\u200bhere"),
        ("**bold** ||spoil||", "\\*\\*bold\\*\\* \\|\\|spoil\\|\\|"),
        ("`x` > q", "\\`x\\` > q"),
        ("> quote", "\\> quote"),
        ("# big", "\\# big"),
        ("__u__ ~~s~~", "\\_\\_u\\_\\_ \\~\\~s\\~\\~"),
        ("<#12345678901234567> <t:1:R>", "\\<#12345678901234567> \\<t:1:R>"),
        ("back\\slash", "back\\\\slash"),
        ("two\nlines", "two lines"),
        (f"{RLO}evil twin", f"{FSI}evil twin{PDI}"),
        ("שלום", f"{FSI}שלום{PDI}"),  # right-to-left letters are isolated, not changed
    ],
)
def test_a_shown_name_is_escaped_and_isolated(name, shown):
    assert shown_name(name) == shown


@pytest.mark.parametrize(
    "text, balanced",
    [
        ("plain", "plain"),
        (f"a{RLO}b", "ab"),  # never closed: dropped
        (f"a{PDF}b{PDI}c", "abc"),  # nothing to close: dropped
        (f"{RLO}ab{PDF}c", f"{RLO}ab{PDF}c"),  # a closed pair stays
        (f"{RLI}a{RLO}b{PDI}c", f"{RLI}ab{PDI}c"),  # a PDI closes its isolate; the override inside it was open
        (f"{RLO}{RLI}a{PDF}b", "ab"),  # a PDF cannot close an override from outside an isolate
    ],
)
def test_unbalanced_direction_controls_are_dropped(text, balanced):
    assert balanced_bidi(text) == balanced


def test_a_name_without_markdown_is_only_isolated():
    """A thread's name or an autocomplete choice draws no markdown: a backslash would show there."""
    assert isolated("**bold** @everyone") == "**bold** @everyone"
    assert isolated(f"x{PDI}{RLO}y") == f"{FSI}xy{PDI}"


def test_a_name_in_a_notice_is_shown_as_text_and_kept_as_a_name():
    notice = Text("**{name}** left the table. {player} missed a turn.", name=Name("@everyone"), player=Mention(USER))
    again = Text.from_data(notice.to_data())
    assert again == notice and type(again.parts[0][1]["name"]) is Name
    assert render(None, again) == f"**@\u200beveryone** left the table. <@{USER}> missed a turn."


def test_the_chart_draws_no_direction_control():
    assert _drawable(f"{RLO}evil twin", 0) == "evil twin"


def test_a_table_message_pings_only_the_players_it_mentions():
    table = Table(
        7,
        1,
        2,
        host_id=100,
        options=TableOptions(),
        seats=[Seat(100, "alice"), Seat(101, "bob"), Seat(None, "Ada", "easy")],
    )
    allowed = table_pings(table, f"<@100> <@!101> <@{USER}> <@&{ROLE}> @everyone")
    assert allowed.to_dict() == {"parse": [], "users": [100, 101]}
    assert table_pings(table, "no mention").to_dict() == {"parse": [], "users": []}
    assert table_pings(table, None).to_dict() == {"parse": [], "users": []}
    # Merged with the client's default (which pings nobody), a message keeps only its own users.
    merged = discord.AllowedMentions.none().merge(pinging([101, 101]))
    assert merged.to_dict() == {"parse": [], "users": [101]}
