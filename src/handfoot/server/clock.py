"""The server's wall clock, for the turn limits of turn-based tables (pace.py).

A turn limit is hours or days long and must survive a restart, so it is kept in wall-clock
time (UTC), not the event loop's monotonic time.  The clock is one object the hall hands to
every table, so a test can move it ("two days later") without sleeping:

- ``Clock.advance(seconds)`` moves this process's clock forward and wakes whatever waits on
  it (the tests' hook, in process);
- ``HANDFOOT_TEST_CLOCK_OFFSET`` (seconds, **test-only**) starts a ``handfoot serve`` process
  with its clock that far ahead of the machine's, so a browser test can stop the server and
  start it again "two days later" on the same database.  Nobody runs a real server with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import time
from datetime import UTC, datetime

TEST_OFFSET_VARIABLE = "HANDFOOT_TEST_CLOCK_OFFSET"
LONGEST_NAP = 60.0  # a real wait wakes at least this often (a machine that slept, a clock set)
MOST_OFFSET = 10 * 365 * 24 * 3600.0  # the test offset's range: ten years either way

log = logging.getLogger("handfoot.server")


class Clock:
    """Seconds since the epoch, UTC, plus an offset that only tests set."""

    def __init__(self, offset: float = 0.0) -> None:
        self.offset = offset
        self._waiters: set[asyncio.Future[None]] = set()

    @classmethod
    def from_environment(cls) -> Clock:
        """The real clock, moved by ``HANDFOOT_TEST_CLOCK_OFFSET`` when a test sets it: a
        number of seconds within ``MOST_OFFSET`` either way (a ``nan`` or ``inf`` would break
        every stored time), and said in the log as the server starts, so that nobody runs a
        real server with it unawares."""
        raw = os.environ.get(TEST_OFFSET_VARIABLE, "").strip()
        if not raw:
            return cls()
        try:
            offset = float(raw)
        except ValueError:
            offset = math.nan
        if not math.isfinite(offset) or abs(offset) > MOST_OFFSET:
            raise ValueError(f"{TEST_OFFSET_VARIABLE}: expected seconds (at most "
                             f"{MOST_OFFSET:.0f} either way), got {raw[:40]!r}")
        if offset:
            log.warning("the clock is %+.0f s off the machine's (%s, for tests only)", offset,
                        TEST_OFFSET_VARIABLE)
        return cls(offset)

    def now(self) -> float:
        return time.time() + self.offset

    def iso(self, at: float | None = None) -> str:
        return iso(self.now() if at is None else at)

    async def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds`` (at most a minute at a time); the clock being moved wakes
        the sleeper early, who then looks at the time again."""
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()
        self._waiters.add(woken)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken, max(0.0, min(seconds, LONGEST_NAP)))
        finally:
            self._waiters.discard(woken)

    def advance(self, seconds: float) -> None:
        """Tests only: the clock jumps ahead, and every waiter wakes to look at it."""
        self.offset += seconds
        self.wake()

    def wake(self) -> None:
        """Every waiter looks at the time again (a deadline was set sooner than it slept)."""
        for woken in list(self._waiters):
            if not woken.done():
                woken.set_result(None)


def iso(at: float) -> str:
    """UTC, ISO 8601 to the second (as the storage writes every time)."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
