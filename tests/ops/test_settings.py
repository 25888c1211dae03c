"""Settings: every bad value is one line naming the setting, and the token never shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ENV_NAMES, ConfigError, Settings, load_settings

TOKEN = "MTA.secret-token.value"
ROOT = Path(__file__).resolve().parents[2]


def load(**env):
    return load_settings(env_file=None, environ={"DISCORD_TOKEN": TOKEN, **env})


def problems(**env) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load(**env)
    return caught.value.problems


def test_defaults_and_values_are_read():
    settings = load(
        TURN_SECONDS="90",
        DEV_GUILD_IDS="1, 2",
        OWNER_IDS="3",
        LOG_LEVEL="debug",
        DEFAULT_AI_LEVEL="HARD",
        SHARD_COUNT="4",
        SHARD_IDS="0,2",
    )
    assert settings.turn_seconds == 90 and settings.choice_seconds == 30
    assert settings.dev_guild_ids == [1, 2] and settings.owner_ids == [3]
    assert settings.log_level == "DEBUG" and settings.default_ai_level == "hard"
    assert settings.shard_count == 4 and settings.shard_ids == [0, 2] and settings.sharded
    assert not load().sharded


def test_the_env_file_is_read_and_the_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nTURN_SECONDS=45\nLOBBY_MINUTES=5\n")
    settings = load_settings(env_file, environ={"TURN_SECONDS": "120"})
    assert settings.discord_token.get_secret_value() == TOKEN
    assert (settings.turn_seconds, settings.lobby_minutes) == (120, 5)


@pytest.mark.parametrize(
    "env, setting",
    [
        ({"TURN_SECONDS": "ten"}, "TURN_SECONDS"),
        ({"TURN_SECONDS": "5"}, "TURN_SECONDS"),
        ({"TURN_SECONDS": "601"}, "TURN_SECONDS"),  # a table could not use it
        ({"CHOICE_SECONDS": "9"}, "CHOICE_SECONDS"),
        ({"LOBBY_MINUTES": "0"}, "LOBBY_MINUTES"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"DEFAULT_AI_LEVEL": "godlike"}, "DEFAULT_AI_LEVEL"),
        ({"DEV_GUILD_IDS": "12,abc"}, "DEV_GUILD_IDS"),
        ({"OWNER_IDS": "-5"}, "OWNER_IDS"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"DATABASE_PATH": "/no/such/folder/bot.sqlite3"}, "DATABASE_PATH"),
        ({"DATABASE_URL": "mysql://root@db/x"}, "DATABASE_URL"),
        ({"DATABASE_URL": "sqlite:////no/such/folder/bot.sqlite3"}, "DATABASE_URL"),
        ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS"),  # without SHARD_COUNT
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_setting(env, setting):
    found = problems(**env)
    assert len(found) == 1 and "\n" not in found[0]
    assert found[0].startswith(setting) or f"{setting} " in found[0], found


def test_several_bad_values_are_each_reported():
    found = problems(TURN_SECONDS="x", LOG_LEVEL="y")
    assert sorted(p.split(":")[0] for p in found) == ["LOG_LEVEL", "TURN_SECONDS"]


def test_a_missing_token_says_where_to_put_it(tmp_path):
    for environ in ({}, {"DISCORD_TOKEN": "   "}):
        with pytest.raises(ConfigError) as caught:
            load_settings(tmp_path / ".env", environ=environ)
        (line,) = caught.value.problems
        assert line.startswith("DISCORD_TOKEN is not set") and str(tmp_path) in line


def test_the_token_never_appears_in_errors_or_reprs():
    found = problems(DISCORD_TOKEN=f"Bot {TOKEN}", TURN_SECONDS="x")
    assert any(p.startswith("DISCORD_TOKEN") for p in found)
    assert all(TOKEN not in p for p in found)
    settings = load()
    assert TOKEN not in repr(settings) and TOKEN not in str(settings.model_dump())


def test_shards_decide_which_guilds_this_process_owns():
    whole = load(SHARD_COUNT="2")
    half = load(SHARD_COUNT="2", SHARD_IDS="1")
    on_shard_1 = (1 << 22) * 3  # (id >> 22) % 2 == 1
    on_shard_0 = (1 << 22) * 4
    assert whole.owns_guild(on_shard_0) and whole.owns_guild(on_shard_1)
    assert half.owns_guild(on_shard_1) and not half.owns_guild(on_shard_0)


def test_the_heartbeat_lives_next_to_the_database_unless_told(tmp_path):
    database = tmp_path / "x.sqlite3"
    assert load(DATABASE_PATH=str(database)).heartbeat_path == tmp_path / "x.sqlite3.health"
    assert load(HEALTH_FILE="/tmp/h").heartbeat_path == Path("/tmp/h")


def test_the_heartbeat_interval_is_twenty_seconds_unless_told_a_shorter_one():
    assert load().health_interval == 20.0
    assert load(HEALTH_INTERVAL="0.2").health_interval == 0.2
    # A longer one would let `--health` call a running bot's heartbeat stale.
    assert problems(HEALTH_INTERVAL="30") == ["HEALTH_INTERVAL: Input should be less than or equal to 20 (got '30')"]
    assert problems(HEALTH_INTERVAL="0")[0].startswith("HEALTH_INTERVAL: Input should be greater than 0")


def test_database_url_wins_over_the_path_and_hides_its_password(tmp_path):
    assert load(DATABASE_PATH=str(tmp_path / "a.sqlite3")).database == str(tmp_path / "a.sqlite3")
    url = load(DATABASE_PATH=str(tmp_path / "a.sqlite3"), DATABASE_URL=f"sqlite:///{tmp_path}/b.sqlite3")
    assert url.database == f"sqlite:///{tmp_path}/b.sqlite3"
    assert url.heartbeat_path == tmp_path / "b.sqlite3.health"
    server = load(DATABASE_URL="postgresql://bot:s3cret@db.example:5432/sixnimmt", DATABASE_POOL_SIZE="4")
    assert server.database_pool_size == 4
    assert server.database_label == "postgresql://bot:***@db.example:5432/sixnimmt"


def test_env_example_lists_every_setting_with_a_comment():
    lines = (ROOT / ".env.example").read_text().splitlines()
    for env in ENV_NAMES:
        (index,) = [i for i, line in enumerate(lines) if line.startswith(f"{env}=")]
        assert lines[index - 1].startswith("# ") and len(lines[index - 1]) > 10, env
    assert set(Settings.model_fields) == set(ENV_NAMES.values())


def test_server_defaults_settings_are_read_and_checked():
    settings = load()
    assert (settings.threads, settings.default_pace, settings.turn_based) == (True, "live", True)
    settings = load(THREADS="off", DEFAULT_PACE="8H", TURN_BASED="yes")
    assert (settings.threads, settings.default_pace, settings.turn_based) == (False, "8h", True)
    assert problems(THREADS="maybe") == ["THREADS: must be true or false (got 'maybe')"]
    assert problems(DEFAULT_PACE="2h") == [
        "DEFAULT_PACE: must be live, 1h, 8h or 24h (hours a turn of a turn-based game) (got '2h')"
    ]
    [line] = problems(DEFAULT_PACE="24h", TURN_BASED="false")
    assert "DEFAULT_PACE=24h" in line and "TURN_BASED=false" in line and "\n" not in line


def test_the_request_budget_is_the_tokens_shared_among_the_shards_of_each_process():
    assert load().request_budget == 45
    assert load(SHARD_COUNT="4").request_budget == 45, "one process runs every shard"
    assert load(SHARD_COUNT="4", SHARD_IDS="0,1").request_budget == 22.5
    assert load(SHARD_COUNT="4", SHARD_IDS="3", REQUESTS_PER_SECOND="400").request_budget == 100
    assert load(SHARD_COUNT="4", SHARD_IDS="3", PROCESS_REQUESTS_PER_SECOND="20").request_budget == 20
    assert problems(REQUESTS_PER_SECOND="0") == ["REQUESTS_PER_SECOND: Input should be greater than 0 (got '0')"]
