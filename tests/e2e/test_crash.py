"""Crash safety: the real bot in a subprocess, killed with SIGKILL at several points of one game.

Each process is started by ``tests/e2e/bot_process.py`` against the stand-in running here;
it either is killed by the test right after an acknowledgement, or kills itself at a named
point (``SIXNIMMT_CRASH_AT``, see that file). After every crash a new process restores the
table and the game goes on through the buttons of messages the FIRST process sent. At the
end: every acknowledged pick is in the action log, no card exists twice, and the game is
counted exactly once.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.tables.table import TableOptions
from engine import Game, action_from_dict
from tests.e2e.driver import play_game, table_ids
from tests.standin import DiscordStandin, InteractionRejected
from tests.standin.fixtures import WINDOW_SCALE

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def low_card_seed() -> tuple[int, int]:
    """A deal where alice (seat 0 of alice, AI, bob) holds a card below every other card dealt."""
    config = TableOptions(rounds=1, target=None, ai_seats=1, ai_level="easy").game_config(3)
    for seed in range(1, 10_000):
        game = Game.new(config, seed=seed)
        low = min(game.hands[0])
        if low < min([c for hand in game.hands[1:] for c in hand] + [row[-1] for row in game.rows]):
            return seed, low
    raise AssertionError("no such seed")


def processes_with_env(entry: str) -> list[int]:
    """Living processes whose environment holds ``entry`` (the bot and any child it started)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            environ = (proc / "environ").read_bytes().split(b"\0")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if entry.encode() in environ and state != "Z":
            pids.append(int(proc.name))
    return pids


class BotProcess:
    def __init__(self, standin: DiscordStandin, tmp_path: Path, seed: int) -> None:
        self.standin = standin
        self.db = tmp_path / "bot.sqlite3"
        self.log = tmp_path / "bot.log"
        self.seed = seed
        self.proc: asyncio.subprocess.Process | None = None
        self.started = 0

    async def start(self, crash_at: str = "", sync: bool = False, **extra: str) -> None:
        gateway = self.standin.server.gateway
        before = gateway.identify_count
        env = {
            **os.environ,
            **self.standin.env,
            "DATABASE_PATH": str(self.db),
            "SIXNIMMT_TEST_SEED": str(self.seed),
            "SIXNIMMT_CRASH_AT": crash_at,
            # A restored table's channel is held after a start for the route window (5 s), which these
            # restarts need not wait out: cogs/test_budget.py tests what it holds.
            "SIXNIMMT_ROUTE_WINDOW": "0.5",
            **extra,
        }
        if sync:
            env["SIXNIMMT_SYNC"] = "1"
        with open(self.log, "ab") as log:
            log.write(f"--- process {self.started} crash_at={crash_at!r}\n".encode())
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "tests" / "e2e" / "bot_process.py"),
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=log,
            )
        self.started += 1
        await self.standin.world.wait_until(
            lambda: self.proc.returncode is not None or (gateway.identify_count > before and self.standin.connected),
            20,
            f"bot process did not connect; see {self.log}",
        )
        assert self.proc.returncode is None, self.log.read_text()

    async def ensure_stopped(self) -> None:
        """At a test's end, whatever happened: none of its processes left running."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    async def kill(self) -> None:
        """kill -9, as the test's own crash point."""
        self.proc.send_signal(signal.SIGKILL)
        await self.died()

    async def died(self) -> None:
        await asyncio.wait_for(self.proc.wait(), 10)
        assert self.proc.returncode == -signal.SIGKILL, self.log.read_text()
        # Its image worker must not outlive it (it holds memory and the dead bot's pipes).
        await self.standin.world.wait_until(
            lambda: not processes_with_env(f"DATABASE_PATH={self.db}"),
            5,
            "a process of the killed bot (its image worker?) is still running",
        )
        await self.standin.world.wait_until(lambda: not self.standin.connected, 5, "the dead bot still looks connected")


async def wait_for_live(standin, channel, prefix: str, title: str = ""):
    """Wait until the newest public message with buttons starts with ``prefix`` (and its title has ``title``)."""

    def live():
        newest = next((m for m in reversed(standin.channel_messages(channel)) if table_ids(m)), None)
        if newest is not None and table_ids(newest)[0].startswith(prefix) and title in str(newest.embed):
            return newest
        return None

    return await standin.world.wait_until(live, 10, f"no live table message with {prefix} buttons {title}")


async def wait_for_buttons(standin, message, prefix: str):
    """Wait until ``message`` (as Discord stores it now) carries a button starting with ``prefix``."""
    return await standin.world.wait_until(
        lambda: message if any(cid.startswith(prefix) for cid in standin.message(message.id).custom_ids) else None,
        10,
        f"message {message.id} never showed {prefix} buttons",
    )


async def open_hand(standin, user, table_message, may_wait=False):
    """Press "Play a card"; with may_wait, a refusal because the table moved on gives no cards."""
    play = next((cid for cid in table_message.custom_ids if cid.startswith("6n:h:")), None)
    if may_wait and play is None:
        return {}, None
    try:
        hand = await (await standin.click(user, table_message, play)).reply(timeout=10)
    except InteractionRejected:  # the buttons went away between looking and clicking
        if may_wait:
            return {}, None
        raise
    # The game may have ended between looking and clicking (its last reveal not yet shown).
    if may_wait and ("nothing to pick" in hand.content or "That table has ended" in hand.content):
        return {}, hand
    assert hand.ephemeral and any(c.startswith("6n:p:") for c in hand.custom_ids), hand.content
    return {int(cid.rsplit(":", 1)[1]): cid for cid in hand.custom_ids if cid.startswith("6n:p:")}, hand


async def test_kill_9_at_every_point_of_a_game_loses_nothing(tmp_path):
    seed, low = low_card_seed()
    async with DiscordStandin(ack_deadline=10, rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        guild = standin.add_guild("Bullpen")
        channel = standin.add_text_channel(guild, "games")
        alice, bob = standin.add_member(guild, "alice"), standin.add_member(guild, "bob")
        bot = BotProcess(standin, tmp_path, seed)
        acknowledged: list[tuple[int, int]] = []  # (user id, card) of every pick the bot confirmed

        async def pick(user, table_message, card=None):
            cards, hand = await open_hand(standin, user, table_message)
            card = card if card is not None else max(cards)
            interaction = await standin.click(user, hand, cards[card])
            return card, interaction

        async def pick_acked(user, table_message, card=None):
            card, interaction = await pick(user, table_message, card)
            answer = (await interaction.reply(timeout=10)).content
            assert "face down" in answer or "You played" in answer, answer
            acknowledged.append((user.id, card))
            return card

        def finished():
            return any(
                not m.ephemeral and any(c.startswith("6n:m:") for c in m.custom_ids)
                for m in standin.channel_messages(channel)
            )

        async def play_on(dead):
            """Everyone plays whatever the live table asks until ``dead()`` (the process died, or
            the game is over); picks answered as played count as acknowledged."""
            for _ in range(300):
                if dead():
                    break
                live = next((m for m in reversed(standin.channel_messages(channel)) if table_ids(m)), None)
                ids = table_ids(live) if live else []
                if ids and ids[0].startswith("6n:r:"):
                    for user in (alice, bob):  # the chooser's click is taken, the other one is refused
                        try:
                            interaction = await standin.click(user, live, ids[0])
                        except InteractionRejected:  # the row was chosen: the buttons are gone
                            break
                        await standin.world.wait_until(
                            lambda i=interaction: i.callback_type or dead(),
                            10,
                            "the row choice was neither answered nor fatal",
                        )
                        if dead():
                            break
                elif ids:
                    for user in (alice, bob):
                        cards, hand = await open_hand(standin, user, live, may_wait=True)
                        if not cards:
                            break  # the message is about to be replaced: look again
                        card = max(cards)
                        interaction = await standin.click(user, hand, cards[card])
                        await standin.world.wait_until(
                            lambda i=interaction: i.callback_type or dead(),
                            10,
                            "the pick was neither answered nor fatal",
                        )
                        if dead():
                            break
                        if "face down" in interaction.original.content or "You played" in interaction.original.content:
                            acknowledged.append((user.id, card))
                await asyncio.sleep(0.03)  # let the presenter post the next table message

        try:
            # 1. A pick is acknowledged, then the bot is killed from outside.
            await bot.start(sync=True)
            await standin.wait_for_commands("6nimmt", "leaderboard", timeout=10)
            lobby = await (
                await standin.slash(alice, channel, "6nimmt start", rounds=1, ai_players=1, ai_level="easy")
            ).reply(timeout=10)
            await (await standin.click(bob, lobby, lobby.button("Join")["custom_id"])).ack()
            await (await standin.click(alice, lobby, lobby.button("Start")["custom_id"])).ack()
            first = await standin.wait_for_message(
                lambda m: not m.ephemeral and any(c.startswith("6n:h:") for c in m.custom_ids), 10
            )
            await pick_acked(alice, first, low)
            await bot.kill()

            # 2. Bob's pick reveals alice's low card; the bot dies once the row choice is saved.
            await bot.start("row-choice")
            _, unanswered = await pick(bob, first)
            await bot.died()
            assert unanswered.callback_type is None

            # 3. The reveal committed before the crash is shown by the next process, once; alice
            #    chooses a row on it and the bot dies after saving her choice.
            await bot.start("chose-row")
            choice = await wait_for_live(standin, channel, "6n:r:")
            # The first table message is superseded, never edited: it keeps what it showed.
            assert choice.id > first.id and table_ids(standin.message(first.id)) == table_ids(first)
            chose = await standin.click(alice, choice, next(c for c in choice.custom_ids if c.startswith("6n:r:")))
            await bot.died()
            assert chose.callback_type is None

            # 4. Turn 2; the bot dies while revealing it.
            await bot.start("reveal")
            turn2 = await wait_for_live(standin, channel, "6n:h:", "turn 2")
            await pick_acked(alice, turn2)
            await pick(bob, turn2)
            await bot.died()

            # 5. Turn 3; the bot dies once Discord has accepted its reveal, before recording that it
            #    did: the next process sends it again with the same nonce, and it is shown once.
            await bot.start("posted")
            turn3 = await wait_for_live(standin, channel, "6n:h:", "turn 3")
            await pick_acked(alice, turn3)
            await pick(bob, turn3)
            await bot.died()

            # 6. The bot stays down longer than Discord remembers a nonce: the next process finds
            #    that reveal in the channel and does not post it again. (It looks for every post
            #    it sends, and so must also tell the turns' reveals apart.) Then the rest of the
            #    game; the bot dies while the results are being written.
            standin.world.nonces.clear()
            await bot.start("results", SIXNIMMT_NONCE_TRUST="0")
            await wait_for_live(standin, channel, "6n:h:", "turn 4")
            dead = lambda: bot.proc.returncode is not None  # noqa: E731
            await play_on(dead)
            await bot.died()

            # 7. A clean start: the move whose commit (with the results) died was not applied, and
            #    was never confirmed; it is played again, and the game ends (results once) and
            #    shows how it ended.
            await bot.start()
            await play_on(finished)
            await standin.wait_for_message(  # the end of the game, with its Rematch button
                lambda m: not m.ephemeral and any(c.startswith("6n:m:") for c in m.custom_ids), 10
            )
            public = [m.content or "" for m in standin.channel_messages(channel) if not m.ephemeral]
            # Every turn's reveal shown exactly once, across seven processes.
            assert sum("🃏 Revealed" in text for text in public) == 10, public
            assert sum("Game over" in text for text in public) == 1
            board = await (await standin.slash(bob, channel, "leaderboard", metric="games")).reply(timeout=10)
            assert "Page 1 of 1 · 2 players" in board.embed["footer"]["text"]
            assert board.embed["description"].count("1/1 won") + board.embed["description"].count("0/1 won") == 2
            await bot.kill()
        finally:
            await bot.ensure_stopped()

    db = sqlite3.connect(bot.db)
    [(game_id, status)] = db.execute("SELECT game_id, status FROM games").fetchall()
    assert status == "finished"
    assert db.execute("SELECT count(*) FROM results WHERE game_id = ?", (game_id,)).fetchone()[0] == 3
    seats = {user: seat for seat, user in db.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))}
    actions = [
        json.loads(a) for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
    ]
    picks = [(a["player"], a["card"]) for a in actions if a["kind"] == "pick"]
    for user, card in acknowledged:
        assert (seats[user], card) in picks, f"acknowledged pick {card} of seat {seats[user]} was lost"
    [(state,)] = db.execute("SELECT state FROM checkpoints WHERE game_id = ?", (game_id,)).fetchall()
    state = json.loads(state)
    cards = [c for group in ("rows", "hands", "piles") for cards in state[group] for c in cards]
    assert len(cards) == len(set(cards)) == 34 and state["outcome"] is not None, "a card was lost or duplicated"
    # The log is the game: replaying it from the seed gives exactly the saved final state.
    replay = Game.new(TableOptions(rounds=1, target=None).game_config(3), seed=seed)
    for action in actions:
        replay.apply(action_from_dict(action))
    assert replay == Game.from_dict(state) and replay.is_over
    assert len(acknowledged) >= 15  # nearly every pick of the game was confirmed before its crash point


def alice_in_a_channel(standin, tmp_path):
    """A server with a games channel and alice, and the bot process to be started: (channel, alice, bot)."""
    guild = standin.add_guild("Bullpen")
    return (
        standin.add_text_channel(guild, "games"),
        standin.add_member(guild, "alice"),
        BotProcess(standin, tmp_path, 1),
    )


async def test_a_kill_between_a_lobby_and_its_thread_leaves_no_lobby_without_its_thread(tmp_path):
    """The bot dies as it asks Discord for a lobby's thread, or once Discord has started it but
    before the bot saved it: the next process starts that thread, or finds it (it shares the
    lobby's id), and the game is played there."""
    async with DiscordStandin(ack_deadline=10, rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        channel, alice, bot = alice_in_a_channel(standin, tmp_path)
        try:
            for point in ("thread", "thread-started"):
                await bot.start(point, sync=point == "thread", THREADS="true")
                await standin.wait_for_commands("6nimmt", timeout=10)
                lobby = await (
                    await standin.slash(alice, channel, "6nimmt start", rounds=1, ai_players=1, ai_level="easy")
                ).reply(timeout=10)
                await bot.died()
                await bot.start(THREADS="true")
                thread = await standin.world.wait_until(
                    lambda lobby=lobby: standin.world.channels.get(lobby.id),
                    10,
                    f"killed at {point}: the lobby's thread",
                )
                # Discord shows the thread under the lobby it was started on (no edit of the lobby says it).
                assert standin.message(lobby.id).thread is thread
                await (await standin.click(alice, lobby, lobby.button("Start")["custom_id"])).ack()
                await wait_for_live(standin, thread, "6n:h:")
                assert not [m for m in standin.channel_messages(channel) if table_ids(m)], (
                    "the game is played in its thread, not in the channel"
                )
                await bot.kill()
        finally:
            await bot.ensure_stopped()
        assert [c.id for c in standin.world.channels.values() if c.is_thread] == [
            m.id for m in standin.channel_messages(channel)
        ], "one thread for each lobby"


async def test_a_kill_between_a_lobby_and_its_post_shows_the_lobby_once_after_the_restart(tmp_path):
    """The bot dies right after committing a new lobby: its message never posted, the command never
    answered. The next process shows the lobby (in the channel, or with its game's thread started
    on it), once, and the game is played to its standings."""
    async with DiscordStandin(ack_deadline=10, rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        channel, alice, bot = alice_in_a_channel(standin, tmp_path)
        try:
            for threads in ("false", "true"):
                await bot.start("lobby", sync=threads == "false", THREADS=threads)
                await standin.wait_for_commands("6nimmt", timeout=10)
                before = len(standin.channel_messages(channel))
                start = await standin.slash(alice, channel, "6nimmt start", rounds=1, ai_players=1, ai_level="easy")
                await bot.died()
                assert start.callback_type is None  # never answered
                await bot.start(THREADS=threads)
                lobby = await standin.wait_for_message(
                    lambda m: not m.ephemeral and any(c.startswith("6n:l:join:") for c in m.custom_ids), 10
                )
                await (await standin.click(alice, lobby, lobby.button("Start")["custom_id"])).ack()
                where = channel
                if threads == "true":
                    where = await standin.world.wait_until(
                        lambda lobby=lobby: standin.world.channels.get(lobby.id), 10, "the lobby's thread"
                    )
                await wait_for_live(standin, where, "6n:h:")
                await play_game(standin, where, [alice], moves=40, timeout=10)  # alice against AI seats
                assert "Game over" in standin.channel_messages(where)[-1].content
                new = standin.channel_messages(channel)[before:]
                lobbies = [m for m in new if "6n:l:join:" in str(m.custom_ids) or "table open" in str(m.embed)]
                assert [m.id for m in new if m.id == lobby.id] == [lobby.id] and len(lobbies) <= 1, new
                await bot.kill()
        finally:
            await bot.ensure_stopped()


async def test_a_kill_mid_game_in_a_group_dm_restarts_and_finishes_showing_nothing_twice(tmp_path):
    """A game in a group DM, where only players' clicks reach the channel: the bot dies right after
    a pick was shown. The next process has no click to carry anything until a player clicks on
    what the first one showed; then the turn is revealed, once, and the game is played to its end.
    The bot's token never addresses the group DM."""
    async with DiscordStandin(ack_deadline=10, rate_limits=True, window_scale=WINDOW_SCALE) as standin:
        guild = standin.add_guild("Bullpen")
        alice, bob = standin.add_member(guild, "alice"), standin.add_member(guild, "bob")
        standin.user_install(alice)
        friends = standin.group_dm(alice, bob, name="friends")
        bot = BotProcess(standin, tmp_path, 1)
        try:
            await bot.start(sync=True)
            await standin.wait_for_commands("6nimmt", timeout=10)
            lobby = await (await standin.slash(alice, friends, "6nimmt start", rounds=1)).reply(timeout=10)
            await (await standin.click(bob, lobby, lobby.button("Join")["custom_id"])).ack()
            await (await standin.click(alice, lobby, lobby.button("Start")["custom_id"])).ack()
            table = await wait_for_live(standin, friends, "6n:h:")
            cards, hand = await open_hand(standin, alice, table)
            await (await standin.click(alice, hand, cards[min(cards)])).ack()
            # Her pick shows on the table (so the table's post was marked shown): then the bot dies. A
            # post shown but not yet marked when it dies is sent again: nothing can read the channel.
            await standin.world.wait_until(
                lambda: "✅" in str(standin.message(table.id).embed), 10, "alice's pick never showed"
            )
            await bot.kill()
            await bot.start()
            # bob plays on the table the first process showed: his click carries the reveal.
            await play_game(standin, friends, [alice, bob], moves=40, timeout=10)
            shown = [m for m in standin.channel_messages(friends) if not m.ephemeral]
            assert sum("Game over" in (m.content or "") for m in shown) == 1
            reveals = [m.content for m in shown if "🃏 Revealed" in (m.content or "")]
            assert len(reveals) == len(set(reveals)) == 10, "each turn revealed once"
            assert all(m.interaction_id is not None for m in shown), "every message carried by a click"
            direct = [r for r in standin.requests if str(friends.id) in r.path and "/webhooks/" not in r.path]
            assert direct == []
            standin.assert_no_errors()
        finally:
            await bot.ensure_stopped()
