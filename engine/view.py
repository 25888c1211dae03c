"""Each player's view of the game, computed from the state, never stored beside it.

A view holds what that player may know: their own hand, the rows, everyone's
scores and the cards in their piles (each was face up when taken), who has
picked. Never another player's hand or face-down card. In the Pro variant the
draft is public — everyone watched each card being taken — so the view holds
every seat's drafted cards and the draft's log, as the AI seats know them.

A view also carries what a table shows, so nobody outside the engine re-derives
a rule: each row's bullheads and capacity, the markers on it, and what the
viewer must decide now. Fields a variant does not use hold neutral values
(no markers, no special cards), so one view type serves every variant.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import BULLHEADS, ROW_LIMIT
from .outcome import Outcome
from .phase import Phase
from .state import GameState


@dataclass(frozen=True, slots=True)
class RowView:
    cards: tuple[int, ...]
    bullheads: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    player: int | None  # None: the public view
    variant: str
    phase: Phase  # a StrEnum: it still equals its value
    round: int
    turn: int
    rows: tuple[RowView, ...]
    hand: tuple[int, ...] | None  # None in the public view
    my_pick: int | None  # the viewer's own face-down card, if any
    scores: tuple[int, ...]  # totals including this round's pile
    round_points: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]  # each finished round's points, per seat (public)
    pile_sizes: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    picked: tuple[bool, ...]  # who has a card face down (never which card)
    waiting_for: tuple[int, ...]
    chooser: int | None  # who must choose a row for a low card
    chooser_card: int | None  # the low card itself (it is already revealed)
    draft_pool: tuple[int, ...]  # Pro: the face-up cards still to draft
    drafter: int | None
    draft_log: tuple[tuple[int, int], ...]  # Pro: (seat, card) taken this round, in order
    drafted: tuple[tuple[int, ...], ...]  # Pro: each seat's drafted cards this round, ascending
    piles: tuple[tuple[int, ...], ...]  # this round's taken cards, per seat
    revealed: tuple[int, ...]  # revealed this turn and still to place, lowest first
    target: int | None
    rounds: int | None
    outcome: Outcome | None
    # What the viewer must decide now: the phase whose action the game waits on
    # from them (``None`` in the public view, or when it waits on others).
    to_decide: Phase | None
    special_cards: bool  # the variant deals special cards: the table shows counts, deck and discard
    row_capacities: tuple[int, ...]  # cards a row holds before the next takes it (5; 6 with a 7 nimmt!)
    row_markers: tuple[tuple[str, ...], ...]  # Anniversary, per row: "fifth_row", "seven_nimmt", "stop"
    specials: tuple[str, ...] | None  # Anniversary: the viewer's special cards; None in the public view
    special_counts: tuple[int, ...]  # Anniversary: how many special cards each player holds
    special_deck_size: int  # Anniversary: the face-down special deck
    special_discard: tuple[str, ...]  # Anniversary: face up, oldest first
    decider: int | None  # Anniversary: whom a special-card or swap decision waits for
    special_card: int | None  # Anniversary: the number card waiting for its special-card decision


def observe(game: GameState, player: int | None) -> PlayerView:
    if player is not None:
        game._check_player(player)
    pick = game.picks[player] if player is not None else 0
    drafted: list[list[int]] = [[] for _ in game.hands]
    for seat, card in game.draft_log:
        drafted[seat].append(card)
    waiting_for = game.waiting_for
    n = game.config.players
    return PlayerView(
        player=player,
        variant=game.config.variant.value,
        phase=game.phase,
        round=game.round,
        turn=game.turn,
        rows=tuple(RowView(tuple(r), sum(BULLHEADS[c] for c in r)) for r in game.rows),
        hand=tuple(game.hands[player]) if player is not None else None,
        my_pick=pick or None,
        scores=game.scores,
        round_points=tuple(game.round_points),
        history=tuple(tuple(points) for points in game.history),
        pile_sizes=tuple(len(p) for p in game.piles),
        hand_sizes=tuple(len(h) for h in game.hands),
        picked=tuple(bool(c) for c in game.picks),
        waiting_for=waiting_for,
        chooser=game.chooser,
        chooser_card=game.pending[-1][0] if game.chooser is not None else None,
        draft_pool=tuple(game.draft_pool),
        drafter=game.drafter,
        draft_log=tuple(game.draft_log),
        drafted=tuple(tuple(sorted(cards)) for cards in drafted),
        piles=tuple(tuple(p) for p in game.piles),
        revealed=tuple(sorted(c for c, _ in game.pending)),
        target=game.config.target,
        rounds=game.config.rounds,
        outcome=game.outcome,
        to_decide=game.phase if player is not None and player in waiting_for else None,
        special_cards=game.config.spec.special_cards,
        row_capacities=(ROW_LIMIT,) * len(game.rows),
        row_markers=((),) * len(game.rows),
        specials=None,
        special_counts=(0,) * n,
        special_deck_size=0,
        special_discard=(),
        decider=None,
        special_card=None,
    )
