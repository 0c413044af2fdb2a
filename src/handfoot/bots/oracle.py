"""An analysis-only bot that sees every card: the search bot searching the real game.

It plays the search bot's plans in the one true world (every hand, every packet and the order
of the stock) instead of in sampled ones, so the arena can measure what hidden information costs
the search: an upper bound for the bots that play fair.  It never sits at a table: it needs the
game itself, which only the arena and simulations hand it (``see``, called by ``base.ask`` for a
bot that ``sees_all``); ``make_bot`` builds it only when asked for an analysis bot.
"""

from __future__ import annotations

from typing import Any

from ..engine import Game
from ..views import SeatView
from .search import SearchBot


class OracleBot(SearchBot):
    name = "oracle"
    sees_all = True

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        # One world is the whole truth: the plans play out the same in every copy of it.
        self.worlds = 1
        self.ms = 0.0
        self._game: Game | None = None

    def see(self, game: Game) -> None:
        self._game = game

    def _world(self, v: SeatView) -> Game:
        g = self._game
        if g is None or (g.round_no, g.turns, g.actor) != (v.round_no, v.turns, v.seat):
            raise RuntimeError("the oracle must be shown the game it plays (base.ask)")
        return g.clone()
