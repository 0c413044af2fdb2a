"""The bot interface and the loop that lets bots play a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..actions import Action
from ..engine import Game
from ..views import SeatView, view


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (the engine's list for this view's seat), never anything else."""
        ...


def play(game: Game, bots: Sequence[Bot], until_round_end: bool = False) -> Game:
    """Let the bots (one per seat) play until the game ends, or the current round does."""
    start = game.round_no
    while not game.over and not (until_round_end and game.round_no != start):
        actor = game.actor
        legal = game.legal_actions()
        action = bots[actor].choose(view(game, actor), legal)
        game.apply(action)
    return game
