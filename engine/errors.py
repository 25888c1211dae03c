"""Typed errors for illegal actions: each is a ``ValueError`` whose message a player can read.

An illegal action never changes the state; the engine checks everything before
it touches anything.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow right now."""


class WrongPhase(IllegalAction):
    """The game is not waiting for this kind of action (e.g. a pick during a row choice)."""


class NotYourTurn(IllegalAction):
    """Another player must act first (a draft out of turn, a row choice by the wrong player)."""


class UnknownPlayer(IllegalAction):
    """The seat does not exist at this table."""


class CardNotInHand(IllegalAction):
    """The card is not in the player's hand (or, in a draft, not on the table)."""


class InvalidRow(IllegalAction):
    """The row does not exist or may not be chosen."""


class SpecialNotInHand(CardNotInHand):
    """Anniversary: the player does not hold that special card."""


class IllegalSpecial(IllegalAction):
    """Anniversary: a special card play the rules do not allow here (e.g. a third Stop)."""


class RowBlocked(InvalidRow):
    """Anniversary: the row carries a Stop, so nothing may be added to, removed from or taken from it."""


class InvalidConfig(ValueError):
    """A table set-up the rules do not allow (e.g. seven players in the Pro variant)."""


class UnevenHands(InvalidConfig):
    """A position whose hands hold different numbers of cards: its round could never end."""


class CorruptState(ValueError):
    """A serialised game that cannot be a real game state."""
