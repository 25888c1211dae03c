"""The rules of 6 nimmt! and its AI players: pure, synchronous, standard library only.

Nothing here does I/O or reads the clock (the AI's time budget aside); all
randomness comes from a seedable ``random.Random`` held in the game state.
"""

import random

from .actions import ChooseRow, Draft, Pick, action_from_dict, action_to_dict

# Importing the package registers the variant (see engine.variants).
from .anniversary import (
    AnniversaryGame,
    AnniversaryView,
    DeclineSpecial,
    DeclineSwap,
    PlaySpecial,
    Special,
    Swap,
)
from .cards import BULLHEADS, HIGHEST_CARD, ROW_COUNT, ROW_LIMIT, bullheads, total_bullheads
from .config import GameConfig
from .errors import (
    CardNotInHand,
    CorruptState,
    IllegalAction,
    IllegalSpecial,
    InvalidConfig,
    InvalidRow,
    NotYourTurn,
    RowBlocked,
    SpecialNotInHand,
    UnevenHands,
    UnknownPlayer,
    WrongPhase,
)
from .events import (
    CardDrafted,
    CardPicked,
    CardPlaced,
    CardsRevealed,
    DraftEnded,
    GameEnded,
    RoundEnded,
    RoundStarted,
    RowChoiceRequired,
    RowTaken,
    TakeReason,
    event_from_dict,
    event_to_dict,
)
from .game import Game
from .outcome import Outcome, Termination
from .phase import Phase
from .variants import PLAYER_LIMITS, Variant, VariantSpec, variant_spec
from .view import PlayerView, RowView


def new_game(config: GameConfig, seed: int | None = None, rng: random.Random | None = None) -> Game:
    """Deal a new game of ``config``'s variant (an ``AnniversaryGame`` for the Anniversary one)."""
    return Game.new(config, seed=seed, rng=rng)


__all__ = [
    "BULLHEADS",
    "HIGHEST_CARD",
    "ROW_COUNT",
    "ROW_LIMIT",
    "PLAYER_LIMITS",
    "VariantSpec",
    "variant_spec",
    "UnevenHands",
    "bullheads",
    "total_bullheads",
    "GameConfig",
    "Variant",
    "Game",
    "Phase",
    "Outcome",
    "Termination",
    "PlayerView",
    "RowView",
    "Pick",
    "ChooseRow",
    "Draft",
    "action_from_dict",
    "action_to_dict",
    "IllegalAction",
    "WrongPhase",
    "NotYourTurn",
    "UnknownPlayer",
    "CardNotInHand",
    "InvalidRow",
    "InvalidConfig",
    "CorruptState",
    "CardDrafted",
    "CardPicked",
    "CardPlaced",
    "CardsRevealed",
    "DraftEnded",
    "GameEnded",
    "RoundEnded",
    "RoundStarted",
    "RowChoiceRequired",
    "RowTaken",
    "TakeReason",
    "new_game",
    "AnniversaryGame",
    "AnniversaryView",
    "Special",
    "PlaySpecial",
    "DeclineSpecial",
    "Swap",
    "DeclineSwap",
    "IllegalSpecial",
    "RowBlocked",
    "SpecialNotInHand",
    "event_to_dict",
    "event_from_dict",
]
