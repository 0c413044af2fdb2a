"""Bots at the table: server-side seats that choose from their seat's view, like any bot.

A quick bot (random, basic, heuristic: tens of microseconds a decision) chooses on the event
loop.  A slow one (search: up to half a second) chooses in a process pool, so one table's
bot never stalls another table's people.  The bot object travels to the worker with the view
and comes back with its choice, so its state (its random generator, the plan it follows for
the rest of a turn) carries on exactly as if it had chosen in this process.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from handfoot.actions import Action
from handfoot.bots import BOTS, BotError, make_bot
from handfoot.bots.base import Bot
from handfoot.views import SeatView

QUICK = frozenset({"random", "basic", "heuristic"})
DEFAULT_LEVEL = "heuristic"


def check_level(spec: str) -> str:
    """A bot level a table may seat (``search:ms=200`` and the like included).  Not a model
    named by its file (``strong:path=FILE``): a client names no file of the server's, and
    such a bot failed only at its first move, again and again."""
    options = spec.partition(":")[2]
    if any(item.partition("=")[0].strip() == "path" for item in options.split(",")):
        raise BotError(f"{spec.partition(':')[0]}: a table's bots play the shipped models; "
                       "path= names a file on the server, which a table cannot")
    make_bot(spec, seed=0)
    return spec


def bot_name(level: str, seat: int) -> str:
    """How a bot's seat is named at the table: ``Heuristic 2`` at the second seat (index 1),
    counted from 1 as the page counts seats ("Seat 2")."""
    return f"{level.partition(':')[0].capitalize()} {seat + 1}"


def _choose(bot: Bot, view: SeatView, legal: Sequence[Action]) -> tuple[Action, Bot]:
    return bot.choose(view, legal), bot


class BotRunner:
    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None

    @staticmethod
    def make(level: str, seed: int) -> Bot:
        return make_bot(level, seed=seed)

    async def choose(self, bot: Bot, view: SeatView,
                     legal: Sequence[Action]) -> tuple[Action, Bot]:
        """The bot's action, and the bot as it is after choosing."""
        if bot.name in QUICK or self.workers == 0:
            return bot.choose(view, legal), bot
        if self._pool is None:
            # Workers start clean ("spawn"): forking a process that runs an event loop and
            # threads copies their locks in whatever state they are.
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, _choose, bot, view, list(legal))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = ["BOTS", "DEFAULT_LEVEL", "BotError", "BotRunner", "bot_name", "check_level"]
