"""Text and embeds for tables: what the channel and each player read.

Pure functions of the table, a view and the engine's events, so the same
words serve the embed, screen readers and tests. Nothing here decides a rule:
events already say where every card went and who took what.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.tables.table import Table, TableStatus
from cogs.i18n import N_, items, join, render, tr, trn
from engine import (
    BULLHEADS,
    CardDrafted,
    CardPlaced,
    CardsRevealed,
    DraftEnded,
    GameEnded,
    Phase,
    RoundEnded,
    RowChoiceRequired,
    RowTaken,
    TakeReason,
    Variant,
)

from .links import message_link
from .names import shown_name
from .specials import MARKER_LABELS, label, narrate_special

BULL = "🐮"
GREEN = discord.Colour(0x2E7D32)
GREY = discord.Colour(0x607D8B)

VARIANT_NAMES = {
    Variant.CLASSIC: N_("Classic"),
    Variant.PRO: N_("Pro (drafted hands)"),
    Variant.ANNIVERSARY: N_("Anniversary (special cards)"),
}
AI_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def card_label(card: int) -> str:
    """``55 · 7🐮``: the number and its bullheads, as on a button."""
    return f"{card} · {BULLHEADS[card]}{BULL}"


def seat_name(table: Table, seat: int, locale) -> str:
    """A seat as the table calls it: a player's mention (which pings them only where a message
    means to, see ``pings``), else its name as text."""
    s = table.seats[seat]
    if s.user_id is not None and not s.is_ai:
        return f"<@{s.user_id}>"
    return plain_name(table, seat) if s.user_id is None else tr(locale, "{name} (AI)", name=plain_name(table, seat))


def plain_name(table: Table, seat: int) -> str:
    """A seat's name as text: never a mention, never markup, never reordering the line around it."""
    return shown_name(table.seats[seat].name)


def limits_text(table: Table, locale) -> str:
    o = table.options
    goal = []
    if o.target is not None:
        goal.append(
            trn(
                locale, "first to {target} point ends it", "first to {target} points ends it", o.target, target=o.target
            )
        )
    if o.rounds is not None:
        goal.append(trn(locale, "{rounds} round", "{rounds} rounds", o.rounds, rounds=o.rounds))
    if len(goal) == 2:
        # Translators: {first} is "first to 66 points ends it", {second} "3 rounds".
        goal = [tr(locale, "{first} or {second}", first=goal[0], second=goal[1])]
    if o.turn_based:
        # Translators: {low}–{high} is a range such as 2–10; {goal} what ends the game.
        text = tr(
            locale,
            "{variant} · {low}–{high} players · {goal} · turn-based: {hours} h for each move",
            variant=tr(locale, VARIANT_NAMES[o.variant]),
            low=o.min_players,
            high=o.max_players,
            goal="".join(goal),
            hours=o.seconds_for("turn") // 3600,
        )
    else:
        # Translators: {low}–{high} is a range such as 2–10; {goal} what ends the game.
        text = tr(
            locale,
            "{variant} · {low}–{high} players · {goal} · {seconds}s per turn",
            variant=tr(locale, VARIANT_NAMES[o.variant]),
            low=o.min_players,
            high=o.max_players,
            goal="".join(goal),
            seconds=o.turn_seconds,
        )
        if o.variant is Variant.ANNIVERSARY:
            text += tr(locale, ", {seconds}s for a special card", seconds=o.special_seconds)
    if o.helpers:
        text += " · " + tr(locale, "helpers on: every hand can show the cards seen this round")
    return text


#: The lobby message's title for each table status: a lobby left behind says what became of it.
LOBBY_TITLES = {
    TableStatus.LOBBY: N_("6 nimmt! — table open"),
    TableStatus.PLAYING: N_("6 nimmt! — the game has started"),
    TableStatus.FINISHED: N_("6 nimmt! — the game is over"),
    TableStatus.CANCELLED: N_("6 nimmt! — table closed"),
}


def lobby_embed(table: Table, locale, standings: int | None = None, server: Sequence[str] = ()) -> discord.Embed:
    """The lobby; once the game began, what became of it. For a game in a thread, this message
    stays in the channel and says where the game is, and at the end who won (``standings``: the
    message with the final standings). ``server``: the server's settings that differ from the
    bot's defaults, one line each."""
    seats = "\n".join(
        f"{i + 1}. {seat_name(table, i, locale)}{' 👑' if s.user_id == table.host_id and not s.is_ai else ''}"
        + (f" · {tr(locale, AI_LEVELS.get(level, level))}" if (level := s.ai_level) is not None else "")  # an AI's
        for i, s in enumerate(table.seats)
    )
    title = LOBBY_TITLES[table.status]
    if table.status is TableStatus.CANCELLED and table.game is None:
        title = N_("6 nimmt! — lobby closed")
    embed = discord.Embed(
        title=tr(locale, title),
        colour=GREEN if table.status is TableStatus.LOBBY else GREY,
        description=limits_text(table, locale),
    )
    embed.add_field(
        name=tr(locale, "Players ({count}/{most})", count=len(table.seats), most=table.options.max_players),
        value=seats or "—",
        inline=False,
    )
    thread = message_link(table.server_id, table.thread_id) if table.thread_id else None
    if table.status is TableStatus.LOBBY and table.deadline:
        embed.add_field(
            name=tr(locale, "Closes"),
            inline=False,
            value=tr(locale, "{when} unless the host starts", when=f"<t:{int(table.deadline)}:R>"),
        )
        if thread:
            embed.add_field(
                name=tr(locale, "Where"),
                inline=False,
                value=tr(locale, "The game will be played in its thread: {thread}", thread=f"<#{table.thread_id}>"),
            )
        if server:
            embed.add_field(name=tr(locale, "Server settings"), value="\n".join(server)[:1024], inline=False)
    elif table.status is TableStatus.PLAYING and thread:
        embed.add_field(
            name=tr(locale, "Where"),
            inline=False,
            value=tr(
                locale, "Playing in {thread} — [open the game]({link})", thread=f"<#{table.thread_id}>", link=thread
            ),
        )
    elif table.status is TableStatus.PLAYING:
        embed.set_footer(text=tr(locale, "The game has started: the table is in the newest message below."))
    if table.paused is not None and table.is_open:
        embed.add_field(
            name=tr(locale, "⏸️ Paused"),
            inline=False,
            value=tr(
                locale,
                "A moderator locked this game's thread, so the game is paused: no timer runs and no seat is "
                "taken. It goes on when the thread is unlocked; still locked after a day, the game is abandoned.",
            ),
        )
    elif (
        table.status is TableStatus.FINISHED
        and table.game is not None
        and (outcome := table.game.view(None).outcome) is not None
    ):
        winners = join(locale, [plain_name(table, w) for w in outcome.winners])
        value = tr(locale, "🏆 {winners}", winners=winners)
        if thread and standings:
            value += "\n" + tr(locale, "[The final standings]({link})", link=f"{thread}/{standings}")
        embed.add_field(name=tr(locale, "Won"), value=value[:1024], inline=False)
    elif table.status is TableStatus.CANCELLED:
        why = render(locale, table.closed_notice) if table.closed_notice else tr(locale, "This table is closed.")
        embed.add_field(name=tr(locale, "Closed"), value=why[:1024], inline=False)
        embed.set_footer(text=tr(locale, "Open a new table with /6nimmt start."))
    return embed


def rows_lines(view, locale) -> list[str]:
    """One line per row of ``view``: its bullheads, its markers (Anniversary) and its cards."""
    lines = []
    for i, (row, markers) in enumerate(zip(view.rows, view.row_markers, strict=True)):
        shown = [tr(locale, MARKER_LABELS[m]) if m in MARKER_LABELS else m for m in markers]
        mark = f" [{items(locale, shown)}]" if shown else ""
        cards = " ".join(f"{c:>3}" for c in row.cards)
        lines.append(tr(locale, "Row {row}", row=i + 1) + f" · {row.bullheads:>2}{BULL}{mark} │{cards}")
    return lines


def table_embed(table: Table, locale, notices: list[str] | None = None) -> discord.Embed:
    """The live table; ``notices`` are already in ``locale``."""
    game = table.started_game()
    view = game.view(None)
    if view.phase is Phase.DRAFT:
        title = tr(locale, "6 nimmt! — round {round}", round=view.round)
    else:
        title = tr(locale, "6 nimmt! — round {round}, turn {turn}", round=view.round, turn=view.turn)
    embed = discord.Embed(title=title, colour=GREEN)
    if view.rows:
        lines = rows_lines(view, locale)
        embed.description = "```\n" + "\n".join(lines) + "\n```"
    else:
        embed.description = tr(locale, "The rows are laid when the draft is over.")
    if view.phase is Phase.DRAFT:
        embed.description += "\n" + draft_pool_text(view, locale)
    players = []
    for i in range(len(table.seats)):
        if view.phase is Phase.PICK:
            status = "✅" if view.picked[i] else "⏳"
        elif i in view.waiting_for:
            status = "🤔"
        else:
            status = "·"
        held = f" · 🎴×{view.special_counts[i]}" if view.special_cards else ""
        if view.phase is Phase.DRAFT:
            held = " · " + (" ".join(str(c) for c in view.drafted[i]) or "—")
        players.append(f"{status} {seat_name(table, i, locale)} — **{view.scores[i]}**{BULL}{held}")
    embed.add_field(
        name=tr(locale, "Players (points)")
        if view.phase is not Phase.DRAFT
        else tr(locale, "Players (points) · drafted cards"),
        value="\n".join(players)[:1024],
        inline=False,
    )
    if view.phase is Phase.DRAFT and view.draft_log:
        embed.add_field(name=tr(locale, "Draft so far"), value=draft_log_text(table, view), inline=False)
    if view.special_cards:
        discard = items(locale, [label(s, locale) for s in view.special_discard]) or tr(locale, "empty")
        embed.add_field(
            name=tr(locale, "Special cards"),
            inline=False,
            value=tr(locale, "Deck: {deck} · discard pile: {discard}", deck=view.special_deck_size, discard=discard)[
                :1024
            ],
        )
    embed.add_field(name=tr(locale, "Now"), value=phase_text(table, locale), inline=False)
    if notices:
        embed.add_field(name=tr(locale, "News"), value="\n".join(notices)[:1024], inline=False)
    embed.set_footer(text=limits_text(table, locale))
    return embed


def draft_pool_text(view, locale) -> str:
    """The face-up cards still to draft, bullheads marked where they cost more than one."""
    cards = " ".join(f"{c}" + (f"({BULLHEADS[c]})" if BULLHEADS[c] > 1 else "") for c in sorted(view.draft_pool))
    count = len(view.draft_pool)
    return (
        trn(
            locale,
            "**Still to draft** ({count} card, the last four start the rows):",
            "**Still to draft** ({count} cards, the last four start the rows):",
            count,
            count=count,
        )
        + f"\n```\n{cards}\n```"
    )


def draft_log_text(table: Table, view) -> str:
    """Who took which card, in order, so nobody needs to watch every pick; the newest last."""
    entries = [f"{plain_name(table, seat)} {card}" for seat, card in view.draft_log]
    text = " · ".join(entries)
    while len(text) > 1024:  # a ten-player draft: keep the newest picks
        entries = entries[1:]
        text = "… · " + " · ".join(entries)
    return text


def phase_text(table: Table, locale) -> str:
    text = _phase_only(table, locale)
    if table.deadline:
        return tr(locale, "{now} — time runs out {when}", now=text, when=f"<t:{int(table.deadline)}:R>")
    return text


def _phase_only(table: Table, locale) -> str:
    view = table.started_game().view(None)
    phase = view.phase
    if phase is Phase.PICK:
        return tr(locale, "Everyone picks a card face down: press **Play a card**")
    # each phase but the picks waits for one player, whom the view names
    if phase is Phase.CHOOSE_ROW and view.chooser is not None:
        return tr(
            locale,
            "{name}'s **{card}** fits no row: they choose a row to take",
            name=seat_name(table, view.chooser, locale),
            card=view.chooser_card,
        )
    if phase is Phase.DRAFT and view.drafter is not None:
        return trn(
            locale,
            "Draft: {name} takes a face-up card ({left} left)",
            "Draft: {name} takes a face-up card ({left} left)",
            len(view.draft_pool),
            name=seat_name(table, view.drafter, locale),
            left=len(view.draft_pool),
        )
    if phase is Phase.SPECIAL and view.decider is not None:
        return tr(
            locale,
            "{name} may play a special card on their **{card}**: they press **Decide**",
            name=seat_name(table, view.decider, locale),
            card=view.special_card,
        )
    if phase is Phase.SWAP and view.decider is not None:
        return tr(
            locale,
            "{name} took a row and may swap a special card: they press **Decide**",
            name=seat_name(table, view.decider, locale),
        )
    return tr(locale, "Waiting")


def reveal_text(table: Table, events: list, locale) -> str:
    """One message's worth of what happened: reveal, placements, takes, round and game ends."""
    lines: list[str] = []
    i = 0
    while i < len(events):
        event = events[i]
        special, used = narrate_special(events, i, lambda p: plain_name(table, p), locale)
        if used:
            if special:
                lines.append(special)
            i += used
            continue
        i += 1
        if isinstance(event, CardsRevealed):
            shown = items(locale, [f"**{c}** {plain_name(table, p)}" for c, p in event.cards])
            lines.append(tr(locale, "🃏 Revealed: {cards}", cards=shown))
        elif isinstance(event, RowTaken):
            # A 7 nimmt! row is taken by its seventh card: "full row" fits every variant.
            why = tr(locale, "full row") if event.reason is TakeReason.FULL_ROW else tr(locale, "low card")
            lines.append(
                tr(
                    locale,
                    "🐂 {name} takes row {row} ({why}): {cards} — **{points}**{bull}",
                    name=plain_name(table, event.player),
                    row=event.row + 1,
                    why=why,
                    cards=" ".join(str(c) for c in event.cards),
                    points=event.bullheads,
                    bull=BULL,
                )
            )
        elif isinstance(event, CardDrafted):  # only a draft's last card: the draft message showed the others
            lines.append(
                tr(locale, "📝 {name} drafts **{card}**.", name=plain_name(table, event.player), card=event.card)
            )
        elif isinstance(event, DraftEnded):
            lines.append(tr(locale, "📝 The draft is over: the four cards left start the rows."))
        elif isinstance(event, CardPlaced):
            lines.append("  " + tr(locale, "{card} → row {row}", card=event.card, row=event.row + 1))
        elif isinstance(event, RowChoiceRequired):
            lines.append(
                tr(
                    locale,
                    "⚠️ {name}'s **{card}** is lower than every row: they choose a row to take.",
                    name=seat_name(table, event.player, locale),
                    card=event.card,
                )
            )
        elif isinstance(event, RoundEnded):
            lines.append(round_summary(table, event, locale))
        elif isinstance(event, GameEnded):
            lines.append(final_standings(table, event, locale))
    return "\n".join(lines)


def round_summary(table: Table, event: RoundEnded, locale) -> str:
    order = sorted(range(len(event.totals)), key=lambda p: event.totals[p])
    lines = [tr(locale, "📋 **Round {round} is over.**", round=event.round)]
    for p in order:
        lines.append(f"  {plain_name(table, p)}: +{event.points[p]} → **{event.totals[p]}**")
    return "\n".join(lines)


def final_standings(table: Table, event: GameEnded, locale) -> str:
    outcome = event.outcome
    order = sorted(range(len(outcome.scores)), key=lambda p: outcome.scores[p])
    names = [seat_name(table, p, locale) for p in outcome.winners]
    points = f"{outcome.scores[outcome.winners[0]]}{BULL}"
    # Translators: {winners} is one or more players (a list in your language's way), {points} e.g. "12🐮".
    lines = [
        trn(
            locale,
            "🏆 **Game over!** {winners} wins with {points}.",
            "🏆 **Game over!** {winners} win with {points}.",
            len(names),
            winners=join(locale, names),
            points=points,
        )
    ]
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
    return "…\n" + text[-(limit - 2) :]


#: Shown with ``tr`` in the reader's language.
RULES = {
    Variant.CLASSIC: N_(
        "**6 nimmt! — classic rules**\n"
        "• Everyone picks a card face down; cards are revealed together and placed lowest first.\n"
        "• A card goes after the row end closest below it.\n"
        "• The sixth card in a row takes the five before it.\n"
        "• A card lower than every row end takes a row of its player's choice.\n"
        "• Every card you take costs its bullheads (55 → 7; 11, 22 … → 5; 10, 20 … → 3; 5, 15 … → 2; "
        "others → 1). Fewest points win."
    ),
    Variant.PRO: N_(
        "**6 nimmt! — Pro variant**\nAll classic rules, plus: only cards 1 … 10·players+4 are used, "
        "laid face up; players draft them one at a time until each holds ten, and the four left over "
        "start the rows. You know every card in the game."
    ),
    Variant.ANNIVERSARY: N_(
        "**6 nimmt! — Anniversary variant**\nAll classic rules, two rounds, twelve cards each and three "
        "special cards (5th Row, 7 nimmt!, Insert, Replace, Shift, Stop, Negative = Positive): just "
        "before your card is placed you may play one, and after taking a row you may swap one. When "
        "the game waits on you, press **Decide**; `/6nimmt prompts` sets when you are asked."
    ),
}
