"""Anniversary buttons and selects: the public Decide button, the decider's ephemeral prompt.

The public message carries only ``Decide`` (table id and step: nothing
secret). Everything else is in an ephemeral message shown to the decider
alone, so its custom ids may carry a choice's parameters ("choice codes"):

* ``p:<special>:<row>:<card>:<target>:<position>`` — play that special card
  (``-`` for a parameter the card does not use); the engine re-checks it;
* ``m:menu`` / ``m:<special>`` / ``m:shift:<row>:<card>`` — show the top of the
  prompt, a card's choices, or where a Shift's chosen card may go;
* ``w:<special>`` — no special card, and swap ``<special>`` at the take that follows.

Every click goes through the service with the step it was made for, so an
old prompt is refused with a clear message and changes nothing.
"""

from __future__ import annotations

import re

import discord

#: Choices beyond this many are offered in selects (≤ 25 options each) instead of buttons.
from bot.tables.service import TableService
from bot.tables.specials import SpecialPrompt
from bot.tables.table import prompt_preference
from cogs.i18n import N_, tr, user_locale
from cogs.render.specials import (
    EMOJI,
    counted,
    kind_prompt_text,
    label,
    option_label,
    play_label,
    prompt_text,
    shift_source_label,
)
from cogs.reply import Answer, Reply
from engine import Phase, PlaySpecial, Special

from .base import IdFormat, PagedSelect, Part, TableItem, digits, item_view, one_of

MAX_CHOICE_BUTTONS = 20
SELECT_SIZE = 25
MAX_CHOICES = 4 * SELECT_SIZE  # four selects; the fifth row keeps Back and the decline

PREFERENCES = {
    "always": (
        # Translators: a button label (at most 80 characters).
        N_("Always ask me"),
        N_("I will ask you whenever a special card could change the table, and after you take a row."),
    ),
    "saving": (
        # Translators: a button label (at most 80 characters).
        N_("Ask when it saves me bullheads"),
        N_("I will ask you only when a special card would save you bullheads on the card being placed."),
    ),
    "big": (
        # Translators: a button label (at most 80 characters).
        N_("Ask only for big savings (over 10🐮)"),
        N_("I will ask you only when a special card would save you more than 10🐮 on the card being placed."),
    ),
    # Translators: a button label (at most 80 characters).
    "never": (N_("Never ask me"), N_("I will not ask you: your special cards stay in your hand.")),
}

_CODE = r"[pmw]:[a-z_]{1,20}(?::(?:\d{1,3}|-)){0,5}"


def _part(value: int | None) -> str:
    return "-" if value is None else str(value)


def play_code(play) -> str:
    return ":".join(
        [
            "p",
            Special(play.special).value,
            _part(play.row),
            _part(play.card),
            _part(play.target_row),
            _part(play.position),
        ]
    )


def _number(part: str) -> int | None:
    return None if part == "-" else int(part)


class ChoiceButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6n:sx:{table_id}:{step}:{code}", code=Part(_CODE)),
):
    """One choice of the ephemeral special-card prompt (a play, or a step towards one)."""

    def __init__(
        self,
        table_id: int,
        step: int,
        code: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                emoji=emoji,
                row=row,
                custom_id=self.id_format.build(table_id=table_id, step=step, code=code),
            )
        )
        self.table_id, self.step, self.code = table_id, step, code

    async def act(self, interaction, service, reply):
        await act_on_choice(reply, service, self.table_id, self.step, self.code)


class ChoiceSelect(
    PagedSelect,
    discord.ui.DynamicItem[discord.ui.Select],
    template=IdFormat("6n:sc:{table_id}:{step}:{page}", page=digits(1)),
):
    """Many choices (a Shift's cards, a low card's Negative = Positive) in one select."""

    def __init__(
        self,
        table_id: int,
        step: int,
        page: int,
        choices: list[tuple[str, str]] | None = None,
        row: int | None = None,
        locale=None,
    ) -> None:
        options = [discord.SelectOption(label=text[:100], value=code) for text, code in choices or []] or [
            discord.SelectOption(label="—", value="m:menu")
        ]
        super().__init__(
            discord.ui.Select(
                # Translators: a select menu's placeholder (at most 150 characters).
                placeholder=tr(locale, "Choose…"),
                options=options,
                row=row,
                custom_id=self.id_format.build(table_id=table_id, step=step, page=page),
            )
        )
        self.table_id, self.step = table_id, step

    async def act(self, interaction, service, reply):
        code = self.item.values[0] if self.item.values else ""
        if re.fullmatch(_CODE, code) is None:  # a forged value
            await reply.error(tr(user_locale(interaction), "That choice does not exist."))
            return
        await act_on_choice(reply, service, self.table_id, self.step, code)


class DecideButton(TableItem, discord.ui.DynamicItem[discord.ui.Button], template=IdFormat("6n:s:{table_id}:{step}")):
    """Public: opens the decider's ephemeral prompt (the bot cannot push one on its own)."""

    answer = Answer.EPHEMERAL

    def __init__(self, table_id: int, step: int, locale=None) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 80 characters).
                label=tr(locale, "Decide"),
                emoji="✨",
                style=discord.ButtonStyle.primary,
                custom_id=self.id_format.build(table_id=table_id, step=step),
            )
        )
        self.table_id, self.step = table_id, step

    async def act(self, interaction, service, reply):
        prompt = service.special_prompt(self.table_id, interaction.user.id, self.step)
        locale = user_locale(interaction)
        await reply.send(prompt_text(prompt, prompt.table.deadline, locale), view=prompt_view(prompt, locale))


class DeclineButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6n:sd:{table_id}:{step}:{phase}", phase=one_of(Phase.SPECIAL, Phase.SWAP)),
):
    def __init__(
        self, table_id: int, step: int, phase: Phase, row: int | None = None, locale=None, outcome=None
    ) -> None:
        phase = Phase(phase)  # its value is the custom_id's last part
        # Translators: the first part of a button label (at most 46 characters); what follows says what it leads to.
        text = (
            tr(locale, "No special card")
            if phase is Phase.SPECIAL
            # Translators: the first part of a button label (at most 46 characters), as above.
            else tr(locale, "Keep my cards")
        )
        text = option_label(text, outcome, locale)
        super().__init__(
            discord.ui.Button(
                label=text[:80],
                style=discord.ButtonStyle.success,
                row=row,
                custom_id=self.id_format.build(table_id=table_id, step=step, phase=phase),
            )
        )
        self.table_id, self.step, self.phase = table_id, step, phase

    async def act(self, interaction, service, reply):
        locale = user_locale(interaction)
        if self.phase is Phase.SPECIAL:
            await service.decline_special(self.table_id, interaction.user.id, self.step)
            done = tr(locale, "You play no special card. See the channel for what happens.")
        else:
            await service.decline_swap(self.table_id, interaction.user.id, self.step)
            done = tr(locale, "You keep your special cards. See the channel for what happens.")
        await reply.edit(content=done, view=None)


class SwapButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6n:sw:{table_id}:{step}:{special}", special=Part("[a-z_]{1,20}")),
):
    def __init__(
        self, table_id: int, step: int, special: str, row: int | None = None, locale=None, count: int = 1
    ) -> None:
        shown = Special(special) if special in Special._value2member_map_ else None
        times = f" ×{count}" if count > 1 else ""
        super().__init__(
            discord.ui.Button(
                # Translators: a button label (at most 70 characters): {card} is a special card's name.
                label=tr(locale, "Swap {card}", card=label(shown, locale) if shown else special) + times,
                emoji=EMOJI.get(shown) if shown is not None else None,
                row=row,
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_format.build(table_id=table_id, step=step, special=special),
            )
        )
        self.table_id, self.step, self.special = table_id, step, special

    async def act(self, interaction, service, reply):
        await service.swap(self.table_id, interaction.user.id, self.step, self.special)
        locale = user_locale(interaction)
        await reply.edit(
            view=None,
            content=tr(
                locale,
                "You swapped a **{card}** for the top card of the special deck: press **Play a card** to see "
                "your special cards.",
                card=label(self.special, locale),
            ),
        )


class PreferenceButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6n:pf:{table_id}:{preference}", preference=one_of(*PREFERENCES)),
):
    """When this player wants to be asked about special cards (shown on their own hand and prompt).

    Only today's preference names match: a button of a former name ("taking", long since
    "saving") is answered as no longer valid (cogs.errors), where building it would raise."""

    answer = Answer.EPHEMERAL

    def __init__(
        self, table_id: int, preference: str, current: bool = False, row: int | None = None, locale=None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, PREFERENCES[preference][0]),
                row=row,
                custom_id=self.id_format.build(table_id=table_id, preference=preference),
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
            )
        )
        self.table_id, self.preference = table_id, preference

    async def act(self, interaction, service, reply):
        preference = prompt_preference(self.preference)  # the template admits only today's names
        await service.set_prompts(self.table_id, interaction.user.id, preference)
        await reply.send(tr(user_locale(interaction), PREFERENCES[preference][1]))


SPECIAL_ITEMS = (ChoiceButton, ChoiceSelect, DecideButton, DeclineButton, SwapButton, PreferenceButton)


# -- what a click on a choice does ---------------------------------------------------------------


async def act_on_choice(reply: Reply, service: TableService, table_id: int, step: int, code: str) -> None:
    interaction = reply.interaction
    kind, *parts = code.split(":")
    locale = user_locale(interaction)
    if kind == "w":
        await service.decline_special(table_id, interaction.user.id, step, then_swap=parts[0])
        await reply.edit(
            view=None,
            content=tr(
                locale,
                "You play no special card and swap a **{card}** for the top card of the special deck. "
                "See the channel for what happens.",
                card=label(parts[0], locale),
            ),
        )
        return
    if kind == "p":
        special, row, card, target, position = (parts + ["-"] * 5)[:5]
        await service.play_special(
            table_id,
            interaction.user.id,
            step,
            special,
            row=_number(row),
            card=_number(card),
            target_row=_number(target),
            position=_number(position),
        )
        await reply.edit(
            view=None,
            content=tr(locale, "You played **{card}**. See the channel for what happens.", card=label(special, locale)),
        )
        return
    prompt = service.special_prompt(table_id, interaction.user.id, step)
    what = parts[0] if parts else "menu"
    if what == "menu":
        await reply.edit(content=prompt_text(prompt, prompt.table.deadline, locale), view=prompt_view(prompt, locale))
        return
    if what not in Special._value2member_map_ or prompt.phase is not Phase.SPECIAL:
        await reply.error(tr(locale, "That choice does not exist."))
        return
    special = Special(what)
    shifted = (_number(parts[1]), _number(parts[2])) if special is Special.SHIFT and len(parts) == 3 else None
    choices = kind_choices(prompt, special, locale, shifted)
    if not choices:
        await reply.error(tr(locale, "You cannot play **{card}** like that now.", card=label(special, locale)))
        return
    text = kind_prompt_text(special, locale, shifted[1] if shifted else None)
    await reply.edit(content=text, view=choices_view(prompt, choices, locale))


# -- views --------------------------------------------------------------------------------------


def _rows(prompt: SpecialPrompt) -> list[tuple[int, ...]]:
    return [r.cards for r in prompt.view.rows]


def choice_label(prompt: SpecialPrompt, play, locale) -> str:
    """A play's label with its consequence for the decider."""
    if prompt.preview is None:  # a swap offer: its buttons name the cards, nothing is labelled here
        raise ValueError("a swap offer has no special plays to label")
    outcome = prompt.outlook.outcome_of(play) if prompt.outlook is not None else None
    return option_label(play_label(play, _rows(prompt), prompt.preview.card, locale), outcome, locale)


def kind_choices(
    prompt: SpecialPrompt, special: Special, locale, shifted: tuple[int | None, int | None] | None = None
) -> list[tuple[str, str]]:
    """(label, code) for each legal way to play ``special``.

    Every choice is one click away (Shift's card and target together) unless there are
    more than the selects hold: then a Shift first picks its card.
    """
    plays = [p for p in prompt.plays if isinstance(p, PlaySpecial) and p.special is special]
    if special is Special.SHIFT and shifted is None and len(plays) > MAX_CHOICES:
        # a Shift names the card it moves and that card's row
        sources = dict.fromkeys((p.row, p.card) for p in plays if p.row is not None and p.card is not None)
        return [(shift_source_label(r, c, locale), f"m:shift:{r}:{c}") for r, c in sources]
    if shifted is not None:
        plays = [p for p in plays if (p.row, p.card) == shifted]
    return [(choice_label(prompt, p, locale), play_code(p)) for p in plays]


def _add_preferences(view: discord.ui.View, table_id: int, current: str, row: int, locale) -> None:
    for preference in PREFERENCES:
        view.add_item(PreferenceButton(table_id, preference, current == preference, row=row, locale=locale))


def prompt_view(prompt: SpecialPrompt, locale) -> discord.ui.View:
    """The top of the prompt: one button per special card that can be played, the decline, the preference."""
    table_id, step = prompt.table.id, prompt.table.step
    view = item_view()
    held = counted(prompt.view.specials)
    if prompt.phase is Phase.SWAP:
        for i, play in enumerate(prompt.plays):
            view.add_item(
                SwapButton(
                    table_id, step, play.special.value, row=i // 5, locale=locale, count=held.get(play.special, 1)
                )
            )
        view.add_item(DeclineButton(table_id, step, Phase.SWAP, row=2, locale=locale))
    else:
        by_kind: dict[Special, list] = {}
        for play in prompt.plays:
            by_kind.setdefault(play.special, []).append(play)
        for i, (special, plays) in enumerate(by_kind.items()):
            if len(plays) == 1:  # nothing to choose: the button plays it
                code, text = play_code(plays[0]), choice_label(prompt, plays[0], locale)
            else:
                times = f" ×{held[special]}" if held.get(special, 1) > 1 else ""
                code, text = f"m:{special.value}", f"{label(special, locale)}{times}…"
            view.add_item(
                ChoiceButton(table_id, step, code, text, discord.ButtonStyle.primary, EMOJI[special], row=i // 5)
            )
        decline = prompt.outlook.decline if prompt.outlook is not None else None
        view.add_item(DeclineButton(table_id, step, Phase.SPECIAL, row=2, locale=locale, outcome=decline))
        if decline is not None and decline.swap_offered and not decline.row_choice:
            # Declining takes a row, and a swap follows: answer both at once, not in two pauses.
            for special in list(held)[:4]:
                # Translators: the first part of a button label (at most 60 characters); {card} is a special card's
                # name.
                text = tr(locale, "No special card, then swap {card}", card=label(special, locale))
                view.add_item(
                    ChoiceButton(
                        table_id,
                        step,
                        f"w:{special.value}",
                        option_label(text, decline, locale),
                        discord.ButtonStyle.success,
                        row=2,
                    )
                )
    _add_preferences(view, table_id, prompt.table.seats[prompt.seat].prompts, 3, locale)
    return view


def choices_view(prompt: SpecialPrompt, choices: list[tuple[str, str]], locale) -> discord.ui.View:
    """One special card's choices (buttons, or selects when there are many), then Back / decline."""
    table_id, step = prompt.table.id, prompt.table.step
    view = item_view()
    if len(choices) <= MAX_CHOICE_BUTTONS:
        for i, (text, code) in enumerate(choices):
            view.add_item(ChoiceButton(table_id, step, code, text, row=i // 5))
    else:
        for page in range(0, min(len(choices), MAX_CHOICES), SELECT_SIZE):
            view.add_item(
                ChoiceSelect(
                    table_id,
                    step,
                    page // SELECT_SIZE,
                    choices[page : page + SELECT_SIZE],
                    row=page // SELECT_SIZE,
                    locale=locale,
                )
            )
    # Translators: a button label (at most 80 characters).
    view.add_item(ChoiceButton(table_id, step, "m:menu", tr(locale, "Back"), row=4))
    decline = prompt.outlook.decline if prompt.outlook is not None else None
    view.add_item(DeclineButton(table_id, step, Phase.SPECIAL, row=4, locale=locale, outcome=decline))
    return view


def preference_view(table_id: int, current: str, locale, view: discord.ui.View | None = None) -> discord.ui.View:
    """Adds the preference buttons to ``view`` (an Anniversary hand) on its last row."""
    view = view or item_view()
    _add_preferences(view, table_id, current, 4, locale)
    return view
