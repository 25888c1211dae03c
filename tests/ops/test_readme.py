"""The README keeps its promises: the two commands first, every setting, every command, the picture."""

from __future__ import annotations

import io
import re
from pathlib import Path

from discord import app_commands
from PIL import Image

from bot.config import ENV_NAMES
from cogs.i18n import command_name

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_it_opens_with_the_two_commands():
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    assert first_block.splitlines() == [
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/python -m bot",
        'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest',
    ]


def test_every_setting_is_in_the_settings_table():
    rows = set(re.findall(r"^\| `([A-Z_]+)` \|", README, re.M))
    assert rows == set(ENV_NAMES)


async def test_every_command_is_listed_with_its_german_name(tree):
    listed = README[README.index("### Every command"):README.index("### The rules")]
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Group):
            continue
        assert f"`/{command.qualified_name}" in listed, command.qualified_name
        assert command_name("de", command.name) in listed, command.name
    for scope in ("`bot`", "`applications.commands`", "scope=bot+applications.commands"):
        assert scope in README


def assert_the_script_renders_the_committed_picture(main, name: str, tmp_path) -> None:
    assert f"](docs/{name})" in README
    committed = Image.open(ROOT / "docs" / name)
    assert main([str(tmp_path / name)]) == 0
    rendered = Image.open(io.BytesIO((tmp_path / name).read_bytes()))
    assert rendered.format == "PNG" and rendered.size == committed.size


def test_the_picture_is_there_and_the_script_renders_it(tmp_path):
    from scripts.demo_table import main

    assert_the_script_renders_the_committed_picture(main, "table.png", tmp_path)


def test_the_prompt_picture_is_there_and_shows_the_prompt_the_bot_builds(tmp_path):
    from scripts.demo_prompt import demo_prompt, main

    assert_the_script_renders_the_committed_picture(main, "anniversary_prompt.png", tmp_path)
    # The position it draws: a saving worth asking about, with two Stops held.
    prompt = demo_prompt()
    assert prompt.outlook.best_saving == 8 and prompt.view.specials.count("stop") == 2


def test_the_draft_picture_is_there_and_shows_the_draft_message(tmp_path):
    from scripts.demo_draft import demo_table, main

    assert_the_script_renders_the_committed_picture(main, "draft.png", tmp_path)
    view = demo_table().game.view(None)
    assert view.phase == "draft" and len(view.draft_log) == 7
