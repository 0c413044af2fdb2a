"""Who drives each seat while a game is in play: the bots' moves, the seat hold for a person
who has gone, and the hand-back when they return.

A seat whose person has gone is held while it is to act (the table's ``seat_hold`` seconds,
counted only while the seat is to act), then driven by its bot, and handed back at the start
of the next turn after the person returns: the bot finishes the turn it began, so a person
never comes back into the middle of a plan they did not make.  A bot acts through the table's
``apply``, under the table's lock, exactly as a person's action does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from handfoot.views import view

from .drivers import bot_name
from .seats import BOT, PERSON, Seat

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("handfoot.server")


class SeatDrivers:
    """One table's running bot move and seat hold (at most one of each at a time)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._bot_task: asyncio.Task[None] | None = None
        self._hold_task: asyncio.Task[None] | None = None
        self._hold_seat = -1

    @property
    def busy(self) -> bool:
        """A bot is choosing or about to: the table must stay in memory."""
        return self._bot_task is not None

    def make_bots(self) -> None:
        """A fresh bot for every seat, seeded from the game (each seat's own)."""
        keeper = self.table.keeper
        assert keeper is not None
        seed = keeper.game.seed or 0
        for seat in self.table.seats:
            seat.bot = self.table.runner.make(seat.level, seed * 10 + seat.index + 1)

    def kick(self) -> None:
        """After any change: start the bot's move or the seat hold if one is due now."""
        if self._bot_task is None and self._bot_due():
            self._bot_task = asyncio.get_running_loop().create_task(self._bot_move())
        self._check_hold()

    # ================================================================ people coming and going
    def person_back(self, seat: Seat) -> None:
        """The seat's person is connected again: their hold stops and is full again, and the
        seat is theirs now, or, if its bot is in the middle of the seat's turn, from the
        next turn (``hand_back``)."""
        table = self.table
        if self._hold_seat == seat.index:
            self.stop_hold()
        seat.hold_left = table.options.seat_hold
        if seat.driver == BOT and seat.person:
            g = table.keeper.game if table.keeper else None
            if g is not None and table.status == "playing" and seat.index in (g.seat, g.actor):
                seat.hand_back = True  # the bot finishes this turn
            else:
                seat.driver = PERSON

    def hand_back(self) -> bool:
        """A turn (or the game) has ended: the seats whose people came back are theirs
        again.  Whether any was."""
        changed = False
        for s in self.table.seats:
            if s.hand_back:
                s.hand_back, s.driver, changed = False, PERSON, True
        return changed

    # ================================================================ bots
    def _actor(self) -> Seat | None:
        table = self.table
        if table.status != "playing" or table.keeper is None or table.keeper.game.over:
            return None
        return table.seats[table.keeper.game.actor]

    def _bot_due(self) -> bool:
        seat = self._actor()
        # A table nobody is connected to waits: bots do not play to an empty room.
        return seat is not None and seat.driver == BOT and bool(self.table.clients)

    async def _bot_move(self) -> None:
        table = self.table
        try:
            version = table.version
            await asyncio.sleep(table.options.bot_pace)
            async with table.lock:
                seat = self._actor()
                if table.version != version or seat is None or not self._bot_due():
                    return
                assert table.keeper is not None and seat.bot is not None
                g = table.keeper.game
                seen, legal, bot = view(g, seat.index), g.legal_actions(), seat.bot
            action, bot = await table.runner.choose(bot, seen, legal)
            async with table.lock:
                if table.version != version or self._actor() is not seat or seat.driver != BOT:
                    return
                seat.bot = bot
                assert table.keeper is not None
                refusal = table.keeper.game.refusal(action)
                if refusal is not None:  # a bot choosing outside the legal list is a bug
                    log.error("table %s: bot %s chose %r, refused: %s", table.id, seat.level,
                              action.text, refusal)
                    action = legal[0]
                await table.apply(seat.index, action, BOT)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's move failed", table.id)
        finally:
            if self._bot_task is asyncio.current_task():
                self._bot_task = None
            if table.clients:
                self.kick()

    # ================================================================ seat holds
    def _check_hold(self) -> None:
        seat = self._actor()
        due = (seat is not None and seat.person and seat.client is None
               and seat.driver == PERSON and bool(self.table.clients))
        if due and seat is not None and self._hold_task is None:
            self._hold_seat = seat.index
            seat.hold_since = time.monotonic()
            self._hold_task = asyncio.get_running_loop().create_task(self._hold(seat))
            self.table.broadcast_table()
        elif not due and self._hold_task is not None:
            self.stop_hold()

    def stop_hold(self) -> None:
        """Stop the running hold, keeping the seconds it has left for the seat's next turn."""
        task, self._hold_task = self._hold_task, None
        if task is None:
            return
        task.cancel()
        seat = self.table.seats[self._hold_seat]
        if seat.hold_since is not None:
            seat.hold_left = max(0.0, seat.hold_left - (time.monotonic() - seat.hold_since))
            seat.hold_since = None

    async def _hold(self, seat: Seat) -> None:
        table = self.table
        await asyncio.sleep(seat.hold_left)
        async with table.lock:
            if self._hold_task is not asyncio.current_task():
                return
            self._hold_task = None
            seat.hold_left, seat.hold_since = 0.0, None
            seat.driver = BOT
            table.clear_undo()
            table.log.append(f"{seat.name} is away: {bot_name(seat.level, seat.index)} plays "
                             "the seat")
            table.broadcast_table()
            self.kick()

    async def close(self) -> None:
        for task in (self._bot_task, self._hold_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
