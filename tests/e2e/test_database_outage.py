"""The database goes away while several tables play, and comes back (issue #24).

The real bot on the stand-in, on SQLite and on PostgreSQL. The database is taken away from
outside (``tests/e2e/db_outage.py``): PostgreSQL is stopped (``pg_ctl stop -m immediate``)
and started again; SQLite's write lock is held by another process. Meanwhile players click
cards and rows, an AI seat plays, a turn's deadline passes and a game plays its last turn.

What must hold, each checked from what players saw and what the database holds afterwards:

- every click is answered within Discord's 3 s (the stand-in refuses a later answer, as
  Discord does); a deferred click is followed up with its outcome;
- an answer that confirms a move means the game log has it; one that says it was not saved
  (or refuses it) means the log does not have it, unless the player made it again later;
- every turn's reveal and the final standings are shown exactly once, and the channel never
  reveals a turn the game log does not have;
- every game ends by itself once the database is back, without a restart, and its channel
  then opens a new table;
- the bot logs a bounded number of lines while the database is away;
- the heartbeat (``python -m bot --health``) says the database is unreachable while it is:
  its JSON has ``"database": "unreachable"`` (``"ok"`` once it is back) and the health line
  says "unreachable".

Only the bot's public face is used: slash commands, buttons, the channel, and
``bot.service.table_in(channel_id).id``, ``bot.service.store.game_log(game_id)``,
``bot.service.scheduler.wake()`` with the fake clock ``world.clock``, ``bot.heartbeat.beat()``
and ``world.settle()`` (only while the database is up, and never without a bound).
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections import Counter

import pytest

import cogs.reply
from bot.config import Settings
from bot.health import check
from bot.tables.lobby import Lobby
from data import sqlite_path
from data.postgres import PostgresStore
from data.sqlite import SQLiteStore
from tests.e2e.db_outage import (
    Click,
    LogLines,
    PostgresDown,
    SQLiteLocked,
    TableRun,
    answered,
    live_message,
    logged_turns,
    open_hand,
    revealed,
    shown_reveals,
    standings_shown,
    summary,
)
from tests.e2e.test_turn_based import timers_fired
from tests.standin import InteractionRejected, StandinTimeout

pytestmark = pytest.mark.slow  # whole games at four tables, an outage in the middle

HAND = 10  # cards each player is dealt: a one-round classic game has ten turns
TABLE_DEADLINE = 600  # seconds per turn at tables whose deadline must not pass in these tests
TIMER_TABLE_DEADLINE = 60  # the table whose deadline falls inside the outage

# The outages are played faster than the clock: the deadlines they are about come in the same
# order, each shorter. The bot defers an unanswered click after DEFER_AFTER (cogs.reply: 2 s),
# Discord wants an answer within DEADLINE (3 s), a save waiting for the database gives up after
# SAVE_GIVES_UP (the stores' 5 s: PostgreSQL's timeout, SQLite's busy_timeout), and an outage of
# so many of the stores' 5 s lasts as many SAVE_GIVES_UP: 15 s is played as 6 s, 60 s as 24 s.
DEFER_AFTER, DEADLINE, SAVE_GIVES_UP = 0.5, 1.5, 2.0
STORE_GIVES_UP = 5.0  # data.postgres.store.TIMEOUT; SQLiteStore.open's busy_timeout_ms
PLAYED_AS = SAVE_GIVES_UP / STORE_GIVES_UP  # seconds of an outage played in one


#: The first table's deal (each next table the next one): one where a row choice comes at the row table.
DEALS_FROM = 1


def played_faster(world, monkeypatch) -> None:
    """The bot's deferral, the stand-in's deadline and the store's patience, shortened as above."""
    world.standin.ack_deadline = DEADLINE
    monkeypatch.setattr(cogs.reply, "DEFER_AFTER", DEFER_AFTER)
    # The deals are fixed, so that the row table's low card surely comes before the outage (a
    # random deal left it out about once in ten runs, and the test's setup failed).
    seeds = itertools.count(DEALS_FROM)
    monkeypatch.setattr(Lobby, "new_seed", staticmethod(lambda: next(seeds)))
    settings = world.settings()

    async def open_store():
        path = sqlite_path(settings.database)
        if path is None:
            return await PostgresStore.open(
                settings.database, pool_size=settings.database_pool_size, timeout=SAVE_GIVES_UP
            )
        return await SQLiteStore.open(path, busy_timeout_ms=int(SAVE_GIVES_UP * 1000))

    world.open_store = open_store


# --- the database, and how to take it away --------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
async def outage(request, world):
    """The bot's database for this test and the way to make it unreachable (ended at teardown
    whatever happened: a stopped server is started again, a lock is let go)."""
    if request.param == "sqlite":
        down = SQLiteLocked(world.tmp_path / "bot.sqlite3")
    else:
        down = await postgres_outage(request, world)
    try:
        yield down
    finally:
        await down.end()


async def postgres_outage(request, world) -> PostgresDown:
    cluster = request.getfixturevalue("postgres_cluster")
    url = await cluster.fresh_database()
    world.settings = lambda: Settings(
        discord_token=world.standin.token, database_url=url, health_file=world.tmp_path / "bot.health", threads=False
    )
    down = await PostgresDown.of(cluster)
    down.url = url
    return down


@pytest.fixture
async def postgres_down(request, world):
    down = await postgres_outage(request, world)
    try:
        yield down
    finally:
        await down.end()


# --- players ----------------------------------------------------------------------------------


class Players:
    """Plays the tables through the stand-in and keeps every move made and its answer."""

    def __init__(self, world) -> None:
        self.world = world
        self.clicks: list[Click] = []
        self.face_down: list[tuple] = []  # (run, user, turn, card, during the outage) a hand showed
        self.outage = None

    @property
    def during_outage(self) -> bool:
        return self.outage is not None and self.outage.down

    async def hand(self, run: TableRun, user):
        """``user`` presses "Play a card" (see ``open_hand``); a hand that says which card they
        play face down is kept: that pick must be in the game log."""
        hand, cards = await open_hand(self.world, run, user)
        said = re.search(r"You play \*\*(\d+)\*\*", hand.content or "") if hand is not None and cards else None
        if said:
            self.face_down.append((run, user, HAND + 1 - len(cards), int(said.group(1)), self.during_outage))
        return hand, cards

    async def pick(self, run: TableRun, user, *, wait: bool = True, avoid: set[int] = frozenset()) -> Click | None:
        """``user`` opens a fresh hand and plays their lowest card; None if they have nothing to
        pick (already picked, a row choice waits, the game ended). A player whose pick this turn
        was not confirmed plays another card (if they have one): a pick shown in the channel
        though never saved then differs from the turn's real reveal."""
        hand, cards = await self.hand(run, user)
        if not cards or "You play" in (hand.content or ""):
            return None
        turn = HAND + 1 - len(cards)
        avoid = set(avoid) | {
            c.value
            for c in self.clicks
            if c.run is run and c.user is user and c.kind == "pick" and c.turn == turn and c.verdict != "confirmed"
        }
        options = [c for c in cards if c not in avoid] or cards
        card = run.choose(options) if run.choose is not None else options[0]
        custom_id = next(cid for cid in hand.custom_ids if cid.startswith("6n:p:") and cid.endswith(f":{card}"))
        interaction = await self.world.standin.click(user, hand, custom_id)
        click = Click(run, user, "pick", card, turn, interaction, hand, self.during_outage)
        self.clicks.append(click)
        if wait:
            await answered(self.world, interaction)
        return click

    async def choose_row(self, run: TableRun, message) -> Click | None:
        """The player whose low card it is takes row 1 (the others are refused, and try first)."""
        row = next(cid for cid in message.custom_ids if cid.startswith("6n:r:"))
        for user in run.humans:
            try:
                interaction = await self.world.standin.click(user, message, row)
            except InteractionRejected:  # the row buttons went away meanwhile
                return None
            await answered(self.world, interaction)
            click = Click(run, user, "row", int(row.rsplit(":", 1)[1]), 0, interaction, None, self.during_outage)
            self.clicks.append(click)
            if click.verdict != "refused":
                return click
        return None

    async def step(self, run: TableRun) -> str:
        """One decision at ``run``'s table: "acted", "idle" (nothing to do now) or "over"."""
        hand, _ = await self.hand(run, run.humans[0])
        if hand is not None and ("is over" in hand.content or "has ended" in hand.content):
            return "over"
        live = live_message(self.world, run)
        if live is not None and any(cid.startswith("6n:r:") for cid in live.custom_ids):
            return "acted" if await self.choose_row(run, live) is not None else "idle"
        picked = await asyncio.gather(*(self.pick(run, user) for user in run.humans))
        return "acted" if any(picked) else "idle"


def row_ends(world, run: TableRun) -> list[int]:
    """The last card of each row, as the live table message lists them ("Row 1 · 3🐮 │  12  15")."""
    live = live_message(world, run)
    text = ((live.embed or {}).get("description") or "") if live is not None else ""
    return [
        int(line.rsplit("│", 1)[1].split()[-1])
        for line in text.splitlines()
        if line.startswith("Row ") and "│" in line and line.rsplit("│", 1)[1].split()
    ]


def low_card_or_highest(world, run: TableRun):
    """A choice of card that soon gives a row choice: a card lower than every row if there is
    one, else the highest (the rows grow and the low cards are kept)."""

    def choose(cards: list[int]) -> int:
        ends = row_ends(world, run)
        return cards[0] if ends and cards[0] < min(ends) else cards[-1]

    return choose


def row_pending(world, run: TableRun) -> bool:
    live = live_message(world, run)
    return live is not None and any(cid.startswith("6n:r:") for cid in live.custom_ids)


async def settle(world, seconds: float = 20) -> bool:
    """world.settle() with a bound; shielded, so giving up never cancels the presenter's work."""
    try:
        await asyncio.wait_for(asyncio.shield(world.settle()), seconds)
        return True
    except TimeoutError:
        return False


async def open_run(world, run: TableRun, **options) -> None:
    host = run.humans[0]
    lobby = await (await world.standin.slash(host, run.channel, "6nimmt start", rounds=1, **options)).reply()
    assert "table open" in lobby.embed["title"]
    for user in run.humans[1:]:
        await (await world.standin.click(user, lobby, lobby.button("Join")["custom_id"])).ack()
    await (await world.standin.click(host, lobby, lobby.button("Start")["custom_id"])).ack()
    run.id = world.bot.service.table_in(run.channel.id).id


async def play_turns(world, players: Players, run: TableRun, turns: int) -> None:
    """Before any outage: ``turns`` decisions at ``run``'s table, each shown before the next."""
    for _ in range(turns):
        await players.step(run)
        assert await settle(world), "the presenter did not finish while the database was up"


async def play_to_the_end(world, players: Players, runs: list[TableRun], seconds: float) -> list[TableRun]:
    """The players play every table in turn until each has ended; returns the tables that did not.

    A row choice whose buttons never show is left to its deadline: after a few idle rounds
    the clock moves past it."""
    left = list(runs)
    deadline = time.monotonic() + seconds
    idle = 0
    while left and time.monotonic() < deadline:
        acted = False
        for run in list(left):
            if standings_shown(world, run):
                left.remove(run)
                continue
            outcome = await players.step(run)
            if outcome == "over":
                left.remove(run)
            acted = acted or outcome == "acted"
        idle = 0 if acted else idle + 1
        await settle(world, 3)
        if idle and idle % 5 == 0:
            world.clock.advance(31)
            world.bot.service.scheduler.wake()
    return left


async def wait_for_outcomes(world, players: Players, seconds: float) -> None:
    """Deferred clicks get their outcome (a follow-up or the hand edited) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(c.verdict == "pending" for c in players.clicks):
        await asyncio.sleep(0.2)


async def database_health(bot, want: str, seconds: float) -> tuple[dict, str]:
    """The heartbeat's content and health line, once it says database=``want`` (or after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        data = bot.heartbeat.beat()
        if data.get("database") == want or "database" not in data or time.monotonic() > deadline:
            return data, check(bot.heartbeat.path)[1]
        await asyncio.sleep(0.2)


# --- what must hold ---------------------------------------------------------------------------


async def check_table(world, players: Players, run: TableRun, problems: list[str]) -> None:
    """Moves against the game log, the channel's reveals and standings, and a new table after."""
    log = await world.bot.service.store.game_log(run.id)
    seat_of = {s.user_id: s.seat for s in log.seats if s.user_id is not None}
    turns = logged_turns(log)
    complete = [t for t in turns if len({seat for seat, _ in t}) == len(log.seats)]
    status = getattr(log.game.status, "value", log.game.status)
    if status != "finished" or len(complete) != HAND or not log.results:
        problems.append(
            f"{run.name}: the game did not end: status {status}, {len(complete)} of {HAND} turns "
            f"logged, {len(log.results)} results"
        )

    clicks = [c for c in players.clicks if c.run is run]
    for i, click in enumerate(clicks):
        verdict = click.verdict
        if verdict in ("unanswered", "pending"):
            problems.append(click.describe())
            continue
        seat = seat_of[click.user.id]
        if click.kind == "row":
            continue  # counted below
        in_log = click.turn <= len(turns) and (seat, click.value) in turns[click.turn - 1]
        if verdict == "confirmed" and not in_log:
            problems.append(f"{click.describe()} -- but the game log does not have it")
        elif (
            verdict != "confirmed"
            and in_log
            and not any(
                later.user is click.user
                and later.kind == "pick"
                and later.value == click.value
                and later.turn == click.turn
                and later.verdict == "confirmed"
                for later in clicks[i + 1 :]
            )
        ):
            problems.append(f"{click.describe()} -- but the game log has it, and it was never played again")
    for shown_run, user, turn, card, during in players.face_down:
        if shown_run is run and not (turn <= len(turns) and (seat_of[user.id], card) in turns[turn - 1]):
            problems.append(
                f"{run.name}: {user.name}'s hand said 'You play **{card}** face down' (turn {turn}"
                f"{', during the outage' if during else ''}), a pick the game log does not have"
            )
    for user_id, seat in seat_of.items():
        rows = sum(1 for c in clicks if c.kind == "row" and c.user.id == user_id and c.verdict == "confirmed")
        logged = sum(1 for a in log.actions if a.action.get("kind") == "choose_row" and a.action.get("player") == seat)
        if rows > logged:
            problems.append(f"{run.name}: {rows} row choices of seat {seat} were confirmed, {logged} are logged")

    shown = Counter(shown_reveals(world, run))
    wanted = [revealed(turn) for turn in complete]
    for number, cards in enumerate(wanted, 1):
        if shown[cards] != 1:
            problems.append(f"{run.name}: turn {number}'s reveal {sorted(cards)} was shown {shown[cards]} times")
    for cards, times in shown.items():
        if cards not in wanted:
            problems.append(
                f"{run.name}: the channel revealed {sorted(cards)} ({times}x), a turn the game log does not have"
            )
    standings = standings_shown(world, run)
    if standings != 1:
        problems.append(f"{run.name}: the final standings were shown {standings} times")

    try:
        again = await (await world.standin.slash(run.humans[0], run.channel, "6nimmt start", rounds=1)).reply(timeout=3)
        opened = "table open" in ((again.embed or {}).get("title") or "")
        said = again.content or ""
    except StandinTimeout:
        opened, said = False, "no answer within 3 s"
    if not opened:
        problems.append(f"{run.name}: /6nimmt start afterwards did not open a table: {said[:100]!r}")


def check_discord(world, problems: list[str]) -> None:
    """Every interaction answered (the stand-in refused late answers as errors), nothing refused."""
    unanswered = [i for i in world.standin.interactions if i.callback_type is None]
    if unanswered:
        problems.append(
            f"{len(unanswered)} of {len(world.standin.interactions)} interactions were never answered "
            f"within 3 s (Discord: 'The application did not respond'): "
            + ", ".join(sorted({i.describe.split(":")[0] for i in unanswered}))
        )
    if world.standin.errors:
        kinds = Counter(
            f"{e.status} {e.method} {e.path.split('/')[1] if '/' in e.path else e.path}: "
            f"{str(e.body.get('message', e.body))[:70]}"
            for e in world.standin.errors
        )
        problems.append("Discord would have refused:\n" + "\n".join(f"  {n} x {k}" for k, n in kinds.items()))


def check_logs(logs: LogLines, start: float, end: float, limit: int, problems: list[str]) -> None:
    lines = logs.between(start, end)
    print(f"{len(lines)} log lines in the {end - start:.0f} s the database was away")
    if len(lines) >= limit:
        problems.append(
            f"{len(lines)} log lines in the {end - start:.0f} s the database was away "
            f"(at most {limit - 1} expected); the most frequent:\n{summary(lines)}"
        )


# --- the scenario -----------------------------------------------------------------------------


async def play_through_an_outage(world, outage, seconds: float, *, log_limit: int) -> list[str]:
    """Four tables play; the database is away for ``seconds``; every table must carry on.

    - clicks table (alice, bob, an easy AI): both pick during the outage, at the same time; a
      pick that is not saved (or not answered) is tried again with another card;
    - row table (erin, an easy AI): erin's low card waits for her row choice, made during the outage;
    - timer table (carol, a medium AI): carol is away; her deadline passes during the outage;
    - last-turn table (dave, an easy AI): its last turn is played as the outage begins
      (PostgreSQL: the final checkpoint commits, then the results wait for a lock until the
      server stops) or inside it (SQLite).
    """
    standin = world.standin
    players = Players(world)
    dave, erin = standin.add_member(world.guild, "dave"), standin.add_member(world.guild, "erin")
    clicks = TableRun("clicks table", world.channel, [world.alice, world.bob])
    rows = TableRun("row table", standin.add_text_channel(world.guild, "row-table"), [erin])
    timer = TableRun("timer table", standin.add_text_channel(world.guild, "timer-table"), [world.carol])
    last = TableRun("last-turn table", standin.add_text_channel(world.guild, "last-turn"), [dave])
    runs = [clicks, rows, timer, last]
    problems: list[str] = []

    with LogLines() as logs:
        async with world.running_bot() as bot:
            await open_run(world, clicks, ai_players=1, ai_level="easy", timer=TABLE_DEADLINE)
            await open_run(world, rows, ai_players=1, ai_level="easy", timer=TABLE_DEADLINE)
            await open_run(world, timer, ai_players=1, ai_level="medium", timer=TIMER_TABLE_DEADLINE)
            await open_run(world, last, ai_players=1, ai_level="easy", timer=TABLE_DEADLINE)
            assert await settle(world)
            await play_until(world, players, timer, lambda cards: len(cards) == HAND - 1)
            _, carol_cards = await players.hand(timer, world.carol)
            await play_until(world, players, clicks, lambda cards: len(cards) == HAND - 1)
            await play_until(world, players, last, lambda cards: len(cards) == 1)
            rows.choose = low_card_or_highest(world, rows)
            for _ in range(HAND - 2):  # until erin's card is lower than every row
                if row_pending(world, rows):
                    break
                await play_turns(world, players, rows, 1)
            row_choice = row_pending(world, rows)
            rows.choose = None
            assert [c for c in players.clicks if c.verdict != "confirmed" and c.kind == "pick"] == [], (
                "with the database up, every pick is confirmed"
            )

            players.outage = outage
            if isinstance(outage, PostgresDown):
                # The last turn: its checkpoint commits, then the results wait on a lock that
                # the stop breaks (the "games never ended").
                async with results_locked(outage.url) as blocked:
                    final = await players.pick(last, dave, wait=False)
                    await blocked()
                    started = time.monotonic()
                    await outage.begin()
                assert final is not None, "dave had no card left for the last turn"
                final.during_outage = True
                last_turn = []
            else:
                started = time.monotonic()
                await outage.begin()
                last_turn = [players.pick(last, dave)]  # the last turn, inside the outage

            # The timer table's deadline passes while the database is away.
            world.clock.advance(TIMER_TABLE_DEADLINE + 1)
            bot.service.scheduler.wake()
            await clicks_during_outage(world, players, clicks, rows, *last_turn)
            if seconds >= 4 * SAVE_GIVES_UP:  # a long outage: its saves give up many times over
                await asyncio.sleep(max(0.0, started + seconds / 2 - time.monotonic()))
                world.clock.advance(5)  # deadline retries get their chance
                bot.service.scheduler.wake()
                await clicks_during_outage(world, players, clicks, rows)

            data, line = await database_health(bot, "unreachable", 5)
            if data.get("database") != "unreachable" or "unreachable" not in line:
                problems.append(
                    f"while the database was away the heartbeat said database="
                    f"{data.get('database', '(missing)')!r}; health line: {line!r}"
                )
            await asyncio.sleep(max(0.0, started + seconds - time.monotonic()))
            await outage.end()
            ended = time.monotonic()

            # Back: deferred clicks learn their outcome; the timer table's deadline is retried
            # (the clock moves on in small steps until carol's missed turn was played for her).
            await wait_for_outcomes(world, players, 30)
            moved = False
            for _ in range(60):
                hand, cards = await players.hand(timer, world.carol)
                if hand is not None and (not cards or len(cards) < len(carol_cards)):
                    moved = True
                    break
                world.clock.advance(2)
                bot.service.scheduler.wake()
                await timers_fired(bot.service.scheduler)
            if not moved:
                problems.append(
                    "timer table: the deadline that passed during the outage never played "
                    "carol's turn once the database was back"
                )
            not_ended = await play_to_the_end(world, players, runs, 90)
            for run in not_ended:
                problems.append(f"{run.name}: could not be played to its end after the outage")
            if not await settle(world, 30):
                problems.append("the presenter still had news to show 30 s after the games were played")

            data, line = await database_health(bot, "ok", 15)
            if data.get("database") != "ok":
                problems.append(f"after the outage the heartbeat said database={data.get('database', '(missing)')!r}")
            if not row_choice:
                problems.append("(test setup) no row choice was pending at the row table when the outage began")
            for run in runs:
                await check_table(world, players, run, problems)
            for click in players.clicks:
                if click.during_outage:
                    print(click.describe())
            check_discord(world, problems)
            check_logs(logs, started, ended, log_limit, problems)
    return problems


async def play_until(world, players: Players, run: TableRun, done, turns: int = 3 * HAND) -> None:
    """Before the outage: play ``run`` until its host's hand satisfies ``done(cards)`` with no row choice waiting."""
    for _ in range(turns):
        if not row_pending(world, run):
            _, cards = await players.hand(run, run.humans[0])
            if done(cards):
                return
        await play_turns(world, players, run, 1)
    raise AssertionError(f"{run.name}: the hand never got there")


async def clicks_during_outage(world, players: Players, clicks: TableRun, rows: TableRun, *more) -> None:
    """At the same moment: the row choice (if one waits), each player's pick at the clicks
    table, and ``more``; then each player told that the pick was not saved, or told nothing,
    tries again with another card."""

    async def row_choice():
        live = live_message(world, rows)
        if live is not None and any(cid.startswith("6n:r:") for cid in live.custom_ids):
            await players.choose_row(rows, live)

    async def pick_and_retry(user):
        click = await players.pick(clicks, user)
        if click is not None and click.verdict in ("not saved", "unanswered"):
            await players.pick(clicks, user)

    await asyncio.gather(row_choice(), *(pick_and_retry(user) for user in clicks.humans), *more)


class results_locked:
    """Another session holds an exclusive lock on the results table (``async with ... as blocked``;
    ``await blocked()`` returns once a session of the bot waits for it, or after 5 s)."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def __aenter__(self):
        import asyncpg

        self.conn = await asyncpg.connect(self.url)
        self.tx = self.conn.transaction()
        await self.tx.start()
        await self.conn.execute("LOCK TABLE results IN ACCESS EXCLUSIVE MODE")

        async def blocked() -> None:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                waiting = await self.conn.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
                )
                if waiting:
                    return
                await asyncio.sleep(0.05)

        return blocked

    async def __aexit__(self, *exc) -> None:
        self.conn.terminate()  # the server stops now: the lock goes with it


def report(problems: list[str]) -> str:
    return f"{len(problems)} problem(s):\n" + "\n".join(f"- {p}" for p in problems)


# --- the tests --------------------------------------------------------------------------------


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_control_three_tables_play_to_the_end_without_an_outage(world, outage):
    """The same tables and checks with the database up throughout: the harness itself is sound."""
    standin = world.standin
    players = Players(world)
    dave, erin = standin.add_member(world.guild, "dave"), standin.add_member(world.guild, "erin")
    runs = [
        TableRun("clicks table", world.channel, [world.alice, world.bob]),
        TableRun("row table", standin.add_text_channel(world.guild, "row-table"), [erin]),
        TableRun("timer table", standin.add_text_channel(world.guild, "timer-table"), [world.carol]),
        TableRun("last-turn table", standin.add_text_channel(world.guild, "last-turn"), [dave]),
    ]
    problems: list[str] = []
    async with world.running_bot():
        for run, level, deadline in zip(
            runs,
            ("easy", "easy", "medium", "easy"),
            (TABLE_DEADLINE, TABLE_DEADLINE, TIMER_TABLE_DEADLINE, TABLE_DEADLINE),
            strict=True,
        ):
            await open_run(world, run, ai_players=1, ai_level=level, timer=deadline)
        runs[1].choose = low_card_or_highest(world, runs[1])
        not_ended = await play_to_the_end(world, players, runs, 120)
        problems += [f"{run.name}: did not end" for run in not_ended]
        assert await settle(world)
        for run in runs:
            await check_table(world, players, run, problems)
        check_discord(world, problems)
    refused = [c.describe() for c in players.clicks if c.verdict != "confirmed"]
    assert all("row" in line and "refused" in line for line in refused), refused  # only others' low cards
    assert not problems, report(problems)


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_database_away_for_15_s_while_tables_play(world, outage, monkeypatch):
    """15 s of the stores' 5 s deadlines, played faster (``PLAYED_AS``); the log's bound with it."""
    played_faster(world, monkeypatch)
    problems = await play_through_an_outage(world, outage, 15 * PLAYED_AS, log_limit=int(200 * PLAYED_AS))
    assert not problems, report(problems)


@pytest.mark.discord_rate_limits  # a whole game: held to Discord's rate limits
async def test_postgres_away_for_60_s_while_tables_play(world, postgres_down, monkeypatch):
    """60 s of the stores' 5 s deadlines, played faster (``PLAYED_AS``); the log's bound with it."""
    played_faster(world, monkeypatch)
    problems = await play_through_an_outage(world, postgres_down, 60 * PLAYED_AS, log_limit=int(250 * PLAYED_AS))
    assert not problems, report(problems)


async def test_a_save_that_waits_then_fails_while_the_table_message_is_being_updated(world, outage):
    """The issue's phantom reveal, on purpose: the presenter is busy (Discord answers an edit of
    the table message with 500s, which discord.py retries for ~4 s) when the turn's last pick is
    made with the database away. The pick's save waits and fails; the channel must not show the
    reveal of that pick, and the turn's real reveal, made once the database is back, must show."""
    players = Players(world)
    run = TableRun("clicks table", world.channel, [world.alice, world.bob])
    problems: list[str] = []
    with LogLines() as logs:
        async with world.running_bot():
            await open_run(world, run, ai_players=1, ai_level="easy", timer=TABLE_DEADLINE)
            assert await settle(world)
            await play_until(world, players, run, lambda cards: len(cards) == HAND - 1)  # turn 1
            edits = world.standin.fail_next(
                "PATCH", "/channels/{channel}/messages/{message}", channel=run.channel.id, status=500, times=2
            )
            first = await players.pick(run, world.alice)  # saved; the table message's edit is retried
            assert first is not None and first.verdict == "confirmed", first and first.describe()
            try:  # a presenter that does not edit the table message after a pick leaves nothing to race
                await world.standin.world.wait_until(lambda: edits.hits >= 2, 5, "the edit was not retried")
            except StandinTimeout:
                print("the table message was not edited after alice's pick")
            players.outage = outage
            started = time.monotonic()
            await outage.begin()
            # ~1.8 s after the edit's first try: it succeeds ~2 s later, while bob's save waits.
            await asyncio.sleep(0.8)
            await players.pick(run, world.bob)
            await asyncio.sleep(max(0.0, started + 8 - time.monotonic()))
            await outage.end()
            ended = time.monotonic()

            await wait_for_outcomes(world, players, 30)
            for run_left in await play_to_the_end(world, players, [run], 90):
                problems.append(f"{run_left.name}: could not be played to its end after the outage")
            if not await settle(world, 30):
                problems.append("the presenter still had news to show 30 s after the game was played")
            await check_table(world, players, run, problems)
            for click in players.clicks:
                if click.during_outage:
                    print(click.describe())
            check_discord(world, problems)
            check_logs(logs, started, ended, 100, problems)
    assert not problems, report(problems)
