"""``/6nimmt games``: the list fits one message, and says how many games did not."""

from __future__ import annotations

from bot.tables.table import Seat, Table, TableOptions, TableStatus
from cogs.games import games_text


def test_the_games_list_says_how_many_did_not_fit():
    def table(table_id):
        return Table(
            id=table_id,
            guild_id=1,
            channel_id=2,
            host_id=0,
            options=TableOptions(),
            seats=[Seat(n, f"player-{n}-" + "y" * 20) for n in range(10)],
            status=TableStatus.LOBBY,
            deadline=1_800_000_000.0,
            message_id=3,
        )

    tables = [table(n) for n in range(40)]
    text = games_text(tables, 0, "en-US")
    assert len(text) <= 2000
    shown = text.count("**#")
    assert 0 < shown < 40 and text.endswith(f"… and {40 - shown} more.")
    assert len(games_text(tables[:shown], 0, "en-US")) <= 2000
