"""A lossless, JSON-safe form of the whole game state, the RNG included, so a
game can be checkpointed after any action and resumed exactly."""

from __future__ import annotations

import base64
import binascii
import random
import struct
from typing import Any

from .config import GameConfig
from .errors import CorruptState
from .outcome import Outcome
from .phase import Phase
from .state import GameState
from .variants import state_class, variant_spec

FORMAT = 1


def _rng_to_json(rng: random.Random) -> list[object]:
    """The generator's state with its 625 words as one base64 string.

    As a list of numbers it was 7 of a checkpoint's 8 KB and most of the time
    spent encoding one, and a checkpoint is written after every action.
    """
    version, internal, gauss = rng.getstate()
    words = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")
    return [version, words, gauss]


def _rng_from_json(value: Any) -> random.Random:
    version, internal, gauss = value
    if isinstance(internal, str):
        try:
            raw = base64.b64decode(internal, validate=True)
        except binascii.Error as exc:
            raise CorruptState(f"saved game is damaged: rng state is not base64 ({exc})") from None
        if len(raw) % 4:
            raise CorruptState("saved game is damaged: rng state has a partial word")
        internal = struct.unpack(f"<{len(raw) // 4}I", raw)
    # else: saves written before the compact form hold the words as a list
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def game_to_dict(game: GameState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "config": game.config.to_dict(),
        "rng": _rng_to_json(game.rng),
        "round": game.round,
        "turn": game.turn,
        "phase": game.phase.value,
        "rows": [list(r) for r in game.rows],
        "hands": [list(h) for h in game.hands],
        "piles": [list(p) for p in game.piles],
        "round_points": list(game.round_points),
        "totals": list(game.totals),
        "history": [list(h) for h in game.history],
        "set_aside": list(game.set_aside),
        "picks": list(game.picks),
        "pending": [list(p) for p in game.pending],
        "chooser": game.chooser,
        "draft_pool": list(game.draft_pool),
        "drafter": game.drafter,
        "first_drafter": game.first_drafter,
        "draft_log": [list(entry) for entry in game.draft_log],
        "outcome": game.outcome.to_dict() if game.outcome else None,
    }
    serializer = variant_spec(game.config.variant).serializer
    if serializer is not None:  # a variant's own state, under its name (e.g. "anniversary")
        data[game.config.variant.value] = serializer.dump(game)
    return data


def _int_lists(value: object, name: str) -> list[list[int]]:
    if not isinstance(value, list) or not all(isinstance(x, list) and all(type(c) is int for c in x) for x in value):
        raise CorruptState(f"{name} must be a list of lists of whole numbers")
    return [list(x) for x in value]


def _ints(value: object, name: str) -> list[int]:
    if not isinstance(value, list) or not all(type(c) is int for c in value):
        raise CorruptState(f"{name} must be a list of whole numbers")
    return list(value)


def seat_or_none(value: object, name: str, players: int) -> int | None:
    """A saved seat (or ``None`` for nobody); anything else raises ``CorruptState``."""
    if value is None or (type(value) is int and 0 <= value < players):
        return value
    raise CorruptState(f"{name} must be a seat or null")


def _draft_log(data: dict[str, Any], game: GameState) -> list[tuple[int, int]]:
    """The Pro draft's public log; saves from before it was kept rebuild what they can.

    Mid-draft, an old save's hands are exactly the cards drafted so far, taken
    in seat order from the first drafter (each seat's own cards in ascending
    order: which of them came first was not saved). After the draft, played
    cards have left the hands, so an old save's log stays empty.
    """
    if "draft_log" in data:
        return [(seat, card) for seat, card in _int_lists(data["draft_log"], "draft_log")]
    if game.phase is not Phase.DRAFT or game.first_drafter is None:
        return []
    n = len(game.hands)
    order = [(game.first_drafter + i) % n for i in range(n)]
    log: list[tuple[int, int]] = []
    for turn in range(max((len(h) for h in game.hands), default=0)):
        log += [(seat, game.hands[seat][turn]) for seat in order if turn < len(game.hands[seat])]
    return log


def game_from_dict(cls: type[GameState], data: dict[str, Any]) -> GameState:
    """Rebuild a game as its variant's state class (``engine.variants.state_class``);
    anything that cannot be a saved game raises ``CorruptState``."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CorruptState("not a saved game of this engine (unknown format)")
    try:
        config = GameConfig.from_dict(data["config"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptState(f"saved game is damaged: {exc}") from exc
    state = state_class(cls, config.variant)
    if not issubclass(state, GameState):  # the registry cannot name the type: see engine.variants
        raise TypeError(f"the {config.variant.value} variant is registered with {state.__name__}, no game state")
    try:
        game = state(config, _rng_from_json(data["rng"]))
        n = config.players
        game.round = int(data["round"])
        game.turn = int(data["turn"])
        game.phase = Phase(data["phase"])
        game.rows = _int_lists(data["rows"], "rows")
        game.hands = _int_lists(data["hands"], "hands")
        game.piles = _int_lists(data["piles"], "piles")
        game.round_points = _ints(data["round_points"], "round_points")
        game.totals = _ints(data["totals"], "totals")
        game.history = _int_lists(data["history"], "history")
        game.set_aside = _ints(data["set_aside"], "set_aside")
        game.picks = _ints(data["picks"], "picks")
        game.n_picked = sum(1 for c in game.picks if c)
        game.pending = [(c, p) for c, p in _int_lists(data["pending"], "pending")]
        game.chooser = seat_or_none(data["chooser"], "chooser", n)
        game.draft_pool = _ints(data["draft_pool"], "draft_pool")
        game.drafter = seat_or_none(data["drafter"], "drafter", n)
        game.first_drafter = seat_or_none(data["first_drafter"], "first_drafter", n)
        game.draft_log = _draft_log(data, game)
        game.outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] else None
        serializer = variant_spec(config.variant).serializer
        if serializer is not None:  # a variant's own state (see engine/anniversary)
            serializer.load(game, data)
    except CorruptState:
        raise
    except (KeyError, TypeError, ValueError) as exc:  # an InvalidConfig is a ValueError
        raise CorruptState(f"saved game is damaged: {exc}") from exc
    if len(game.hands) != n or len(game.piles) != n or len(game.picks) != n:
        raise CorruptState("saved game is damaged: seat count does not match the table")
    return game
