"""The levels named for people: every level plays every preset at 2, 4 and 6 players.

The fast test plays the first turns of each table (the level in every seat of one team, the
casual bot in the others); the slow one plays whole rounds."""

from __future__ import annotations

import pytest

from handfoot.bots import BOTS, LEVELS, describe, make_bot
from handfoot.bots.base import ask
from handfoot.bots.levels import ExpertBot, StrongBot, fallback_note, shipped_tables
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset

FAST_LEVELS = ("beginner", "casual", "strong:worlds=2", "expert:ms=2,worlds=2,settle=0")


def play_some(level: str, rules_name: str, players: int, actions: int | None) -> Game:
    rules = preset(rules_name, players).replace(rounds=1)
    game = Game.new(rules, seed=players)
    bots = [make_bot(level if s % rules.teams == 0 else "casual", seed=s) for s in
            range(players)]
    n = 0
    while not game.over and (actions is None or n < actions):
        legal = game.legal_actions()
        action = ask(bots[game.actor], game)
        assert action in legal
        game.apply(action)
        n += 1
    return game


def test_levels_come_first_with_one_line_each_and_old_names_still_work() -> None:
    assert list(BOTS)[:4] == list(LEVELS) == ["beginner", "casual", "strong", "expert"]
    assert all("\n" not in describe(b) for b in LEVELS)
    assert make_bot("basic").name == make_bot("beginner").name == "basic"
    assert make_bot("heuristic").name == make_bot("casual").name == "heuristic"
    assert isinstance(make_bot("strong"), StrongBot)
    assert isinstance(make_bot("expert:ms=50"), ExpertBot)


def test_a_table_without_a_model_is_said_in_one_line() -> None:
    assert "hand-and-foot/4p" in shipped_tables()
    assert fallback_note("strong", preset("hand-and-foot", 4)) is None
    note = fallback_note("expert", preset("pennies-from-heaven", 5))
    assert note is not None and "no trained model" in note and "\n" not in note


# Every level and preset at two players in a development run; four and six in the full run.
@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow),
                                     pytest.param(6, marks=pytest.mark.slow)])
@pytest.mark.parametrize("level", FAST_LEVELS)
def test_every_level_starts_every_preset(level: str, players: int) -> None:
    for name in PRESET_NAMES:
        play_some(level, name, players, actions=4 * players)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("level", ["beginner", "casual", "strong", "expert:ms=10"])
def test_every_level_plays_a_whole_round(level: str, name: str, players: int) -> None:
    game = play_some(level, name, players, actions=None)
    assert game.over and len(game.results) == 1


def test_strong_and_expert_travel_without_their_network() -> None:
    import pickle

    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=1)
    bots = [make_bot("strong"), make_bot("expert:ms=0,worlds=1,width=2")]
    for bot in bots:
        while game.actor != 0:
            game.apply(ask(make_bot("casual"), game))
        game.apply(ask(bot, game))
        size = len(pickle.dumps(bot))
        assert size < 50_000, size
        copy = pickle.loads(pickle.dumps(bot))
        assert ask(copy, game) in game.legal_actions()
