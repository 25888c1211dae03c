"""Store transactions per turn: how many writes the table service asks of the database.

Plays classic games of five (two humans, three medium AI seats) through the real
table service on a real SQLite store, with the presenter's side emulated: every
post is marked shown once it is committed, as the Discord face does after
Discord accepted it. Each write call the service makes to the store is one
transaction, and is counted by name.

    python benchmarks/transactions.py [--games 20]

Works against this version of the service and the one before issue 24 (whose
store had ``checkpoint`` and marked posts shown by re-checkpointing), so the two
can be compared by running it in each checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.tables.service import TableService  # noqa: E402
from bot.tables.table import TableOptions  # noqa: E402
from data import open_store  # noqa: E402
from engine import Phase  # noqa: E402
from engine.ai import Level, choose_action  # noqa: E402

READS = {
    "load_unfinished",
    "load_unshown",
    "load_table",
    "leaderboard",
    "rank_of",
    "player_stats",
    "history",
    "game_log",
    "close",
}


class CountingStore:
    """The store, with each write call counted (each is one transaction)."""

    def __init__(self, store) -> None:
        self._store = store
        self.writes: Counter[str] = Counter()

    def __getattr__(self, name):
        attr = getattr(self._store, name)
        if name in READS or not inspect.iscoroutinefunction(attr):
            return attr

        async def counted(*args, **kwargs):
            self.writes[name] += 1
            return await attr(*args, **kwargs)

        return counted


def medium(game, seat, level, rng):
    return choose_action(game, seat, Level.MEDIUM, rng)


async def play(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "bench.sqlite3")
        counting = CountingStore(store)
        service = TableService(counting, ai=medium)
        await service.start()
        marks: list = []
        new_api = "upto" in inspect.signature(service.mark_shown).parameters
        shown: dict[int, int] = {}  # table -> the highest post seq marked shown

        def owed(update) -> list:
            """The update's posts the channel has not been shown yet (as the presenter sees them)."""
            snapshot = getattr(update, "snapshot", None)
            table_id, posts = (
                (snapshot.id, snapshot.posts) if snapshot is not None else (update.table.id, update.table.outbox)
            )
            return [p for p in posts if p.seq > shown.get(table_id, 0)]

        def presented(update) -> None:  # the presenter's part: each new post is shown, then marked
            if owed(update):
                marks.append(update)

        service.add_listener(presented)
        turns = 0
        for number in range(games):
            table = await service.open_lobby(
                1, 1000 + number, 100, "alice", TableOptions(rounds=1, target=None, ai_seats=3)
            )
            await service.join(table.id, 200, "bob")
            await service.mark_shown(table.id, upto=table.post_seq, message_id=5000 + number)  # its lobby shown
            await service.begin(table.id, 100)
            users = {table.seat_of(u): u for u in (100, 200)}
            game = table.game
            while not game.is_over:
                if game.phase is Phase.PICK:
                    for seat, user in users.items():
                        if not game.picks[seat] and game.phase is Phase.PICK:
                            await service.pick(table.id, user, game.hands[seat][0], table.step)
                    turns += 1
                else:
                    await service.choose_row(table.id, users[game.chooser], 0, table.step)
                while marks:
                    update = marks.pop(0)
                    posts = owed(update)
                    if not posts:
                        continue
                    upto = max(p.seq for p in posts)
                    shown[table.id] = upto
                    if new_api:  # one post at a time, as the presenter marks them
                        for post in posts:
                            await service.mark_shown(table.id, upto=post.seq, message_id=6000 + post.seq)
                    else:
                        for post in posts:
                            await service.mark_shown(update.table, post.seq, 6000 + post.seq)
        await service.close()
        await store.close()
    writes = counting.writes
    total = sum(writes.values())
    print(f"{games} games of five (2 humans, 3 medium AI), {turns} turns")
    print(f"store transactions: {total} in all, {total / turns:.2f} a turn")
    full = writes["checkpoint"] + writes["commit"] + writes["create_game"]
    print(f"of which write the whole table state (checkpoint or commit): {full / turns:.2f} a turn")
    for name, count in writes.most_common():
        print(f"  {name:16} {count:6}  ({count / turns:.2f} a turn)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    asyncio.run(play(parser.parse_args().games))


if __name__ == "__main__":
    main()
