"""What the table service reports as it works, for whoever measures it.

The service knows nothing of how it is measured (the shell's metrics, a
benchmark, nothing at all): it calls an ``Observer``, whose methods do
nothing unless a subclass says otherwise.
"""

from __future__ import annotations


class Observer:
    """Receives the service's measurements; the default ignores them."""

    def store_write(self, seconds: float, ok: bool) -> None:
        """One store write (a commit, a new table, a post marked shown) took ``seconds``; ``ok``
        is False when it failed (nothing was changed)."""

    def post_shown(self, kind: str, seconds: float) -> None:
        """A post of ``kind`` ("turn" is a turn's reveal) reached the channel ``seconds`` after
        the commit that made it (for a reveal: after the turn's last pick was saved)."""
