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
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from ..errors import HandfootError

if TYPE_CHECKING:
    import rich.progress

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
    """A Rich progress bar on stderr while the games run, drawn only when stderr is a terminal:
    a pipe, a log file or a test sees nothing of it (stdout is never touched).

    Use as a context manager; :meth:`start` draws the bar (``run_all`` calls it once the worker
    processes exist, so none is forked while the bar's refresh thread runs)."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and total > 0 and self.stream.isatty()
        self.done = 0
        self._bar: rich.progress.Progress | None = None
        self._task: rich.progress.TaskID | None = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        if not self.enabled or self._bar is not None:
            return
        # Imported here: Rich is only needed when a bar is drawn.
        import rich.console
        import rich.progress as rp

        self._bar = rp.Progress(
            rp.TextColumn("{task.description}"), rp.BarColumn(), rp.MofNCompleteColumn(),
            rp.TaskProgressColumn(), rp.TimeElapsedColumn(), rp.TextColumn("eta"),
            rp.TimeRemainingColumn(),
            console=rich.console.Console(file=self.stream),
            # Output is printed after the run; a redirected stdout must stay byte-identical.
            redirect_stdout=False,
        )
        self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)
        self._bar.start()

    def step(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        self.start()
        assert self._bar is not None and self._task is not None
        self._bar.update(self._task, completed=self.done)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


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
        if progress:
            progress.start()
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
        # Under fork, the first submit starts every worker: the bar comes after.
        if progress:
            progress.start()
        while pending:
            result = pending.popleft().result()
            nxt = next(source, None)
            if nxt is not None:
                pending.append(pool.submit(fn, *nxt))
            if progress:
                progress.step()
            yield result
