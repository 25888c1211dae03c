"""What a game of 6 nimmt! is made of (classic and Pro): the plain lists ``Game`` plays on.

The rules that change them are ``Game``'s (``engine/game.py``); the modules it builds
on read and write these lists too (``setup``, ``serialize``, ``view``), and type the
game they get by this class, as they sit below ``game.py``. Players are seats
``0 … n-1`` and rows are ``0 … 3``.
"""

from __future__ import annotations

import random

from .config import GameConfig
from .errors import UnknownPlayer
from .outcome import Outcome
from .phase import Phase


class GameState:
    """A game's state and what can be read off it; ``Game`` adds the rules."""

    __slots__ = (
        "config",
        "rng",
        "round",
        "turn",
        "phase",
        "rows",
        "hands",
        "piles",
        "round_points",
        "totals",
        "history",
        "set_aside",
        "picks",
        "n_picked",
        "pending",
        "chooser",
        "draft_pool",
        "drafter",
        "first_drafter",
        "draft_log",
        "outcome",
    )

    #: Whom a special-card decision waits for: nobody in a game without special
    #: cards (``AnniversaryGame`` keeps its own in a slot of that name).
    decider: int | None = None

    def __init__(self, config: GameConfig, rng: random.Random) -> None:
        n = config.players
        self.config = config
        self.rng = rng
        self.round = 0
        self.turn = 0
        self.phase = Phase.PICK
        self.rows: list[list[int]] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.piles: list[list[int]] = [[] for _ in range(n)]  # this round's bull piles
        self.round_points = [0] * n  # bullheads in each pile, kept in step with it
        self.totals = [0] * n  # points from finished rounds
        self.history: list[list[int]] = []  # points of each finished round
        self.set_aside: list[int] = []
        self.picks = [0] * n  # face-down card per player, 0 for none yet
        self.n_picked = 0
        self.pending: list[tuple[int, int]] = []  # (card, player) still to place, highest first
        self.chooser: int | None = None
        self.draft_pool: list[int] = []
        self.drafter: int | None = None
        self.first_drafter: int | None = None
        self.draft_log: list[tuple[int, int]] = []  # Pro: (seat, card) taken this round, in order
        self.outcome: Outcome | None = None

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The players whose decision the game needs before it can go on."""
        phase = self.phase
        if phase is Phase.PICK:
            return tuple(p for p, card in enumerate(self.picks) if not card)
        # a draft or a row choice always names its player (the rules set both with the phase)
        if phase is Phase.DRAFT and self.drafter is not None:
            return (self.drafter,)
        if phase is Phase.CHOOSE_ROW and self.chooser is not None:
            return (self.chooser,)
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def scores(self) -> tuple[int, ...]:
        """Each player's points so far, this round's pile included."""
        if self.phase is Phase.GAME_OVER:  # the last round is already in the totals
            return tuple(self.totals)
        return tuple(t + r for t, r in zip(self.totals, self.round_points, strict=True))

    def _check_player(self, player: int) -> None:
        # type(), not isinstance(): a bool is an int, and True is no seat
        if not (type(player) is int and 0 <= player < self.config.players):
            raise UnknownPlayer(f"there is no seat {player} at this table")
