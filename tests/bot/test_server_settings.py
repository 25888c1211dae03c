"""A server's defaults: its own choices over the bot's, read once, saved or not at all."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.server_settings import FIELDS, InvalidSettings, ServerDefaults, ServerSettingsBook
from data import StoreUnavailable, open_store
from data.models import ServerSettings

BOT = ServerDefaults(threads=True, pace="live", turn_seconds=60, ai_level="medium", turn_based=True)
GUILD = 77


class FlakyStore:
    """The two settings methods of a store, which can be told to fail, counting reads."""

    def __init__(self) -> None:
        self.rows: dict[int, ServerSettings] = {}
        self.reads = 0
        self.failing = False

    async def server_settings(self, guild_id: int) -> ServerSettings | None:
        self.reads += 1
        if self.failing:
            raise StoreUnavailable("away")
        return self.rows.get(guild_id)

    async def all_server_settings(self) -> dict[int, ServerSettings]:
        self.reads += 1
        if self.failing:
            raise StoreUnavailable("away")
        return dict(self.rows)

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        await asyncio.sleep(0)  # a save takes a while: other changes may come meanwhile
        if self.failing:
            raise StoreUnavailable("away")
        self.rows[guild_id] = settings


async def test_a_server_that_chose_nothing_has_the_bot_defaults():
    book = ServerSettingsBook(FlakyStore(), BOT)
    assert await book.fetch(GUILD) == BOT
    assert book.cached(GUILD) == BOT and book.differences(GUILD) == []


async def test_the_store_is_read_once_per_guild():
    store = FlakyStore()
    store.rows[GUILD] = ServerSettings(ai_level="hard")
    book = ServerSettingsBook(store, BOT)
    assert book.cached(GUILD) == BOT, "not loaded yet: the bot's defaults"
    assert (await book.fetch(GUILD)).ai_level == "hard"
    assert (await book.fetch(GUILD)).ai_level == "hard" and book.cached(GUILD).ai_level == "hard"
    assert store.reads == 1


async def test_loading_every_server_at_start_up_knows_their_language_without_waiting(caplog):
    store = FlakyStore()
    store.rows = {
        GUILD: ServerSettings(language="de"),
        GUILD + 1: ServerSettings(language="de"),
        GUILD + 2: ServerSettings(ai_level="hard"),
    }
    book = ServerSettingsBook(store, BOT)
    assert book.cached(GUILD).language is None, "not loaded: the server's Discord language"
    await book.load(lambda guild_id: guild_id != GUILD + 1)  # another shard serves GUILD + 1
    assert book.cached(GUILD).language == "de" and book.cached(GUILD + 2).ai_level == "hard"
    assert book.cached(GUILD + 1).language is None and store.reads == 1
    assert book.differences(GUILD) == [("language", "de")]
    failing = FlakyStore()
    failing.failing = True
    with caplog.at_level(logging.WARNING):
        await ServerSettingsBook(failing, BOT).load()  # logged; each guild is read when first asked
    assert "cannot be read at start-up" in caplog.text


async def test_a_failing_read_is_said_so_never_answered_with_the_bot_defaults(caplog):
    store = FlakyStore()
    store.rows[GUILD] = ServerSettings(pace="8h")
    store.failing = True
    book = ServerSettingsBook(store, BOT)
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            with pytest.raises(StoreUnavailable):
                await book.fetch(GUILD)
    assert "cannot be read (StoreUnavailable: away); 2 failed read(s)" in caplog.text
    assert book.read_failures == 2
    store.failing = False
    assert (await book.fetch(GUILD)).pace == "8h", "not cached: read again"


async def test_the_guilds_kept_are_the_most_recently_used(monkeypatch):
    from bot import server_settings

    monkeypatch.setattr(server_settings, "CACHED_GUILDS", 2)
    store = FlakyStore()
    book = ServerSettingsBook(store, BOT)
    for guild in (1, 2, 1, 3):  # guild 2 is the least recently used when guild 3 comes
        await book.fetch(guild)
    assert store.reads == 3
    await book.fetch(1)
    await book.fetch(3)
    assert store.reads == 3, "kept: not read again"
    await book.fetch(2)
    assert store.reads == 4, "let go: read again"


async def test_update_saves_and_differences_are_in_field_order():
    store = FlakyStore()
    book = ServerSettingsBook(store, BOT)
    result = await book.update(GUILD, ai_level="hard", turn_based=False, threads=False)
    assert result == ServerDefaults(threads=False, pace="live", turn_seconds=60, ai_level="hard", turn_based=False)
    assert store.rows[GUILD] == ServerSettings(threads=False, ai_level="hard", turn_based=False)
    assert book.differences(GUILD) == [("threads", False), ("ai_level", "hard"), ("turn_based", False)]
    await book.update(GUILD, ai_level="medium")  # chosen, but the same as the bot's: no difference
    assert book.differences(GUILD) == [("threads", False), ("turn_based", False)]
    await book.update(GUILD, language="de")
    assert book.differences(GUILD)[-1] == ("language", "de")
    assert await book.update(GUILD, **dict.fromkeys(FIELDS)) == BOT and store.rows[GUILD] == ServerSettings()


async def test_a_failed_save_raises_and_changes_nothing():
    store = FlakyStore()
    book = ServerSettingsBook(store, BOT)
    await book.update(GUILD, pace="1h")
    store.failing = True
    with pytest.raises(StoreUnavailable):
        await book.update(GUILD, pace="24h")
    assert book.cached(GUILD).pace == "1h" and store.rows[GUILD].pace == "1h"


async def test_invalid_values_and_combinations_are_refused_unsaved():
    store = FlakyStore()
    book = ServerSettingsBook(store, BOT)
    for bad in (
        {"pace": "2h"},
        {"turn_seconds": 5},
        {"ai_level": "expert"},
        {"colour": "red"},
        {"language": "Klingon!"},
    ):
        with pytest.raises(InvalidSettings) as caught:
            await book.update(GUILD, **bad)
        assert caught.value.problem == "value"
    with pytest.raises(InvalidSettings) as caught:
        await book.update(GUILD, pace="8h", turn_based=False)
    assert caught.value.problem == "pace_needs_turn_based"
    await book.update(GUILD, pace="8h")
    with pytest.raises(InvalidSettings):
        await book.update(GUILD, turn_based=False)  # its own turn-based pace says otherwise
    assert store.rows[GUILD] == ServerSettings(pace="8h")
    assert (await book.update(GUILD, pace="live", turn_based=False)).turn_based is False


async def test_without_turn_based_games_the_bots_turn_based_pace_is_live():
    bot = ServerDefaults(threads=True, pace="24h", turn_seconds=60, ai_level="medium", turn_based=True)
    book = ServerSettingsBook(FlakyStore(), bot)
    assert (await book.update(GUILD, turn_based=False)).pace == "live"
    assert book.differences(GUILD) == [("pace", "live"), ("turn_based", False)]


async def test_the_choices_survive_a_new_book_on_a_real_store(tmp_path):
    path = tmp_path / "bot.sqlite3"
    store = await open_store(path)
    try:
        await ServerSettingsBook(store, BOT).update(GUILD, turn_seconds=120, threads=False)
    finally:
        await store.close()
    store = await open_store(path)
    try:
        again = await ServerSettingsBook(store, BOT).fetch(GUILD)
    finally:
        await store.close()
    assert (again.turn_seconds, again.threads) == (120, False)


async def test_changes_made_at_once_are_all_kept():
    store = FlakyStore()
    book = ServerSettingsBook(store, BOT)
    await asyncio.gather(
        book.update(GUILD, pace="1h"), book.update(GUILD, ai_level="hard"), book.update(GUILD, threads=False)
    )
    assert store.rows[GUILD] == ServerSettings(threads=False, pace="1h", ai_level="hard")
