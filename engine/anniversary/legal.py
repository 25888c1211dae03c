"""Which special cards a player may play on the number card about to be placed.

A special card is legal only if it would change something (so the engine
pauses only when there is a real choice). For number ``card`` of ``player``,
with ``normal`` the row Rules 1 and 2 give among the unblocked rows:

* **5th Row** — only while there are four rows.
* **7 nimmt!** — only on ``normal`` (so never for a low card) and only if that
  row has no 7 nimmt! yet; also on a row with fewer than five cards.
* **Insert** — into any unblocked row at the one index that keeps it ascending
  (start, middle or end), except the end of ``normal``, which is where the card
  goes anyway.
* **Replace** — any other number card still in the player's hand.
* **Shift** — any number card of an unblocked row to another unblocked row that
  has room (fewer cards than its capacity: a Shift never takes a row), at the
  index that keeps that row ascending.
* **Stop** — on any unblocked row while fewer than two Stops lie on the table.
* **Negative = Positive** — only if this placement takes a row: on the full
  ``normal`` row, or for a low card on any unblocked row (the row choice and
  the named card are one decision, made at the pause before the row choice).
"""

from __future__ import annotations

from bisect import bisect_left

from ..errors import (
    CardNotInHand,
    IllegalAction,
    IllegalSpecial,
    InvalidRow,
    RowBlocked,
    SpecialNotInHand,
)
from .actions import PlaySpecial
from .specials import FOUR_ROWS, MAX_STOPS, Special, sort_specials
from .table import AnniversaryTable


def special_plays(game: AnniversaryTable, player: int, card: int, kind: Special) -> list[PlaySpecial]:
    """Every legal play of ``kind`` by ``player`` on ``card`` now, fully parameterised."""
    rows = game.rows
    stops = game.stops
    open_rows = [r for r in range(len(rows)) if not stops[r]]
    normal = game.row_for(card)
    if kind is Special.FIFTH_ROW:
        return [PlaySpecial(player, kind)] if len(rows) == FOUR_ROWS else []
    if kind is Special.SEVEN_NIMMT:
        if normal is None or game.sevens[normal]:
            return []
        return [PlaySpecial(player, kind, row=normal)]
    if kind is Special.INSERT:
        plays = []
        for r in open_rows:
            position = bisect_left(rows[r], card)
            if r == normal and position == len(rows[r]):
                continue
            plays.append(PlaySpecial(player, kind, row=r, position=position))
        return plays
    if kind is Special.REPLACE:
        return [PlaySpecial(player, kind, card=c) for c in game.hands[player]]
    if kind is Special.SHIFT:
        roomy = [r for r in open_rows if len(rows[r]) < game.capacity(r)]
        return [
            PlaySpecial(player, kind, row=src, card=c, target_row=dst)
            for src in open_rows
            for c in rows[src]
            for dst in roomy
            if dst != src
        ]
    if kind is Special.STOP:
        if sum(stops) >= MAX_STOPS:
            return []
        return [PlaySpecial(player, kind, row=r) for r in open_rows]
    if kind is Special.NEGATIVE_POSITIVE:
        if normal is None:
            return [PlaySpecial(player, kind, row=r, card=c) for r in open_rows for c in rows[r]]
        if len(rows[normal]) >= game.capacity(normal):
            return [PlaySpecial(player, kind, row=normal, card=c) for c in rows[normal]]
        return []
    return []


def all_special_plays(game: AnniversaryTable, player: int, card: int) -> list[PlaySpecial]:
    """Every legal special play of ``player`` on ``card``, one kind after another."""
    plays: list[PlaySpecial] = []
    for kind in sort_specials(set(game.specials[player])):
        plays.extend(special_plays(game, player, card, kind))
    return plays


def has_special_play(game: AnniversaryTable, player: int, card: int) -> bool:
    """Whether ``player`` holds a special card that is legal on ``card`` now."""
    return any(special_plays(game, player, card, kind) for kind in set(game.specials[player]))


def refuse(game: AnniversaryTable, action: PlaySpecial, card: int) -> IllegalAction:
    """The most precise error for a special play that is not legal (``action`` is not in
    ``special_plays``); ``player`` is known to be the one the game waits for."""
    player, kind, row = action.player, action.special, action.row
    if not isinstance(kind, Special):
        return SpecialNotInHand(f"{kind!r} is not a special card")
    if kind not in game.specials[player]:
        return SpecialNotInHand(f"you do not hold a {kind.label} card")
    name = kind.label
    rows = game.rows
    for r in (row, action.target_row):
        if r is not None and (type(r) is not int or not 0 <= r < len(rows)):
            return InvalidRow(f"there is no row {r + 1 if type(r) is int else r}")
    normal = game.row_for(card)
    if kind is Special.FIFTH_ROW:
        return IllegalSpecial("there are five rows already: 5th Row cannot be played")
    if row is not None and game.stops[row]:
        return RowBlocked(f"row {row + 1} is blocked by a Stop: {name} cannot touch it")
    if kind is Special.SEVEN_NIMMT:
        if normal is None:
            return IllegalSpecial(f"your {card} fits no row, so 7 nimmt! has no row to go on")
        if game.sevens[normal]:
            return IllegalSpecial(f"row {normal + 1} already has a 7 nimmt!")
        return IllegalSpecial(f"7 nimmt! goes on the row your {card} goes to: row {normal + 1}")
    if kind is Special.INSERT:
        if row is None or action.position != bisect_left(rows[row], card):
            return IllegalSpecial(f"your {card} must keep the row in ascending order")
        return IllegalSpecial(f"Insert must not put your {card} where it would go anyway")
    if kind is Special.REPLACE:
        return CardNotInHand(f"{action.card} is not in your hand")
    if kind is Special.SHIFT:
        target = action.target_row
        if target is not None and game.stops[target]:
            return RowBlocked(f"row {target + 1} is blocked by a Stop: Shift cannot touch it")
        if row is None or action.card not in rows[row]:
            return IllegalSpecial(f"there is no {action.card} in that row to shift")
        if target is None or target == row:
            return IllegalSpecial("Shift moves a card to another row")
        return IllegalSpecial(f"row {target + 1} is full: Shift cannot move a card into it")
    if kind is Special.STOP:
        if sum(game.stops) >= 2:
            return IllegalSpecial("two rows carry a Stop already: a third Stop cannot be played")
        return IllegalSpecial("Stop goes on the end of a row")
    if kind is Special.NEGATIVE_POSITIVE:
        if not game.takes_row(card):
            return IllegalSpecial(f"Negative = Positive is only for taking a row, and your {card} takes none")
        if normal is not None and row != normal:
            return IllegalSpecial(f"your {card} takes row {normal + 1}, not another row")
        return IllegalSpecial("name a number card of the row you take")
    return IllegalSpecial(f"{name} cannot be played like that")
