"""Chaos: everything at once, at 300 tables (an operator's bad day).

The real bot (in its own process, tests/e2e/bot_process.py) runs with THREADS=true against the
Discord stand-in with Discord's rate limits on. 300 tables (``--tables``) open over a minute, ten
to a channel, each with three to five scripted players and up to two easy AI seats; each plays a
one-round game in its thread, then its host presses Rematch in the finished game's thread (a new
lobby in the channel, with a thread of its own) and that game is played to the end too. Players
think 0.2-1 s a click (``--think``). While they play, all at once (spread over the ramp and 90 s
more, ``--span``):

- 3 % of the bot's REST calls with its token (not interaction callbacks or webhooks, not log-in
  and command sync) are answered 429 and 3 % a 5xx (500, 502, 503 or 504), changing nothing;
- the gateway connection is cut twice (the bot resumes);
- the bot process is killed with SIGKILL three times and started again on the same SQLite
  database;
- another process holds the database's write lock for 10 s;
- a moderator locks one game's thread for 20 s, then unlocks it.

At the end it prints:

- games finished, of twice the tables (each game and its rematch);
- stalled tables and why (a game that did not reach its standings, or a rematch lobby that never
  appeared, within a generous time: ``--stall`` seconds with no progress), each with its id and the
  last messages its channel or thread shows;
- confirmed moves missing from the logs: every pick and row choice whose answer said it was played
  (the ephemeral answer, or the row prompt's deferred update) must be in the database's ``actions``
  for its game (the SQLite file is read at the end);
- reveals and lobbies shown exactly once: per game, each turn's public reveal (the "Revealed" line)
  and the lobby message, any shown twice or never;
- own 429s: the 429s of the stand-in's rate limiter (all its 429s but the injected ones);
- clicks unanswered within 3 s while the bot process was up (clicks dispatched from 3 s before a
  kill until the new process has connected are left out, and so are clicks whose own callback
  Discord failed, which the faults here do not target, and clicks made while a gateway cut kept
  the bot's session away: Discord delivers those only when the session is back, too late to answer);
- the run time.

    python benchmarks/chaos.py [--tables 300] [--seed 1] [--per-channel 10] [--stall 240]
                               [--think MIN MAX] [--keep DIR]   # DIR: the bot's log and database
    python benchmarks/chaos.py --tables 30      # a quick check, about two minutes

At 300 tables the games are played in about three minutes and a run takes four to six (a stalled
table holds it ``--stall`` seconds more). The stand-in and its 1,200 players share the machine
with the bot: its event loop lag is printed, and a run on a machine busy with something else
(another test run) answers late for that reason too.

Targets (issue "Everything at once, at 300 tables"): every game finished, 0 stalled, 0 confirmed
moves missing, every lobby and reveal shown exactly once, 0 own 429s, 0 clicks unanswered in 3 s
while the process was up; a default run in <= 15 minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.load import freeze_periodically  # noqa: E402
from benchmarks.load_players import cpu_seconds  # noqa: E402
from bot.app import run_loop  # noqa: E402
from tests.e2e.db_outage import CONFIRMS, NOT_SAVED, SQLiteLocked  # noqa: E402
from tests.e2e.looplag import LoopLag  # noqa: E402
from tests.standin import DiscordStandin, Fault, InteractionRejected, StandinTimeout  # noqa: E402
from tests.standin.faults import STARTUP_ROUTES  # noqa: E402
from tests.standin.ratelimits import INTERACTION_ROUTES  # noqa: E402

REVEAL = "🃏 Revealed:"


# --- the bot process, killed and started again ----------------------------------------------


class Bot:
    """The bot in its own process on one SQLite file; ``kill()`` is kill -9, ``start()`` a new
    process on the same file. Its output goes to ``bot.log`` beside the database."""

    def __init__(self, standin, tmp: str) -> None:
        self.standin = standin
        self.db = os.path.join(tmp, "chaos.sqlite3")
        self.log_path = os.path.join(tmp, "bot.log")
        self.proc: subprocess.Popen | None = None
        self.down: list[list[float]] = []  # [killed at, connected again at] (monotonic)
        self.cpu_before = 0.0  # the CPU seconds of the processes killed so far

    async def start(self) -> None:
        gateway = self.standin.server.gateway
        before = gateway.identify_count
        env = dict(
            os.environ,
            **self.standin.env,
            DATABASE_PATH=self.db,
            LOG_LEVEL="WARNING",
            SIXNIMMT_SYNC="1",
            SIXNIMMT_STALL_DUMP="1.0",  # a stall of the bot's loop says what held it, in its log
            THREADS="true",
        )
        with open(self.log_path, "ab") as log:
            log.write(f"--- process started at {time.monotonic():.1f}\n".encode())
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.e2e.bot_process"], env=env, cwd=ROOT, stdout=log, stderr=log
            )
        await self.standin.world.wait_until(
            lambda: self.proc.poll() is not None or (gateway.identify_count > before and self.standin.connected),
            120,
            f"the bot process did not connect; see {self.log_path}",
        )
        if self.proc.poll() is not None:
            raise RuntimeError(f"the bot process exited with {self.proc.returncode}; see {self.log_path}")
        await self.standin.wait_for_commands("6nimmt", timeout=60)
        if self.down and len(self.down[-1]) == 1:
            self.down[-1].append(time.monotonic())

    def print_tasks(self) -> None:
        """The bot prints its tasks, and where each waits, to its log (a table stalled: what holds it)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGUSR2)

    async def kill(self) -> None:
        self.down.append([time.monotonic()])
        self.cpu_before += self.cpu()
        self.proc.send_signal(signal.SIGKILL)
        while self.proc.poll() is None:
            await asyncio.sleep(0.05)
        await self.standin.world.wait_until(
            lambda: not self.standin.connected, 30, "the dead bot still looks connected"
        )

    def cpu(self) -> float:
        try:
            return cpu_seconds(self.proc.pid)
        except OSError:
            return 0.0

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()


# --- what the stand-in shows ------------------------------------------------------------------


def table_buttons(game_id: int) -> tuple[str, ...]:
    """The custom ids of a game's table message: "Play a card" and the row prompt's buttons."""
    return (f"6n:h:{game_id}", f"6n:r:{game_id}:")


def newest_with(standin, channel, prefixes) -> object | None:
    """The newest message with a button whose id is one of ``prefixes`` or starts with one that
    ends in a colon (so game 5's buttons are not game 55's)."""
    for message in reversed(standin.channel_messages(channel)):
        if any(cid == p or (p.endswith(":") and cid.startswith(p)) for cid in message.custom_ids for p in prefixes):
            return message
    return None


def progress_of(message) -> tuple:
    """What changes when a game moves on (a new message, other buttons, other rows), and not when
    the same table is only shown again or who has picked is edited in."""
    embed = message.embeds[0] if message.embeds else {}
    return message.id, tuple(message.custom_ids), embed.get("description")


def finished(standin, where, game_id: int) -> bool:
    """The game shows its standings (the message with its Rematch button)."""
    return newest_with(standin, where, (f"6n:m:{game_id}",)) is not None


def story(standin, channel, last: int = 4) -> str:
    """The channel's newest messages, each as its latest version: what a stalled table shows."""
    return "\n".join(describe(m) for m in standin.channel_messages(channel)[-last:]) or "      (nothing)"


def describe(message) -> str:
    """One message as its latest version shows it: its text, title, description and buttons."""
    if message is None:
        return "      (no such message)"
    embed = message.embeds[0] if message.embeds else {}
    text = " ".join(
        part.replace("\n", " ")[:90]
        for part in (message.content or "", embed.get("title", ""), embed.get("description", ""))
        if part
    )
    return f"      {message.id}: {text[:200]!r} buttons {message.custom_ids[:4]}"


# --- players ----------------------------------------------------------------------------------


@dataclass
class Move:
    """A pick or row choice a player clicked, and the interaction that carries the bot's answer."""

    table_id: int
    user_id: int
    kind: str  # "pick" | "row"
    value: int  # the card, or the row (0-based)
    interaction: object
    hand: object = None

    def verdict(self) -> str:
        i = self.interaction
        if i.callback_type is None:
            return "unanswered"
        texts = []
        if i.callback_type in (4, 5) and i.original is not None and not i.original.loading:
            texts.append(i.original.content or "")
        elif i.callback_type in (6, 7) and self.hand is not None:
            texts += [v.content or "" for v in self.hand.versions()[1:]]
        texts += [m.content or "" for m in i.followups if m is not i.original and m.ephemeral]
        texts = [t for t in texts if t]
        if not texts:
            if self.kind == "row" and i.callback_type == 6:
                return "confirmed"  # the row buttons' answer is the table moving on
            return "pending"
        if NOT_SAVED.search(texts[-1]) and "action was saved" not in texts[-1]:
            return "not saved"
        return "confirmed" if CONFIRMS.search(texts[-1]) else "refused"


@dataclass
class Run:
    """Everything the players did and saw."""

    moves: list[Move] = field(default_factory=list)
    games: list[tuple[int, int, object, object]] = field(default_factory=list)  # (table, game id, channel, thread)
    finished: int = 0
    stalled: list[str] = field(default_factory=list)
    stalled_games: list[int] = field(default_factory=list)
    playing: dict[int, object] = field(default_factory=dict)  # game id -> its thread, while it plays
    notes: list[str] = field(default_factory=list)
    on_stall: Callable[[], None] = lambda: None  # the bot process prints its tasks to its log


class Stalled(Exception):
    pass


class Table:
    def __init__(self, index, standin, channel, humans, ai, rng, run: Run, stall: float, pace) -> None:
        self.pace = pace
        self.index = index
        self.standin = standin
        self.channel = channel
        self.humans = humans  # host first
        self.ai = ai
        self.rng = rng
        self.run = run
        self.stall = stall
        self.where = channel  # the thread, once known
        self.game_id = 0
        self.lobby_id = 0
        self.progress = time.monotonic()

    async def think(self, share: float = 1.0) -> None:
        await asyncio.sleep(self.rng.uniform(*self.pace) * share)

    def moved(self) -> None:
        self.progress = time.monotonic()

    def check(self, doing: str) -> None:
        if time.monotonic() - self.progress > self.stall:
            raise Stalled(f"{doing}: nothing for {self.stall:.0f} s")

    async def until(self, check, doing: str, every: float = 0.2):
        while True:
            value = check()
            if value:
                self.moved()
                return value
            self.check(doing)
            await asyncio.sleep(every)

    async def answered(self, interaction, timeout: float = 4.0) -> int | None:
        try:
            return await interaction.ack(timeout)
        except StandinTimeout:
            return None

    async def seated(self, lobby, guest, timeout: float = 5.0) -> bool:
        """Whether the lobby shows ``guest`` among its players within ``timeout`` (a join the
        database could not save is answered, and shows nobody new)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.standin.message(lobby.id)
            text = f"{shown.content} {shown.embed}"
            if guest.name in text or f"<@{_uid(guest)}>" in text:
                return True
            await asyncio.sleep(0.2)
        return False

    async def click(self, user, message, custom_id):
        """The click, or None when Discord would not send it (the button is gone, the gateway
        connection to the bot was just cut under the dispatch)."""
        try:
            return await self.standin.click(user, message, custom_id)
        except (InteractionRejected, ConnectionError, aiohttp.ClientError):
            return None

    # -- the table's life ------------------------------------------------------------------

    async def play(self, ramp_at: float) -> None:
        await asyncio.sleep(ramp_at)
        self.moved()
        try:
            lobby = await self.open_lobby()
            await self.join(lobby)
            await self.begin(lobby)
            await self.play_game("the game")
            lobby = await self.rematch()
            await self.begin(lobby)
            await self.play_game("the rematch")
        except Stalled as stall:
            if self.where is self.channel and self.lobby_id:  # the lobby as it is now, and its thread if any
                lobby = self.standin.world.messages.get(self.lobby_id)
                thread = self.standin.world.channels.get(self.lobby_id)
                stall = f"{stall}\n    its lobby {self.lobby_id} shows:\n{describe(lobby)}"
                if thread is not None:
                    stall += f"\n    its thread shows:\n{story(self.standin, thread)}"
            in_thread = self.where is not self.channel
            self.run.on_stall()
            self.run.stalled_games.append(self.game_id)
            self.run.stalled.append(
                f"  table {self.index} (game {self.game_id}) in #{self.channel.name}: {stall}\n"
                f"    its {'thread' if in_thread else 'channel'} shows:\n"
                f"{story(self.standin, self.where)}"
                + (f"\n    its channel shows:\n{story(self.standin, self.channel)}" if in_thread else "")
            )
        finally:
            self.run.playing.pop(self.game_id, None)

    def lobby_of(self, table_id: int):
        for message in reversed(self.standin.channel_messages(self.channel)):
            if any(cid.startswith("6n:l:") and cid.endswith(f":{table_id}") for cid in message.custom_ids):
                return message
        return None

    def table_id_of(self, message) -> int:
        cid = next(c for c in message.custom_ids if c.startswith("6n:l:"))
        return int(cid.rsplit(":", 1)[1])

    async def open_lobby(self):
        host = self.humans[0]
        while True:
            try:
                start = await self.standin.slash(
                    host, self.channel, "6nimmt start", ai_players=self.ai, ai_level="easy", rounds=1, timer=600
                )
            except (InteractionRejected, ConnectionError, aiohttp.ClientError):
                start = None
            if start is not None:
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:  # the answer, or a lobby the answer was lost for
                    shown = next(
                        (
                            m
                            for m in self.standin.channel_messages(self.channel)
                            if m.interaction_id == start.id and any(c.startswith("6n:l:") for c in m.custom_ids)
                        ),
                        None,
                    )
                    if shown is not None:
                        self.game_id = self.table_id_of(shown)
                        self.moved()
                        return shown
                    await asyncio.sleep(0.2)
            self.check("opening the lobby")
            await asyncio.sleep(1)

    async def join(self, lobby) -> None:
        for guest in self.humans[1:]:
            await self.think()
            while True:
                current = self.standin.message(lobby.id)
                join = next((c for c in current.custom_ids if c.startswith("6n:l:join:")), None)
                if join is None:
                    raise Stalled("the lobby lost its Join button")
                click = await self.click(guest, current, join)
                if click is not None and await self.answered(click) is not None and await self.seated(lobby, guest):
                    self.moved()
                    break
                self.check("joining the lobby")
                await asyncio.sleep(1)

    async def begin(self, lobby) -> None:
        """The host presses Start until the game's thread shows its table."""
        host = self.humans[0]
        self.game_id = self.table_id_of(self.standin.message(lobby.id)) if lobby.custom_ids else self.game_id
        self.lobby_id = lobby.id
        await self.think()
        shown = table_buttons(self.game_id) + (f"6n:m:{self.game_id}",)
        while True:
            thread = self.standin.world.channels.get(lobby.id)
            if thread is not None and newest_with(self.standin, thread, shown):
                break
            if newest_with(self.standin, self.channel, shown):
                thread = self.channel  # no thread could be started: the game plays in the channel
                break
            current = self.standin.message(lobby.id)
            start = next((c for c in current.custom_ids if c.startswith("6n:l:start:")), None)
            if start is not None:
                click = await self.click(host, current, start)
                if click is not None:
                    await self.answered(click)
            self.check("starting the game (its table never showed in its thread)")
            await asyncio.sleep(2)
        self.where = thread
        self.moved()
        self.run.games.append((self.index, self.game_id, self.channel, thread))
        self.run.playing[self.game_id] = thread

    async def play_game(self, label: str) -> None:
        thread = self.where
        picked: dict[int, int] = {}  # user id -> the step of their last confirmed pick
        buttons = table_buttons(self.game_id)
        shown_state = None
        while not finished(self.standin, thread, self.game_id):
            live = newest_with(self.standin, thread, buttons)
            if live is None:
                self.check(f"{label}: no table message and no standings")
                await asyncio.sleep(0.3)
                continue
            before = (live.id, len(live.history))
            state = progress_of(live)
            if state != shown_state:  # a new turn, or the rows changed: the game moves
                shown_state = state
                self.moved()
            if any(c.startswith("6n:r:") for c in live.custom_ids):
                await self.choose_row(live)
            else:
                await asyncio.gather(*(self.pick(user, live, picked) for user in self.humans))
            # wait for the table to move on (an edit, a new message, the standings)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not finished(self.standin, thread, self.game_id):
                now = newest_with(self.standin, thread, buttons)
                if now is not None and (now.id, len(now.history)) != before:
                    break
                await asyncio.sleep(0.1)
            self.check(f"{label} did not reach its standings")
        self.moved()
        self.run.finished += 1
        self.run.playing.pop(self.game_id, None)

    async def pick(self, user, live, picked: dict[int, int]) -> None:
        await self.think()
        play = next((c for c in live.custom_ids if c.startswith("6n:h:")), None)
        if play is None:
            return
        click = await self.click(user, live, play)
        if click is None:
            return
        try:
            hand = await click.reply(timeout=4)
        except (StandinTimeout, InteractionRejected):
            return
        cards = [c for c in hand.custom_ids if c.startswith("6n:p:")]
        if not cards:
            return  # picked already, a seat the AI plays, or the turn is over
        step = int(cards[0].split(":")[3])
        if picked.get(user.user.id if hasattr(user, "user") else user.id) == step:
            return
        await self.think(0.5)
        card_id = self.rng.choice(cards)
        pick = await self.click(user, hand, card_id)
        if pick is None:
            return
        move = Move(self.game_id, _uid(user), "pick", int(card_id.rsplit(":", 1)[1]), pick, hand)
        self.run.moves.append(move)
        if await self.answered(pick) is not None:
            for _ in range(20):
                if move.verdict() != "pending":
                    break
                await asyncio.sleep(0.1)
            if move.verdict() == "confirmed":
                picked[_uid(user)] = step

    async def choose_row(self, live) -> None:
        await self.think()
        rows = [c for c in live.custom_ids if c.startswith("6n:r:")]
        for user in self.humans:
            click = await self.click(user, live, rows[0])
            if click is None:
                return  # the prompt is gone
            self.run.moves.append(Move(self.game_id, _uid(user), "row", int(rows[0].rsplit(":", 1)[1]), click))
            if await self.answered(click) == 6:
                return

    async def rematch(self):
        """The host presses Rematch in the finished game's thread; the new lobby in the channel."""
        host, thread = self.humans[0], self.where
        await self.think()
        while True:
            standings = newest_with(self.standin, thread, (f"6n:m:{self.game_id}",))
            cid = next(c for c in standings.custom_ids if c.startswith("6n:m:"))
            click = await self.click(host, standings, cid)
            if click is not None:
                try:
                    said = await click.reply(timeout=20)
                    if any(c.startswith("6n:l:") for c in said.custom_ids):  # pressed in a channel: the answer
                        self.game_id = self.table_id_of(said)
                        self.where = self.channel
                        return said
                    link = re.search(rf"/{self.channel.id}/(\d+)", said.content or "")
                    if link:
                        lobby = await self.until(
                            lambda link=link: self.standin.world.messages.get(int(link.group(1))),
                            "the rematch lobby never appeared",
                        )
                        self.game_id = self.table_id_of(lobby)
                        self.where = self.channel
                        return lobby
                except (StandinTimeout, InteractionRejected):
                    # no answer: a lobby may be open all the same (its answer lost), as a player would see
                    lobby = self.rematch_lobby(click.dispatched_at or 0)
                    if lobby is not None:
                        self.game_id = self.table_id_of(lobby)
                        self.where = self.channel
                        return lobby
                else:
                    if not NOT_SAVED.search(said.content or ""):  # else a player tries again
                        raise Stalled(f"the Rematch answer gave no lobby link: {said.content!r}")
                    self.run.notes.append(f"table {self.index}: Rematch answered {said.content!r}; tried again")
            self.check("the rematch lobby never appeared")
            await asyncio.sleep(1)

    def rematch_lobby(self, since: float):
        """A lobby in the channel posted since ``since`` that seats this table's host."""
        host = self.humans[0]
        marks = (f"<@{_uid(host)}>", host.user.name if hasattr(host, "user") else host.name)
        for message in self.standin.channel_messages(self.channel):
            if message.written_at < since or not any(c.startswith("6n:l:join:") for c in message.custom_ids):
                continue
            text = str(message.content) + str(message.embeds)
            if any(mark in text for mark in marks):
                return message
        return None


def bucket_of(path: str) -> str:
    """A request's route with its channel and every other id but the first as {id}: what a route's
    bucket is counted by (its major parameter)."""
    head, _, rest = path.partition("/channels/")
    channel, _, tail = rest.partition("/")
    return f"{head}/channels/{channel}/" + re.sub(r"\d+", "{id}", tail)


def _uid(user) -> int:
    return user.user.id if hasattr(user, "user") else user.id


# --- the chaos --------------------------------------------------------------------------------


def bot_token_routes(standin) -> frozenset[str]:
    """Every REST route of the stand-in but interaction callbacks and webhooks and start-up's."""
    from tests.standin.server import API_PREFIX

    routes = set()
    for resource in standin.server._runner.app.router.resources():
        canonical = resource.canonical
        if canonical.startswith(API_PREFIX):
            routes.add(canonical[len(API_PREFIX) :])
    return frozenset(routes - INTERACTION_ROUTES - STARTUP_ROUTES)


@dataclass
class Events:
    log: list[str] = field(default_factory=list)
    drops: list[float] = field(default_factory=list)
    # [cut at, the bot's session back at]: Discord holds the clicks meanwhile and replays them late
    disconnected: list[list[float]] = field(default_factory=list)

    def note(self, began: float, what: str) -> None:
        line = f"  [{time.monotonic() - began:6.1f} s] {what}"
        self.log.append(line)
        print(line, flush=True)


async def chaos(standin, bot: Bot, run: Run, span: float, began: float, events: Events, rng) -> None:
    """The faults and outages, spread over ``span`` seconds from the start."""
    plan = sorted(
        [
            (0.12, "drop"),
            (0.55, "drop"),
            (0.20, "kill"),
            (0.45, "kill"),
            (0.72, "kill"),
            (0.33, "sqlite"),
            (0.27, "thread"),
        ]
    )
    for at, what in plan:
        await asyncio.sleep(max(0.0, began + at * span - time.monotonic()))
        if what == "drop":
            events.drops.append(time.monotonic())
            gateway = standin.server.gateway
            back = gateway.resume_count + gateway.identify_count
            window = [time.monotonic()]
            events.disconnected.append(window)
            events.note(began, f"gateway cut: {standin.drop_gateway()} connection(s)")
            await standin.world.wait_until(
                lambda gateway=gateway, back=back: (
                    gateway.resume_count + gateway.identify_count > back and standin.connected
                ),
                60,
                "the bot did not come back after the gateway cut",
            )
            window.append(time.monotonic())
            events.note(began, f"the bot's gateway session is back after {window[1] - window[0]:.1f} s")
        elif what == "kill":
            await bot.kill()
            events.note(began, "bot process killed (SIGKILL)")
            await bot.start()
            down = bot.down[-1]
            events.note(began, f"bot process started again, connected after {down[1] - down[0]:.1f} s down")
        elif what == "sqlite":
            lock = SQLiteLocked(Path(bot.db))
            await lock.begin()
            events.note(began, "SQLite write lock taken by another process")
            await asyncio.sleep(10)
            await lock.end()
            events.note(began, "SQLite write lock released")
        elif what == "thread":
            asyncio.get_running_loop().create_task(lock_a_thread(standin, run, began, events, rng))


async def progress(run: Run, began: float) -> None:
    while True:
        await asyncio.sleep(30)
        print(
            f"  [{time.monotonic() - began:6.1f} s] games finished {run.finished}, playing {len(run.playing)}, "
            f"stalled {len(run.stalled)}",
            flush=True,
        )


async def lock_a_thread(standin, run: Run, began: float, events: Events, rng) -> None:
    playing = sorted(run.playing.items())
    if not playing:
        events.note(began, "no game playing to lock the thread of")
        return
    game_id, thread = playing[rng.randrange(len(playing))]
    await standin.server.threads.moderate(thread, locked=True)
    events.note(began, f"a moderator locked game {game_id}'s thread {thread.id}")
    await asyncio.sleep(20)
    await standin.server.threads.moderate(thread, locked=False)
    events.note(began, f"a moderator unlocked game {game_id}'s thread {thread.id}")


# --- the verdicts -----------------------------------------------------------------------------


def read_logs(db: str) -> tuple[dict[int, list[dict]], dict[int, dict[int, int]], dict[int, int]]:
    """Every game's actions in order and its seats (user id -> seat), from the SQLite file."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        actions: dict[int, list[dict]] = {}
        for game_id, action in con.execute("SELECT game_id, action FROM actions ORDER BY game_id, seq"):
            actions.setdefault(game_id, []).append(json.loads(action))
        seats: dict[int, dict[int, int]] = {}
        for game_id, seat, user_id in con.execute("SELECT game_id, seat, user_id FROM seats"):
            if user_id is not None:
                seats.setdefault(game_id, {})[user_id] = seat
        counts = {g: n for g, n in con.execute("SELECT game_id, COUNT(*) FROM seats GROUP BY game_id")}
    finally:
        con.close()
    return actions, seats, counts


def revealed_turns(actions: list[dict], seats: int) -> list[frozenset[int]]:
    """The card sets the game's complete turns revealed (each seat's last pick in the turn)."""
    turns, current = [], {}
    for action in actions:
        if action.get("kind") != "pick":
            continue
        if action["player"] in current and len(current) < seats:
            current[action["player"]] = action["card"]  # a changed pick
            continue
        current[action["player"]] = action["card"]
        if len(current) == seats:
            turns.append(frozenset(current.values()))
            current = {}
    return turns


def shown_reveals(standin, thread) -> Counter:
    """How many messages of the thread showed each reveal (a message counted once, whatever its edits)."""
    shown: Counter = Counter()
    for message in standin.channel_messages(thread):
        seen = set()
        for version in message.versions():
            for line in (version.content or "").splitlines():
                if line.startswith(REVEAL):
                    seen.add(frozenset(int(c) for c in re.findall(r"\*\*(\d+)\*\*", line)))
        shown.update(seen)
    return shown


def lobbies_shown(standin, channel, table_id: int) -> int:
    suffix = f":{table_id}"
    return sum(
        any(cid.startswith("6n:l:") and cid.endswith(suffix) for v in m.versions() for cid in v.custom_ids)
        for m in standin.channel_messages(channel)
    )


def report(standin, bot: Bot, run: Run, args, began: float, ended: float, events: Events, standin_lag) -> None:
    expected = 2 * args.tables
    print(
        f"chaos benchmark: {args.tables} tables (seed {args.seed}), each a game and its rematch, in threads; "
        f"players think {args.think[0]:g}-{args.think[1]:g} s"
    )
    print(f"  games finished: {run.finished} of {expected}")
    print(f"  stalled tables: {len(run.stalled)}")
    for line in run.stalled:
        print(line)
    if run.stalled_games:
        con = sqlite3.connect(f"file:{bot.db}?mode=ro", uri=True)
        marks = ",".join("?" * len(run.stalled_games))
        statuses = con.execute(f"SELECT game_id, status FROM games WHERE game_id IN ({marks})", run.stalled_games)
        print("    their games in the database: " + ", ".join(f"{g} {s}" for g, s in statuses))
        con.close()

    actions, seats, seat_counts = read_logs(bot.db)
    # confirmed moves missing from the logs
    verdicts = Counter(m.verdict() for m in run.moves)
    missing = []
    for move in run.moves:
        if move.verdict() != "confirmed":
            continue
        seat = seats.get(move.table_id, {}).get(move.user_id)
        log = actions.get(move.table_id, [])
        if move.kind == "pick":
            wanted = {"kind": "pick", "player": seat, "card": move.value}
        else:
            wanted = {"kind": "choose_row", "player": seat, "row": move.value}
        if not any(all(a.get(k) == v for k, v in wanted.items()) for a in log):
            missing.append(f"    game {move.table_id}: user {move.user_id} (seat {seat}) {move.kind} {move.value}")
    confirmed = verdicts.get("confirmed", 0)
    print(
        f"  confirmed moves missing from the logs: {len(missing)} of {confirmed} confirmed "
        f"(moves clicked: {', '.join(f'{k} {n}' for k, n in sorted(verdicts.items()))})"
    )
    for line in missing[:20]:
        print(line)

    # reveals and lobbies shown exactly once
    reveal_twice, reveal_never, lobby_twice, lobby_never, reveals = [], [], [], [], 0
    for index, game_id, channel, thread in run.games:
        shown = shown_reveals(standin, thread)
        for turn, cards in enumerate(revealed_turns(actions.get(game_id, []), seat_counts.get(game_id, 0)), 1):
            reveals += 1
            n = shown.get(cards, 0)
            if n == 0:
                reveal_never.append(f"    table {index} game {game_id} turn {turn} {sorted(cards)} never shown")
            elif n > 1:
                reveal_twice.append(f"    table {index} game {game_id} turn {turn} {sorted(cards)} shown {n} times")
        lobbies = lobbies_shown(standin, channel, game_id)
        if lobbies == 0:
            lobby_never.append(f"    table {index} game {game_id}: its lobby never shown")
        elif lobbies > 1:
            lobby_twice.append(f"    table {index} game {game_id}: its lobby shown {lobbies} times")
    print(
        f"  reveals: {reveals} turns revealed in the logs of {len(run.games)} games begun; shown twice "
        f"{len(reveal_twice)}, never {len(reveal_never)}"
    )
    for line in (reveal_twice + reveal_never)[:20]:
        print(line)
    print(f"  lobbies: {len(run.games)} games begun; lobby shown twice {len(lobby_twice)}, never {len(lobby_never)}")
    for line in (lobby_twice + lobby_never)[:20]:
        print(line)

    # 429s
    figures = standin.rate_limits.figures()
    injected = standin.injected_faults
    injected_429 = sum(1 for f in injected if f.status == 429)
    all_429 = sum(figures.too_many.values())
    by_status = Counter(f.status for f in injected)
    print(
        f"  own 429s (the stand-in's rate limiter): {all_429 - injected_429} "
        f"(429s in all {all_429}, injected {injected_429}); faults injected: "
        + ", ".join(f"{s} x{n}" for s, n in sorted(by_status.items()))
        + f"; bot-token requests {figures.bot_requests}"
    )

    injected_at = {(f.at, f.path) for f in injected}
    own = Counter(
        r.method + " " + re.sub(r"/\d+", "/{id}", r.path.split("/api/v10", 1)[-1])
        for r in standin.requests
        if r.status == 429 and (r.at, r.path) not in injected_at
    )
    windows_429 = Counter(
        int((r.at - began) // 30) * 30
        for r in standin.requests
        if r.status == 429 and (r.at, r.path) not in injected_at
    )
    if own:
        print(
            "    own 429s by 30 s from the start: " + ", ".join(f"{w} s: {n}" for w, n in sorted(windows_429.items()))
        )
        print("    own 429s by route: " + ", ".join(f"{route} x{n}" for route, n in own.most_common(6)))
        print(f"    own 429s by scope (injected ones count as user): {figures.too_many}")
        # What came before each: the requests to the same route and place, as the stand-in got them.
        for own_429 in [r for r in standin.requests if r.status == 429 and (r.at, r.path) not in injected_at][:6]:
            bucket = bucket_of(own_429.path)  # a route's bucket is the channel's, whichever message
            same = [
                r
                for r in standin.requests
                if r.method == own_429.method and bucket_of(r.path) == bucket and own_429.at - 6 <= r.at <= own_429.at
            ]
            trail = ", ".join(f"{r.at - own_429.at:+.2f} s {r.status}" for r in same[-10:])
            route = own_429.path.split("/api/v10", 1)[-1]
            print(f"    {own_429.method} {route} at {own_429.at - began:.1f} s: {trail}")

    # clicks unanswered within 3 s while the process was up
    windows = [(d[0] - standin.ack_deadline, d[1] if len(d) > 1 else float("inf")) for d in bot.down]
    # A click made while the bot's gateway session was cut reaches it only when the session is back:
    # Discord could not deliver it in time, whatever the bot does.
    cut_off = [(d[0], d[1] if len(d) > 1 else float("inf")) for d in events.disconnected]
    failed_callbacks = {f.path.split("/")[-3] for f in injected if f.path.endswith("/callback")}
    total = excluded = undelivered = 0
    unanswered = []
    for i in standin.world.interactions.values():
        if i.dispatched_at is None or i.dispatched_at < began:
            continue
        if any(lo <= i.dispatched_at <= hi for lo, hi in windows) or str(i.id) in failed_callbacks:
            excluded += 1
            continue
        if any(lo <= i.dispatched_at <= hi for lo, hi in cut_off):
            undelivered += 1
            continue
        total += 1
        if i.ack_latency is None or i.ack_latency > 3.0:
            unanswered.append(i)
    near_drop = sum(1 for i in unanswered if any(0 <= i.dispatched_at - d <= 15 for d in events.drops))
    print(
        f"  clicks unanswered within 3 s while the bot process was up: {len(unanswered)} of {total} "
        f"({excluded} left out: dispatched from 3 s before a kill until the new process connected"
        f"{', or their callback failed' if failed_callbacks else ''}; {undelivered} made while the bot's gateway "
        f"session was cut, which Discord delivers when it is back); within 15 s after a gateway cut: {near_drop}"
    )
    for i in unanswered[:15]:
        print(f"    {i.describe} by {i.user.name} in #{i.channel.name} at {i.dispatched_at - began:.1f} s")
    down = ", ".join(f"{d[1] - d[0]:.1f} s" for d in bot.down if len(d) > 1)
    print(f"  bot process down (killed until connected again): {down}")
    print(f"  stand-in errors (the bot's invalid requests): {len(standin.errors)}")
    for error in standin.errors[:5]:
        print(f"    {error}")
    for note in run.notes[:10]:
        print(f"  note: {note}")
    print(
        f"  bot CPU (its processes, workers apart): {bot.cpu_before + bot.cpu():.0f} s; the stand-in's and players' "
        f"event loop lag: {standin_lag.summary()}; load average at the end {os.getloadavg()[0]:.1f}"
    )
    print(f"  run time: {ended - began:.0f} s (from the first table opening to the last table done)")


# --- running ----------------------------------------------------------------------------------


async def main_async(args) -> None:
    rng = random.Random(args.seed)
    async with DiscordStandin(rate_limits=True) as standin:
        guild = standin.add_guild("Chaos")
        channels = [
            standin.add_text_channel(guild, f"chaos-{c}") for c in range(max(1, -(-args.tables // args.per_channel)))
        ]
        run, tables = Run(), []
        for i in range(args.tables):
            humans = [standin.add_member(guild, f"t{i}p{p}") for p in range(rng.randint(3, 5))]
            tables.append(
                Table(
                    i,
                    standin,
                    channels[i % len(channels)],
                    humans,
                    rng.randint(0, 2),
                    random.Random(rng.random()),
                    run,
                    args.stall,
                    args.think,
                )
            )
        with tempfile.TemporaryDirectory() as tmp:
            bot = Bot(standin, tmp)
            run.on_stall = bot.print_tasks
            try:
                await bot.start()
                standin.world.faults.rng.seed(args.seed)
                routes = bot_token_routes(standin)
                standin.world.faults.add(Fault(status=429, routes=routes, fraction=0.03))
                standin.world.faults.add(Fault(status=(500, 502, 503, 504), routes=routes, fraction=0.03 / 0.97))
                events = Events()
                began = time.monotonic()
                span = args.span or (args.ramp + 90)
                print(
                    f"chaos: {args.tables} tables opening over {args.ramp:g} s, outages spread over {span:.0f} s",
                    flush=True,
                )
                outages = asyncio.get_running_loop().create_task(chaos(standin, bot, run, span, began, events, rng))
                ticker = asyncio.get_running_loop().create_task(progress(run, began))
                # The stand-in keeps every message: its collector walking them all would stall it
                # (real Discord does not pause for our collector), so its survivors are frozen.
                freezer = asyncio.get_running_loop().create_task(freeze_periodically())
                lag = LoopLag().start()
                results = await asyncio.gather(
                    *(t.play(args.ramp * t.index / len(tables)) for t in tables), return_exceptions=True
                )
                ended = time.monotonic()
                ticker.cancel()
                freezer.cancel()
                lag.stop()
                await outages  # its last outage, if the tables were quicker
                standin.world.faults.clear()
                await asyncio.sleep(3)  # the last posts and saves settle
                failures = [r for r in results if isinstance(r, BaseException)]
                report(standin, bot, run, args, began, ended, events, lag)
                for failure in failures[:5]:
                    print(f"  player failure: {failure!r}")
                if failures:
                    print(f"  {len(failures)} tables' players failed (a benchmark bug, not the bot's)")
                print(f"  bot log: {bot.log_path} ({os.path.getsize(bot.log_path)} bytes)")
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    for name in ("bot.log", "chaos.sqlite3"):
                        subprocess.run(["cp", os.path.join(tmp, name), args.keep], check=False)
            finally:
                bot.stop()


#: The command line's options, each with what argparse is told of it.
OPTIONS: dict[str, dict] = {
    "--tables": dict(type=int, default=300),
    "--seed": dict(type=int, default=1),
    "--per-channel": dict(type=int, default=10, help="tables sharing one channel"),
    "--ramp": dict(type=float, default=60.0, help="seconds over which the tables open"),
    "--span": dict(
        type=float, default=0, help="seconds the outages are spread over (default: the ramp + 90, while games play)"
    ),
    "--stall": dict(type=float, default=240.0, help="seconds without progress that make a table stalled"),
    "--think": dict(type=float, nargs=2, default=(0.2, 1.0), metavar=("MIN", "MAX"), help="seconds before a click"),
    "--keep": dict(help="copy the bot's log and database here"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, settings in OPTIONS.items():
        parser.add_argument(flag, **settings)
    args = parser.parse_args()
    started = time.monotonic()
    run_loop(main_async(args))
    print(f"  wall clock with start-up: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
