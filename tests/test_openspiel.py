"""Hand and Foot registered with OpenSpiel (handfoot.openspiel): the game's type, its chance
node, observations from views, resampling, and OpenSpiel's own information-set MCTS playing a
whole game.  Runs where open_spiel is installed (the ``openspiel`` extra; CI installs it)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import handfoot.openspiel  # noqa: E402, F401  (registers the game)
from handfoot.actions import ATOMIC_ACTIONS  # noqa: E402
from handfoot.engine import Game  # noqa: E402
from handfoot.env.engine import make_rules  # noqa: E402
from handfoot.views import view  # noqa: E402


def load(**params: object) -> object:
    return pyspiel.load_game("python_handfoot", params)


def test_registered_as_an_imperfect_information_general_sum_game() -> None:
    game = load(players=4)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_players() == 4
    assert game.num_distinct_actions() == len(ATOMIC_ACTIONS)


def test_the_chance_outcome_is_the_engines_game_seed() -> None:
    game = load(players=2, rounds=1, deals=1000, seed_base=500)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1000 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(7)
    same = Game.new(make_rules("hand-and-foot", 2, 1), seed=507)
    assert view(state.game, 0) == view(same, 0)
    assert state.current_player() == same.actor
    legal = state.legal_actions()
    assert legal == sorted(legal) and [state.action_to_string(a) for a in legal] == ["draw"]


def test_observations_come_from_the_view_only() -> None:
    game = load(players=4, rounds=1)
    state = game.new_initial_state()
    state.apply_action(3)
    rng = random.Random(0)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(4):
        before = state.observation_string(seat), list(state.observation_tensor(seat))
        info = state.information_state_string(seat)
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        # A world dealt again where the seat cannot see: the same observation and infostate.
        assert (world.observation_string(seat), list(world.observation_tensor(seat))) == before
        assert world.information_state_string(seat) == info
        assert world.game.hands != state.game.hands or world.game.stock != state.game.stock
    assert state.observation_string(0) != state.observation_string(1)


def play(params: dict[str, object], simulations: int, seed: int) -> object:
    """Seat 0 played by OpenSpiel's information-set MCTS, the others uniformly at random."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_handfoot", params)
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                           max_simulations=simulations, random_state=rng)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 5
    return state


def test_ismcts_plays_a_whole_short_game() -> None:
    state = play({"players": 2, "rounds": 1, "turn_cap": 12, "deals": 100}, 8, 1)
    assert state.game.results[0].ended_by == "turn_cap"
    assert len(state.returns()) == 2


@pytest.mark.slow
def test_ismcts_plays_a_whole_game_of_a_round() -> None:
    state = play({"players": 2, "rounds": 1}, 6, 2)
    assert state.game.results[0].ended_by in ("went_out", "stock_out")
    totals = state.game.totals
    assert state.returns() == [totals[0] / 1000, totals[1] / 1000]
