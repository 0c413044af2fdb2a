"""Seeds that do not depend on scheduling, and running work items on all cores.

Every game's seed and every bot's seed is derived from the run's seed and the game's place in
the run, never from which worker plays it or when, so one process or sixty give the same
results; results come back in the order the work items were given.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import Any, TextIO, TypeVar

from ..errors import HandfootError

T = TypeVar("T")


# Work items queued per worker process: enough that no worker waits for the next, few enough
# that a long run's queue stays small.
IN_FLIGHT = 4
# The most games (or duplicate deals) one run plays: at the heuristic bot's few hundred games a
# second on two cores, a million already takes hours; more is a slip of the keyboard, and a
# bigger study is several runs with different seeds.
MAX_GAMES = 1_000_000


class SimError(HandfootError):
    """A run that cannot be made as asked (wrong player count, missing optional package...)."""


def derive_seed(*parts: object) -> int:
    """A 62-bit seed from the parts (stable across processes and Python runs, unlike hash())."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 2


def default_jobs() -> int:
    return os.cpu_count() or 1


def check_jobs(jobs: int) -> None:
    """Refuse a number of worker processes that cannot help: past a few per core they only
    share the cores and each holds its own interpreter."""
    most = 4 * default_jobs()
    if not 1 <= jobs <= most:
        raise SimError(f"--jobs must be from 1 to {most} (this machine has "
                       f"{default_jobs()} cores), not {jobs}")


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
    return list(stream(fn, items, len(items), jobs, progress))


def stream(fn: Callable[..., T], items: Iterable[tuple[Any, ...]], count: int, jobs: int,
           progress: Progress | None = None) -> Iterator[T]:
    """``fn(*item)`` for each of ``count`` items, yielded in the items' order as they are
    played on ``jobs`` processes.

    Only a few items per worker are in flight at once, so a run of a million games holds a
    few dozen work items and results, never all of them: the caller folds each result into
    its tallies (or a file) and lets it go."""
    if jobs <= 1 or count <= 1:
        for item in items:
            result = fn(*item)
            if progress:
                progress.step()
            yield result
        return
    workers = min(jobs, count)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        source = iter(items)
        pending: deque[Future[T]] = deque(
            pool.submit(fn, *item) for item in islice(source, IN_FLIGHT * workers))
        while pending:
            result = pending.popleft().result()
            nxt = next(source, None)
            if nxt is not None:
                pending.append(pool.submit(fn, *nxt))
            if progress:
                progress.step()
            yield result
