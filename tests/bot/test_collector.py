"""What survives a full collection is frozen, so the next one walks only what is new; every few
full collections thaw everything, so a cycle that died while frozen is freed all the same."""

from __future__ import annotations

import gc
import sys

import pytest

import bot.app
from bot.app import THAW_EVERY, YOUNG_COLLECTION_EVERY, freeze_survivors, tune_interpreter


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


def test_a_serving_bot_lets_short_lived_objects_die_before_the_collector_walks_them():
    switch, thresholds = sys.getswitchinterval(), gc.get_threshold()
    young: list[int] = []

    def count_young(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 0:
            young.append(1)

    tune_interpreter()
    gc.callbacks.append(count_young)
    try:
        gc.collect(0)  # start counting allocations from nothing
        young.clear()
        batch = [[] for _ in range(YOUNG_COLLECTION_EVERY - 1_000)]  # what a few clicks make
        assert young == []  # Python's default would have walked it a dozen times
        batch += [[] for _ in range(2_000)]
        assert len(young) == 1
        assert sys.getswitchinterval() == pytest.approx(0.001)  # a store thread waits 1 ms for its turn, not 5
    finally:
        gc.callbacks.remove(count_young)
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(switch)
