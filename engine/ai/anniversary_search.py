"""Hard's search in the Anniversary game: every decision with a choice, special cards simulated.

Cards, low-card rows, special-card plays and swaps are all searched the same way as
the classic game's cards (``search.paired_search``: paired Monte Carlo, the prior's
choice kept unless the search beats it on evidence), over determinizations of what
the player cannot see:

* the opponents' number cards, drawn from the cards the player has not seen;
* the opponents' special cards — how many each holds is public, which ones is not —
  drawn from the special cards neither in the player's hand, nor on the discard
  pile, nor lying on the table; and the top of the special deck (what a swap draws).

Each option is first carried out on a copy of the game: only the player's own move
and what follows from it while the game waits on nobody else, so the copy uses
nothing hidden (a swap's draw, which would read the real deck, is taken from the
determinization instead). The rest of the round is then played in
``anniversary_kernel`` with every seat holding its special cards and spending them
on takes as the medium level does. The score is the player's bullheads to the end
of the round, less what its special cards left at the end of the first round are
worth in the second, less a share of the opponents' mean in the last round.

Candidates: a pick's cards ranked by medium's prior (the ``search.TOPK`` best); every
open row for a low card; for a special-card pause the decline and the ``TOPK_SPECIAL``
plays the one-step look-ahead rates best (a Shift alone can have sixty); for a swap
the decline and each kind held.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from ..actions import Action, ChooseRow
from ..anniversary.actions import DeclineSwap, PlaySpecial, Swap
from ..anniversary.game import AnniversaryGame
from ..anniversary.outlook import settle
from ..anniversary.specials import FIVE_ROWS, SPECIAL_DECK, Special
from ..phase import Phase
from . import heuristics, kernel, search
from .anniversary_kernel import HAND, WORTH, Table, worth_scale
from .info import information_set

TOPK_SPECIAL = 4  # special plays searched beside the decline
CARRY = worth_scale(HAND)  # a kept special card's worth (times ``WORTH``) when round 2 starts


def later_turns(game: AnniversaryGame) -> int:
    """Number cards the game deals after this round (12 in the first of two rounds)."""
    return HAND if game.round < (game.config.rounds or 2) else 0


def hidden_specials(game: AnniversaryGame, me: int) -> list[Special]:
    """The special cards ``me`` cannot see: the deck and the other hands, as one pool."""
    pool = Counter(SPECIAL_DECK)
    pool.subtract(game.specials[me])
    pool.subtract(game.special_discard)
    pool[Special.SEVEN_NIMMT] -= sum(game.sevens)
    pool[Special.STOP] -= sum(game.stops)
    pool[Special.FIFTH_ROW] -= len(game.rows) == FIVE_ROWS
    return [s for s in Special for _ in range(max(0, pool[s]))]


class Deal:
    """One determinization: every opponent's number cards and special cards (the player's own
    left empty: it holds them itself), and the deck's top (``None``: no card left to draw)."""

    __slots__ = ("hands", "held", "top")

    def __init__(self, hands: list[list[int]], held: list[list[Special]], top: Special | None) -> None:
        self.hands, self.held, self.top = hands, held, top


def sampler(game: AnniversaryGame, me: int, rng: random.Random) -> Callable[[], Deal]:
    """A function returning fresh ``Deal``s consistent with what ``me`` knows."""
    n = game.config.players
    unseen = information_set(game, me).unseen
    sizes = [len(h) for h in game.hands]
    counts = [len(s) for s in game.specials]
    pool = hidden_specials(game, me)
    discard = list(game.special_discard)
    opp = [p for p in range(n) if p != me]
    numbers = sum(sizes[p] for p in opp)
    specials = min(len(pool), sum(counts[p] for p in opp))
    deck = bool(game.special_deck)
    sample = rng.sample

    def draw() -> Deal:
        cards = sample(unseen, numbers)
        kinds = sample(pool, len(pool)) if deck else sample(pool, specials)
        hands: list[list[int]] = [[] for _ in range(n)]
        held: list[list[Special]] = [[] for _ in range(n)]
        k = s = 0
        for p in opp:
            hands[p] = sorted(cards[k : k + sizes[p]])
            held[p] = kinds[s : s + counts[p]]
            k += sizes[p]
            s += counts[p]
        top: Special | None
        if deck and s < len(kinds):
            top = kinds[s]
        else:  # an empty deck is rebuilt from the discard pile first
            top = discard[int(rng.random() * len(discard))] if discard else None
        return Deal(hands, held, top)

    return draw


class Option:
    """A candidate carried out on a copy: the copy, what it already cost each seat, and the
    special cards the player holds after it (before a swap's draw)."""

    __slots__ = ("game", "base", "held", "swap_out")

    def __init__(self, game: AnniversaryGame, action: Action, me: int, swap_out: Special | None = None) -> None:
        self.swap_out = swap_out  # the kind a swap discards (its draw comes from the Deal)
        copy = game.copy()
        copy.apply(action)
        settle(copy, me)  # declines and cheapest rows only: no special card of the player's is spent
        self.game = copy
        self.base = [a - b for a, b in zip(copy.scores, game.scores, strict=True)]
        # From the action, not the copy: a round the copy ended has dealt it new cards from the
        # real (hidden) deck.
        self.held = list(game.specials[me])
        if isinstance(action, (PlaySpecial, Swap)) and swap_out is None:
            self.held.remove(action.special)
        if swap_out is not None:
            self.held.remove(swap_out)


class Scorer:
    """Plays an ``Option`` (or a pick on the current game) to the end of the round for a ``Deal``."""

    def __init__(self, game: AnniversaryGame, me: int, plain: bool = False) -> None:
        n = game.config.players
        self.me = me
        self.round = game.round
        self.later = later_turns(game)
        self.ctab = kernel.cost_table(max(1, n - 1))
        info = information_set(game, me)
        info.rows = [game.rows[r] for r in game.open_rows()]
        care = search.carelessness(info)
        eps = search.EPS_CLASSIC + care * (1.0 - search.EPS_CLASSIC)
        self.eps = [search.EPS_SELF if p == me else eps for p in range(n)]
        self.eps_first = search.EPS_FIRST + care * (1.0 - search.EPS_FIRST)
        # ``plain``: the bullheads alone (the coach's estimates), no worth of cards kept, no ranking
        self.weight = search.LAST_ROUND_WEIGHT if self.later == 0 and not plain else 0.0
        self.carry = CARRY if self.later and not plain else 0.0
        self.first = 2 * n  # noise[:first] is the opponents' picks of a pick's turn

    def table(self, game: AnniversaryGame, deal: Deal, held_me: list[Special], hand_me: list[int]) -> Table:
        me = self.me
        held = [held_me if p == me else deal.held[p] for p in range(len(deal.hands))]
        hands = [list(hand_me) if p == me else list(deal.hands[p]) for p in range(len(deal.hands))]
        caps = [game.capacity(r) for r in range(len(game.rows))]
        return Table(game.rows, caps, game.stops, held, hands)

    def score(self, base: list[int], pen: list[int], held_me: list[Special]) -> float:
        me = self.me
        s = base[me] + pen[me] - self.carry * sum(WORTH[k] for k in held_me)
        if self.weight:
            others = [base[p] + pen[p] for p in range(len(pen)) if p != me]
            s -= self.weight * sum(others) / len(others)
        return s

    def finish(self, t: Table, noise: list[float], offset: int) -> None:
        if t.hands[0]:
            t.play_out(self.ctab, kernel.Floats(noise[offset:]).random, self.eps, self.later)

    def option(self, opt: Option, deal: Deal, noise: list[float]) -> float:
        """The score of ``opt`` (carried out already) when the hidden cards are ``deal``."""
        g, me = opt.game, self.me
        held = list(opt.held)
        if opt.swap_out is not None and deal.top is not None:
            held.append(deal.top)
        if g.round != self.round or g.is_over:
            return self.score(opt.base, [0] * len(opt.base), held)
        t = self.table(g, deal, held, g.hands[me])
        t.play_turn(g.pending, worth_scale(len(g.hands[0]) + self.later))
        self.finish(t, noise, 0)
        return self.score(opt.base, t.pen, t.held[me])

    def pick(self, game: AnniversaryGame, card: int, deal: Deal, noise: list[float]) -> float:
        """The score of picking ``card`` now when the hidden cards are ``deal``."""
        me = self.me
        hand = [c for c in game.hands[me] if c != card]
        t = self.table(game, deal, list(game.specials[me]), hand)
        key = t.danger(self.ctab).__getitem__
        order = [(card, me)]
        for p, h in enumerate(t.hands):
            if p == me:
                continue
            if noise[2 * p] < self.eps_first:
                c = h[int(noise[2 * p + 1] * len(h))]
            else:
                c = min(h, key=key)
            h.remove(c)
            order.append((c, p))
        t.play_turn(order, worth_scale(len(hand) + self.later))
        self.finish(t, noise, self.first)
        return self.score([0] * len(t.pen), t.pen, t.held[me])


def _floats(game: AnniversaryGame) -> int:
    return 2 * game.config.players * (len(game.hands[0]) + 2)


def hard_pick(game: AnniversaryGame, me: int, prior: list[int], rng: random.Random, budget: search.Budget) -> int:
    """The card ``me`` picks; ``prior`` is the hand ranked best first by medium."""
    scorer = Scorer(game, me)
    cands = prior[: max(1, search.TOPK)]
    return search.paired_search(
        cands,
        lambda c, deal, noise: scorer.pick(game, c, deal, noise),
        budget,
        sampler(game, me, rng),
        _floats(game),
        rng,
    )


def hard_choice(
    game: AnniversaryGame,
    me: int,
    ranked: list[Action],
    rng: random.Random,
    budget: search.Budget,
) -> Action:
    """The best of ``ranked`` (actions, medium's choice first) at a pause of the resolution:
    a low card's row, a special-card play or its decline, a swap or its decline."""
    if len(ranked) == 1:
        return ranked[0]
    scorer = Scorer(game, me)
    options = []
    for action in ranked:
        if isinstance(action, Swap):
            options.append(Option(game, DeclineSwap(me), me, swap_out=action.special))
        else:
            options.append(Option(game, action, me))
    best = search.paired_search(
        list(range(len(options))),
        lambda i, deal, noise: scorer.option(options[i], deal, noise),
        budget,
        sampler(game, me, rng),
        _floats(game),
        rng,
    )
    return ranked[best]


def estimates(game: AnniversaryGame, me: int, rng: random.Random, budget: search.Budget) -> dict[int, float]:
    """The coach's estimates: each card in hand (a pick) or each open row (a low card) with the
    bullheads ``me`` expects to take by the end of the round, on the same determinizations."""
    scorer = Scorer(game, me, plain=True)
    draw, floats = sampler(game, me, rng), _floats(game)
    if game.phase is Phase.PICK:
        cards = sorted(game.hands[me])
        return search.paired_estimates(
            cards, lambda c, deal, noise: scorer.pick(game, c, deal, noise), budget, draw, floats, rng
        )
    options = {r: Option(game, ChooseRow(me, r), me) for r in game.open_rows()}
    return search.paired_estimates(
        list(options), lambda r, deal, noise: scorer.option(options[r], deal, noise), budget, draw, floats, rng
    )


def open_table(game: AnniversaryGame) -> tuple[list[list[int]], list[int], list[int]]:
    """The open (unblocked) rows, their bullheads and capacities: the table a card may go to."""
    open_rows = game.open_rows()
    return (
        [game.rows[r] for r in open_rows],
        [game.row_bullheads(r) for r in open_rows],
        [game.capacity(r) for r in open_rows],
    )


def prior_picks(game: AnniversaryGame, me: int) -> list[int]:
    """The hand ranked by medium's expected bullheads on the open rows (best first)."""
    info = information_set(game, me)
    rows, pts, caps = open_table(game)
    info.rows, info.row_points = rows, pts
    keys = heuristics.pick_keys(info, rows, pts, caps)
    return sorted(info.hand, key=lambda c: (keys[c], c))
