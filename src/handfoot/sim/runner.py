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
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, cast

if TYPE_CHECKING:
    import rich.progress

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
    results: list[T | None] = [None] * len(items)
    if jobs <= 1 or len(items) <= 1:
        if progress:
            progress.start()
        for i, item in enumerate(items):
            results[i] = fn(*item)
            if progress:
                progress.step()
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(items))) as pool:
            # Under fork, the first submit starts every worker: the bar comes after.
            futures: dict[Future[T], int] = {pool.submit(fn, *item): i
                                             for i, item in enumerate(items)}
            if progress:
                progress.start()
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                if progress:
                    progress.step()
    return [cast(T, r) for r in results]
