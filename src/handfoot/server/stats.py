"""What the server can say about its own health (``GET /api/stats``): how late its event loop
runs, how long the database takes to commit, how many tables and connections it holds.

The loop lag is the one figure that shows a server falling behind before anyone complains: a
timer that should fire every 50 ms fires late by however long the loop was busy (or the
process was waiting for a core).  Each window keeps the last minute.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque
from typing import Any

TICK = 0.05
WINDOW = 1200  # ticks or commits kept (a minute of ticks)


def percentiles(values: deque[float] | list[float]) -> dict[str, float]:
    if not values:
        return {"p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return {"p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": round(ordered[-1] * 1000, 2)}


class Stats:
    def __init__(self) -> None:
        self.lag: deque[float] = deque(maxlen=WINDOW)
        self.commits: deque[float] = deque(maxlen=WINDOW)
        self.gc_pauses: deque[float] = deque(maxlen=WINDOW)  # full collections only
        self.actions = 0  # applied since the start
        self.started = time.monotonic()
        self._gc_started = 0.0

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_pauses.append(time.perf_counter() - self._gc_started)

    def watch_gc(self) -> None:
        gc.callbacks.append(self._on_gc)

    def unwatch_gc(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    async def watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(TICK)
            self.lag.append(max(0.0, loop.time() - before - TICK))

    def report(self, tables: int, connections: int) -> dict[str, Any]:
        return {"uptime_s": round(time.monotonic() - self.started, 1), "tables": tables,
                "connections": connections, "actions": self.actions,
                "loop_lag": percentiles(self.lag), "commit": percentiles(self.commits),
                "full_gc": {"count": len(self.gc_pauses), **percentiles(self.gc_pauses)}}
