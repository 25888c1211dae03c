"""The Docker image, without a Docker engine: its instructions checked, its install steps run.

No engine runs here or in CI, so the build stage's RUN command itself is run
in a copy of the build context (only what .dockerignore lets through). The
dependencies pip would download are lent from this environment so the test
stays quick; pip still builds and installs the bot from pyproject.toml.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per Dockerfile line, continuations joined, comments dropped."""
    joined, result = "", []
    for line in text.splitlines():
        if line.lstrip().startswith("#") and not joined:
            continue
        if line.rstrip().endswith("\\"):
            joined += line.rstrip()[:-1] + " "
            continue
        joined += line
        if joined.strip():
            keyword, _, args = joined.strip().partition(" ")
            result.append((keyword.upper(), args.strip()))
        joined = ""
    return result


def stages() -> list[list[tuple[str, str]]]:
    found: list[list[tuple[str, str]]] = []
    for keyword, args in instructions((ROOT / "Dockerfile").read_text()):
        if keyword == "FROM":
            found.append([])
        found[-1].append((keyword, args))
    return found


def excluded(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last matching pattern wins; ``!`` re-includes."""
    result = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").rstrip("/")
        if pattern.startswith("**/"):
            hit = any(fnmatch.fnmatch(part, pattern[3:]) for part in path.split("/"))
        else:
            hit = fnmatch.fnmatch(path, pattern) or path.startswith(pattern + "/")
        if hit:
            result = not negate
    return result


def docker_context(dest: Path) -> None:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in {".git", ".venv"}]  # big, and excluded anyway
        for name in files:
            relative = (Path(folder) / name).relative_to(ROOT).as_posix()
            if not excluded(relative, patterns):
                (dest / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / relative, dest / relative)


def exec_form(args: str) -> list[str]:
    parsed = json.loads(args)
    assert isinstance(parsed, list), args
    return parsed


def test_the_dockerfile_builds_a_small_non_root_image_with_a_healthcheck():
    build, final = stages()
    assert all(args.split()[0] == "python:3.11-slim" for (_, args), *_ in (build, final))
    final_keys = dict(final)  # the last of each instruction
    user = final_keys["USER"]
    assert user not in {"root", "0"} and user in final_keys["RUN"], "the user is created in the image"
    assert "libfribidi0" in final_keys["RUN"], "Raqm shapes Thai and Devanagari only with FriBiDi"
    assert exec_form(final_keys["CMD"]) == ["python", "-m", "bot"], "exec form: python gets SIGTERM as PID 1"
    health = final_keys["HEALTHCHECK"]
    assert exec_form(health[health.index("CMD") + 3 :].strip()) == ["python", "-m", "bot", "--health"]
    assert exec_form(final_keys["VOLUME"]) == ["/data"]
    env = final_keys["ENV"]
    assert "DATABASE_PATH=/data/" in env and "HEALTH_FILE=/tmp/" in env
    assert final_keys["COPY"] == "--from=build /opt/venv /opt/venv", "only the venv reaches the final image"


def test_the_build_context_holds_what_the_copies_need_and_nothing_secret(tmp_path):
    docker_context(tmp_path)
    for keyword, args in stages()[0]:
        if keyword == "COPY":
            *sources, _ = args.split()
            for source in sources:
                assert (tmp_path / source).exists(), f"COPY {source}: not in the build context"
    shipped = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert "bot/__main__.py" in shipped and "engine/game.py" in shipped
    assert not [p for p in shipped if p.startswith(("tests/", ".venv/")) or p.endswith((".env", ".sqlite3"))]
    assert excluded(".env", ["*", "!bot/"]) and not excluded("bot/app.py", ["*", "!bot/"])


@pytest.mark.slow
def test_the_install_step_installs_a_bot_that_starts_and_explains_itself(tmp_path):
    """Run the build stage's RUN line (with /opt/venv moved to a temp dir) in a copy of the context."""
    context, venv, empty = tmp_path / "src", tmp_path / "opt-venv", tmp_path / "cwd"
    context.mkdir(), empty.mkdir()
    docker_context(context)
    (run,) = [args for keyword, args in stages()[0] if keyword == "RUN"]
    steps = [shlex.split(step) for step in run.replace("/opt/venv", str(venv)).split("&&")]
    assert steps[0][:3] == ["python", "-m", "venv"] and "install" in steps[1] and steps[1][-1] == "."
    subprocess.run([sys.executable, *steps[0][1:]], cwd=context, check=True, timeout=60)
    # Lend this environment's packages, as if pip had downloaded them (.pth files in it are not run,
    # so this checkout's own editable install does not leak in).
    (site,) = venv.glob("lib/python3*/site-packages")
    (site / "_lent_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run(steps[1], cwd=context, capture_output=True, text=True, timeout=240)
    if done.returncode and ("NewConnectionError" in done.stderr or "Temporary failure" in done.stderr):
        pytest.skip("PyPI is unreachable, and pip needs it for the build backend")
    assert done.returncode == 0, done.stdout + done.stderr

    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "PYTHONPATH"}}
    python = venv / "bin" / "python"
    where = subprocess.run(
        [
            python,
            "-c",
            "import bot, bot.tables.service, cogs.render.images, cogs.ui.hand, data, engine; print(bot.__file__)",
        ],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert where.returncode == 0, where.stderr
    assert where.stdout.strip().startswith(str(venv)), "the bot runs from the installed package"
    assert not (site / "tests").exists()
    started = subprocess.run([python, "-m", "bot"], cwd=empty, env=env, capture_output=True, text=True, timeout=60)
    assert started.returncode == 2 and started.stderr.startswith("error: DISCORD_TOKEN is not set"), started.stderr
    health = subprocess.run(
        [python, "-m", "bot", "--health"], cwd=empty, env=env, capture_output=True, text=True, timeout=60
    )
    assert health.returncode == 1 and "no heartbeat" in health.stderr


def compose_services() -> dict[str, str]:
    """Each service's block of compose.yaml, by name (the file is plain enough to split by indent)."""
    text = (ROOT / "compose.yaml").read_text().split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    blocks: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("  ") and not line.startswith("   ") and line.strip().endswith(":"):
            name = line.strip()[:-1]
            blocks[name] = ""
        elif blocks and not line.lstrip().startswith("#"):
            blocks[name] += line + "\n"
    return blocks


def test_compose_gives_each_container_its_own_heartbeat():
    """.env.example's empty HEALTH_FILE would otherwise put every container's heartbeat
    next to the shared database, where a stale or another shard's beat looks healthy."""
    bots = {name: block for name, block in compose_services().items() if "sixnimmt-bot" in block or "build: ." in block}
    assert set(bots) == {"bot", "shard-0", "shard-1"}
    assert all("HEALTH_FILE: /tmp/" in block for block in bots.values())
    assert "DATABASE_PATH: /data/" in bots["bot"]


def test_compose_runs_sqlite_by_default_and_postgresql_with_two_shards_in_a_profile():
    services = compose_services()
    default = [name for name, block in services.items() if "profiles:" not in block]
    assert default == ["bot"], "a plain `docker compose up` starts one process on SQLite"
    assert "image: postgres:" in services["postgres"] and "profiles: [postgres]" in services["postgres"]
    shards = [services["shard-0"], services["shard-1"]]
    for block in shards:
        assert "profiles: [postgres]" in block and "postgres: {condition: service_healthy}" in block
        assert "DATABASE_URL: postgresql://sixnimmt:" in block and "@postgres:5432/sixnimmt" in block
        assert 'SHARD_COUNT: "2"' in block
    assert [block.count('SHARD_IDS: "0"') + 2 * block.count('SHARD_IDS: "1"') for block in shards] == [1, 2]
