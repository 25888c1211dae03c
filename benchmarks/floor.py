"""The floor: how many clicks a second discord.py itself can answer on this machine, with no game.

    python benchmarks/floor.py [--tables 300] [--think 4 8] [--factor 0.85] [--step 20] [--max-steps 12]

``load.py --mode max-rate`` measures the real bot; this measures a bare discord.py 2.7 bot
(``floor_bot.py``) that answers the same clicks with the same kinds of answer and nothing behind
them: "Play a card" with an ephemeral hand of ten buttons, a card by editing that hand, and every
second card with a public follow-up (the turn's reveal). It runs on the bot's event loop
(uvloop), interpreter settings, orjson and zstd gateway, against the same stand-in on the same
cores, and two players a table click as ``load.py``'s do: think, open the hand, think half as
long, pick a card. The think time shrinks by ``--factor`` every ``--step`` seconds, as in
max-rate, until two steps in a row have ack p99 >= 100 ms.

It prints, per step, the clicks a second, their ack p50/p99 and the bot's CPU (a share of one
core, and milliseconds per click); then the highest rate with ack p99 < 100 ms. What the bot's
game adds to a click is the difference between ``load.py --mode max-rate``'s CPU per click and
this one's. A Python bot serves from one core: at this floor's CPU per click, a rate that needs
more than that core cannot be reached by any bot built on discord.py, however little it does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.load import acks_between, freeze_periodically, machine_speed, ms, print_highest  # noqa: E402
from benchmarks.load_players import Pace, cpu_seconds, pin_bot, wait_until  # noqa: E402
from bot.app import run_loop  # noqa: E402
from tests.e2e.looplag import GCPauses, LoopLag, percentile  # noqa: E402
from tests.standin import DiscordStandin  # noqa: E402


async def player(standin, table_message, user, rng: random.Random, pace: Pace, stop: asyncio.Event) -> int:
    """Open the hand and pick a card, over and over, thinking between clicks; the clicks made."""
    clicks = 0
    while not stop.is_set():
        await pace.think(rng)
        opened = await standin.click(user, table_message, table_message.custom_ids[0])
        hand = await opened.reply(timeout=30)
        await pace.think(rng, 0.5)
        card = rng.choice([c for c in hand.custom_ids if c.startswith("fl:p:")])
        await (await standin.click(user, hand, card)).ack(30)
        clicks += 2
    return clicks


async def run(args) -> None:
    async with DiscordStandin(ack_deadline=3.0) as standin:
        guild = standin.add_guild("Floor")
        channels = [standin.add_text_channel(guild, f"table-{i}") for i in range(args.tables)]
        players = [
            (standin.add_member(guild, f"host{i}"), standin.add_member(guild, f"guest{i}")) for i in range(args.tables)
        ]
        env = dict(os.environ, **standin.env)
        command = [sys.executable, "-m", "benchmarks.floor_bot"]
        if args.profile:
            command = ["py-spy", "record", "--gil", "-o", args.profile, "-f", "raw", "--"] + command
        proc = subprocess.Popen(command, env=env, cwd=ROOT)
        try:
            await standin.wait_until_connected(timeout=60)

            def posted(channel):
                return next(iter(standin.channel_messages(channel)), None)

            tables = [await wait_until(lambda c=c: posted(c), 60) for c in channels]
            pid = proc.pid
            if args.profile:
                from benchmarks.load_players import bot_processes

                pid = next(p for p in bot_processes(proc.pid) if p != proc.pid)
            if args.pin:
                print(f"  {pin_bot(pid)}", flush=True)
            pace, rng, stop = Pace(*args.think), random.Random(2026), asyncio.Event()
            tasks = [
                asyncio.create_task(player(standin, tables[i], user, random.Random(rng.random()), pace, stop))
                for i, pair in enumerate(players)
                for user in pair
            ]
            freezer = asyncio.create_task(freeze_periodically())  # the stand-in's own collections, as in load.py
            lag, pauses = LoopLag().start(), GCPauses().install()
            await asyncio.sleep(args.ramp)
            steps, cpu_before = [], cpu_seconds(pid)
            while True:
                window_start, ticks = time.monotonic(), len(lag.lags)
                collections = {g: len(p) for g, p in pauses.pauses.items()}  # how many before this step
                await asyncio.sleep(args.step)
                window_end = time.monotonic()
                acks = acks_between(standin, window_start, window_end)
                cpu = cpu_seconds(pid) - cpu_before
                cpu_before += cpu
                rate = len(acks) / (window_end - window_start)
                steps.append((rate, acks))
                print(
                    f"  think up to {pace.high:.3f} s: {rate:.0f} clicks/s, ack p50 {ms(acks, 0.5)}, "
                    f"p99 {ms(acks, 0.99)}, bot CPU {100 * cpu / args.step:.0f} % "
                    f"({1000 * cpu / max(1, len(acks)):.2f} ms a click); the stand-in's loop lag p99 "
                    f"{ms(lag.lags[ticks:], 0.99)}, its longest collection "
                    f"{1000 * max((x for g, p in pauses.pauses.items() for x in p[collections[g] :]), default=0):.0f}"
                    " ms",
                    flush=True,
                )
                over = [percentile(a, 0.99) >= 0.1 for _, a in steps[-2:]]
                if (len(over) == 2 and all(over)) or len(steps) >= args.max_steps:
                    break
                pace.low, pace.high = pace.low * args.factor, pace.high * args.factor
            stop.set()
            freezer.cancel()
            lag.stop()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            proc.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
            proc.wait(60)
    print(
        f"floor benchmark: a bare discord.py bot answering {args.tables} tables' clicks, think time "
        f"x{args.factor:g} every {args.step:g} s from {args.think[0]:g}-{args.think[1]:g} s"
    )
    print_highest(steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--think", type=float, nargs=2, default=(4.0, 8.0), metavar=("MIN", "MAX"))
    parser.add_argument("--factor", type=float, default=0.85)
    parser.add_argument("--step", type=float, default=20.0)
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds before the first step is measured")
    parser.add_argument("--profile", help="write a py-spy profile of the bare bot here")
    parser.add_argument("--pin", action="store_true", help="the bot on a core of its own (as load.py --pin)")
    args = parser.parse_args()
    print(f"this machine took {machine_speed():.0f} ms for a million additions in a Python loop", flush=True)
    began = time.monotonic()
    run_loop(run(args))
    print(f"  ran {time.monotonic() - began:.0f} s; a million additions now took {machine_speed():.0f} ms")


if __name__ == "__main__":
    main()
