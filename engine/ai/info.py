"""What one player may know: the AI's only input.

``information_set(game, player)`` reads the public part of the state (rows,
bull piles of this round — every card in them was shown face up when it was
taken —, the revealed cards still to place, scores, the Pro draft) and the
player's own hand. It never reads another player's hand in the classic
variant, nor anyone's face-down pick. In the Pro variant the draft is public,
so every hand is known (the draft picks minus the cards revealed since): the
information set carries them as ``known_hands``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import BULLHEADS
from ..config import Variant
from ..game import Game


@dataclass(slots=True)
class InfoSet:
    player: int
    players: int
    variant: Variant
    phase: str
    round: int
    turn: int
    deck_size: int
    rows: list[list[int]]
    row_points: list[int]
    hand: list[int]
    hand_sizes: list[int]
    unseen: list[int]  # cards the player has not seen this round, ascending
    known_hands: list[list[int]] | None  # Pro: every hand (public draft); else None
    pending: list[tuple[int, int]]  # revealed (card, player) still to place, highest first
    chooser: int | None
    round_points: list[int]
    totals: list[int]
    target: int | None
    rounds: int | None
    draft_pool: list[int]
    drafter: int | None

    @property
    def opponents(self) -> list[int]:
        return [p for p in range(self.players) if p != self.player]

    @property
    def last_round(self) -> bool:
        """Will the game (probably) end with this round?"""
        if self.rounds is not None and self.round >= self.rounds:
            return True
        if self.target is not None:
            scores = [t + r for t, r in zip(self.totals, self.round_points, strict=True)]
            return max(scores) + 12 >= self.target
        return False


def information_set(game: Game, player: int) -> InfoSet:
    """The information set of ``player`` in ``game`` (see module doc)."""
    config = game.config
    rows = [list(r) for r in game.rows]
    hand = sorted(game.hands[player])
    seen = set(hand)
    for r in game.rows:
        seen.update(r)
    for pile in game.piles:  # taken this round, face up on the table when taken
        seen.update(pile)
    seen.update(c for c, _ in game.pending)
    known = None
    if config.variant is Variant.PRO:
        # Public knowledge: the draft was face up, revealed cards left the hands.
        known = [sorted(h) for h in game.hands]
        for h in known:
            seen.update(h)
        seen.update(game.draft_pool)
    unseen = [c for c in range(1, config.deck_size + 1) if c not in seen]
    return InfoSet(
        player=player,
        players=config.players,
        variant=config.variant,
        phase=game.phase.value,
        round=game.round,
        turn=game.turn,
        deck_size=config.deck_size,
        rows=rows,
        row_points=[sum(BULLHEADS[c] for c in r) for r in rows],
        hand=hand,
        hand_sizes=[len(h) for h in game.hands],
        unseen=unseen,
        known_hands=known,
        pending=list(game.pending),
        chooser=game.chooser,
        round_points=list(game.round_points),
        totals=list(game.totals),
        target=config.target,
        rounds=config.rounds,
        draft_pool=list(game.draft_pool),
        drafter=game.drafter,
    )
