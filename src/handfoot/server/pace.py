"""Tables that last days: the turn limits of turn-based tables.

A table's ``pace`` (its options) is ``live`` (a person who closes the page has their seat held
for ``seat_hold`` seconds, then played by its bot) or ``turn-based``: a person's seat is never
handed to a bot because they are gone, the table's bots play with nobody watching, and each
turn may have a limit (``turn_limit``: 1 hour to 3 days).  When the limit passes on a person's
turn, the table does what the host chose (``on_limit``): the seat's bot plays that one turn
and gives the seat back (``bot``), or the game waits for the person (``wait``).

Whose turn it is and since when is stored with the action that began the turn, in its
transaction (``web_turns``), for every table.  ``TurnTimers`` is the hall's one task that
waits for the next deadline of every turn-based table, whether or not the table is in memory
(it loads a table whose deadline passes); a starting server arms it from the database, so a
limit that passed while the server was down is acted on at once.  Time is the hall's
``Clock`` (clock.py), which tests move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from pydantic import ValidationError

from . import protocol as p
from .clock import LONGEST_NAP, Clock, parse_iso
from .storage import Storage

if TYPE_CHECKING:
    from handfoot.engine import Game

    from .table import Table

log = logging.getLogger("handfoot.server")

def turn_key(g: Game) -> str:
    """A turn as stored: its round, its number, and the seat to act (the partner asked "may
    I go out?" has a turn of their own, with its own limit)."""
    return f"{g.round_no}.{g.turns}.{g.actor}"


def limit_words(options: p.TableOptions) -> str:
    """"the 24-hour limit" in a log line."""
    return {"1h": "1-hour", "12h": "12-hour", "24h": "24-hour", "3d": "3-day"}.get(
        options.turn_limit, "")


class TurnTimers:
    """The deadlines of every turn-based table this process serves, in one task."""

    def __init__(self, clock: Clock, open_table: Callable[[str], Awaitable[Table | None]]) -> None:
        self.clock = clock
        self._open = open_table
        self.deadlines: dict[str, float] = {}
        self.fired = 0  # deadlines acted on (for tests)

    def arm(self, table_id: str, at: float | None) -> None:
        """The table's next deadline (None: it has none now)."""
        if at is None:
            if self.deadlines.pop(table_id, None) is None:
                return
        else:
            if self.deadlines.get(table_id) == at:
                return
            self.deadlines[table_id] = at
        self.clock.wake()

    async def run(self, storage: Storage) -> None:
        """Arm what the database holds, then act on each deadline as it passes."""
        try:
            await self.load(storage)
        except Exception:
            log.exception("arming the turn limits from the database failed")
        while True:
            now = self.clock.now()
            due = sorted((at, t) for t, at in self.deadlines.items() if at <= now)
            for _, table_id in due:
                self.deadlines.pop(table_id, None)
                await self._fire(table_id)
            if not due:
                soonest = min(self.deadlines.values(), default=now + LONGEST_NAP)
                await self.clock.wait(soonest - now)

    async def load(self, storage: Storage) -> None:
        """Every turn-based table in play: its deadline armed, and one whose bot is to act
        loaded so its bots play on (a person may be waiting for them)."""
        for table_id, raw, turn, person in await storage.turns_in_play():
            try:
                options = p.TableOptions.model_validate(raw)
            except ValidationError:
                log.error("table %s: its stored options do not read", table_id)
                continue
            if not options.turn_based:
                continue
            limit = options.limit_seconds
            if not person:
                await self._fire(table_id)
            elif limit is not None:
                self.deadlines[table_id] = parse_iso(turn.since) + limit

    async def _fire(self, table_id: str) -> None:
        from .table import TableClosed

        for _ in range(3):
            try:
                table = await self._open(table_id)
                if table is None:
                    return
                self.fired += 1
                await table.drivers.limit_passed()
                return
            except TableClosed:
                continue  # it left memory as we came: load it again
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: acting on its turn limit failed", table_id)
                return
