"""What survives a full collection is frozen, so the next one walks only what is new; every few
full collections thaw everything, so a cycle that died while frozen is freed all the same."""

from __future__ import annotations

import gc

import bot.app
from bot.app import THAW_EVERY, freeze_survivors


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector can free it


def test_survivors_are_frozen_and_frozen_cycles_are_freed_at_the_next_thaw(monkeypatch):
    monkeypatch.setattr(bot.app, "_full_collections", 0)  # the next full collection freezes only
    gc.callbacks.append(freeze_survivors)
    try:
        kept = [Node() for _ in range(100)]
        before = gc.get_freeze_count()
        gc.collect(1)  # a younger generation's collection freezes nothing
        assert gc.get_freeze_count() == before
        gc.collect()
        assert gc.get_freeze_count() >= before + 100  # the kept nodes are no longer walked
        del kept  # now garbage, but frozen: collections skip it ...
        freed = [gc.collect() for _ in range(THAW_EVERY - 1)]
        assert sum(freed[:-1]) < 100 and freed[-1] >= 100  # ... until the full collection that thaws
    finally:
        gc.callbacks.remove(freeze_survivors)
        gc.unfreeze()
