"""The oracle sees every card, so it plays only in the arena and simulations, never at a table."""

from __future__ import annotations

import json

import pytest

from handfoot.bots import BotError, HeuristicBot, OracleBot, make_bot
from handfoot.bots.base import play
from handfoot.cli.main import main
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.sim.simulate import play_game
from handfoot.views import view


def test_the_oracle_is_refused_at_a_table() -> None:
    with pytest.raises(BotError, match="sees every card"):
        make_bot("oracle", seed=0)
    assert isinstance(make_bot("oracle", seed=0, analysis=True), OracleBot)


def test_play_refuses_the_oracle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "oracle"]) == 2
    assert "sees every card" in capsys.readouterr().err


def test_the_oracle_will_not_guess_without_the_game() -> None:
    g = Game.new(preset("hand-and-foot"), seed=3)
    bot = OracleBot(seed=0)
    legal = g.legal_actions()
    while len(legal) == 1:
        g.apply(legal[0])
        legal = g.legal_actions()
    with pytest.raises(RuntimeError, match="shown the game"):
        bot.choose(view(g, g.actor), legal)


@pytest.mark.parametrize("name", ["hand-and-foot",
                                  pytest.param("hand-knee-foot", marks=pytest.mark.slow)])
def test_the_oracle_plays_a_round_legally(name: str) -> None:
    rules = preset(name)
    g = Game.new(rules, seed=4)
    bots = [OracleBot(seed=s) if s % 2 == 0 else HeuristicBot(seed=s)
            for s in range(rules.players)]
    play(g, bots, until_round_end=True)  # the engine refuses any illegal choice
    assert len(g.results) == 1


def test_the_oracle_plays_in_the_arena_and_in_simulations(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", "oracle", "heuristic", "--deals", "1", "--rounds", "1",
                 "--jobs", "1", "--json", "--no-timing"])
    assert code == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert (pair["a"], pair["games"]) == ("oracle", 2)
    rounds = play_game(preset("hand-and-foot").replace(rounds=1), "oracle", 0, 0)
    assert len(rounds) == 1
