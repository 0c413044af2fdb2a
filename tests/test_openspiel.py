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
from handfoot.env.indexed import make_rules  # noqa: E402
from handfoot.views import view  # noqa: E402


def load(**params: object) -> object:
    return pyspiel.load_game("python_handfoot", params)


def test_registered_as_an_imperfect_information_zero_sum_game_and_a_general_sum_one() -> None:
    game = load(players=4)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert game.utility_sum() == 0.0
    scores = pyspiel.load_game("python_handfoot_scores", {"players": 4})
    assert scores.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
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
    assert state.returns() == pytest.approx([(totals[0] - totals[1]) / 1000,
                                             (totals[1] - totals[0]) / 1000])


# OpenSpiel's own checks: returns are the sum of the rewards at every step, serialization,
# observations, clones, legal actions.  A whole default game (four rounds, four players) takes
# about a minute a simulation on a two-core machine, so the fast run plays short games.
@pytest.mark.parametrize("name", ["python_handfoot",
                                  pytest.param("python_handfoot_scores", marks=pytest.mark.slow)])
def test_random_sim_test_on_short_games(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 4, "rounds": 2, "turn_cap": 10})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("serialize", [False, True])
def test_random_sim_test_on_the_default_game(serialize: bool) -> None:
    game = pyspiel.load_game("python_handfoot")
    assert game.get_parameters()["rounds"] == 0 and game.num_players() == 4
    pyspiel.random_sim_test(game, num_sims=1, serialize=serialize, verbose=False)


def random_game(name: str, seed: int, **params: object) -> object:
    game = pyspiel.load_game(name, {"players": 4, **params})
    state = game.new_initial_state()
    state.apply_action(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_returns_are_the_margins_pettingzoo_pays_and_the_scores_game_the_totals() -> None:
    """The same game with the same actions: OpenSpiel's margin returns equal the sum of the
    PettingZoo environment's rewards (same scale), the scores game's returns the totals."""
    from handfoot.env import raw_env

    state = random_game("python_handfoot", 3, rounds=2)
    assert [r.ended_by for r in state.game.results] != ["turn_cap"] * 2
    e = raw_env(players=4, rounds=2)
    e.reset(seed=3)
    paid = [0.0] * 4
    for action in state.actions:
        e.step(action)
        for s in range(4):
            paid[s] += e.rewards[f"seat_{s}"]
    assert state.returns() == pytest.approx(paid)
    assert sum(state.returns()) == pytest.approx(0.0)
    scores = random_game("python_handfoot_scores", 3, rounds=2)
    totals = scores.game.totals
    assert scores.returns() == pytest.approx([totals[s % 2] / 1000 for s in range(4)])


def test_rewards_are_paid_when_a_round_ends_and_returns_sum_them() -> None:
    game = pyspiel.load_game("python_handfoot", {"players": 2, "rounds": 3, "turn_cap": 10})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = random.Random(5)
    total = [0.0, 0.0]
    paid_at = []
    while not state.is_terminal():
        rounds = len(state.game.results)
        state.apply_action(rng.choice(state.legal_actions()))
        rewards = state.rewards()
        total = [a + b for a, b in zip(total, rewards, strict=True)]
        assert state.returns() == pytest.approx(total)
        if len(state.game.results) != rounds:
            paid_at.append(rewards)
        else:
            assert rewards == [0.0, 0.0]
    assert len(paid_at) == 3


def test_information_state_tensor_holds_the_rounds_discards_per_seat() -> None:
    game = pyspiel.load_game("python_handfoot", {"players": 4, "rounds": 1})
    state = game.new_initial_state()
    state.apply_action(11)
    rng = random.Random(11)
    discards = [[0] * 15 for _ in range(4)]
    size = len(state.observation_tensor(0))
    for _ in range(200):
        seat = state.current_player()
        action = rng.choice(state.legal_actions())
        text = state.action_to_string(action)
        state.apply_action(action)
        if text.startswith("discard "):
            discards[seat][ATOMIC_ACTIONS[action].kind] += 1
    assert sum(map(sum, discards)) > 5
    for seat in range(4):
        info = np.asarray(state.information_state_tensor(seat))
        assert len(info) == size + 16 * 4
        assert list(info[:size]) == list(state.observation_tensor(seat))
        rows = info[size:].reshape(4, 16)
        for k in range(4):  # relative to the observer
            assert list(np.round(rows[k, :15] * 10)) == discards[(seat + k) % 4]
        # Hidden cards dealt again leave it unchanged.
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert list(world.information_state_tensor(seat)) == list(info)
