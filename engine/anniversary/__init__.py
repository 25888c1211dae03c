"""The Anniversary variant of 6 nimmt!: seven kinds of special cards, 2–8 players, two rounds.

Modules: ``specials`` (the cards), ``table`` (rows with markers, the special
deck, taking a row), ``legal`` (which special plays are legal now),
``placement`` (pauses and effects), ``game`` (``AnniversaryGame``),
``outlook`` (where each answer to a special-card pause leads),
``serialize`` and ``view``. ``Game.new`` / ``Game.from_dict`` return an
``AnniversaryGame`` for an Anniversary config; so does ``engine.new_game``.
"""

from ..variants import Parts, Serializer, Variant, register
from .actions import DeclineSpecial, DeclineSwap, PlaySpecial, Swap
from .events import (
    BullheadsCancelled,
    CardInserted,
    CardReplaced,
    CardShifted,
    FifthRowClosed,
    FifthRowOpened,
    SevenNimmtPlaced,
    SevenNimmtRemoved,
    SpecialChoiceRequired,
    SpecialDeckReshuffled,
    SpecialDeclined,
    SpecialPlayed,
    SpecialsDealt,
    SpecialSwapped,
    StopPlaced,
    StopsRemoved,
    SwapDeclined,
    SwapOffered,
)
from .game import AnniversaryGame
from .outlook import OptionOutcome, SpecialOutlook, special_outlook
from .serialize import anniversary_to_dict, load_anniversary
from .specials import LABELS, SPECIAL_DECK, Special
from .table import PlacementPreview, best_cancellation
from .view import AnniversaryView, observe_anniversary

__all__ = [
    "AnniversaryGame",
    "AnniversaryView",
    "Special",
    "SPECIAL_DECK",
    "LABELS",
    "best_cancellation",
    "PlacementPreview",
    "OptionOutcome",
    "SpecialOutlook",
    "special_outlook",
    "PlaySpecial",
    "DeclineSpecial",
    "Swap",
    "DeclineSwap",
    "BullheadsCancelled",
    "CardInserted",
    "CardReplaced",
    "CardShifted",
    "FifthRowClosed",
    "FifthRowOpened",
    "SevenNimmtPlaced",
    "SevenNimmtRemoved",
    "SpecialChoiceRequired",
    "SpecialDeckReshuffled",
    "SpecialDeclined",
    "SpecialPlayed",
    "SpecialsDealt",
    "SpecialSwapped",
    "StopPlaced",
    "StopsRemoved",
    "SwapDeclined",
    "SwapOffered",
]

register(
    Variant.ANNIVERSARY,
    Parts(
        state=AnniversaryGame,
        view=observe_anniversary,
        serializer=Serializer(dump=anniversary_to_dict, load=load_anniversary),
    ),
)
