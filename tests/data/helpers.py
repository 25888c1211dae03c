"""Builders shared by the persistence-layer tests."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Sequence

from data.models import Commit, GameResult, SeatInfo, SeatResult
from data.sqlite.store import SQLiteStore

GUILD = 1000
CHANNEL = 2000

# (user_id or None for an AI seat, final points); winners = lowest points.
SeatSpec = tuple[int | None, int]
PlayGame = Callable[..., Awaitable[int]]


class TickingClock:
    """Deterministic clock: every reading is one second later than the last."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._ticks = itertools.count()
        self._start = start

    def __call__(self) -> float:
        return self._start + next(self._ticks)


def seat_infos(specs: Sequence[SeatSpec]) -> list[SeatInfo]:
    return [
        SeatInfo(seat=i, user_id=uid, ai_level=None if uid else "easy", display_name=f"user{uid}" if uid else f"bot{i}")
        for i, (uid, _) in enumerate(specs)
    ]


def game_result(game_id: int, specs: Sequence[SeatSpec], rounds: int = 2) -> GameResult:
    """A result whose points split evenly over ``rounds`` (remainder in round 1)."""
    best = min(points for _, points in specs)
    seats = []
    for info, (_, points) in zip(seat_infos(specs), specs, strict=True):
        per_round = [points // rounds] * rounds
        per_round[0] += points - sum(per_round)
        seats.append(
            SeatResult(
                seat=info.seat,
                user_id=info.user_id,
                ai_level=info.ai_level,
                name=info.display_name,
                points=points,
                round_points=per_round,
                rows_taken=points // 10,
                sixth_card_takes=1,
                low_card_takes=0,
                row_takes_by_index={info.seat % 4: points // 10} if points >= 10 else {},
            )
        )
    winners = [s.seat for s in seats if s.points == best]
    return GameResult(game_id=game_id, seats=seats, winners=winners)


async def start_game(store: SQLiteStore, specs: Sequence[SeatSpec], guild_id: int = GUILD) -> int:
    game_id = await store.create_game(
        guild_id=guild_id,
        channel_id=CHANNEL,
        host_id=specs[0][0],
        variant="classic",
        options={"rounds": 2},
        seed=42,
        commit=Commit({}, {"lobby": True}, seats=seat_infos(specs)),
    )
    await store.commit(game_id, Commit({"dealt": True}, {}, status="playing"))
    return game_id


async def finish_game(store: SQLiteStore, game_id: int, result: GameResult) -> int | None:
    """The commit that ends a game with its result."""
    return await store.commit(game_id, Commit({"over": True}, {}, result=result))
