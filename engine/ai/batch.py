"""The classic search's rollouts as arrays: many simulated rounds at once (numpy, optional).

``kernel.play_out`` finishes one round in plain lists, a few hundred Python steps
per round. Here a whole batch of rounds — every candidate on every
determinization of one search step — advances together: each turn is a handful
of array operations over all of them, so the Python overhead is paid once per
turn of the batch, not once per turn of each round. On the same machine a batch
of a few hundred rounds runs several times as many rounds a second as the list
kernel (``benchmarks/ai.py --sections kernel`` prints both).

The rules and the policies are the list kernel's, to the bit:

* placement: Rules 1–4 as ``kernel.resolve`` (a low card takes the cheapest row,
  the lowest index on a tie);
* the simulated players' card: the danger table of ``kernel.cost_table`` (the
  lowest card on a tie), a uniformly random card with the seat's chance ``eps``;
* the opponents' first card: medium's key (``medium_model.MediumModel``), a
  random card with chance ``eps_first``.

``tests/engine/test_ai_batch.py`` checks, with no random cards, that every
batched round ends exactly as ``kernel.play_out`` ends it, and that
``MediumModel``'s choices come out the same.

numpy is optional: without it (``AVAILABLE`` false) the search runs the list
kernel, as before. This is the only module of ``engine`` that may import a
library outside the standard library, and only for speed: the rules engine
itself never does.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

from ..cards import BULLHEADS, ROW_LIMIT
from ..config import Variant
from . import kernel
from .info import InfoSet
from .medium_model import MediumModel, _tail


def _on_first_use(name: str) -> ModuleType | None:
    """Module ``name``, imported when its first attribute is read (None where it is not installed).

    Only the hard AI's searches use numpy, and they run in the bot's worker process; the bot's
    own process imports this module all the same (through ``engine.ai``) and would hold numpy's
    10 MB for nothing. The standard library's ``LazyLoader`` defers the import to first use."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
else:  # an accelerator only: the search falls back to the list kernel without it
    np = sys.modules.get("numpy") or _on_first_use("numpy")

#: Whether numpy is installed (``PickBatch.fits`` says no without it, and nothing below runs).
AVAILABLE = np is not None


@lru_cache(maxsize=1)
def _imports() -> bool:
    """Whether the installed numpy also imports; the first call runs its deferred import.

    A broken install (a build for another Python, a missing shared library) would otherwise fail
    every hard pick at its first array: the search keeps to the list kernel instead, as it does
    where numpy is not installed."""
    try:
        np.ndarray  # noqa: B018  # the first attribute read runs the import LazyLoader deferred
    except Exception:
        return False
    return True


GAPS = 106  # the last axis of ``kernel.cost_table``
POINTS = kernel.MAX_ROW_POINTS + 1
LOWS = (ROW_LIMIT + 1) * POINTS * GAPS  # where the danger of a low card starts in the flat table
SPAN = LOWS + POINTS  # one policy's table; the standard heuristic's follows the danger table's
TAKES = 1000  # the standard heuristic's key of a card that takes a row: above every gap


@lru_cache(maxsize=16)
def _tables(opponents: int) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """(the flat key tables of both policies, the bullheads of every card value) as arrays.

    First the danger table: the cost table's lines, then the floats 0, 1, … (a low card's
    danger: the cheapest row's bullheads); then the same layout for the standard heuristic
    (``heuristics.standard_pick``): the gap on a row with room, else ``TAKES`` plus the take."""
    ctab = kernel.cost_table(opponents)
    danger = [x for need in ctab for per in need for x in per] + list(range(POINTS))
    std = [
        float(gap) if need > 0 else float(TAKES + p)
        for need in range(ROW_LIMIT + 1)
        for p in range(POINTS)
        for gap in range(GAPS)
    ]
    std += [float(TAKES + p) for p in range(POINTS)]
    flat = np.array(danger + std, dtype=np.float64)
    return flat, np.array(BULLHEADS, dtype=np.int64)


def _place(
    ends: NDArray[np.int64],
    lens: NDArray[np.int64],
    pts: NDArray[np.int64],
    pen: NDArray[np.int64],
    cards: NDArray[np.int64],
    bh: NDArray[np.int64],
) -> None:
    """Place each batch row's revealed ``cards`` (B, n: seat order) lowest first (Rules 1–4)."""
    b, rows_n = ends.shape
    n = cards.shape[1]
    order = np.argsort(cards, axis=1)
    ranked = np.take_along_axis(cards, order, axis=1)
    base = np.arange(b) * rows_n
    seat_base = np.arange(b) * n
    ends_f, lens_f, pts_f, pen_f = ends.ravel(), lens.ravel(), pts.ravel(), pen.ravel()
    for j in range(n):
        card = ranked[:, j]
        r = np.where(ends < card[:, None], ends, -1).argmax(axis=1)
        at = base + r
        low = ends_f[at] > card  # no end below the card: argmax fell on a row above it
        if low.any():
            at = np.where(low, base + pts.argmin(axis=1), at)
        ln = lens_f[at]
        p = pts_f[at]
        take = low | (ln >= ROW_LIMIT)
        pen_f[seat_base + order[:, j]] += np.where(take, p, 0)
        c_bh = bh[card]
        ends_f[at] = card
        lens_f[at] = np.where(take, 1, ln + 1)
        pts_f[at] = np.where(take, c_bh, p + c_bh)


def _danger(
    ends: NDArray[np.int64],
    lens: NDArray[np.int64],
    pts: NDArray[np.int64],
    hands: NDArray[np.int64],
    flat: NDArray[np.float64],
    styles: NDArray[np.int64] | None = None,
) -> NDArray[np.float64]:
    """Every card's danger-table value (B, n, k) on the batch's rows (a seat whose ``styles``
    entry is ``SPAN``: its standard heuristic key instead).

    With the rows in order of their ends, a card's row is the number of ends below it (0: a
    low card), so the value is ``flat[off[b, slot] + card]``, where ``off`` holds for each
    slot the start of that row's line of the cost table minus the row's end (a low card: the
    entry holding the cheapest row's bullheads, minus the card)."""
    b, rows_n = ends.shape
    order = np.argsort(ends, axis=1)
    se = np.take_along_axis(ends, order, axis=1)
    off = np.empty((b, rows_n + 1), dtype=np.int64)
    need = ROW_LIMIT - np.take_along_axis(lens, order, axis=1)
    off[:, 1:] = (need * POINTS + np.take_along_axis(pts, order, axis=1)) * GAPS - se
    slot = hands > se[:, 0, None, None]
    slot = slot.astype(np.int64)
    for i in range(1, rows_n):
        slot += hands > se[:, i, None, None]
    low = slot == 0
    off[:, 0] = LOWS + pts.min(axis=1)
    slot += (np.arange(b) * (rows_n + 1))[:, None, None]
    at = off.ravel()[slot]
    at += np.where(low, 0, hands)
    if styles is not None:  # (n,) or one line per batch row (B, n)
        at += styles[..., None]
    return flat[at]


def _choose(
    keys: NDArray[np.float64],
    hands: NDArray[np.int64],
    eps: NDArray[np.float64] | None,
    u_random: NDArray[np.float64],
    u_index: NDArray[np.float64],
) -> NDArray[np.int64]:
    """The column of each seat's card: the lowest key (first on a tie), or with chance ``eps`` a
    uniformly random one. ``eps`` (n,) or (B, n), ``u_*`` (B, n)."""
    k = hands.shape[2]
    pick: NDArray[np.int64] = keys.argmin(axis=2)
    if eps is not None:
        rand = (u_index * k).astype(np.int64)
        pick = np.where(u_random < eps, np.minimum(rand, k - 1), pick)
    return pick


def _drop(hands: NDArray[np.int64], col: NDArray[np.int64]) -> NDArray[np.int64]:
    """``hands`` (B, n, k) without the card in column ``col`` (B, n) of each hand, order kept."""
    b, n, k = hands.shape
    keep = np.arange(k)[None, None, :] != col[..., None]
    kept: NDArray[np.int64] = hands[keep].reshape(b, n, k - 1)
    return kept


def play_out(
    ends: NDArray[np.int64],
    lens: NDArray[np.int64],
    pts: NDArray[np.int64],
    pen: NDArray[np.int64],
    hands: NDArray[np.int64],
    eps: NDArray[np.float64] | None,
    gen: np.random.Generator,
    opponents: int,
    repeat: int = 1,
    styles: NDArray[np.int64] | None = None,
) -> NDArray[np.int64]:
    """Finish every batch row's round: each seat plays the danger table, a random card with
    chance ``eps[seat]`` (``eps`` (n,) or None); low cards take the cheapest row. ``ends``/``lens``/``pts``
    (B, rows), ``pen`` (B, n), ``hands`` (B, n, k), every hand ascending. Mutates all but
    ``hands``. With ``repeat`` r the B rows are r blocks of B/r, and every block sees the same
    random numbers (the search's candidates, each on the same determinizations). ``styles``
    (n,): ``SPAN`` for a seat that plays the standard heuristic instead of the danger table."""
    flat, bh = _tables(opponents)
    b, n = hands.shape[:2]
    noisy = eps is not None and bool(np.any(eps > 0))
    while hands.shape[2]:
        keys = _danger(ends, lens, pts, hands, flat, styles)
        if noisy:
            u = gen.random((2, b // repeat, n))
            if repeat > 1:
                u = np.tile(u, (1, repeat, 1))
            col = _choose(keys, hands, eps, u[0], u[1])
        else:
            col = keys.argmin(axis=2)
        cards = np.take_along_axis(hands, col[..., None], axis=2)[..., 0]
        hands = _drop(hands, col)
        _place(ends, lens, pts, pen, cards, bh)
    return pen


class MediumKeys:
    """``MediumModel``'s keys for a batch of hands at once (same floats, same ties)."""

    def __init__(self, model: MediumModel, hand_size: int) -> None:
        n = len(model.end)
        self.end = np.array(model.end, dtype=np.int64)
        self.base = np.array(model.base, dtype=np.int64)
        self.need = np.array(model.need, dtype=np.int64)
        self.pts = np.array(model.pts, dtype=np.float64)
        self.cost = np.array(model.cost, dtype=np.float64)
        self.low = model.low
        size = model.size - hand_size
        m = model.m
        self.tail = np.array(
            [[_tail(m, need, k, size) for k in range(n + 1)] for need in range(ROW_LIMIT + 1)], dtype=np.float64
        )

    def keys(self, hands: NDArray[np.int64]) -> NDArray[np.float64]:
        """Keys (D, s, k) for sorted ``hands`` (D, s, k)."""
        e = self.end[hands]
        # own cards in the gap: the card's index minus the own cards at or below the row's end
        idx = np.arange(hands.shape[2])
        le = (hands[..., None, :] <= e[..., None]).sum(axis=3)
        k = self.base[hands] - (idx - le)
        nd = self.need[hands]
        k = np.clip(k, 0, self.tail.shape[1] - 1)
        t_need = self.tail[nd, k]
        t_one = self.tail[1, k]
        danger = np.where(nd == 0, self.pts[hands] * (1.0 - t_one), t_need * self.cost[hands])
        out = danger + 0.002 * (hands - e)
        return np.where(e < 0, self.low + 0.0, out)


class PickBatch:
    """The classic pick's simulations for ``search``, a batch of determinizations at a time.

    ``run(cands, d)`` draws ``d`` determinizations (the opponents' hands from the unseen
    cards, their first cards by medium's keys or at random), plays every candidate in
    ``cands`` against all of them with the same random numbers, and returns the scores as a
    list per candidate (paired across candidates, determinization by determinization)."""

    def __init__(
        self,
        info: InfoSet,
        model: MediumModel,
        seat_eps: list[float],
        eps_first: float,
        w: float,
        seed: int,
        std_share: float = 0.0,
        std_eps: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        n, me = info.players, info.player
        self.n, self.me, self.w = n, me, w
        self.opponents = max(1, n - 1)
        self.others = [p for p in range(n) if p != me]
        self.hand = list(info.hand)
        self.size = info.hand_sizes[self.others[0]]
        self.unseen = np.array(info.unseen, dtype=np.int64)
        self.total = self.size * len(self.others)
        self.ends0 = np.array([r[-1] for r in info.rows], dtype=np.int64)
        self.lens0 = np.array([len(r) for r in info.rows], dtype=np.int64)
        self.pts0 = np.array(info.row_points, dtype=np.int64)
        # the opponents' policy on a determinization: medium's first card, then the danger table
        # (a random card with chance eps_first, then seat_eps); or, on a share ``std_share`` of
        # them, the standard heuristic's throughout (random cards with the chances ``std_eps``)
        opp_seat = np.array([p != me for p in range(n)])
        self.eps = np.array(seat_eps, dtype=np.float64)
        self.eps_std = np.where(opp_seat, std_eps[0], self.eps)
        self.eps_first = eps_first
        self.eps_first_std = std_eps[1]
        self.std_share = std_share
        self.std_styles = np.where(opp_seat, SPAN, 0)
        self.medium = MediumKeys(model, self.size)
        self.gen = np.random.default_rng(seed)

    @staticmethod
    def fits(info: InfoSet) -> bool:
        """Whether the batch covers this pick: the classic game, every hand the same size."""
        sizes = set(info.hand_sizes)
        return (
            AVAILABLE
            and info.variant is Variant.CLASSIC
            and len(sizes) == 1
            and len(info.unseen) >= sum(info.hand_sizes) - len(info.hand)
            and _imports()
        )

    def run(self, cands: list[int], d: int) -> list[list[float]]:
        gen = self.gen
        n, me, s = self.n, self.me, self.size
        opp = len(self.others)
        # the determinizations: a random permutation of the unseen cards per row, dealt in order
        perm = np.argsort(gen.random((d, len(self.unseen))), axis=1)[:, : self.total]
        dealt = np.sort(self.unseen[perm].reshape(d, opp, s), axis=2)
        # which determinizations play the standard heuristic's opponents
        std = gen.random(d) < self.std_share if self.std_share > 0 else np.zeros(d, dtype=bool)
        # the opponents' first cards: medium's (or the standard heuristic's), or a random one
        if std.any():
            tile = (d, 1)
            std_keys = _danger(
                np.tile(self.ends0, tile),
                np.tile(self.lens0, tile),
                np.tile(self.pts0, tile),
                dealt,
                _tables(self.opponents)[0],
                np.full(opp, SPAN),
            )
            keys = std_keys if std.all() else np.where(std[:, None, None], std_keys, self.medium.keys(dealt))
        else:
            keys = self.medium.keys(dealt)
        u = gen.random((2, d, opp))
        col = _choose(keys, dealt, np.where(std, self.eps_first_std, self.eps_first)[:, None], u[0], u[1])
        first = np.take_along_axis(dealt, col[..., None], axis=2)[..., 0]
        rest = _drop(dealt, col)
        c = len(cands)
        b = c * d
        hands = np.empty((b, n, s - 1), dtype=np.int64)
        cards = np.empty((b, n), dtype=np.int64)
        oi = np.array(self.others)
        hands[:, oi, :] = np.tile(rest, (c, 1, 1))
        cards[:, oi] = np.tile(first, (c, 1))
        for i, card in enumerate(cands):
            mine = [x for x in self.hand if x != card]
            hands[i * d : (i + 1) * d, me, :] = mine
            cards[i * d : (i + 1) * d, me] = card
        ends = np.tile(self.ends0, (b, 1))
        lens = np.tile(self.lens0, (b, 1))
        pts = np.tile(self.pts0, (b, 1))
        pen = np.zeros((b, n), dtype=np.int64)
        _place(ends, lens, pts, pen, cards, _tables(self.opponents)[1])
        if s > 1:
            # the same random numbers for every candidate: draw them for d rows and repeat
            if std.any():
                styles = np.tile(np.where(std[:, None], self.std_styles, 0), (c, 1))
                eps = np.tile(np.where(std[:, None], self.eps_std, self.eps), (c, 1))
            else:
                styles, eps = None, self.eps
            play_out(ends, lens, pts, pen, hands, eps, gen, self.opponents, repeat=c, styles=styles)
        scores = pen[:, me].astype(np.float64)
        if self.w:
            scores = scores - self.w * (pen.sum(axis=1) - pen[:, me]) / opp
        by_candidate: list[list[float]] = scores.reshape(c, d).tolist()
        return by_candidate
