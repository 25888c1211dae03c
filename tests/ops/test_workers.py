"""The bot's worker processes stay light: a spawned worker imports the main module again."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_main_module_loads_nothing_for_the_workers():
    # multiprocessing's spawn runs `python -m bot`'s main module again in every worker (as
    # __mp_main__): discord.py, the settings' pydantic and the stores are the bot process's own.
    code = (
        "import runpy, sys; runpy.run_module('bot.__main__', run_name='__mp_main__', alter_sys=True); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'discord', 'pydantic', 'aiosqlite', 'data', 'numpy'}))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", result.stdout
