"""How late an event loop runs a callback: a ticker that sleeps 10 ms and notes the overshoot.

A late tick means the loop was busy (or the process was not scheduled); the load
benchmark reports it for the bot process and for the stand-in's own loop, so a
slow acknowledgement can be told apart from a slow measurer.
"""

from __future__ import annotations

import asyncio
import time

TICK = 0.010


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def percentiles(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5) * 1000:.1f} ms, p99 {percentile(values, 0.99) * 1000:.1f} ms, "
        f"max {max(values or [0.0]) * 1000:.1f} ms (n={len(values)})"
    )


class LoopLag:
    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task | None = None

    def start(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            self.lags.append(time.perf_counter() - before - TICK)

    def summary(self) -> str:
        if not self.lags:
            return "no ticks"
        return f"{percentiles(self.lags)[:-1]} ticks), p99.9 {percentile(self.lags, 0.999) * 1000:.1f} ms"


class GCPauses:
    """Collector pauses by generation (``gc.callbacks``): a full collection stops the loop."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0

    def install(self) -> GCPauses:
        import gc

        gc.callbacks.append(self._on_gc)
        return self

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._started)

    @staticmethod
    def census(top: int = 12) -> str:
        """How many objects the collector tracks, and of which types the most."""
        import collections
        import gc

        before = len(gc.get_objects())
        gc.collect()
        objects = gc.get_objects()
        counts = collections.Counter(type(o).__qualname__ for o in objects)
        return f"{before} tracked objects, {len(objects)} after a full collection; most: " + ", ".join(
            f"{n} {c}" for n, c in counts.most_common(top)
        )

    def summary(self) -> str:
        return "; ".join(f"gen{g}: {percentiles(v)}, total {sum(v):.2f} s" for g, v in self.pauses.items() if v)


class InteractionTimer:
    """Inside the bot process: time from discord.py parsing INTERACTION_CREATE to the callback
    request going out (the bot's own work, lock waits included), and the callback's HTTP round trip."""

    def __init__(self) -> None:
        self.received: dict[int, float] = {}
        self.handling: list[float] = []
        self.sending: list[float] = []

    def install(self) -> InteractionTimer:
        import discord.state
        import discord.webhook.async_ as webhooks

        timer = self
        parse = discord.state.ConnectionState.parse_interaction_create
        request = webhooks.AsyncWebhookAdapter.request

        def parse_interaction_create(state, data):
            timer.received[int(data["id"])] = time.perf_counter()
            return parse(state, data)

        async def timed_request(adapter, route, *args, **kwargs):
            received = timer.received.pop(int(route.webhook_id), None) if route.path.endswith("/callback") else None
            if received is None:
                return await request(adapter, route, *args, **kwargs)
            start = time.perf_counter()
            timer.handling.append(start - received)
            try:
                return await request(adapter, route, *args, **kwargs)
            finally:
                timer.sending.append(time.perf_counter() - start)

        discord.state.ConnectionState.parse_interaction_create = parse_interaction_create
        webhooks.AsyncWebhookAdapter.request = timed_request
        return self

    def summary(self) -> str:
        return (
            f"received -> callback sent: {percentiles(self.handling)}; callback round trip: {percentiles(self.sending)}"
        )
