"""A bare discord.py bot for ``benchmarks/floor.py``: it answers a 6 nimmt! turn's clicks as the
real bot does on Discord's side, with no game, store or pictures behind them.

    python -m benchmarks.floor_bot      (with ``standin.env`` set; floor.py starts it)

Per table and turn, as ``cogs/ui/hand.py`` and ``cogs/presenting/clicks.py`` answer them:

* "Play a card" (``fl:h:<table>``) is answered with an ephemeral hand: a line of text and ten
  card buttons;
* a card (``fl:p:<table>:<card>``) is answered by editing that hand (the card marked);
* every second card of a table is the turn's last: its click also sends the reveal, a public
  follow-up with the table's "Play a card" button.

It runs on the bot's own event loop and interpreter settings (``bot.app``), with discord.py's
orjson and zstd-stream gateway as the bot has them, so the difference between the two is the
game's own work.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402

from bot.app import run_loop, tune_interpreter  # noqa: E402
from tests.e2e.looplag import GCPauses, LoopLag  # noqa: E402
from tests.standin.env import apply_env_overrides  # noqa: E402

HAND = tuple(range(12, 112, 10))  # ten cards, as a new round's hand
PICKS: dict[int, int] = {}  # cards picked per table: every second one ends a turn


def stopped_view() -> discord.ui.View:
    """A view of ``DynamicItem``s, stopped before it is sent, as the bot sends its own
    (``cogs.ui.base.item_view``): discord.py would otherwise keep every one it sent."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def hand(table: int, chosen: int | None) -> discord.ui.View:
    view = stopped_view()
    for card in HAND:
        view.add_item(PickCard(table, card, chosen=card == chosen))
    return view


def table_view(table: int) -> discord.ui.View:
    view = stopped_view()
    view.add_item(OpenHand(table))
    return view


class OpenHand(discord.ui.DynamicItem[discord.ui.Button], template=r"fl:h:(?P<table>\d+)"):
    def __init__(self, table: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play a card", emoji="🃏", style=discord.ButtonStyle.primary, custom_id=f"fl:h:{table}"
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # type: ignore[no-untyped-def]
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "**Your hand** — pick a card to play face down. Only you can see this.\nStill to pick: somebody",
            view=hand(self.table, None),
            ephemeral=True,
        )


class PickCard(discord.ui.DynamicItem[discord.ui.Button], template=r"fl:p:(?P<table>\d+):(?P<card>\d+)"):
    def __init__(self, table: int, card: int, chosen: bool = False) -> None:
        style = discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=str(card), style=style, custom_id=f"fl:p:{table}:{card}"))
        self.table, self.card = table, card

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # type: ignore[no-untyped-def]
        return cls(int(match["table"]), int(match["card"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"You play **{self.card}** face down — you can change it until everyone has picked.",
            view=hand(self.table, self.card),
        )
        PICKS[self.table] = PICKS.get(self.table, 0) + 1
        if PICKS[self.table] % 2 == 0:  # the turn's last card: its click carries the reveal
            await interaction.followup.send(
                f"**Turn {PICKS[self.table] // 2}** — 12 (you), 55 (AI 1), 67 (AI 2), 81 (AI 3), 97 (guest)\n"
                "Row 1: 5 12 · Row 2: 33 55 · Row 3: 60 67 · Row 4: 71 81 97",
                view=table_view(self.table),
                allowed_mentions=discord.AllowedMentions.none(),
            )


class FloorBot(discord.Client):
    def __init__(self) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(OpenHand, PickCard)

    async def on_ready(self) -> None:
        # One table a channel, in the channels' order: floor.py finds table i's message in channel i.
        channels = sorted((c for g in self.guilds for c in g.text_channels), key=lambda c: c.position)
        for table, channel in enumerate(channels):
            await channel.send(f"Table {table}", view=table_view(table))


async def main() -> None:
    tune_interpreter()
    lag, pauses = LoopLag().start(), GCPauses().install()
    loop = asyncio.get_running_loop()
    async with FloorBot() as client:
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(client.close()))
        await client.start(os.environ["DISCORD_TOKEN"])
    lag.stop()
    print(f"  the bare bot's loop lag: {lag.summary()}\n  its collector: {pauses.summary()}", flush=True)


if __name__ == "__main__":
    apply_env_overrides()
    run_loop(main())
