"""Text and embeds for tables: what the channel and each player read.

Pure functions of the table, a view and the engine's events, so the same
words serve the embed, screen readers and tests. Nothing here decides a rule:
events already say where every card went and who took what.
"""

from __future__ import annotations

import discord

from bot.table import Table, TableStatus
from engine import (
    BULLHEADS, CardPlaced, CardsRevealed, GameEnded, RoundEnded, RowChoiceRequired, RowTaken,
    TakeReason, Variant,
)

from .special_text import MARKER_LABELS, label, narrate_special

BULL = "🐮"
GREEN = discord.Colour(0x2E7D32)

VARIANT_NAMES = {
    Variant.CLASSIC: "Classic",
    Variant.PRO: "Pro (drafted hands)",
    Variant.ANNIVERSARY: "Anniversary (special cards)",
}


def card_label(card: int) -> str:
    """``55 · 7🐮``: the number and its bullheads, as on a button."""
    return f"{card} · {BULLHEADS[card]}{BULL}"


def row_cost(cards) -> int:
    return sum(BULLHEADS[c] for c in cards)


def seat_name(table: Table, seat: int) -> str:
    s = table.seats[seat]
    if s.user_id is not None and not s.is_ai:
        return f"<@{s.user_id}>"
    return s.name if s.user_id is None else f"{s.name} (AI)"


def plain_name(table: Table, seat: int) -> str:
    return table.seats[seat].name


def limits_text(table: Table) -> str:
    o = table.options
    goal = []
    if o.target is not None:
        goal.append(f"first to {o.target} points ends it")
    if o.rounds is not None:
        goal.append(f"{o.rounds} round{'s' if o.rounds != 1 else ''}")
    return (f"{VARIANT_NAMES[o.variant]} · {o.min_players}–{o.max_players} players · "
            f"{' or '.join(goal)} · {o.turn_seconds}s per turn"
            + (f", {o.special_seconds}s for a special card" if o.variant is Variant.ANNIVERSARY else ""))


def lobby_embed(table: Table) -> discord.Embed:
    seats = "\n".join(
        f"{i + 1}. {seat_name(table, i)}{' 👑' if s.user_id == table.host_id and not s.is_ai else ''}"
        + (f" · {s.ai_level}" if s.is_ai else "")
        for i, s in enumerate(table.seats)
    )
    embed = discord.Embed(title="6 nimmt! — table open", colour=GREEN, description=limits_text(table))
    embed.add_field(name=f"Players ({len(table.seats)}/{table.options.max_players})", value=seats or "—", inline=False)
    if table.status is TableStatus.LOBBY and table.deadline:
        embed.add_field(name="Closes", value=f"<t:{int(table.deadline)}:R> unless the host starts", inline=False)
    elif table.status is TableStatus.PLAYING:
        embed.set_footer(text="The game has started.")
    elif table.status is TableStatus.CANCELLED:
        embed.set_footer(text="This table is closed.")
    return embed


def rows_lines(rows, markers=None) -> list[str]:
    """One line per row; ``markers[i]``: the Anniversary markers on row ``i`` (view names)."""
    lines = []
    for i, row in enumerate(rows):
        shown = [MARKER_LABELS.get(m, m) for m in markers[i]] if markers else []
        mark = f" [{', '.join(shown)}]" if shown else ""
        cards = " ".join(f"{c:>3}" for c in row)
        lines.append(f"Row {i + 1} · {row_cost(row):>2}{BULL}{mark} │{cards}")
    return lines


def table_embed(table: Table, notices: list[str] | None = None) -> discord.Embed:
    game = table.game
    view = game.view(None)
    title = f"6 nimmt! — round {view.round}"
    if view.phase != "draft":
        title += f", turn {view.turn}"
    embed = discord.Embed(title=title, colour=GREEN)
    markers = getattr(view, "row_markers", None)  # the Anniversary view's
    if view.rows:
        embed.description = "```\n" + "\n".join(rows_lines([r.cards for r in view.rows], markers)) + "\n```"
    else:
        embed.description = "The rows are laid when the draft is over."
    players = []
    for i, seat in enumerate(table.seats):
        if view.phase == "pick":
            status = "✅" if view.picked[i] else "⏳"
        elif i in view.waiting_for:
            status = "🤔"
        else:
            status = "·"
        held = f" · 🎴×{view.special_counts[i]}" if markers is not None else ""
        players.append(f"{status} {seat_name(table, i)} — **{view.scores[i]}**{BULL}{held}")
    embed.add_field(name="Players (points)", value="\n".join(players), inline=False)
    if markers is not None:
        discard = ", ".join(label(s) for s in view.special_discard) or "empty"
        embed.add_field(name="Special cards",
                        value=f"Deck: {view.special_deck_size} · discard pile: {discard}"[:1024], inline=False)
    embed.add_field(name="Now", value=phase_text(table), inline=False)
    if notices:
        embed.add_field(name="News", value="\n".join(notices)[:1024], inline=False)
    embed.set_footer(text=limits_text(table))
    return embed


def phase_text(table: Table) -> str:
    game = table.game
    when = f" — time runs out <t:{int(table.deadline)}:R>" if table.deadline else ""
    if game.phase.value == "pick":
        return "Everyone picks a card face down: press **Play a card**" + when
    if game.phase.value == "choose_row":
        card = game.pending[-1][0]
        return f"{seat_name(table, game.chooser)}'s **{card}** fits no row: they choose a row to take" + when
    if game.phase.value == "draft":
        left = len(game.draft_pool)
        return f"Draft: {seat_name(table, game.drafter)} takes a face-up card ({left} left)" + when
    if game.phase.value == "special":
        return (f"{seat_name(table, game.decider)} may play a special card on their **{game.special_card}**: "
                "they press **Decide**" + when)
    if game.phase.value == "swap":
        return f"{seat_name(table, game.decider)} took a row and may swap a special card: they press **Decide**" + when
    return "Waiting" + when


def reveal_text(table: Table, events: list) -> str:
    """One message's worth of what happened: reveal, placements, takes, round and game ends."""
    lines: list[str] = []
    i = 0
    while i < len(events):
        event = events[i]
        special, used = narrate_special(events, i, lambda p: plain_name(table, p))
        if used:
            if special:
                lines.append(special)
            i += used
            continue
        i += 1
        if isinstance(event, CardsRevealed):
            shown = ", ".join(f"**{c}** {plain_name(table, p)}" for c, p in event.cards)
            lines.append(f"🃏 Revealed: {shown}")
        elif isinstance(event, RowTaken):
            # A 7 nimmt! row is taken by its seventh card: "full row" fits every variant.
            why = "full row" if event.reason is TakeReason.FULL_ROW else "low card"
            cards = " ".join(str(c) for c in event.cards)
            lines.append(f"🐂 {plain_name(table, event.player)} takes row {event.row + 1} ({why}): "
                         f"{cards} — **{event.bullheads}**{BULL}")
        elif isinstance(event, CardPlaced):
            lines.append(f"  {event.card} → row {event.row + 1}")
        elif isinstance(event, RowChoiceRequired):
            lines.append(f"⚠️ {seat_name(table, event.player)}'s **{event.card}** is lower than every row: "
                         "they choose a row to take.")
        elif isinstance(event, RoundEnded):
            lines.append(round_summary(table, event))
        elif isinstance(event, GameEnded):
            lines.append(final_standings(table, event))
    return "\n".join(lines)


def round_summary(table: Table, event: RoundEnded) -> str:
    order = sorted(range(len(event.totals)), key=lambda p: event.totals[p])
    lines = [f"📋 **Round {event.round} is over.**"]
    for p in order:
        lines.append(f"  {plain_name(table, p)}: +{event.points[p]} → **{event.totals[p]}**")
    return "\n".join(lines)


def final_standings(table: Table, event: GameEnded) -> str:
    outcome = event.outcome
    order = sorted(range(len(outcome.scores)), key=lambda p: outcome.scores[p])
    winners = " and ".join(seat_name(table, p) for p in outcome.winners)
    lines = [f"🏆 **Game over!** {winners} win{'s' if len(outcome.winners) == 1 else ''} "
             f"with {outcome.scores[outcome.winners[0]]}{BULL}."]
    rank = 0
    for i, p in enumerate(order):
        if i == 0 or outcome.scores[p] != outcome.scores[order[i - 1]]:
            rank = i + 1
        lines.append(f"  {rank}. {plain_name(table, p)} — {outcome.scores[p]}{BULL}")
    return "\n".join(lines)


def clip(text: str, limit: int = 2000) -> str:
    """Discord refuses longer content: keep the end, which holds the latest news."""
    if len(text) <= limit:
        return text
    return "…\n" + text[-(limit - 2):]


RULES = {
    Variant.CLASSIC: (
        "**6 nimmt! — classic rules**\n"
        "• Everyone picks a card face down; cards are revealed together and placed lowest first.\n"
        "• A card goes after the row end closest below it.\n"
        "• The sixth card in a row takes the five before it.\n"
        "• A card lower than every row end takes a row of its player's choice.\n"
        "• Every card you take costs its bullheads (55 → 7; 11, 22 … → 5; 10, 20 … → 3; 5, 15 … → 2; "
        "others → 1). Fewest points win."
    ),
    Variant.PRO: (
        "**6 nimmt! — Pro variant**\nAll classic rules, plus: only cards 1 … 10·players+4 are used, "
        "laid face up; players draft them one at a time until each holds ten, and the four left over "
        "start the rows. You know every card in the game."
    ),
    Variant.ANNIVERSARY: (
        "**6 nimmt! — Anniversary variant**\nAll classic rules, two rounds, twelve cards each and three "
        "special cards (5th Row, 7 nimmt!, Insert, Replace, Shift, Stop, Negative = Positive): just "
        "before your card is placed you may play one, and after taking a row you may swap one. When "
        "the game waits on you, press **Decide**; `/6nimmt prompts` sets when you are asked."
    ),
}
