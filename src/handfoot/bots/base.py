"""The bot interface and the loop that lets bots play a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..actions import Action
from ..engine import Game
from ..errors import HandfootError
from ..views import SeatView, view


class BotError(HandfootError):
    """An unknown bot name, a bad bot option, or a bot that cannot play (a missing model)."""


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (the engine's list for this view's seat), never anything else."""
        ...


def ask(bot: Bot, game: Game) -> Action:
    """The bot's action for the seat that must act: it gets that seat's view and the legal
    list, and only an analysis bot that sees every card (``sees_all``, the oracle) is shown the
    game itself first."""
    actor = game.actor
    if getattr(bot, "sees_all", False):
        bot.see(game)  # type: ignore[attr-defined]
    return bot.choose(view(game, actor), game.legal_actions())


def play(game: Game, bots: Sequence[Bot], until_round_end: bool = False) -> Game:
    """Let the bots (one per seat) play until the game ends, or the current round does."""
    start = game.round_no
    while not game.over and not (until_round_end and game.round_no != start):
        game.apply(ask(bots[game.actor], game))
    return game
