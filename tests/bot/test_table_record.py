"""A table's committed state reads back as it was written, in every variant and phase there is.

The fields checked are ``TableRecord``'s own, read from its declaration: a field of a plain JSON
type added to it is checked here with no edit to this file; one of another type, once a scenario
below gives it a value other than its default (the tests say which field holds only one).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, fields
from pathlib import Path
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest

from bot.tables.lobby import Lobby
from bot.tables.service import TableService
from bot.tables.table import Seat, Table, TableOptions, TableRecord
from data import open_store
from data.models import Commit
from data.store import Store
from engine import Game, GameConfig, Phase
from tests.bot.conftest import FakeClock
from tests.bot.test_anniversary_service import alice_takes_a_row_holding_a_stop
from tests.helpers import play_to_the_end

SEED = 5
THREAD = 1001


def first_legal(game, seat, level, rng):
    return game.legal_actions(seat)[0]


async def two_humans(service, options: TableOptions, **lobby) -> Table:
    """alice (100, the host) and bob (200) at a game just begun."""
    table = await service.open_lobby(1, 10, 100, "alice", options, **lobby)
    await service.join(table.id, 200, "bob")
    if lobby.get("threaded"):
        await service.set_thread(table.id, THREAD)
    await service.begin(table.id, 100)
    return table


# Every variant and phase a table can be saved in, each made by the service's own operations.


async def classic_lobby(service, clock) -> Table:
    options = TableOptions(target=44, ai_seats=1, ai_level="hard", helpers=True, turn_seconds=90)
    return await service.open_lobby(1, 10, 100, "alice", options)


async def pro_lobby_in_its_thread(service, clock) -> Table:
    options = TableOptions(variant="pro", rounds=2, target=None, choice_seconds=45)
    table = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    await service.set_thread(table.id, THREAD)
    await service.join(table.id, 200, "bob")
    return table


async def anniversary_turn_based_lobby(service, clock) -> Table:
    options = TableOptions(variant="anniversary", pace="24h", special_seconds=40)
    table = await service.open_lobby(1, 10, 100, "alice", options, threaded=True)
    await service.set_reminders(table.id, 100, True)
    await service.set_prompts(table.id, 100, "never")
    return table


async def classic_picking(service, clock) -> Table:
    table = await two_humans(service, TableOptions(rounds=1, target=None))
    await service.pick(table.id, 100, table.game.hands[table.seat_of(100)][0], table.step)
    return table


async def classic_choosing_a_row(service, clock) -> Table:
    table = await two_humans(service, TableOptions(target=None, rounds=3))
    alice, bob = table.seat_of(100), table.seat_of(200)
    hands: list[list[int]] = [[], []]
    hands[alice], hands[bob] = [5, 50], [60, 70]
    table.game = Game.from_position(GameConfig(2), rows=[[10], [20], [30], [40]], hands=hands)
    await service.pick(table.id, 100, 5)
    await service.pick(table.id, 200, 60)
    assert table.game.phase is Phase.CHOOSE_ROW
    return table


async def pro_drafting(service, clock) -> Table:
    table = await two_humans(service, TableOptions(variant="pro", rounds=1, target=None))
    game = table.game
    assert game.phase is Phase.DRAFT
    drafter = table.seats[game.drafter].user_id
    await service.draft(table.id, drafter, game.legal_actions(game.drafter)[0].card, table.step)
    assert game.phase is Phase.DRAFT
    return table


async def anniversary_special_card_prompt(service, clock) -> Table:
    table = await two_humans(service, TableOptions(variant="anniversary", special_seconds=9))
    await alice_takes_a_row_holding_a_stop(service, table, "saving")
    assert table.game.phase is Phase.SPECIAL
    return table


async def anniversary_swap_offer(service, clock) -> Table:
    table = await two_humans(service, TableOptions(variant="anniversary"))
    await alice_takes_a_row_holding_a_stop(service, table, "always")
    await service.decline_special(table.id, 100, table.step)
    assert table.game.phase is Phase.SWAP
    return table


async def turn_based_reminded(service, clock) -> Table:
    table = await two_humans(service, TableOptions(rounds=1, target=None, pace="8h"), threaded=True)
    await service.set_reminders(table.id, 200, True)
    await service.pick(table.id, 100, table.game.hands[table.seat_of(100)][0], table.step)
    clock.advance(6 * 3600)
    await service.play.on_deadline(table.id)
    assert table.reminded_step == table.step
    return table


async def paused_in_a_locked_thread(service, clock) -> Table:
    table = await two_humans(service, TableOptions(rounds=1, target=None), threaded=True)
    clock.advance(20)
    await service.thread_locked(THREAD)
    assert table.paused is not None and table.time_left
    return table


async def resumed_after_an_unlock(service, clock) -> Table:
    table = await paused_in_a_locked_thread(service, clock)
    clock.advance(600)
    await service.thread_unlocked(THREAD)
    assert table.paused is None and table.resumed_at
    return table


async def seats_taken_over_and_back(service, clock) -> Table:
    """bob left and took his seat back, carol was kicked, dan's turns are played for him; rows were taken."""
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(target=None, rounds=2, ai_seats=1))
    for user in (200, 300, 400):
        await service.join(table.id, user, f"p{user}")
    await service.begin(table.id, 100)
    await service.leave(table.id, 200)
    await service.reclaim_seat(table.id, 200)
    await service.kick(table.id, 100, 300)
    while not any(seat.stats.rows_taken for seat in table.seats):
        for user in set(table.owing()) - {400}:
            if table.game.phase is Phase.CHOOSE_ROW:
                await service.choose_row(table.id, user, 0, table.step)
            else:
                await service.pick(table.id, user, table.game.hands[table.seat_of(user)][0], table.step)
        if table.owing() == [400]:
            clock.advance(3600)
            await service.play.on_deadline(table.id)
    assert {seat.takeover for seat in table.seats} >= {"kicked", None}
    assert any(seat.missed_turns for seat in table.seats)
    return table


async def finished(service, clock) -> Table:
    table = await two_humans(service, TableOptions(rounds=1, target=None))
    await play_to_the_end(service, table, (100, 200))
    assert table.game.is_over
    return table


async def cancelled_lobby(service, clock) -> Table:
    table = await service.open_lobby(1, 10, 100, "alice", TableOptions(variant="anniversary"))
    await service.cancel(table.id, 100, False)
    assert table.closed_notice is not None
    return table


async def abandoned_with_its_thread(service, clock) -> Table:
    table = await two_humans(service, TableOptions(variant="pro", rounds=1, target=None), threaded=True)
    await service.channel_gone(THREAD)
    assert table.closed_notice is not None
    return table


SCENARIOS = {
    scenario.__name__: scenario
    for scenario in (
        classic_lobby,
        pro_lobby_in_its_thread,
        anniversary_turn_based_lobby,
        classic_picking,
        classic_choosing_a_row,
        pro_drafting,
        anniversary_special_card_prompt,
        anniversary_swap_offer,
        turn_based_reminded,
        paused_in_a_locked_thread,
        resumed_after_an_unlock,
        seats_taken_over_and_back,
        finished,
        cancelled_lobby,
        abandoned_with_its_thread,
    )
}


@dataclass
class Made:
    """A table one scenario made, at its own service and database."""

    name: str
    store: Store
    clock: FakeClock
    service: TableService
    table: Table


@pytest.fixture
async def tables(tmp_path, monkeypatch) -> AsyncIterator[list[Made]]:
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: SEED))  # the same deal every run
    async with contextlib.AsyncExitStack() as stack:
        made = []
        for name, scenario in SCENARIOS.items():
            store = await open_store(tmp_path / f"{name}.sqlite3")
            stack.push_async_callback(store.close)
            clock = FakeClock()
            service = TableService(store, clock=clock, ai=first_legal)
            stack.push_async_callback(service.close)
            await service.start()
            made.append(Made(name, store, clock, service, await scenario(service, clock)))
        yield made


RECORD_FIELDS = [record_field.name for record_field in fields(TableRecord)]


def by_field(checkpoint: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    """A checkpoint's (state, meta) as each field of the record was written: ``game`` as the state,
    every other field under its name in the meta, which holds nothing else."""
    state, meta = checkpoint
    assert set(meta) == set(RECORD_FIELDS) - {"game"}
    return {name: state if name == "game" else meta[name] for name in RECORD_FIELDS}


def assert_same_by_field(written, again) -> None:
    written, again = by_field(written), by_field(again)
    for name in RECORD_FIELDS:
        assert again[name] == written[name], f"{name} was not read back as it was written"


def read_back(table: Table, checkpoint: tuple[dict[str, Any], dict[str, Any]]) -> Table:
    state, meta = checkpoint
    return Table.from_checkpoint(table.id, table.guild_id, table.channel_id, meta, state)


#: Values of each plain JSON type, so that a field of one is seen to read back whatever it holds,
#: a field added with a default that no scenario changes too.
PLAIN_VALUES: dict[type, list[Any]] = {
    bool: [False, True],
    int: [0, 7, 1_500_000_000_000_000_000],
    float: [0.0, 2.5, 1_800_000_123.25],
    str: ["", "locked", "ünïcødé"],
}


def field_values(tables: list[Made]) -> dict[str, list[Any]]:
    """Every field's values: as each scenario committed it, and for a field of a plain type (or that
    or None) the values above, and None."""
    declared = get_type_hints(TableRecord)
    values: dict[str, list[Any]] = {}
    for name in RECORD_FIELDS:
        union = get_origin(declared[name]) in (Union, UnionType)
        kinds = get_args(declared[name]) if union else (declared[name],)
        values[name] = [getattr(made.table.last_commit().table, name) for made in tables]
        for kind in kinds:
            values[name] += [None] if kind is NoneType else PLAIN_VALUES.get(kind, [])
    return values


def written_as(table: Table, name: str, value: Any) -> str:
    """How ``value`` is saved as the field ``name`` of ``table`` (as JSON, to be told apart)."""
    before = getattr(table, name)
    setattr(table, name, value)
    try:
        return json.dumps(by_field(table.checkpoint())[name], sort_keys=True)
    finally:
        setattr(table, name, before)


async def test_every_table_reads_back_as_it_was_committed_and_restored(tables):
    for made in tables:
        committed = made.table.last_commit()  # what the service told its listeners
        assert_same_by_field((committed.state, committed.meta), made.table.checkpoint())
        assert_same_by_field((committed.state, committed.meta), committed.table.checkpoint())
        # Through the database, as the next start reads it (an ended table, as a rematch does).
        await made.service.close()
        again = TableService(made.store, clock=made.clock, ai=first_legal)
        await again.start()
        restored = again.tables.get(made.table.id) or await again.load_ended(made.table.id)
        assert restored is not None, made.name
        assert_same_by_field((committed.state, committed.meta), restored.checkpoint())
        await again.close()


async def test_every_field_reads_back_whatever_it_holds(tables):
    base = tables[0].table
    for name, values in field_values(tables).items():
        for value in values:
            table = read_back(base, base.checkpoint())
            setattr(table, name, value)
            written = table.checkpoint()
            assert_same_by_field(written, read_back(table, written).checkpoint())
        # Else a reader that dropped the field, reading its default, would pass.
        assert len({written_as(base, name, value) for value in values}) > 1, f"{name} always holds one value"


class SaveFailed(Exception):
    pass


async def test_a_change_whose_save_failed_leaves_every_field_as_committed(tables):
    values = field_values(tables)
    for made in tables:
        table = made.table
        committed = table.last_commit()
        as_committed = {name: written_as(table, name, getattr(table, name)) for name in RECORD_FIELDS}
        changed = {}
        for name in RECORD_FIELDS:
            others = [value for value in values[name] if written_as(table, name, value) != as_committed[name]]
            assert others, f"{name} always holds one value"
            changed[name] = others[0]
        changed["post_seq"] = table.post_seq + 3  # the change numbered three posts
        with pytest.raises(SaveFailed):
            async with made.service.tx.acting(table):
                for name, value in changed.items():
                    setattr(table, name, value)
                raise SaveFailed
        # A post number a failed save took is never given again: a nonce always means one content.
        assert table.post_seq == changed["post_seq"]
        table.post_seq = committed.table.post_seq
        assert_same_by_field((committed.state, committed.meta), table.checkpoint())


#: The metas the code before ``TableRecord`` (9cd56da) committed in the scenarios above.
WRITTEN_BEFORE = json.loads(Path(__file__).with_name("checkpoint_metas_before_the_record.json").read_text())

#: A lobby as the first version saved it, with its message id in the meta.
FIRST_VERSION = {
    "host_id": 100,
    "options": TableOptions().model_dump(mode="json"),
    "seats": [Seat(100, "alice").to_dict()],  # a seat reads its own older keys (test_anniversary_service)
    "status": "lobby",
    "seed": 3,
    "step": 0,
    "deadline": 1_800_000_600.0,
    "message_id": 555,
    "created_at": 1_800_000_000.0,
}


@pytest.mark.parametrize("meta", [*WRITTEN_BEFORE.values(), FIRST_VERSION], ids=[*WRITTEN_BEFORE, "first_version"])
def test_an_older_checkpoint_reads_back_with_every_later_field_at_its_default(meta):
    written = Table.from_checkpoint(1, 1, 10, meta, None).checkpoint()[1]
    defaults = Table(1, 1, 10, host_id=0, options=TableOptions(), seats=[]).checkpoint()[1]
    # A key no field declares (the message id, stored on the game since) is left out.
    assert written == {**defaults, **{key: meta[key] for key in meta if key in defaults}}


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ({"step": "two"}, "the checkpoint's step cannot be read ('two'): invalid literal for int()"),
        ({"host_id": None}, "the checkpoint has no host_id"),
        ({"seats": [{"name": "alice"}]}, "the checkpoint's seats cannot be read"),
        ({"options": {"variant": "poker"}}, "the checkpoint's options cannot be read"),
        ({"status": "sleeping"}, "the checkpoint's status cannot be read ('sleeping'): 'sleeping' is not a valid"),
        ({"closed_notice": 5}, "the checkpoint's closed_notice cannot be read (5)"),
    ],
)
async def test_a_damaged_checkpoint_is_reported_by_its_field_and_the_others_are_restored(store, clock, damage, reason):
    service = TableService(store, clock=clock, ai=first_legal)
    await service.start()
    good = await service.open_lobby(1, 10, 100, "alice", TableOptions())
    bad = await service.open_lobby(1, 11, 200, "bob", TableOptions())
    committed = bad.last_commit()
    await store.commit(bad.id, Commit(state=committed.state, meta={**committed.meta, **damage}))
    await service.close()

    again = TableService(store, clock=clock, ai=first_legal)
    [corrupt] = await again.start()
    assert corrupt.game_id == bad.id and corrupt.reason.startswith(reason), corrupt.reason
    assert again.get(good.id).seats[0].name == "alice"
    await again.close()
