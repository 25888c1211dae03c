"""Load: the real bot (in its own process) against the Discord stand-in, many tables at once.

Every table has two scripted players and three AI seats and plays a one-round
game: start, join, begin, then each turn both players open their hand and pick
a card (the chooser of a low card takes row 1). Players think 5-20 s before a
click, as people weighing a card against the rows do (a run takes about nine
minutes); ``--think 1 4 --ramp 20`` is a stress test at five times that click
rate, and ``--think 0 0`` floods the bot. Prints interaction acknowledgement
latency (p50/p99, measured by the stand-in from dispatch to the bot's
callback, overall and by kind of click), turn resolution latency (last pick
acknowledged → next table message posted), CPU, the bot's resident memory,
and how late each side's event loop ran.

    python benchmarks/load.py [--tables 300] [--think MIN MAX]

Target (issue 4): 300 concurrent tables, p99 acknowledgement < 50 ms, RSS < 200 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.e2e.looplag import GCPauses, LoopLag, percentile  # noqa: E402
from tests.standin import DiscordStandin  # noqa: E402


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def bot_processes(pid: int) -> list[int]:
    """The bot process and its worker processes (table images, the searching AI)."""
    found = [pid]
    for proc in os.listdir("/proc"):
        if proc.isdigit():
            try:
                with open(f"/proc/{proc}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(proc))
            except OSError:
                continue
    return found


def rss_mb(pid: int) -> tuple[float, float, int]:
    """(current, peak) resident memory in MB of the bot with its workers, and how many processes."""
    pids = bot_processes(pid)
    return (sum(_status_kb(p, "VmRSS") for p in pids) / 1024,
            sum(_status_kb(p, "VmHWM") for p in pids) / 1024, len(pids))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` (and its waited-for children), from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def table_message(standin, channel):
    for message in reversed(standin.channel_messages(channel)):
        if any(cid.startswith(("6n:h:", "6n:r:")) for cid in message.custom_ids):
            return message
    return None


async def wait_until(check, timeout=60.0, every=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        await asyncio.sleep(every)
    raise TimeoutError("the bot did not show the expected message in time")


async def think(rng, pace) -> None:
    """A human takes a moment before each click."""
    await asyncio.sleep(rng.uniform(*pace))


def channel_story(standin, channel) -> str:
    """The channel's messages with their edits, oldest first: what a failed table saw."""
    lines = []
    for message in standin.channel_messages(channel):
        states = [(s.embeds, s.components) for s in message.history] + [(message.embeds, message.components)]
        shown = [f"{(embeds[0] if embeds else {}).get('title', '')!r} "
                 f"{[c.get('custom_id') for row in rows for c in row.get('components', [])]}"
                 for embeds, rows in states]
        lines.append(f"    {message.id} (interaction {message.interaction_id}) {message.content[:40]!r}: "
                     + " -> ".join(shown))
    return "\n".join(lines)


async def play_table(standin, channel, host, guest, resolutions: list[float], rng, pace, delay) -> None:
    try:
        await _play_table(standin, channel, host, guest, resolutions, rng, pace, delay)
    except Exception as exc:
        raise RuntimeError(f"{channel.name}: {exc!r}\n{channel_story(standin, channel)}") from exc


async def _play_table(standin, channel, host, guest, resolutions: list[float], rng, pace, delay) -> None:
    await asyncio.sleep(delay)  # tables open over the ramp-up, as a server's evening fills up
    lobby = await (await standin.slash(host, channel, "6nimmt start", rounds=1, ai_players=3, timer=600)).reply(timeout=30)
    for user, label in ((guest, "Join"), (host, "Start")):
        click = await standin.click(user, lobby, lobby.button(label)["custom_id"])
        if await click.ack(30) != 6:  # a lobby button that worked defers; a refusal explains itself
            raise RuntimeError(f"{label} was refused: {(await click.reply(30)).content!r}")
    current = await wait_until(lambda: table_message(standin, channel))
    while True:
        if any(cid.startswith("6n:r:") for cid in current.custom_ids):
            row_one = current.custom_ids[0]  # the chooser takes row 1; the other player is refused
            await think(rng, pace)
            for user in (host, guest):
                if await (await standin.click(user, current, row_one)).ack(30) == 6:
                    break  # a deferred update: the choice was accepted
        else:
            play = current.button("Play a card")["custom_id"]
            for user in (host, guest):
                await think(rng, pace)
                hand = await (await standin.click(user, current, play)).reply(timeout=30)
                cards = [cid for cid in hand.custom_ids if cid.startswith("6n:p:")]
                if not cards:
                    break
                await think(rng, (pace[0] / 2, pace[1] / 2))
                await (await standin.click(user, hand, cards[0])).ack(30)
        acted = time.monotonic()
        previous = current.id

        def advanced():
            newest = standin.channel_messages(channel)[-1]
            finished = any(cid.startswith("6n:m:") for cid in newest.custom_ids)
            if newest.id != previous and (finished or table_message(standin, channel) is newest):
                return newest
            return None

        current = await wait_until(advanced)
        resolutions.append(time.monotonic() - acted)
        if not any(cid.startswith(("6n:h:", "6n:r:")) for cid in current.custom_ids):
            return  # the game is over


async def freeze_periodically(every: float = 2.0) -> None:
    """The stand-in keeps every message and interaction; a full collection walking all of
    them stalls its loop for hundreds of ms, which would show as the bot's latency.
    Real Discord does not pause for our collector, so the stand-in's survivors are frozen."""
    while True:
        await asyncio.sleep(every)
        gc.freeze()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--profile", help="write a py-spy profile of the bot process here")
    parser.add_argument("--think", type=float, nargs=2, default=(5.0, 20.0), metavar=("MIN", "MAX"),
                        help="seconds a player thinks before a click (default 5 20; 1 4 to stress, 0 0 to flood)")
    parser.add_argument("--ramp", type=float, default=60.0, help="seconds over which the tables open")
    args = parser.parse_args()
    async with DiscordStandin(ack_deadline=3.0) as standin:
        guild = standin.add_guild("Load")
        seats = []
        for i in range(args.tables):
            channel = standin.add_text_channel(guild, f"table-{i}")
            seats.append((channel, standin.add_member(guild, f"host{i}"), standin.add_member(guild, f"guest{i}")))
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, **standin.env, DATABASE_PATH=os.path.join(tmp, "load.sqlite3"), LOG_LEVEL="WARNING",
                       SIXNIMMT_SYNC="1", SIXNIMMT_LOOP_LAG="1")  # the stand-in starts with no commands
            command = [sys.executable, "-m", "tests.e2e.bot_process"]
            if args.profile:  # sample the bot process with py-spy (pip install py-spy)
                command = ["py-spy", "record", "--gil", "-o", args.profile, "-f", "raw", "--"] + command
            bot = subprocess.Popen(command, env=env, cwd=ROOT)
            try:
                await standin.wait_until_connected(timeout=30)
                await standin.wait_for_commands("6nimmt", timeout=30)
                idle_rss = rss_mb(bot.pid)[0]
                driver_lag = LoopLag().start()
                freezer = asyncio.create_task(freeze_periodically())
                driver_gc = GCPauses().install()
                resolutions: list[float] = []
                started = time.monotonic()
                rng = random.Random(2026)
                pace = tuple(args.think)
                results = await asyncio.gather(
                    *(play_table(standin, c, h, g, resolutions, random.Random(rng.random()), pace,
                                 args.ramp * i / len(seats))
                      for i, (c, h, g) in enumerate(seats)),
                    return_exceptions=True)
                elapsed = time.monotonic() - started
                driver_lag.stop()
                freezer.cancel()
                rss, peak, processes = rss_mb(bot.pid)
                bot_cpu = cpu_seconds(bot.pid)
                driver_cpu = time.process_time()
            finally:
                if args.profile:
                    bot.send_signal(signal.SIGINT)  # py-spy writes its profile on SIGINT
                else:
                    bot.terminate()
                bot.wait(30)
        failures = [r for r in results if isinstance(r, BaseException)]
        acks = standin.ack_latencies()
        print(f"load benchmark: {args.tables} concurrent tables, 2 players + 3 AI each, one round; "
              f"players think {args.think[0]:g}-{args.think[1]:g} s per click, tables open over {args.ramp:g} s")
        print(f"  games finished: {args.tables - len(failures)}/{args.tables} in {elapsed:.1f} s; "
              f"{len(acks)} interactions acknowledged ({len(acks) / elapsed:.0f}/s); "
              f"stand-in errors: {len(standin.errors)}")
        print(f"  acknowledgement latency: p50 {percentile(acks, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(acks, 0.99) * 1000:.1f} ms, max {max(acks) * 1000:.1f} ms")
        # The same, split at the end of the ramp: while tables open (lobbies, first deals) and after.
        ramp_end = started + args.ramp
        timed = [(i.dispatched_at, i.ack_latency) for i in standin.world.interactions.values()
                 if i.ack_latency is not None]
        kinds = {"6n:h": "Play a card", "6n:p": "card picks", "6n:r": "row choices", "6n:l": "lobby buttons"}
        by_kind: dict[str, list[float]] = {}
        for i in standin.world.interactions.values():
            if i.ack_latency is not None:
                kind = kinds.get(str(i.data.get("custom_id", ""))[:4], "slash commands")
                by_kind.setdefault(kind, []).append(i.ack_latency)
        for label, part in (("while tables open", [a for t, a in timed if t < ramp_end]),
                            ("after the ramp", [a for t, a in timed if t >= ramp_end]),
                            *sorted(by_kind.items())):
            if part:
                print(f"    {label}: n={len(part)} p50 {percentile(part, 0.5) * 1000:.1f} ms, "
                      f"p99 {percentile(part, 0.99) * 1000:.1f} ms")
        print(f"  turn resolution (last pick -> next table message): p50 {percentile(resolutions, 0.5) * 1000:.0f} ms, "
              f"p99 {percentile(resolutions, 0.99) * 1000:.0f} ms")
        print(f"  CPU: bot process {bot_cpu:.1f} s ({1000 * bot_cpu / max(1, len(acks)):.1f} ms per interaction), "
              f"stand-in and players {driver_cpu:.1f} s, over {elapsed:.0f} s on {os.cpu_count()} cores")
        print(f"  bot resident memory ({processes} processes: the bot and its workers): "
              f"idle {idle_rss:.0f} MB, after {rss:.0f} MB, peak {peak:.0f} MB (sum of each one's peak)")
        print(f"  stand-in's event loop lag: {driver_lag.summary()}")
        print(f"  stand-in's collector: {driver_gc.summary()}")
        for failure in failures[:3]:
            print(f"  failure: {failure}")


if __name__ == "__main__":
    asyncio.run(main())
