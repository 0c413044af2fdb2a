"""Seeds that do not depend on scheduling, and running work items on all cores.

Every game's seed and every bot's seed is derived from the run's seed and the game's place in
the run, never from which worker plays it or when, so one process or sixty give the same
results; results come back in the order the work items were given.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, TextIO, TypeVar, cast

T = TypeVar("T")


class SimError(ValueError):
    """A run that cannot be made as asked (wrong player count, missing optional package...)."""


def derive_seed(*parts: object) -> int:
    """A 62-bit seed from the parts (stable across processes and Python runs, unlike hash())."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 2


def default_jobs() -> int:
    return os.cpu_count() or 1


class Progress:
    """A progress line on stderr: updated in place on a terminal, else a few plain lines."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and total > 0
        self.tty = self.stream.isatty()
        self.done = 0
        self._next_mark = 0.25  # for a log or a pipe: a line at each quarter

    def step(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        fraction = self.done / self.total
        if self.tty:
            self.stream.write(f"\r{self._text()}")
            if self.done >= self.total:
                self.stream.write("\n")
            self.stream.flush()
        elif fraction >= self._next_mark or self.done >= self.total:
            while self._next_mark <= fraction:
                self._next_mark += 0.25
            print(self._text(), file=self.stream, flush=True)

    def _text(self) -> str:
        return f"{self.label}: {self.done}/{self.total} ({100 * self.done / self.total:.0f}%)"


def run_all(fn: Callable[..., T], items: Sequence[tuple[Any, ...]], jobs: int,
            progress: Progress | None = None) -> list[T]:
    """``[fn(*item) for item in items]``, on ``jobs`` processes; ``fn`` must be importable
    (a module-level function) so the workers can find it."""
    results: list[T | None] = [None] * len(items)
    if jobs <= 1 or len(items) <= 1:
        for i, item in enumerate(items):
            results[i] = fn(*item)
            if progress:
                progress.step()
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(items))) as pool:
            futures: dict[Future[T], int] = {pool.submit(fn, *item): i
                                             for i, item in enumerate(items)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                if progress:
                    progress.step()
    return [cast(T, r) for r in results]
