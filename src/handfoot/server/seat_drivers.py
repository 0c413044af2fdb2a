"""Who drives each seat while a game is in play: the bots' moves, the seat hold for a person
who has gone, and the hand-back when they return.

At a live table, a seat whose person has gone is held while it is to act (the table's
``seat_hold`` seconds, counted only while the seat is to act), then driven by its bot, and
handed back at the start of the next turn after the person returns: the bot finishes the turn
it began, so a person never comes back into the middle of a plan they did not make.  A bot
acts through the table's ``apply``, under the table's lock, exactly as a person's action does.

At a turn-based table (pace.py) nobody's seat is held or handed to a bot for being gone, and
bots play with nobody watching; when a turn's limit passes, the seat's bot plays that turn
and hands the seat back when it ends (the same hand-back), or the game waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from handfoot.views import view

from . import protocol as p
from .drivers import bot_name
from .pace import limit_words
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
        # A live table nobody is connected to waits: bots do not play to an empty room.  At a
        # turn-based one the people come and go, and the bots play on for them.
        return seat is not None and seat.driver == BOT and self._play_on()

    def _play_on(self) -> bool:
        return bool(self.table.clients) or self.table.options.turn_based

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
            if self._play_on() and not table.closed:
                self.kick()

    # ================================================================ seat holds
    def _check_hold(self) -> None:
        seat = self._actor()
        due = (seat is not None and seat.person and seat.client is None
               and seat.driver == PERSON and bool(self.table.clients)
               and not self.table.options.turn_based)
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

    # ================================================================ turn limits
    async def limit_passed(self) -> None:
        """The turn-based table's deadline (pace.TurnTimers): if the limit of the turn in play
        has passed, the seat's bot plays this turn, or the game waits, as the host chose."""
        from .table import TableClosed

        table = self.table
        async with table.lock:
            if table.closed:
                raise TableClosed
            turn, deadline = table.turn, table.deadline()
            if turn is None or deadline is None or table.clock.now() < deadline:
                table.arm()  # not yet, or no longer: the turn changed, or the limit did
                self.kick()
                return
            if table.limit_acted == turn.turn:
                table.arm()
                self.kick()
                return
            table.limit_acted = turn.turn
            table.arm()  # acted on: no deadline until the next turn
            seat = table.seats[turn.seat]
            limit = limit_words(table.options)
            if table.options.on_limit == "bot" and seat.driver == PERSON:
                seat.driver, seat.hand_back = BOT, True  # for this turn only
                table.clear_undo()
                table.log.append(f"{seat.name}'s {limit} limit passed: "
                                 f"{bot_name(seat.level, seat.index)} plays this turn")
            elif table.options.on_limit == "wait":
                table.log.append(f"{seat.name}'s {limit} limit passed: the game waits for "
                                 f"{seat.name}")
            table.broadcast_table()
            self.kick()

    def pace_changed(self, before: p.TableOptions) -> None:
        """The host changed the table's pace: a seat a bot took over at a live table for its
        person's absence is handed back at its next turn once the table is turn-based; a
        game that waits for a seat whose limit passed is played on by its bot once the host
        chooses that."""
        table = self.table
        turn = table.turn
        if (before.on_limit == "wait" and table.options.on_limit == "bot" and turn is not None
                and table.limit_acted == turn.turn):
            table.limit_acted = None  # acted on by waiting: the bot's turn now (limit_passed)
        if table.options.turn_based and not before.turn_based:
            self.stop_hold()
            for seat in table.seats:
                if seat.person and seat.driver == BOT:
                    seat.hand_back = True
                    if table.keeper is None or seat.index not in (table.keeper.game.seat,
                                                                  table.keeper.game.actor):
                        seat.driver, seat.hand_back = PERSON, False
        table.arm()

    async def close(self) -> None:
        for task in (self._bot_task, self._hold_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
