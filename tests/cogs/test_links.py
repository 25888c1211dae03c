"""Jump links: a message's, a channel's, and where a game is shown (its lobby stays in the channel)."""

from __future__ import annotations

from bot.tables.table import Table, TableOptions, TableStatus
from cogs.render.links import message_link, table_link


def test_a_message_link_names_server_channel_and_message_and_without_a_message_the_channel():
    assert message_link(1, 2, 3) == "https://discord.com/channels/1/2/3"
    assert message_link(1, 2) == message_link(1, 2, None) == "https://discord.com/channels/1/2"


def table(**fields) -> Table:
    return Table(
        id=9,
        guild_id=1,
        channel_id=2,
        host_id=0,
        options=TableOptions(),
        seats=[],
        status=TableStatus.PLAYING,
        **fields,
    )


def test_a_games_link_is_its_newest_message_in_the_channel_it_is_in():
    assert table_link(table()) == "https://discord.com/channels/1/2"  # no message yet: the channel
    assert table_link(table(message_id=5)) == "https://discord.com/channels/1/2/5"
    # a game in a thread: its lobby, on which the thread was started (they share an id), is in the channel
    assert table_link(table(thread_id=7, message_id=7)) == "https://discord.com/channels/1/2/7"
    assert table_link(table(thread_id=7, message_id=8)) == "https://discord.com/channels/1/7/8"
    assert table_link(table(thread_id=7)) == "https://discord.com/channels/1/7"
