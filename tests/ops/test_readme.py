"""The README keeps its promises: the two commands first, every setting, every command, the picture."""

from __future__ import annotations

import importlib.util
import io
import itertools
import re
import shlex
from pathlib import Path

import pytest
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
    listed = README[README.index("### Every command") : README.index("### The rules")]
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


PERFORMANCE = (ROOT / "docs" / "PERFORMANCE.md").read_text()


def test_it_reads_as_a_guide_in_the_promised_order():
    """What the bot does and how to play come before set-up, settings, operations, languages."""
    sections = re.findall(r"^## (.+)$", README, re.M)
    promised = ["What it does", "How to play", "Set it up", "Settings", "Operations", "Languages", "Development"]
    found = [next((i for i, title in enumerate(sections) if title.startswith(p)), None) for p in promised]
    assert None not in found, dict(zip(promised, found, strict=True))
    assert found == sorted(found), sections


def test_benchmark_figures_live_in_the_performance_page():
    assert "](docs/PERFORMANCE.md)" in README
    for figure in (r"\d ± \d", r"\d ms\b", r"\d MB\b", r"\d+(?:,\d{3})+ simulated rounds"):
        assert not re.search(figure, README), f"a benchmark figure in the README: {figure}"
    # Each figure there names the command that prints it, and the machine it ran on.
    assert "2 cores, 24 GiB" in PERFORMANCE
    for section in re.split(r"^## ", PERFORMANCE, flags=re.M)[1:]:
        title = section.splitlines()[0]
        assert "python benchmarks/" in section, f"PERFORMANCE.md's {title!r} names no command"


def heading_anchors(text: str) -> set[str]:
    """The anchors GitHub makes of a page's headings (not of a code block's comments): lower case,
    punctuation dropped, spaces as dashes."""
    return {
        re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        for title in re.findall(r"^#+ (.+)$", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S), re.M)
    }


@pytest.mark.parametrize("page", ["README.md", "docs/PERFORMANCE.md", "docs/ARCHITECTURE.md"])
def test_every_link_leads_somewhere(page):
    source = ROOT / page
    for target in re.findall(r"\]\(([^)\s]+)\)", source.read_text()):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        linked = (source.parent / path).resolve() if path else source
        assert linked.exists(), f"{page} links to {target}, which does not exist"
        if anchor:
            assert anchor in heading_anchors(linked.read_text()), f"{page} links to {target}: no such heading"


def shown_commands(text: str, program: str) -> list[list[str]]:
    """Every command line a page shows that runs ``program``: its arguments, split as a shell would."""
    commands = []
    inline = re.findall(r"`([^`\n]+)`", text)
    blocks = [
        line
        for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
        for line in block.replace("\\\n", " ").splitlines()
    ]
    for line in inline + blocks:
        start = line.find(program)
        if start >= 0:
            commands.append(shlex.split(line[start + len(program) :], comments=True))
    return commands


def test_every_bot_command_shown_is_one_the_bot_accepts():
    from bot.cli import migrate_parser, parser

    commands = shown_commands(README, "python -m bot")
    assert ["--health"] in commands and any(args[:1] == ["migrate-db"] for args in commands)
    for args in commands:
        try:
            if args[:1] == ["migrate-db"]:
                migrate_parser().parse_args(args[1:])
            else:
                parser().parse_args(args)
        except SystemExit:
            pytest.fail(f"the README shows `python -m bot {shlex.join(args)}`, which the bot refuses")


def test_every_script_shown_exists_with_its_options():
    shown = [
        (script, args)
        for page in (README, PERFORMANCE)
        for script, args in re.findall(r"`python ((?:benchmarks|scripts)/\w+\.py)((?: [^`]*)?)`", page)
    ]
    assert len({script for script, _ in shown}) >= 10
    for script, args in shown:
        source = (ROOT / script).read_text()
        words = shlex.split(args)
        for option, value in itertools.pairwise([*words, ""]):
            if option.startswith("--"):
                assert f'"{option}"' in source, f"{script} has no option {option}"
                for choice in value.split(","):
                    if choice and not choice.startswith("--") and not choice.replace(".", "").isdigit():
                        assert f'"{choice}"' in source, f"{script} {option} has no choice {choice}"
    for module in ("tests.postgres", "pytest"):
        assert importlib.util.find_spec(module), module
