"""The interactions that open lobbies, waiting for their lobby to be shown.

A new lobby is committed with its first post, "opened" (``bot.tables.lobby``), and shown by the
presenter like any other post: once, retried on a 5xx or a 429, and again by the next start if it
never reached Discord. Its natural carrier is the command or the Rematch click that opened it:
the lobby is that interaction's answer when it was made in the lobby's channel (otherwise the
answer says where the lobby is). The interaction is announced before the service opens the lobby
(``expect``), so the commit finds it at once (``claim``) and the post never waits for it; a lobby
opened by no interaction (restored, or opened by the service alone) is posted with the bot's token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from cogs.reply import Reply


@dataclass(eq=False)
class Opening:
    """One lobby's opening: the interaction that asks for it, why its game will have no thread
    (known before it opened; told to the opener alone), and whether it is over (``done``)."""

    reply: Reply
    channel_id: int  # where the lobby will be
    why: str | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    at: float = 0.0  # when it was asked for (the presenter's clock): its token lasts from then


class Openings:
    """``expect`` an opening before the service opens its lobby, ``withdraw`` it if none opened;
    the lobby's commit ``claim``s it, and the table's stage keeps it until its worker has shown the
    lobby (``TableStage.opening``)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._expected: dict[int, list[Opening]] = {}  # by the host who asked

    def __len__(self) -> int:
        return sum(map(len, self._expected.values()))

    def expect(self, host_id: int, channel_id: int, reply: Reply, why: str | None = None) -> Opening:
        opening = Opening(reply, channel_id, why, at=self.clock())
        self._expected.setdefault(host_id, []).append(opening)
        return opening

    def withdraw(self, host_id: int, opening: Opening) -> None:
        """``opening`` is over, whether a lobby claimed it or none was opened."""
        waiting = self._expected.get(host_id)
        if waiting is not None and opening in waiting:
            waiting.remove(opening)
            if not waiting:
                del self._expected[host_id]

    def claim(self, host_id: int, channel_id: int) -> Opening | None:
        """A new lobby was committed: the opening its host announced for its channel (or, failing
        that, their oldest) is its; None if they announced none."""
        waiting = self._expected.get(host_id)
        if not waiting:
            return None
        opening = next((o for o in waiting if o.channel_id == channel_id), waiting[0])
        self.withdraw(host_id, opening)
        return opening
