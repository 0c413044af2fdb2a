"""The front door: ``import handfoot`` gives the documented API, and the README's library
example runs as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import handfoot

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_library_example_runs_as_written() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_every_public_name_is_documented_in_the_api_page() -> None:
    api = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    for name in handfoot.__all__:
        assert f"`{name}" in api, name


def test_every_error_derives_from_one_base() -> None:
    errors = [getattr(handfoot, name) for name in handfoot.__all__
              if isinstance(getattr(handfoot, name), type)
              and issubclass(getattr(handfoot, name), Exception)]
    assert len(errors) >= 7
    assert all(issubclass(e, handfoot.HandfootError) for e in errors)


def test_an_action_repr_rebuilds_it() -> None:
    namespace = {"parse_action": handfoot.parse_action}
    for action in [*handfoot.ATOMIC_ACTIONS, handfoot.parse_action("lay K K K 2, wild: 2 2 JK")]:
        assert eval(repr(action), namespace) == action


def test_a_refusal_names_its_clause_and_its_repr_rebuilds_it() -> None:
    game = handfoot.Game.new(handfoot.preset("hand-and-foot"), seed=1)
    refusal = game.refusal("discard K")  # at the draw
    assert isinstance(refusal, handfoot.Refusal)
    assert (refusal.clause, refusal.reason) == ("3.5", "draw before you discard")
    assert eval(repr(refusal), {"Refusal": handfoot.Refusal}) == refusal
    assert repr(refusal) == "Refusal(clause='3.5', reason='draw before you discard')"
    with pytest.raises(handfoot.IllegalAction) as err:
        game.verify("discard K")
    assert (err.value.clause, err.value.reason) == refusal
    other = (game.actor + 1) % game.rules.players
    wrong_seat = game.refusal("draw", seat=other)
    assert wrong_seat is not None and wrong_seat.clause == "3.1"
    with pytest.raises(handfoot.IllegalAction) as err:
        game.apply("draw", seat=other)
    assert err.value.clause == "3.1" and err.value.reason == wrong_seat.reason


def test_a_game_says_where_it_stands() -> None:
    game = handfoot.Game.new(handfoot.preset("hand-knee-foot"), seed=3)
    assert repr(game) == "<Game hand-knee-foot, round 1/4, turn 1, seat 1, draw>"
    game.apply("draw")
    assert "meld" in repr(game)


def test_game_new_refuses_an_impossible_game_with_a_handfoot_error() -> None:
    rules = handfoot.preset("hand-and-foot")
    for kwargs in ({}, {"seed": 1, "first_round": 9}, {"seed": 1, "first_dealer": 4}):
        with pytest.raises(handfoot.GameSetupError):
            handfoot.Game.new(rules, **kwargs)  # type: ignore[arg-type]
    assert issubclass(handfoot.GameSetupError, handfoot.HandfootError)


def test_the_front_ends_errors_about_values_join_the_one_error_tree() -> None:
    from handfoot.server.keeping import KeepingError
    from handfoot.tui import PlayError

    assert issubclass(PlayError, handfoot.HandfootError)
    assert issubclass(KeepingError, handfoot.HandfootError)


@pytest.mark.parametrize("module", ["handfoot.actions", "handfoot.events", "handfoot.narrate",
                                    "handfoot.rules"])
def test_the_examples_in_the_docstrings_run(module: str) -> None:
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
