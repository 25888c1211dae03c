"""Taking the bot's database away from outside, and reading what players saw meanwhile.

Helpers for ``test_database_outage.py``; nothing here reaches into the bot's tables or
presenter. The database is made unreachable the way an operator's bad day does it:

- ``PostgresDown``: the server is stopped (``pg_ctl stop -m immediate``, every connection cut,
  nothing listening) and started again with the options it ran with;
- ``SQLiteLocked``: another OS process takes SQLite's write lock (``BEGIN IMMEDIATE``) and
  holds it; reads still work, every write waits for the lock.

What players saw is read from the stand-in: each click's answer (``Click.verdict``), the
reveals and standings in the channel (``shown_reveals``, ``standings_shown``); what was
committed is read from the action log (``logged_turns``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import pwd
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e.driver import table_ids
from tests.postgres import binaries
from tests.standin import Interaction, InteractionRejected, StandinTimeout

# --- making the database unreachable --------------------------------------------------------


class PostgresDown:
    """Stops the test's PostgreSQL server and starts it again (the whole cluster: every
    database on it is away meanwhile, as when the server restarts or its host is gone)."""

    label = "PostgreSQL stopped"

    def __init__(self, data_dir: str) -> None:
        self.data_dir = data_dir
        self.down = False
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # the cluster's files belong to nobody (see tests/postgres.py)
            nobody = pwd.getpwnam("nobody")
            self.as_user = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]

    @classmethod
    async def of(cls, cluster) -> PostgresDown:
        """For the throwaway cluster of tests/postgres.py; skips on a server the tests do not own."""
        import asyncpg

        if os.environ.get("TEST_DATABASE_URL"):
            pytest.skip("TEST_DATABASE_URL names a server these tests must not stop")
        if binaries() is None:
            pytest.skip("no pg_ctl to stop and start the server with")
        conn = await asyncpg.connect(cluster.admin_url)
        try:
            data_dir = await conn.fetchval("SHOW data_directory")
        finally:
            await conn.close()
        return cls(data_dir)

    async def _pg_ctl(self, *args: str) -> None:
        root = os.path.dirname(self.data_dir)
        proc = await asyncio.create_subprocess_exec(  # not subprocess.run: the bot's loop runs on
            *self.as_user,
            str(binaries() / "pg_ctl"),
            "-D",
            self.data_dir,
            *args,
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        out, _ = await asyncio.wait_for(proc.communicate(), 90)
        assert proc.returncode == 0, f"pg_ctl {' '.join(args)}: {out.decode()}"

    async def begin(self) -> None:
        await self._pg_ctl("-m", "immediate", "-w", "stop")
        self.down = True

    async def end(self) -> None:
        if self.down:
            # "restart" of a stopped server starts it with the options it last ran with
            # (postmaster.opts: its port, its socket folder, fsync off).
            await self._pg_ctl(
                "-w", "-t", "60", "-l", os.path.join(os.path.dirname(self.data_dir), "server.log"), "restart"
            )
            self.down = False


LOCKER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
db.close()
"""


class SQLiteLocked:
    """Another process holds the SQLite file's write lock (a backup tool, a second bot, an
    operator's sqlite3 shell in a transaction): every write of the bot waits, reads go on."""

    label = "SQLite write lock held by another process"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def down(self) -> bool:
        return self.proc is not None

    async def begin(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LOCKER, str(self.path), stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        assert line.strip() == b"locked", line

    async def end(self) -> None:
        if self.proc is not None:
            self.proc.stdin.write(b"\n")
            await self.proc.stdin.drain()
            await asyncio.wait_for(self.proc.wait(), 30)
            self.proc = None


# --- log lines ------------------------------------------------------------------------------


class LogLines(logging.Handler):
    """Every record the bot's process logs at INFO and above (as LOG_LEVEL=INFO runs it), with
    the time it was logged; the stand-in's and the tests' own loggers are left out."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[tuple[float, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("tests", "aiohttp")):
            return
        try:
            text = record.getMessage()
        except Exception:
            text = str(record.msg)
        self.records.append((time.monotonic(), f"{record.levelname} {record.name}: {text[:160]}"))

    def between(self, start: float, end: float) -> list[str]:
        return [text for at, text in self.records if start <= at <= end]

    def __enter__(self) -> LogLines:
        root = logging.getLogger()
        self._level = root.level
        root.setLevel(logging.INFO)
        root.addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        root = logging.getLogger()
        root.removeHandler(self)
        root.setLevel(self._level)


def summary(lines: list[str], top: int = 8) -> str:
    """The most frequent lines (numbers blurred), for a failure message."""
    counts = Counter(re.sub(r"\d+(\.\d+)?", "N", line) for line in lines)
    return "\n".join(f"  {n} x {line}" for line, n in counts.most_common(top))


# --- what players saw -----------------------------------------------------------------------

CONFIRMS = re.compile(r"face down|You played|action was saved", re.I)
NOT_SAVED = re.compile(r"nothing was changed|(?:not|n't) (?:be |been )?saved|try again", re.I)
REVEAL = "🃏 Revealed:"


@dataclass
class TableRun:
    """One table the test plays: its channel, its human players (host first) and its id."""

    name: str
    channel: object
    humans: list
    id: int = 0
    choose: object = None  # (cards ascending) -> the card to play; None: the lowest


@dataclass
class Click:
    """A move a player made (a card, a row) and everything the bot answered to it."""

    run: TableRun
    user: object
    kind: str  # "pick" or "row"
    value: int  # the card, or the row index
    turn: int  # for a pick: the turn its hand was dealt for (10 - cards left + 1)
    interaction: Interaction
    hand: object = None  # the ephemeral hand the card was clicked on (used for this click only)
    during_outage: bool = False
    at: float = field(default_factory=time.monotonic)

    def texts(self) -> list[str]:
        """What the player read in answer, oldest first."""
        i = self.interaction
        texts: list[str] = []
        if i.callback_type in (4, 5) and i.original is not None and not i.original.loading:
            texts.append(i.original.content or "")
        elif i.callback_type in (6, 7) and self.hand is not None:
            texts += [v.content or "" for v in self.hand.versions()[1:]]  # the hand as edited in answer
        # Its own follow-ups: a public one is the channel's news the click carried (a reveal).
        texts += [m.content or "" for m in i.followups if m is not i.original and m.ephemeral]
        return texts

    @property
    def verdict(self) -> str:
        """confirmed | not saved | refused | unanswered | pending (deferred, never followed up)."""
        i = self.interaction
        if i.callback_type is None:
            return "unanswered"
        texts = [t for t in self.texts() if t]
        if not texts:
            if self.kind == "row" and i.callback_type == 6:
                return "confirmed"  # the row buttons' answer is the table moving on
            return "pending"
        last = texts[-1]
        if NOT_SAVED.search(last) and "action was saved" not in last:
            return "not saved"
        if CONFIRMS.search(last):
            return "confirmed"
        return "refused"

    def describe(self) -> str:
        latency = self.interaction.ack_latency
        took = f"answered after {latency:.2f} s" if latency is not None else "never answered in time"
        texts = self.texts()
        said = repr(texts[-1][:90]) if texts else "no words"
        when = " during the outage" if self.during_outage else ""
        what = f"pick {self.value} (turn {self.turn})" if self.kind == "pick" else f"row choice (row {self.value + 1})"
        return f"{self.run.name}: {self.user.name}'s {what}{when}: {took}, {self.verdict}: {said}"


async def answered(world, interaction: Interaction) -> bool:
    """Wait (a little past Discord's 3 s) for the bot's acknowledgement; the stand-in refuses a
    later one, as Discord does, so an interaction that is not answered by then never is."""
    try:
        await world.standin.world.wait_until(
            lambda: interaction.callback_type is not None, interaction.ack_deadline + 0.3, "no answer"
        )
        return True
    except StandinTimeout:
        return False


def live_message(world, run: TableRun):
    """The channel's newest public message with table buttons."""
    for message in reversed(world.standin.channel_messages(run.channel)):
        if table_ids(message):
            return message
    return None


def hand_button_message(world, run: TableRun):
    """The newest public message that still has "Play a card" (it opens the current hand)."""
    for message in reversed(world.standin.channel_messages(run.channel)):
        if any(cid.startswith("6n:h:") for cid in message.custom_ids):
            return message
    return None


async def open_hand(world, run: TableRun, user):
    """``user`` presses "Play a card": (the ephemeral hand, its cards ascending), or (answer, [])."""
    message = hand_button_message(world, run)
    if message is None:
        return None, []
    play = next(cid for cid in message.custom_ids if cid.startswith("6n:h:"))
    try:
        interaction = await world.standin.click(user, message, play)
        hand = await interaction.reply(timeout=3)
    except (InteractionRejected, StandinTimeout):
        return None, []
    cards = sorted(int(cid.rsplit(":", 1)[1]) for cid in hand.custom_ids if cid.startswith("6n:p:"))
    return hand, cards


def standings_shown(world, run: TableRun) -> int:
    return sum(
        any("Game over" in (v.content or "") for v in m.versions()) for m in world.standin.channel_messages(run.channel)
    )


def shown_reveals(world, run: TableRun) -> list[frozenset[int]]:
    """The card sets of every reveal the channel showed (a message counted once, whatever its edits)."""
    shown: list[frozenset[int]] = []
    for message in world.standin.channel_messages(run.channel):
        seen: set[frozenset[int]] = set()
        for version in message.versions():
            for line in (version.content or "").splitlines():
                if line.startswith(REVEAL):
                    seen.add(frozenset(int(c) for c in re.findall(r"\*\*(\d+)\*\*", line)))
        shown += sorted(seen, key=sorted)
    return shown


def logged_turns(log) -> list[list[tuple[int, int]]]:
    """The committed turns: each turn's logged picks (seat, card) in log order, a changed pick
    included; a turn is complete once every seat has picked in it."""
    seats = len(log.seats)
    turns: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for entry in log.actions:
        action = entry.action
        if action.get("kind") != "pick":
            continue
        current.append((action["player"], action["card"]))
        if len({seat for seat, _ in current}) == seats:
            turns.append(current)
            current = []
    if current:
        turns.append(current)  # an unfinished turn
    return turns


def revealed(turn: list[tuple[int, int]]) -> frozenset[int]:
    """The cards a complete turn reveals: each seat's last pick in it."""
    return frozenset(dict(turn).values())
