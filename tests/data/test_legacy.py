"""The table service's calls from before commit(), kept working until it uses commit():
REMOVE with them (checkpoint, record_results, update_game, upsert_player, upsert_guild,
create_game without commit)."""

from __future__ import annotations

import pytest

from data.errors import InvalidTransition
from data.models import OutboxPost

from .backends import raw
from .helpers import CHANNEL, GUILD, game_result, seat_infos

TWO_HUMANS = [(1, 10), (2, 20)]


async def old_start(store) -> int:
    game_id = await store.create_game(guild_id=GUILD, channel_id=CHANNEL, host_id=1, variant="classic",
                                      options={"rounds": 2}, seats=seat_infos(TWO_HUMANS), seed=42)
    await store.update_game(game_id, status="playing")
    return game_id


async def test_old_checkpoints_keep_the_outbox_table_as_meta_lists_it(store):
    gid = await old_start(store)
    owed = [{"seq": 1, "kind": "a"}, {"seq": 2, "kind": "b"}]
    assert await store.checkpoint(gid, {"s": 1}, {"outbox": owed}, {"card": 1}, unshown=True) == 1
    assert (await store.load_table(gid)).posts == [OutboxPost(seq=p["seq"], payload=p) for p in owed]
    await store.checkpoint(gid, {"s": 2}, {"outbox": owed[1:]}, unshown=True)  # the first was shown
    assert [p.seq for p in (await store.load_table(gid)).posts] == [2]
    assert await store.record_results(gid, game_result(gid, TWO_HUMANS)) is True
    assert [t.game.game_id for t in await store.load_unshown()] == [gid]
    await store.checkpoint(gid, {"s": 3}, {"outbox": []}, unshown=False)
    assert await store.load_unshown() == []
    assert await store.record_results(gid, game_result(gid, TWO_HUMANS)) is False


async def test_old_game_updates_and_identities(store):
    gid = await old_start(store)
    await store.upsert_player(1, "renamed")
    await store.upsert_guild(GUILD, "Bullpen")
    await store.update_game(gid, host_id=2, seats=seat_infos(TWO_HUMANS))
    with pytest.raises(InvalidTransition):
        await store.update_game(gid, status="finished")
    await store.checkpoint(gid, {"s": 1}, {})
    table = await store.load_table(gid)
    assert table.game.host_id == 2 and table.game.status == "playing" and table.checkpoint.state == {"s": 1}
    assert await raw(store, "SELECT name FROM guilds") == [("Bullpen",)]
    assert (await raw(store, "SELECT display_name FROM players WHERE user_id = 1")) == [("user1",)]
