"""Anniversary buttons and selects: the public Decide button, the decider's ephemeral prompt.

The public message carries only ``Decide`` (table id and step: nothing
secret). Everything else is in an ephemeral message shown to the decider
alone, so its custom ids may carry a choice's parameters ("choice codes"):

* ``p:<special>:<row>:<card>:<target>:<position>`` — play that special card
  (``-`` for a parameter the card does not use); the engine re-checks it;
* ``m:menu`` / ``m:<special>`` / ``m:shift:<row>:<card>`` — show the top of the
  prompt, a card's choices, or where a Shift's chosen card may go.

Every click goes through the service with the step it was made for, so an
old prompt is refused with a clear message and changes nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.specials import SpecialPrompt
from engine import Phase, Special

from .components import PagedSelect, TableItem, answer_error
from .special_text import EMOJI, kind_prompt_text, play_label, prompt_text, shift_source_label

if TYPE_CHECKING:
    from bot.service import TableService

#: Choices beyond this many are offered in selects (≤ 25 options each) instead of buttons.
MAX_CHOICE_BUTTONS = 20
SELECT_SIZE = 25

PREFERENCES = {
    "always": ("Always ask me", "I will ask you whenever you can play a special card."),
    "taking": ("Ask only when I take a row",
               "I will ask you only when your card would take a row (and after you take one)."),
    "never": ("Never ask me", "I will not ask you: your special cards stay in your hand."),
}

_CODE = r"[pm]:[a-z_]{1,20}(?::(?:\d{1,3}|-)){0,5}"


def _part(value: int | None) -> str:
    return "-" if value is None else str(value)


def play_code(play) -> str:
    return ":".join(["p", Special(play.special).value, _part(play.row), _part(play.card),
                     _part(play.target_row), _part(play.position)])


def _number(part: str) -> int | None:
    return None if part == "-" else int(part)


class ChoiceButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                   template=rf"6n:sx:(?P<table>\d{{1,18}}):(?P<step>\d{{1,9}}):(?P<code>{_CODE})"):
    """One choice of the ephemeral special-card prompt (a play, or a step towards one)."""

    def __init__(self, table_id: int, step: int, code: str, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, emoji=emoji, row=row,
                                           custom_id=f"6n:sx:{table_id}:{step}:{code}"))
        self.table_id, self.step, self.code = table_id, step, code

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), int(match["step"]), match["code"])

    async def act(self, interaction, service):
        await act_on_choice(interaction, service, self.table_id, self.step, self.code)


class ChoiceSelect(TableItem, PagedSelect, discord.ui.DynamicItem[discord.ui.Select],
                   template=r"6n:sc:(?P<table>\d{1,18}):(?P<step>\d{1,9}):(?P<page>\d)"):
    """Many choices (a Shift's cards, a low card's Negative = Positive) in one select."""

    def __init__(self, table_id: int, step: int, page: int, choices: list[tuple[str, str]] | None = None,
                 row: int | None = None) -> None:
        options = [discord.SelectOption(label=text[:100], value=code) for text, code in choices or []] or [
            discord.SelectOption(label="—", value="m:menu")]
        super().__init__(discord.ui.Select(placeholder="Choose…", options=options, row=row,
                                           custom_id=f"6n:sc:{table_id}:{step}:{page}"))
        self.table_id, self.step = table_id, step

    async def act(self, interaction, service):
        code = self.item.values[0] if self.item.values else ""
        if re.fullmatch(_CODE, code) is None:  # a forged value
            await answer_error(interaction, "That choice does not exist.")
            return
        await act_on_choice(interaction, service, self.table_id, self.step, code)


class DecideButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"6n:s:(?P<table>\d{1,18}):(?P<step>\d{1,9})"):
    """Public: opens the decider's ephemeral prompt (the bot cannot push one on its own)."""

    def __init__(self, table_id: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="Decide", emoji="✨", style=discord.ButtonStyle.primary,
                                           custom_id=f"6n:s:{table_id}:{step}"))
        self.table_id, self.step = table_id, step

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), int(match["step"]))

    async def act(self, interaction, service):
        prompt = service.special_prompt(self.table_id, interaction.user.id, self.step)
        await interaction.response.send_message(prompt_text(prompt, prompt.table.deadline),
                                                view=prompt_view(prompt), ephemeral=True)


class DeclineButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"6n:sd:(?P<table>\d{1,18}):(?P<step>\d{1,9}):(?P<phase>special|swap)"):
    def __init__(self, table_id: int, step: int, phase: str, row: int | None = None) -> None:
        text = "No special card" if phase == "special" else "Keep my cards"
        super().__init__(discord.ui.Button(label=text, style=discord.ButtonStyle.success, row=row,
                                           custom_id=f"6n:sd:{table_id}:{step}:{phase}"))
        self.table_id, self.step, self.phase = table_id, step, phase

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), int(match["step"]), match["phase"])

    async def act(self, interaction, service):
        if self.phase == "special":
            await service.decline_special(self.table_id, interaction.user.id, self.step)
            done = "You play no special card."
        else:
            await service.decline_swap(self.table_id, interaction.user.id, self.step)
            done = "You keep your special cards."
        await interaction.response.edit_message(content=done + " See the channel for what happens.", view=None)


class SwapButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"6n:sw:(?P<table>\d{1,18}):(?P<step>\d{1,9}):(?P<special>[a-z_]{1,20})"):
    def __init__(self, table_id: int, step: int, special: str, row: int | None = None) -> None:
        shown = Special(special) if special in Special._value2member_map_ else None
        super().__init__(discord.ui.Button(
            label=f"Swap {shown.label if shown else special}", emoji=EMOJI.get(shown), row=row,
            style=discord.ButtonStyle.secondary, custom_id=f"6n:sw:{table_id}:{step}:{special}"))
        self.table_id, self.step, self.special = table_id, step, special

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), int(match["step"]), match["special"])

    async def act(self, interaction, service):
        await service.swap(self.table_id, interaction.user.id, self.step, self.special)
        await interaction.response.edit_message(
            content=f"You swapped a **{Special(self.special).label}** for the top card of the special deck: "
                    "press **Play a card** to see your special cards.", view=None)


class PreferenceButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                       template=r"6n:pf:(?P<table>\d{1,18}):(?P<pref>always|taking|never)"):
    """When this player wants to be asked about special cards (shown on their own hand and prompt)."""

    def __init__(self, table_id: int, preference: str, current: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=PREFERENCES[preference][0], row=row, custom_id=f"6n:pf:{table_id}:{preference}",
            style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary))
        self.table_id, self.preference = table_id, preference

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), match["pref"])

    async def act(self, interaction, service):
        await service.set_prompts(self.table_id, interaction.user.id, self.preference)
        await interaction.response.send_message(PREFERENCES[self.preference][1], ephemeral=True)


SPECIAL_ITEMS = (ChoiceButton, ChoiceSelect, DecideButton, DeclineButton, SwapButton, PreferenceButton)


# -- what a click on a choice does ---------------------------------------------------------------


async def act_on_choice(interaction: discord.Interaction, service: "TableService", table_id: int, step: int,
                        code: str) -> None:
    kind, *parts = code.split(":")
    if kind == "p":
        special, row, card, target, position = (parts + ["-"] * 5)[:5]
        await service.play_special(table_id, interaction.user.id, step, special, row=_number(row),
                                   card=_number(card), target_row=_number(target), position=_number(position))
        shown = Special(special).label
        await interaction.response.edit_message(
            content=f"You played **{shown}**. See the channel for what happens.", view=None)
        return
    prompt = service.special_prompt(table_id, interaction.user.id, step)
    what = parts[0] if parts else "menu"
    if what == "menu":
        await interaction.response.edit_message(content=prompt_text(prompt, prompt.table.deadline),
                                                view=prompt_view(prompt))
        return
    if what not in Special._value2member_map_ or prompt.phase is not Phase.SPECIAL:
        await answer_error(interaction, "That choice does not exist.")
        return
    special = Special(what)
    shifted = (_number(parts[1]), _number(parts[2])) if special is Special.SHIFT and len(parts) == 3 else None
    choices = kind_choices(prompt, special, shifted)
    if not choices:
        await answer_error(interaction, f"You cannot play **{special.label}** like that now.")
        return
    text = kind_prompt_text(special, shifted[1] if shifted else None)
    await interaction.response.edit_message(content=text, view=choices_view(prompt, choices))


# -- views --------------------------------------------------------------------------------------


def _rows(prompt: SpecialPrompt) -> list[tuple[int, ...]]:
    return [r.cards for r in prompt.view.rows]


def kind_choices(prompt: SpecialPrompt, special: Special,
                 shifted: tuple[int | None, int | None] | None = None) -> list[tuple[str, str]]:
    """(label, code) for each legal way to play ``special``; a Shift first picks its card."""
    plays = [p for p in prompt.plays if p.special is special]
    card = prompt.preview.card
    if special is Special.SHIFT and shifted is None:
        sources = dict.fromkeys((p.row, p.card) for p in plays)
        return [(shift_source_label(r, c), f"m:shift:{r}:{c}") for r, c in sources]
    if shifted is not None:
        plays = [p for p in plays if (p.row, p.card) == shifted]
    return [(play_label(p, _rows(prompt), card), play_code(p)) for p in plays]


def _add_preferences(view: discord.ui.View, table_id: int, current: str, row: int) -> None:
    for preference in PREFERENCES:
        view.add_item(PreferenceButton(table_id, preference, current == preference, row=row))


def prompt_view(prompt: SpecialPrompt) -> discord.ui.View:
    """The top of the prompt: one button per special card that can be played, the decline, the preference."""
    table_id, step = prompt.table.id, prompt.table.step
    view = discord.ui.View(timeout=None)
    if prompt.phase is Phase.SWAP:
        for i, play in enumerate(prompt.plays):
            view.add_item(SwapButton(table_id, step, play.special.value, row=i // 5))
        view.add_item(DeclineButton(table_id, step, "swap", row=2))
    else:
        by_kind: dict[Special, list] = {}
        for play in prompt.plays:
            by_kind.setdefault(play.special, []).append(play)
        for i, (special, plays) in enumerate(by_kind.items()):
            if len(plays) == 1:  # nothing to choose: the button plays it
                code, text = play_code(plays[0]), play_label(plays[0], _rows(prompt), prompt.preview.card)
            else:
                code, text = f"m:{special.value}", f"{special.label}…"
            view.add_item(ChoiceButton(table_id, step, code, text, discord.ButtonStyle.primary,
                                       EMOJI[special], row=i // 5))
        view.add_item(DeclineButton(table_id, step, "special", row=2))
    _add_preferences(view, table_id, prompt.table.seats[prompt.seat].prompts, row=3)
    return view


def choices_view(prompt: SpecialPrompt, choices: list[tuple[str, str]]) -> discord.ui.View:
    """One special card's choices (buttons, or selects when there are many), then Back / decline."""
    table_id, step = prompt.table.id, prompt.table.step
    view = discord.ui.View(timeout=None)
    if len(choices) <= MAX_CHOICE_BUTTONS:
        for i, (text, code) in enumerate(choices):
            view.add_item(ChoiceButton(table_id, step, code, text, row=i // 5))
    else:
        for page in range(0, min(len(choices), 4 * SELECT_SIZE), SELECT_SIZE):
            view.add_item(ChoiceSelect(table_id, step, page // SELECT_SIZE, choices[page:page + SELECT_SIZE],
                                       row=page // SELECT_SIZE))
    view.add_item(ChoiceButton(table_id, step, "m:menu", "Back", row=4))
    view.add_item(DeclineButton(table_id, step, "special", row=4))
    return view


def preference_view(table_id: int, current: str, view: discord.ui.View | None = None) -> discord.ui.View:
    """Adds the preference buttons to ``view`` (an Anniversary hand) on its last row."""
    view = view or discord.ui.View(timeout=None)
    _add_preferences(view, table_id, current, row=4)
    return view
