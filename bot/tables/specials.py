"""Anniversary operations of the table service: special-card plays, swaps, prompt preferences.

The engine pauses (``Phase.SPECIAL`` / ``Phase.SWAP``) for one decider. An AI
seat decides through the AI interface; a player whose prompt preference says
not to ask (``asks``) is answered by the service at once (a decline);
everyone else gets the short special-card timer, and its end declines for them.
Nobody is ever asked when no special play would change the rows, the piles
or the scores: the engine's ``special_outlook`` tells.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from engine import DeclineSpecial, DeclineSwap, Game, Phase, PlayerView, PlaySpecial, Special, Swap, Variant
from engine.actions import Action
from engine.anniversary import AnniversaryGame, PlacementPreview, SpecialOutlook, special_outlook
from engine.errors import SpecialNotInHand
from engine.events import Event

from .checks import check_step, not_paused, running_game, seat_of
from .errors import TableError
from .registry import TableRegistry
from .table import PROMPT_PREFERENCES, Table, prompt_preference
from .text import N_, Name, Text
from .transactions import Transactions


class Deciding(Protocol):
    """What the special-card operations use of ``bot.tables.play.Play`` (which imports this module)."""

    async def decide(
        self, table_id: int, user_id: int, step: int | None, make: Callable[[Table, int], Action]
    ) -> None: ...

    async def advance(
        self,
        table: Table,
        actions: Iterable[Action],
        events: list[Event],
        kind: str = ...,
        notices: list[Text] | None = ...,
        timed_out: bool = ...,
        **record: Any,
    ) -> None: ...


#: The engine phases that wait for one player's special-card decision.
SPECIAL_PHASES = (Phase.SPECIAL, Phase.SWAP)


class NotYourDecision(TableError):
    def __init__(self, waiting_for: str | None) -> None:
        if waiting_for is None:
            super().__init__(N_("Nobody is deciding on a special card right now."))
        else:
            super().__init__(
                N_("This decision is not yours: the game is waiting for **{name}**."), name=Name(waiting_for)
            )


@dataclass(frozen=True)
class SpecialPrompt:
    """What the decider is shown: their card's fate without a special card, and the legal plays."""

    table: Table
    seat: int
    view: PlayerView  # the decider's AnniversaryView
    phase: Phase
    preview: PlacementPreview | None  # None at a swap offer
    plays: list[PlaySpecial | Swap]  # PlaySpecial or Swap actions, in the engine's order; the decline is not listed
    outlook: SpecialOutlook | None = None  # where each answer leads (None at a swap offer)


#: The bullheads a special card must save on the card being placed for these preferences to ask.
#: "big": a take of more than ten is a disaster worth a special card; smaller ones are not worth
#: a pause (asking for every saving pauses a table of five about once a turn: each player
#: has about six special cards a game, and nearly every one finds a take to save).
SAVING_MIN = {"saving": 1, "big": 11}


def table_outlook(table: Table) -> SpecialOutlook:
    """The engine's outlook on the table's special-card pause, worked out once per pause (up to a
    few dozen plays, each on a copy of the game: it is asked at every click). The service has it
    worked out in the AI's worker as the pause begins (``Play.prepare_outlook``); only a pause
    restored from an older snapshot is worked out here."""
    game = table.started_game()
    if table.outlook is None or table.outlook[0] != game.decision_id:
        table.outlook = (game.decision_id, special_outlook(game))
    return table.outlook[1]


def asks(preference: str, game: Game, outlook_of: Callable[[Game], SpecialOutlook] = special_outlook) -> bool:
    """Whether a player with ``preference`` is asked at ``game``'s special-card or swap pause.

    Never when no special play changes the rows, their markers, the piles or the
    scores; "always" asks at every other pause (a swap offer included: the engine
    makes none where a swap could not matter), "saving" and "big" only when a
    special card saves enough bullheads (``SAVING_MIN``), "never" not at all.
    ``outlook_of(game)`` gives the engine's outlook (the table service caches it).
    """
    if preference not in ("always", *SAVING_MIN) or game.phase not in SPECIAL_PHASES:
        return False
    if game.phase is Phase.SWAP:
        return preference == "always"
    outlook = outlook_of(game)
    if preference == "always":
        return outlook.changes_anything
    return outlook.best_saving >= SAVING_MIN[preference]


def declined_for(table: Table, seat: int) -> Action | None:
    """The answer the service makes for ``seat`` at once: the swap they chose together with
    declining a special card (``Specials.decline_special``), or the decline for a player
    whose preference is not to be asked now. None: ask them."""
    game = table.started_game()
    queued, table.queued_swap = table.queued_swap, None
    if (
        isinstance(game, AnniversaryGame)
        and game.phase is Phase.SWAP
        and queued is not None
        and queued[:2] == (seat, table.step)
        and queued[2] in game.specials[seat]
    ):
        return Swap(seat, queued[2])
    asked = asks(table.seats[seat].prompts, game, lambda _: table_outlook(table))
    return None if asked else timed_out_decline(game, seat)


#: What the channel is told when the special-card timer decided for a player.
TIMED_OUT = {
    Phase.SPECIAL: N_("⌛ {player} did not decide in time: no special card was played on their {card}."),
    Phase.SWAP: N_("⌛ {player} did not decide in time and keeps their special cards."),
}


def timed_out_notice(table: Table, seat: int) -> Text:
    """The notice for the decline ``timed_out_decline`` makes (call it before the decline is applied)."""
    game = table.started_game()
    card = game.special_card if isinstance(game, AnniversaryGame) else None  # None at a swap offer too
    return Text(TIMED_OUT[game.phase], player=Name(table.seats[seat].name), card=card)


def timed_out_decline(game: Game, seat: int) -> Action | None:
    """What the special-card timer does: play no special card / keep the cards."""
    if game.phase is Phase.SPECIAL:
        return DeclineSpecial(seat)
    if game.phase is Phase.SWAP:
        return DeclineSwap(seat)
    return None


def special_named(name: str) -> Special:
    """The special card a custom id names; a forged name is no choice at all."""
    try:
        return Special(name)
    except ValueError:
        raise TableError(N_("That choice does not exist.")) from None


class Specials:
    """The Anniversary operations of the table service: special-card plays, swaps, prompt preferences."""

    def __init__(self, registry: TableRegistry, tx: Transactions, play: Deciding) -> None:
        self.registry = registry
        self.tx = tx
        self.play = play

    def special_prompt(self, table_id: int, user_id: int, step: int | None = None) -> SpecialPrompt:
        """The decider's prompt, from the table as last committed."""
        table = self.registry.get(table_id).as_committed()
        game = running_game(table)
        seat = seat_of(table, user_id)
        check_step(table, step)
        if not isinstance(game, AnniversaryGame) or game.phase not in SPECIAL_PHASES or game.decider is None:
            raise NotYourDecision(None)
        if game.decider != seat:
            raise NotYourDecision(table.seats[game.decider].name)
        plays = [a for a in game.legal_actions(seat) if isinstance(a, PlaySpecial | Swap)]  # not the declines
        preview: PlacementPreview | None = None
        outlook: SpecialOutlook | None = None
        if game.phase is Phase.SPECIAL and game.special_card is not None:
            preview, outlook = game.preview_placement(game.special_card), table_outlook(table)
        return SpecialPrompt(table, seat, game.view(seat), game.phase, preview, plays, outlook)

    async def play_special(
        self,
        table_id: int,
        user_id: int,
        step: int | None,
        special: str,
        row: int | None = None,
        card: int | None = None,
        target_row: int | None = None,
        position: int | None = None,
    ) -> None:
        kind = special_named(special)
        await self.play.decide(
            table_id,
            user_id,
            step,
            lambda table, seat: PlaySpecial(seat, kind, row=row, card=card, target_row=target_row, position=position),
        )

    async def decline_special(
        self, table_id: int, user_id: int, step: int | None, then_swap: str | None = None
    ) -> None:
        """No special card; ``then_swap``: the special card to swap at the take that follows, so the
        player answers once instead of waiting for a second prompt (``declined_for`` makes the swap)."""
        swapped = special_named(then_swap) if then_swap else None

        def decline(table: Table, seat: int) -> DeclineSpecial:
            game = table.started_game()
            if swapped is not None and not (isinstance(game, AnniversaryGame) and swapped in game.specials[seat]):
                raise SpecialNotInHand(f"you do not hold a {swapped.label} card")
            # Good for this pause only: the step moves on at the next one.
            table.queued_swap = (seat, table.step, swapped) if swapped else None
            return DeclineSpecial(seat)

        await self.play.decide(table_id, user_id, step, decline)

    async def swap(self, table_id: int, user_id: int, step: int | None, special: str) -> None:
        kind = special_named(special)
        await self.play.decide(table_id, user_id, step, lambda table, seat: Swap(seat, kind))

    async def decline_swap(self, table_id: int, user_id: int, step: int | None) -> None:
        await self.play.decide(table_id, user_id, step, lambda table, seat: DeclineSwap(seat))

    async def set_prompts(self, table_id: int, user_id: int, preference: str) -> Table:
        """Change when ``user_id`` is asked about special cards; a pending prompt may be answered now."""
        chosen = prompt_preference(preference)
        if chosen is None:
            raise TableError(N_("Choose one of: {choices}."), choices=", ".join(PROMPT_PREFERENCES))
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            seat = seat_of(table, user_id)
            if table.options.variant is not Variant.ANNIVERSARY:
                raise TableError(N_("Special-card prompts are only for the Anniversary variant."))
            not_paused(table)  # a new preference may answer the pending prompt: a move
            table.seats[seat].prompts = chosen
            game = table.game
            action = declined_for(table, seat) if game is not None and seat in game.waiting_for else None
            if game is None or action is None:
                await self.tx.commit(table)
                return table
            await self.play.advance(table, [action], game.apply(action))
        return table
