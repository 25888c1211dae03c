"""Words for the Anniversary variant: special-card reminders, prompts, choices and narration.

Pure functions of the engine's views, actions and events (nothing here decides
a rule). A hand's special cards are only ever shown to their owner: the
public texts use counts and the cards already played face up.
"""

from __future__ import annotations

from engine import CardPlaced, Phase, Special
from engine.anniversary import (
    BullheadsCancelled, CardInserted, CardReplaced, CardShifted, FifthRowClosed, FifthRowOpened,
    SevenNimmtPlaced, SevenNimmtRemoved, SpecialDeckReshuffled, SpecialPlayed, SpecialsDealt,
    SpecialSwapped, StopPlaced, StopsRemoved,
)

BULL = "🐮"

EMOJI = {
    Special.FIFTH_ROW: "➕", Special.SEVEN_NIMMT: "7️⃣", Special.INSERT: "📥", Special.REPLACE: "🔁",
    Special.SHIFT: "↔️", Special.STOP: "⛔", Special.NEGATIVE_POSITIVE: "➖",
}

REMINDERS = {
    Special.FIFTH_ROW: "your card starts a fifth row (until the next row is taken)",
    Special.SEVEN_NIMMT: "your card's row holds six cards: the seventh takes it",
    Special.INSERT: "put your card anywhere a row stays in ascending order",
    Special.REPLACE: "place another card from your hand instead",
    Special.SHIFT: "first move one card of the table to another row",
    Special.STOP: "block a row: nothing goes in or out until a row is taken",
    Special.NEGATIVE_POSITIVE: "when you take a row, one card's bullheads cancel others in your pile",
}

#: Row markers as the engine's view names them → how the table shows them.
MARKER_LABELS = {"stop": "Stop", "seven_nimmt": "7 nimmt!", "fifth_row": "5th Row"}
#: … and as ``cogs.images`` draws them.
IMAGE_MARKERS = {"stop": "stop", "seven_nimmt": "seven", "fifth_row": "fifth"}


def label(special) -> str:
    return Special(special).label


def specials_text(specials) -> str:
    """The owner's special cards with a one-line reminder each (ephemeral only)."""
    if not specials:
        return "You hold no special cards."
    lines = ["**Your special cards** (played when your card is about to be placed):"]
    for s in specials:
        s = Special(s)
        lines.append(f"{EMOJI[s]} **{s.label}** — {REMINDERS[s]}")
    return "\n".join(lines)


def new_round_text(view) -> str:
    """Round 2's first hand says that new special cards came (which ones only the hand shows)."""
    if view.round > 1 and view.turn == 1:
        return (f"\n🎴 **Round {view.round}**: new number cards, and you drew new special cards "
                "to go with the ones you kept.")
    return ""


def preview_text(preview) -> str:
    """``Without a special card your 23 goes to row 4 and you take it: 9🐮.``"""
    card = preview.card
    if preview.row is None:
        return (f"Without a special card your **{card}** is lower than every open row: you choose a row "
                f"to take (the cheapest costs {preview.bullheads}{BULL}).")
    if preview.takes:
        return (f"Without a special card your **{card}** goes to row {preview.row + 1} and you take it: "
                f"**{preview.bullheads}**{BULL}.")
    return f"Without a special card your **{card}** goes to row {preview.row + 1}."


def prompt_text(prompt, deadline: float | None) -> str:
    """The decider's ephemeral prompt: what happens without a special card, then the choice."""
    when = f" Time runs out <t:{int(deadline)}:R>: then no special card is played." if deadline else ""
    if prompt.phase is Phase.SWAP:
        return ("**You took a row**: you may swap one special card for the top card of the special deck."
                f"{when}\n\n{specials_text(prompt.view.specials)}")
    return (f"{preview_text(prompt.preview)}\n"
            f"Play a special card on it, or press **No special card**.{when}\n\n"
            f"{specials_text(prompt.view.specials)}")


def _place(row: tuple[int, ...], position: int) -> str:
    if position == 0:
        return "at the start"
    if position >= len(row):
        return "at the end"
    return f"between {row[position - 1]} and {row[position]}"


def play_label(play, rows, card: int) -> str:
    """A button label for one fully chosen special play (``rows``: the rows' cards now)."""
    kind = Special(play.special)
    if kind is Special.FIFTH_ROW:
        return f"5th Row: {card} starts row {len(rows) + 1}"
    if kind is Special.SEVEN_NIMMT:
        return f"7 nimmt! on row {play.row + 1}"
    if kind is Special.INSERT:
        return f"Insert into row {play.row + 1} {_place(rows[play.row], play.position)}"
    if kind is Special.REPLACE:
        return f"Place {play.card} instead"
    if kind is Special.SHIFT:
        return f"Move {play.card} to row {play.target_row + 1}"
    if kind is Special.STOP:
        return f"Stop on row {play.row + 1}"
    return f"Take row {play.row + 1}, cancel with {play.card}"


def shift_source_label(row: int, card: int) -> str:
    return f"Move {card} (row {row + 1})"


def kind_prompt_text(kind: Special, shifted: int | None = None) -> str:
    if shifted is not None:
        return f"**Shift**: where does the **{shifted}** go?"
    if kind is Special.SHIFT:
        return "**Shift**: which card do you move first?"
    return f"**{kind.label}**: {REMINDERS[kind]}. Choose:"


# -- narration of the reveal (public) ---------------------------------------------------


def _effect(event) -> str | None:
    """How a special card's effect event finishes the sentence ``X plays **Card**…``."""
    if isinstance(event, StopPlaced):
        return f" on row {event.row + 1}"
    if isinstance(event, SevenNimmtPlaced):
        return f" on row {event.row + 1}: it now holds six cards"
    if isinstance(event, FifthRowOpened):
        return f": {event.card} starts row {event.row + 1}"
    if isinstance(event, CardInserted):
        return f": {event.card} goes into row {event.row + 1} at place {event.position + 1}"
    if isinstance(event, CardReplaced):
        return f": {event.card} goes back to the hand, {event.replacement} is placed instead"
    if isinstance(event, CardShifted):
        return f": {event.card} moves from row {event.from_row + 1} to row {event.to_row + 1}"
    return None


def narrate_special(events: list, i: int, name) -> tuple[str | None, int]:
    """The line for ``events[i]`` if it is an Anniversary event, and how many events it used.

    ``name(seat)`` gives a player's name. ``SpecialPlayed`` is told together with
    its effect (and the played card's placement right after it), e.g.
    ``Frauke plays **Stop** on row 1, then places 22 in row 2``. Pauses and
    declines are not narrated (a decline says nothing the table needs).
    """
    event = events[i]
    if isinstance(event, SpecialPlayed):
        text = f"✨ {name(event.player)} plays **{label(event.special)}**"
        used = 1
        effect = _effect(events[i + 1]) if i + 1 < len(events) else None
        if effect is None:
            text += f" with {event.card}"
        else:
            text += effect
            used = 2
            after = events[i + 2] if i + 2 < len(events) else None
            if isinstance(after, CardPlaced) and after.player == event.player:
                text += f", then places {after.card} in row {after.row + 1}"
                used = 3
        return text + ".", used
    if isinstance(event, BullheadsCancelled):
        cancelled = ", ".join(str(c) for c in event.cancelled_cards) or "nothing"
        return (f"➖ {name(event.player)}'s {event.card} cancels {cancelled} from their pile "
                f"(−{event.points}{BULL}, and the {event.card} itself is set aside)."), 1
    if isinstance(event, FifthRowClosed):
        return (f"🧹 {name(event.player)} also takes the {event.card} and row {event.row + 1} is gone: "
                "four rows again, the 5th Row card is discarded."), 1
    if isinstance(event, StopsRemoved):
        rows = ", ".join(str(r + 1) for r in event.rows)
        return f"  The Stop{'s' if len(event.rows) > 1 else ''} on row {rows} {'are' if len(event.rows) > 1 else 'is'} discarded.", 1
    if isinstance(event, SevenNimmtRemoved):
        return f"  The 7 nimmt! on row {event.row + 1} is discarded.", 1
    if isinstance(event, SpecialSwapped):
        return f"🔄 {name(event.player)} swaps a **{label(event.special)}** for the top card of the deck.", 1
    if isinstance(event, SpecialsDealt):
        count = max(event.counts) if event.counts else 0
        return (f"🎴 Everyone draws {count} special card{'s' if count != 1 else ''} "
                "(press **Play a card** to see yours)."), 1
    if isinstance(event, SpecialDeckReshuffled):
        return f"🔀 The special discard pile is shuffled into a new deck ({event.size} cards).", 1
    if isinstance(event, (StopPlaced, SevenNimmtPlaced, FifthRowOpened, CardInserted, CardReplaced,
                          CardShifted)):
        return None, 1  # told with its SpecialPlayed
    return None, 0


def waiting_line(table, mention) -> str | None:
    """The public nudge for the player a special-card or swap decision waits on (it pings them)."""
    game = table.game
    if game is None or game.phase not in (Phase.SPECIAL, Phase.SWAP):
        return None
    who = mention(game.decider)
    if game.phase is Phase.SWAP:
        return f"🔄 {who}: you took a row — press **Decide** to swap a special card or keep yours."
    return (f"✨ {who}: your **{game.special_card}** is next — press **Decide** to play a special card "
            "or not.")
