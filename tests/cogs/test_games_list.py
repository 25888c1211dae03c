"""``/6nimmt games``: the list fits one message, and says how many games did not."""

from __future__ import annotations

from bot.tables.table import Seat, TableOptions, TableStatus
from cogs.games import games_text


def test_the_games_list_says_how_many_did_not_fit():
    class Options:
        variant = TableOptions().variant
        max_players = 10
        turn_based = False

    class FakeTable:
        status = TableStatus.LOBBY
        options = Options()
        deadline = 1_800_000_000.0
        guild_id, home_id, message_id = 1, 2, 3

        def __init__(self, table_id):
            self.id = table_id
            self.seats = [Seat(n, f"player-{n}-" + "y" * 20) for n in range(10)]

        def owing(self):
            return []

    tables = [FakeTable(n) for n in range(40)]
    text = games_text(tables, 0, "en-US")
    assert len(text) <= 2000
    shown = text.count("**#")
    assert 0 < shown < 40 and text.endswith(f"… and {40 - shown} more.")
    assert len(games_text(tables[:shown], 0, "en-US")) <= 2000
