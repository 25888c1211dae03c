"""Words for the Anniversary variant: special-card reminders, prompts, choices and narration.

Pure functions of the engine's views, actions and events (nothing here decides
a rule). A hand's special cards are only ever shown to their owner: the
public texts use counts and the cards already played face up.
"""

from __future__ import annotations

from cogs.i18n import N_, join, number, tr, trn
from engine import CardPlaced, Phase, Special
from engine.anniversary import (
    BullheadsCancelled,
    CardInserted,
    CardReplaced,
    CardShifted,
    FifthRowClosed,
    FifthRowOpened,
    SevenNimmtPlaced,
    SevenNimmtRemoved,
    SpecialDeckReshuffled,
    SpecialPlayed,
    SpecialsDealt,
    SpecialSwapped,
    StopPlaced,
    StopsRemoved,
)

BULL = "🐮"

EMOJI = {
    Special.FIFTH_ROW: "➕",
    Special.SEVEN_NIMMT: "7️⃣",
    Special.INSERT: "📥",
    Special.REPLACE: "🔁",
    Special.SHIFT: "↔️",
    Special.STOP: "⛔",
    Special.NEGATIVE_POSITIVE: "➖",
}

#: The names printed on the cards (each catalog's header says where its names come from).
NAMES = {
    # Translators: a special card's name as printed in your language's edition of the game
    # (name its source in the header).
    Special.FIFTH_ROW: N_("5th Row"),
    # Translators: a special card's name as printed in your language's edition of the game
    # (name its source in the header).
    Special.SEVEN_NIMMT: N_("7 nimmt!"),
    # Translators: a special card's name as printed in your language's edition of the game
    # (name its source in the header).
    Special.INSERT: N_("Insert"),
    # Translators: a special card's name as printed in your language's edition of the game
    # (name its source in the header).
    Special.REPLACE: N_("Replace"),
    # Translators: a special card's name as printed in your language's edition of the game
    # (name its source in the header).
    Special.SHIFT: N_("Shift"),
    # Translators: a special card's name as printed in your language's edition of the game
    # (name its source in the header).
    Special.STOP: N_("Stop"),
    # Translators: a special card's name as printed in your language's edition of the game
    # (name its source in the header).
    Special.NEGATIVE_POSITIVE: N_("Negative = Positive"),
}

REMINDERS = {
    Special.FIFTH_ROW: N_("your card starts a fifth row (until the next row is taken)"),
    Special.SEVEN_NIMMT: N_("your card's row holds six cards: the seventh takes it"),
    Special.INSERT: N_("put your card anywhere a row stays in ascending order"),
    Special.REPLACE: N_("place another card from your hand instead"),
    Special.SHIFT: N_("first move one card of the table to another row"),
    Special.STOP: N_("block a row: nothing goes in or out until a row is taken"),
    Special.NEGATIVE_POSITIVE: N_("when you take a row, one card's bullheads cancel others in your pile"),
}

#: Row markers as the engine's view names them → how the table shows them.
MARKER_LABELS = {
    "stop": NAMES[Special.STOP],
    "seven_nimmt": NAMES[Special.SEVEN_NIMMT],
    "fifth_row": NAMES[Special.FIFTH_ROW],
}
#: … and as ``cogs.images`` draws them.
IMAGE_MARKERS = {"stop": "stop", "seven_nimmt": "seven", "fifth_row": "fifth"}


def label(special, locale) -> str:
    """A special card's name in ``locale``."""
    return tr(locale, NAMES[Special(special)])


def counted(specials) -> dict[Special, int]:
    """How many of each kind a hand of special cards holds, in the hand's order."""
    counts: dict[Special, int] = {}
    for s in specials:
        counts[Special(s)] = counts.get(Special(s), 0) + 1
    return counts


def specials_text(specials, locale) -> str:
    """The owner's special cards with a one-line reminder each, a kind held twice once (ephemeral only)."""
    if not specials:
        return tr(locale, "You hold no special cards.")
    lines = [tr(locale, "**Your special cards** (played when your card is about to be placed):")]
    for s, count in counted(specials).items():
        times = f" ×{count}" if count > 1 else ""
        lines.append(f"{EMOJI[s]} **{label(s, locale)}**{times} — {tr(locale, REMINDERS[s])}")
    return "\n".join(lines)


def new_round_text(view, locale) -> str:
    """Round 2's first hand says that new special cards came (which ones only the hand shows)."""
    if view.round > 1 and view.turn == 1:
        return "\n" + tr(
            locale,
            "🎴 **Round {round}**: new number cards, and you drew new special cards to go with the ones you kept.",
            round=view.round,
        )
    return ""


def preview_text(preview, locale) -> str:
    """``Without a special card your 23 goes to row 4 and you take it: 9🐮.``"""
    card = preview.card
    if preview.row is None:
        return tr(
            locale,
            "Without a special card your **{card}** is lower than every open row: you choose a row "
            "to take (the cheapest costs {points}{bull}).",
            card=card,
            points=preview.bullheads,
            bull=BULL,
        )
    if preview.takes:
        return tr(
            locale,
            "Without a special card your **{card}** goes to row {row} and you take it: **{points}**{bull}.",
            card=card,
            row=preview.row + 1,
            points=preview.bullheads,
            bull=BULL,
        )
    return tr(locale, "Without a special card your **{card}** goes to row {row}.", card=card, row=preview.row + 1)


def prompt_text(prompt, deadline: float | None, locale) -> str:
    """The decider's ephemeral prompt: what happens without a special card, then the choice."""
    when = ""
    if deadline:
        when = " " + tr(locale, "Time runs out {when}: then no special card is played.", when=f"<t:{int(deadline)}:R>")
    if prompt.phase is Phase.SWAP:
        return (
            tr(locale, "**You took a row**: you may swap one special card for the top card of the special deck.")
            + f"{when}\n\n{specials_text(prompt.view.specials, locale)}"
        )
    return (
        f"{preview_text(prompt.preview, locale)}\n"
        + tr(locale, "Play a special card on it, or press **No special card**.")
        + f"{when}\n\n{specials_text(prompt.view.specials, locale)}"
    )


def _place(row: tuple[int, ...], position: int, locale) -> str:
    if position == 0:
        # Translators: fills {place} of "Insert into row {row} {place}" (at most 20 characters).
        return tr(locale, "at the start")
    if position >= len(row):
        # Translators: fills {place} of "Insert into row {row} {place}" (at most 20 characters).
        return tr(locale, "at the end")
    # Translators: fills {place} of "Insert into row {row} {place}" (at most 20 characters).
    return tr(locale, "between {low} and {high}", low=row[position - 1], high=row[position])


def play_label(play, rows, card: int, locale) -> str:
    """A button label for one fully chosen special play (``rows``: the rows' cards now)."""
    kind = Special(play.special)
    if kind is Special.FIFTH_ROW:
        # Translators: the first part of a button label or select option (at most 46 characters); what it leads to
        # follows (a label over 80 characters in all is cut).
        return tr(locale, "5th Row: {card} starts row {row}", card=card, row=len(rows) + 1)
    if kind is Special.SEVEN_NIMMT:
        # Translators: the first part of a button label or select option (at most 46 characters); what it leads to
        # follows (a label over 80 characters in all is cut).
        return tr(locale, "7 nimmt! on row {row}", row=play.row + 1)
    if kind is Special.INSERT:
        # Translators: the first part of a button label or select option (at most 46 characters); what it leads to
        # follows (a label over 80 characters in all is cut).
        return tr(
            locale,
            "Insert into row {row} {place}",
            row=play.row + 1,
            place=_place(rows[play.row], play.position, locale),
        )
    if kind is Special.REPLACE:
        # Translators: the first part of a button label or select option (at most 46 characters); what it leads to
        # follows (a label over 80 characters in all is cut).
        return tr(locale, "Place {card} instead", card=play.card)
    if kind is Special.SHIFT:
        # Translators: the first part of a button label or select option (at most 46 characters); what it leads to
        # follows (a label over 80 characters in all is cut).
        return tr(locale, "Move {card} to row {row}", card=play.card, row=play.target_row + 1)
    if kind is Special.STOP:
        # Translators: the first part of a button label or select option (at most 46 characters); what it leads to
        # follows (a label over 80 characters in all is cut).
        return tr(locale, "Stop on row {row}", row=play.row + 1)
    # Translators: the first part of a button label or select option (at most 46 characters); what it leads to follows
    # (a label over 80 characters in all is cut).
    return tr(locale, "Take row {row}, cancel with {card}", row=play.row + 1, card=play.card)


def consequence_text(outcome, locale) -> str:
    """What an answer leads to for its player: ``take row 2 — 🐮 7``, ``43 in row 3 — no take``."""
    if outcome.row_choice:
        # Translators: the second part of a button label or select option (at most 40 characters): what a choice leads
        # to.
        return tr(locale, "you choose a row to take — {bull} {points} at best", points=outcome.bullheads, bull=BULL)
    if outcome.taken_row is not None:
        # Translators: the second part of a button label or select option (at most 40 characters): what a choice leads
        # to.
        return tr(
            locale, "take row {row} — {bull} {points}", row=outcome.taken_row + 1, points=outcome.bullheads, bull=BULL
        )
    if outcome.placed is not None:
        card, row = outcome.placed
        # Translators: the second part of a button label or select option (at most 40 characters): what a choice leads
        # to.
        return tr(locale, "{card} in row {row} — no take", card=card, row=row + 1)
    # Translators: the second part of a button label or select option (at most 40 characters): what a choice leads to.
    return tr(locale, "no take")


def option_label(text: str, outcome, locale) -> str:
    """A choice's label followed by its consequence (when the outlook knows it)."""
    return text if outcome is None else f"{text} → {consequence_text(outcome, locale)}"


def shift_source_label(row: int, card: int, locale) -> str:
    # Translators: a select option (at most 100 characters).
    return tr(locale, "Move {card} (row {row})", card=card, row=row + 1)


def kind_prompt_text(kind: Special, locale, shifted: int | None = None) -> str:
    if shifted is not None:
        return tr(locale, "**{name}**: where does the **{card}** go?", name=label(kind, locale), card=shifted)
    if kind is Special.SHIFT:
        return tr(locale, "**{name}**: which card do you move first?", name=label(kind, locale))
    return tr(locale, "**{name}**: {reminder}. Choose:", name=label(kind, locale), reminder=tr(locale, REMINDERS[kind]))


# -- narration of the reveal (public) ---------------------------------------------------


def _effect(event, locale) -> str | None:
    """How a special card's effect event finishes the sentence ``X plays **Card**…``."""
    if isinstance(event, StopPlaced):
        return tr(locale, " on row {row}", row=event.row + 1)
    if isinstance(event, SevenNimmtPlaced):
        return tr(locale, " on row {row}: it now holds six cards", row=event.row + 1)
    if isinstance(event, FifthRowOpened):
        return tr(locale, ": {card} starts row {row}", card=event.card, row=event.row + 1)
    if isinstance(event, CardInserted):
        return tr(
            locale,
            ": {card} goes into row {row} at place {place}",
            card=event.card,
            row=event.row + 1,
            place=event.position + 1,
        )
    if isinstance(event, CardReplaced):
        return tr(
            locale,
            ": {card} goes back to the hand, {replacement} is placed instead",
            card=event.card,
            replacement=event.replacement,
        )
    if isinstance(event, CardShifted):
        return tr(
            locale,
            ": {card} moves from row {source} to row {target}",
            card=event.card,
            source=event.from_row + 1,
            target=event.to_row + 1,
        )
    return None


def narrate_special(events: list, i: int, name, locale) -> tuple[str | None, int]:
    """The line for ``events[i]`` if it is an Anniversary event, and how many events it used.

    ``name(seat)`` gives a player's name. ``SpecialPlayed`` is told together with
    its effect (and the played card's placement right after it), e.g.
    ``Frauke plays **Stop** on row 1, then places 22 in row 2``. Pauses and
    declines are not narrated (a decline says nothing the table needs).
    """
    event = events[i]
    if isinstance(event, SpecialPlayed):
        text = tr(locale, "✨ {name} plays **{card}**", name=name(event.player), card=label(event.special, locale))
        used = 1
        effect = _effect(events[i + 1], locale) if i + 1 < len(events) else None
        if effect is None:
            text += tr(locale, " with {card}", card=event.card)
        else:
            text += effect
            used = 2
            after = events[i + 2] if i + 2 < len(events) else None
            if isinstance(after, CardPlaced) and after.player == event.player:
                text += tr(locale, ", then places {card} in row {row}", card=after.card, row=after.row + 1)
                used = 3
        # Translators: the end of a special card's narration, a sentence built from the parts above
        # ("✨ {name} plays …", an effect, ", then places …"): your language's full stop after it.
        return tr(locale, "{sentence}.", sentence=text), used
    if isinstance(event, BullheadsCancelled):
        cancelled = join(locale, [str(c) for c in event.cancelled_cards]) or tr(locale, "nothing")
        return tr(
            locale,
            "➖ {name}'s {card} cancels {cancelled} from their pile (−{points}{bull}, and the "
            "{card} itself is set aside).",
            name=name(event.player),
            card=event.card,
            cancelled=cancelled,
            points=event.points,
            bull=BULL,
        ), 1
    if isinstance(event, FifthRowClosed):
        return tr(
            locale,
            "🧹 {name} also takes the {card} and row {row} is gone: four rows again, the 5th Row card is discarded.",
            name=name(event.player),
            card=event.card,
            row=event.row + 1,
        ), 1
    if isinstance(event, StopsRemoved):
        rows = join(locale, [str(r + 1) for r in event.rows])
        return "  " + trn(
            locale,
            "The Stop on row {rows} is discarded.",
            "The Stops on rows {rows} are discarded.",
            len(event.rows),
            rows=rows,
        ), 1
    if isinstance(event, SevenNimmtRemoved):
        return "  " + tr(locale, "The 7 nimmt! on row {row} is discarded.", row=event.row + 1), 1
    if isinstance(event, SpecialSwapped):
        # Translators: {card} is a special card's name (Stop, Shift, ...): no article that needs its gender;
        # e.g. "a special card (**{card}**)". The deck is the special cards' deck.
        return tr(
            locale,
            "🔄 {name} swaps a **{card}** for the top card of the deck.",
            name=name(event.player),
            card=label(event.special, locale),
        ), 1
    if isinstance(event, SpecialsDealt):
        count = max(event.counts) if event.counts else 0
        return trn(
            locale,
            "🎴 Everyone draws {count} special card (press **Play a card** to see yours).",
            "🎴 Everyone draws {count} special cards (press **Play a card** to see yours).",
            count,
            count=count,
        ), 1
    if isinstance(event, SpecialDeckReshuffled):
        return trn(
            locale,
            "🔀 The special discard pile is shuffled into a new deck ({size} card).",
            "🔀 The special discard pile is shuffled into a new deck ({size} cards).",
            event.size,
            size=number(locale, event.size),
        ), 1
    if isinstance(event, (StopPlaced, SevenNimmtPlaced, FifthRowOpened, CardInserted, CardReplaced, CardShifted)):
        return None, 1  # told with its SpecialPlayed
    return None, 0


def waiting_line(table, mention, locale) -> str | None:
    """The public nudge for the player a special-card or swap decision waits on (it pings them)."""
    if table.game is None:
        return None
    view = table.game.view(None)
    if view.phase is not Phase.SPECIAL and view.phase is not Phase.SWAP:
        return None
    who = mention(view.decider)
    if view.phase is Phase.SWAP:
        return tr(
            locale, "🔄 {name}: you took a row — press **Decide** to swap a special card or keep yours.", name=who
        )
    return tr(
        locale,
        "✨ {name}: your **{card}** is next — press **Decide** to play a special card or not.",
        name=who,
        card=view.special_card,
    )
