"""The bot's worker processes stay light: a spawned worker imports the main module again."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_main_module_loads_no_discord_for_the_workers():
    # multiprocessing's spawn runs `python -m bot`'s main module again in every worker;
    # discord.py (and the client it brings) is only needed by the bot process itself.
    code = "import sys, bot.__main__; print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord')[:3])"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", result.stdout
