"""What a game waits for: one enum for every variant's phases.

A ``StrEnum``: a saved game stores the value, and ``str()`` / f-strings give
it too; compare with the members (``phase is Phase.PICK``), not with strings.
"""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    DRAFT = "draft"  # Pro variant: players take face-up cards in turn
    PICK = "pick"  # everyone chooses a card face down
    CHOOSE_ROW = "choose_row"  # a low card's player chooses the row to take
    SPECIAL = "special"  # Anniversary: a player may play a special card before placing
    SWAP = "swap"  # Anniversary: a player who took a row may swap a special card
    GAME_OVER = "game_over"


#: What the game is doing in each phase, for "you cannot … now: …" refusals.
DOING: dict[Phase, str] = {
    Phase.DRAFT: "the cards are being drafted",
    Phase.PICK: "everyone is picking a card",
    Phase.CHOOSE_ROW: "a player is choosing a row to take",
    Phase.SPECIAL: "a player is deciding whether to play a special card",
    Phase.SWAP: "a player is deciding whether to swap a special card",
    Phase.GAME_OVER: "the game is over",
}
