"""Anniversary operations of the table service: special-card plays, swaps, prompt preferences.

The engine pauses (``Phase.SPECIAL`` / ``Phase.SWAP``) for one decider. An AI
seat decides through the AI interface; a player whose prompt preference says
not to ask is answered by the service at once (a decline); everyone else gets
the short special-card timer, and its end declines for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import DeclineSpecial, DeclineSwap, Game, Phase, PlaySpecial, Special, Swap, Variant
from engine.anniversary import PlacementPreview

from .errors import TableError
from .table import PROMPT_PREFERENCES, Table
from .text import N_

#: The engine phases that wait for one player's special-card decision.
SPECIAL_PHASES = (Phase.SPECIAL, Phase.SWAP)


class NotYourDecision(TableError):
    def __init__(self, waiting_for: str | None) -> None:
        if waiting_for is None:
            super().__init__(N_("Nobody is deciding on a special card right now."))
        else:
            super().__init__(N_("This decision is not yours: the game is waiting for **{name}**."),
                             name=waiting_for)


@dataclass(frozen=True)
class SpecialPrompt:
    """What the decider is shown: their card's fate without a special card, and the legal plays."""

    table: Table
    seat: int
    view: object  # the decider's AnniversaryView
    phase: Phase
    preview: PlacementPreview | None  # None at a swap offer
    plays: list  # PlaySpecial or Swap actions, in the engine's order; the decline is not listed


def declined_for(table: Table, seat: int) -> object | None:
    """The decline the service makes for a player whose preference is not to be asked now."""
    game = table.game
    preference = table.seats[seat].prompts
    # "taking": a swap offer only ever follows a take, so it is always asked.
    asked = preference == "always" or (preference == "taking" and (
        game.phase is not Phase.SPECIAL or game.preview_placement(game.special_card).takes))
    return None if asked else timed_out_decline(game, seat)


def timed_out_decline(game: Game, seat: int) -> object | None:
    """What the special-card timer does: play no special card / keep the cards."""
    if game.phase is Phase.SPECIAL:
        return DeclineSpecial(seat)
    if game.phase is Phase.SWAP:
        return DeclineSwap(seat)
    return None


class SpecialOps:
    """Mixed into ``TableService``."""

    def special_prompt(self, table_id: int, user_id: int, step: int | None = None) -> SpecialPrompt:
        table = self.get(table_id)
        game = self._running_game(table)
        seat = self._seat(table, user_id)
        self._check_step(table, step)
        if game.phase not in SPECIAL_PHASES:
            raise NotYourDecision(None)
        if game.decider != seat:
            raise NotYourDecision(table.seats[game.decider].name)
        plays = [a for a in game.legal_actions(seat) if not isinstance(a, (DeclineSpecial, DeclineSwap))]
        preview = game.preview_placement(game.special_card) if game.phase is Phase.SPECIAL else None
        return SpecialPrompt(table, seat, game.view(seat), game.phase, preview, plays)

    async def play_special(self, table_id: int, user_id: int, step: int | None, special: str,
                           row: int | None = None, card: int | None = None,
                           target_row: int | None = None, position: int | None = None) -> None:
        await self._decide(table_id, user_id, step, lambda seat: PlaySpecial(
            seat, Special(special), row=row, card=card, target_row=target_row, position=position))

    async def decline_special(self, table_id: int, user_id: int, step: int | None) -> None:
        await self._decide(table_id, user_id, step, DeclineSpecial)

    async def swap(self, table_id: int, user_id: int, step: int | None, special: str) -> None:
        await self._decide(table_id, user_id, step, lambda seat: Swap(seat, Special(special)))

    async def decline_swap(self, table_id: int, user_id: int, step: int | None) -> None:
        await self._decide(table_id, user_id, step, DeclineSwap)

    async def set_prompts(self, table_id: int, user_id: int, preference: str) -> Table:
        """Change when ``user_id`` is asked about special cards; a pending prompt may be answered now."""
        if preference not in PROMPT_PREFERENCES:
            raise TableError(N_("Choose one of: {choices}."), choices=", ".join(PROMPT_PREFERENCES))
        table = self.get(table_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            if table.options.variant is not Variant.ANNIVERSARY:
                raise TableError(N_("Special-card prompts are only for the Anniversary variant."))
            table.seats[seat].prompts = preference
            game = table.game
            action = declined_for(table, seat) if game is not None and seat in game.waiting_for else None
            if action is None:
                await self._save(table)
                return table
            await self._advance(table, [action], game.apply(action))
        return table
