"""Bots at the web table: quick bots choose on the event loop, the search bot in a worker
process, coming back with its state as if it had chosen here."""

from __future__ import annotations

import asyncio

from handfoot import Game, preset, view
from handfoot.server.drivers import BotRunner, bot_name


def _a_real_choice() -> Game:
    game = Game.new(preset("hand-and-foot"), seed=5)
    while len(game.legal_actions()) < 3:
        game.apply(game.legal_actions()[0])
    return game


def test_quick_bots_choose_here_and_search_in_a_worker() -> None:
    game = _a_real_choice()
    v, legal = view(game, game.actor), game.legal_actions()
    runner = BotRunner(workers=1)
    try:
        quick = runner.make("heuristic", 1)
        action, same = asyncio.run(runner.choose(quick, v, legal))
        assert same is quick and action in legal
        far, here = runner.make("search", 1), runner.make("search", 1)
        action, back = asyncio.run(runner.choose(far, v, legal))
        assert back is not far  # it went to the worker and came back
        assert action == here.choose(v, legal)  # the choice it would have made here
        assert back.rng.getstate() == here.rng.getstate()  # and its state carried on
    finally:
        runner.close()


def test_bot_seats_are_named_by_level_and_seat() -> None:
    assert bot_name("search:ms=200", 3) == "Search 4"
    assert bot_name("heuristic", 1) == "Heuristic 2"
