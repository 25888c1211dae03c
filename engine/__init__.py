"""The rules of 6 nimmt! and its AI players: pure, synchronous, standard library only.

Nothing here does I/O or reads the clock (the AI's time budget aside); all
randomness comes from a seedable ``random.Random`` held in the game state.
"""

from .actions import ChooseRow, Draft, Pick, action_from_dict, action_to_dict
from .cards import BULLHEADS, HIGHEST_CARD, ROW_COUNT, ROW_LIMIT, bullheads, total_bullheads
from .config import DEFAULT_TARGET, PLAYER_LIMITS, GameConfig, Variant
from .errors import (
    CardNotInHand, CorruptState, IllegalAction, InvalidConfig, InvalidRow, NotYourTurn,
    UnknownPlayer, WrongPhase,
)
from .events import (
    CardDrafted, CardPicked, CardPlaced, CardsRevealed, DraftEnded, GameEnded, RoundEnded,
    RoundStarted, RowChoiceRequired, RowTaken, TakeReason,
)
from .game import Game, Phase
from .outcome import Outcome, Termination
from .view import PlayerView, RowView

__all__ = [
    "BULLHEADS", "HIGHEST_CARD", "ROW_COUNT", "ROW_LIMIT", "DEFAULT_TARGET", "PLAYER_LIMITS",
    "bullheads", "total_bullheads", "GameConfig", "Variant", "Game", "Phase", "Outcome",
    "Termination", "PlayerView", "RowView", "Pick", "ChooseRow", "Draft", "action_from_dict",
    "action_to_dict", "IllegalAction", "WrongPhase", "NotYourTurn", "UnknownPlayer",
    "CardNotInHand", "InvalidRow", "InvalidConfig", "CorruptState", "CardDrafted", "CardPicked",
    "CardPlaced", "CardsRevealed", "DraftEnded", "GameEnded", "RoundEnded", "RoundStarted",
    "RowChoiceRequired", "RowTaken", "TakeReason",
]
