"""The learning environments (handfoot.env): PettingZoo's and Gymnasium's own checks, the mask
against the engine's legal list, the view guarantee carried into the observation, seeding,
rewards, truncation and the package boundary."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from handfoot.actions import ACTION_INDEX, ATOMIC_ACTIONS  # noqa: E402
from handfoot.engine import Game  # noqa: E402
from handfoot.env import GYM_IDS, HandfootEnv, encode, env, layout_for, raw_env  # noqa: E402
from handfoot.env.indexed import EnvError, make_rules  # noqa: E402
from handfoot.presets import PRESET_NAMES  # noqa: E402
from handfoot.views import sample_world, view  # noqa: E402
from test_views import rehide  # noqa: E402

MATRIX = [(name, n) for name in PRESET_NAMES for n in (2, 4, 6)]


def random_index(obs: dict[str, Any], rng: random.Random) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


def play_aec(e: Any, seed: int, check: Any = None) -> list[tuple[Any, ...]]:
    """A whole game of random masked actions; ``check(e, agent, obs)`` at every step."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    trace = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        trace.append((agent, obs["observation"], obs["action_mask"], reward, terminated,
                      truncated))
        if terminated or truncated:
            e.step(None)
            continue
        if check is not None:
            check(e, agent, obs)
        e.step(random_index(obs, rng))
    return trace


def mask_is_legal_list(e: Any, agent: str, obs: dict[str, Any]) -> None:
    game = e.unwrapped.game
    assert agent == f"seat_{game.actor}"
    legal = {ACTION_INDEX[a] for a in game.legal_actions()}
    assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
    assert obs["action_mask"].dtype == np.int8
    assert e.observation_space(agent)["observation"].contains(obs["observation"])
    # Every other seat sees no action open to it.
    other = e.unwrapped.possible_agents[(game.actor + 1) % game.rules.players]
    assert not e.unwrapped.observe(other)["action_mask"].any()


# ====================================================================== the library checks
def test_api_test_and_seed_test_four_players() -> None:
    api_test(env(rules="hand-and-foot", players=4), num_cycles=60)
    seed_test(lambda: env(rules="hand-knee-foot", players=4), num_cycles=60)


def test_wrapped_env_checks_as_pettingzoos_wrappers_do() -> None:
    """env() keeps the checks of PettingZoo's AssertOutOfBoundsWrapper inside its
    OrderEnforcingWrapper (done in one wrapper): the same errors, and the same play."""
    from pettingzoo.utils import wrappers

    e = env(rules="hand-and-foot", players=4)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations",
                 "infos", "num_agents"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(e, name)
    with pytest.raises(AttributeError, match="private"):
        e._seat_of  # noqa: B018
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    with pytest.raises(AssertionError, match="before observe"):
        e.observe("seat_0")
    with pytest.raises(AssertionError, match="before step"):
        e.step(0)
    assert e.possible_agents == [f"seat_{s}" for s in range(4)]
    e.reset(seed=3)
    assert str(e) == str(e.unwrapped)
    for bad in (-1, 133, 10**9, 2.5, "draw"):
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(bad)
    # The same game as PettingZoo's own two wrappers around the raw environment.
    theirs = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(
        rules="hand-and-foot", players=4, rounds=1)))
    ours = env(rules="hand-and-foot", players=4, rounds=1)
    a, b = play_aec(theirs, 8), play_aec(ours, 8)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x[0] == y[0] and x[3:] == y[3:]
        assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])
    assert ours.terminations == theirs.terminations
    assert ours._cumulative_rewards == theirs._cumulative_rewards


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n"), MATRIX)
def test_api_test_and_seed_test_every_preset(name: str, n: int) -> None:
    api_test(env(rules=name, players=n), num_cycles=300)
    seed_test(lambda: env(rules=name, players=n), num_cycles=300)


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_gymnasium_check_env(env_id: str) -> None:
    e = gymnasium.make(env_id, render_mode="ansi")
    check_env(e.unwrapped)
    assert "holds:" in e.unwrapped.render()


# ====================================================================== the mask
def test_no_compound_action_is_ever_legal() -> None:
    """The legal list holds atomic actions only (LayDown is for people), so every legal action
    has an index."""
    game = Game.new(make_rules("hand-knee-foot", 4, 1), seed=3)
    rng = random.Random(3)
    while not game.over:
        legal = game.legal_actions()
        assert all(a in ACTION_INDEX for a in legal)
        game.apply(rng.choice(legal))


def test_mask_is_the_legal_list_through_a_whole_game() -> None:
    play_aec(raw_env(rules="hand-and-foot", players=4, rounds=1), 11, mask_is_legal_list)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n"), MATRIX)
def test_mask_is_the_legal_list_every_preset(name: str, n: int) -> None:
    trace = play_aec(raw_env(rules=name, players=n), n * 7, mask_is_legal_list)
    assert trace[-1][4]  # the game ran to its end


def observations_match_the_reference(e: Any, seed: int) -> int:
    """Through a whole game, every seat's observation from the environment (its incremental
    encoder, fed the view's shared parts) equals ``Layout.encode`` of that seat's view, and its
    mask is the legal list (all zero for the others); returns the positions compared."""
    raw = e.unwrapped
    layout = raw.layout
    n = raw.rules.players
    compared = 0

    def check(e: Any, agent: str, obs: dict[str, Any]) -> None:
        nonlocal compared
        game = raw.game
        assert np.array_equal(obs["observation"], layout.encode(view(game, game.actor)))
        # The other seats in a varying order, so each seat's kept vector is brought up to date
        # across varying gaps.
        for s in sorted(range(n), key=lambda s: (s * 7 + compared) % n):
            seen = raw.observe(f"seat_{s}")
            assert np.array_equal(seen["observation"], layout.encode(view(game, s)))
            assert seen["observation"].dtype == np.float32
            if s != game.actor:
                assert not seen["action_mask"].any()
        compared += 1

    play_aec(e, seed, check)
    return compared


def test_observations_are_the_reference_encoding_every_step() -> None:
    assert observations_match_the_reference(raw_env(rules="hand-knee-foot", players=4), 3) > 500
    assert observations_match_the_reference(env(rules="hand-and-foot", players=6, rounds=1),
                                            4) > 100


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n"), MATRIX)
def test_observations_are_the_reference_encoding_every_preset(name: str, n: int) -> None:
    assert observations_match_the_reference(raw_env(rules=name, players=n, rounds=2), n) > 50


def test_observations_are_the_reference_encoding_under_house_rules() -> None:
    from test_properties import random_combo

    rng = random.Random(33)
    for i in range(4):
        rules = random_combo(rng, rounds=1, turn_cap=60)
        assert observations_match_the_reference(raw_env(rules=rules), i) > 0


def test_an_observation_is_the_callers_to_keep() -> None:
    """Observations and masks handed out are fresh arrays: changing one changes nothing the
    environment hands out later."""
    e = raw_env(rules="hand-and-foot", players=4)
    e.reset(seed=5)
    agent = e.agent_selection
    first = e.observe(agent)
    kept = {k: v.copy() for k, v in first.items()}
    first["observation"][:] = 7.0
    first["action_mask"][:] = 1
    again = e.observe(agent)
    assert np.array_equal(again["observation"], kept["observation"])
    assert np.array_equal(again["action_mask"], kept["action_mask"])


# ====================================================================== the view guarantee
def observations_ignore_hidden_cards(name: str, n: int, seed: int, rate: float) -> int:
    """Everywhere in a game (a share of positions), every seat's observation is unchanged when
    the cards it cannot see are dealt again; returns how many positions were compared."""
    e = raw_env(rules=name, players=n, rounds=2)
    e.reset(seed=seed)
    rng = random.Random(seed)
    layout = e.layout
    compared = 0
    for _agent in e.agent_iter():
        obs, _r, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        game = e.game
        if rng.random() < rate:
            for seat in range(n):
                mine = layout.encode(view(game, seat))
                for other in (rehide(game, seat, rng), sample_world(view(game, seat), rng)):
                    assert np.array_equal(layout.encode(view(other, seat)), mine)
                compared += 1
        e.step(random_index(obs, rng))
    return compared


def test_observation_unchanged_when_hidden_cards_are_dealt_again() -> None:
    assert observations_ignore_hidden_cards("hand-knee-foot", 4, 5, 0.1) > 50


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n"), MATRIX)
def test_observation_ignores_hidden_cards_every_preset(name: str, n: int) -> None:
    assert observations_ignore_hidden_cards(name, n, n, 0.05) > 10


def test_observation_changes_with_the_seats_own_hand() -> None:
    """The converse, so the test above can fail: the seat's own cards are in its vector."""
    game = Game.new(make_rules("hand-and-foot", 4), seed=2)
    other = game.clone()
    k = next(k for k in range(len(other.hands[0])) if other.hands[0][k])
    other.hands[0][k] -= 1
    other.hands[0][(k + 1) % 11] += 1
    assert not np.array_equal(encode(view(game, 0)), encode(view(other, 0)))
    # ... and nobody else's: seat 1 cannot tell the two apart.
    assert np.array_equal(encode(view(game, 1)), encode(view(other, 1)))


# ====================================================================== determinism, rewards
def test_same_seed_and_actions_give_the_same_observations_and_rewards() -> None:
    a = play_aec(raw_env(rules="hand-and-foot", players=4, rounds=1), 21)
    b = play_aec(raw_env(rules="hand-and-foot", players=4, rounds=1), 21)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x[0] == y[0] and x[3:] == y[3:]
        assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])
    c = play_aec(raw_env(rules="hand-and-foot", players=4, rounds=1), 22)
    assert not all(np.array_equal(x[1], y[1]) for x, y in zip(a, c, strict=False))


def test_seed_is_the_engines_game_seed_and_resets_count_on() -> None:
    e = raw_env(rules="hand-and-foot", players=4)
    e.reset(seed=40)
    assert e.game_seed == 40
    assert view(e.game, 0) == view(Game.new(e.rules, seed=40), 0)
    e.reset()
    assert e.game_seed == 41


def test_rewards_are_the_scaled_round_differences_shared_by_teams() -> None:
    e = raw_env(rules="hand-and-foot", players=4, rounds=2, reward_scale=0.01)
    e.reset(seed=8)
    rng = random.Random(8)
    earned = dict.fromkeys(e.possible_agents, 0.0)
    paid_at = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        earned[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        rounds = len(e.game.results)
        e.step(random_index(obs, rng))
        if any(e.rewards.values()):
            paid_at.append(rounds)
            assert len(e.game.results) == rounds + 1
    assert paid_at == [0, 1]
    totals = e.game.totals
    for s, agent in enumerate(e.possible_agents):
        team = s % 2
        assert earned[agent] == pytest.approx(0.01 * (totals[team] - totals[1 - team]))
        assert e.terminations.get(agent, True)


def test_more_than_two_sides_pay_against_the_mean_of_the_others() -> None:
    e = raw_env(rules="hand-and-foot", players=3, rounds=1)
    e.reset(seed=4)
    rng = random.Random(4)
    earned = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        earned[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(random_index(obs, rng))
    t = e.game.totals
    for s in range(3):
        others = (sum(t) - t[s]) / 2
        assert earned[f"seat_{s}"] == pytest.approx(0.001 * (t[s] - others))
    assert sum(earned.values()) == pytest.approx(0.0)


def test_a_round_cut_off_by_the_turn_cap_truncates() -> None:
    rules = make_rules("hand-and-foot", 4).replace(turn_cap=10)
    e = raw_env(rules=rules)
    trace = play_aec(e, 3)
    assert trace[-1][5] and not trace[-1][4]
    assert len(e.game.results) == 1 and e.game.results[0].ended_by == "turn_cap"
    assert not e.agents


# ====================================================================== the Gymnasium wrapper
def test_gym_wrapper_plays_the_team_and_pays_its_rounds() -> None:
    e = HandfootEnv("hand-and-foot", players=4, rounds=1, opponents="basic", reward_scale=1.0)
    obs, info = e.reset(seed=5)
    rng = random.Random(5)
    total = 0.0
    done = False
    while not done:
        game = e.game
        assert game.actor in (0, 2)  # the learner's team: seats 0 and 2
        assert np.array_equal(obs, layout_for(e.rules).encode(view(game, game.actor)))
        legal = {ACTION_INDEX[a] for a in game.legal_actions()}
        assert set(np.flatnonzero(info["action_mask"]).tolist()) == legal
        assert np.array_equal(e.action_masks(), info["action_mask"])
        obs, reward, terminated, truncated, info = e.step(random_index(
            {"action_mask": info["action_mask"]}, rng))
        total += reward
        done = terminated or truncated
    assert terminated and not info["action_mask"].any()
    t = e.game.totals
    assert total == t[0] - t[1]
    with pytest.raises(EnvError, match="episode is over"):
        e.step(0)


def test_gym_wrapper_truncates_at_the_turn_cap_and_then_wants_a_reset() -> None:
    rules = make_rules("hand-and-foot", 4).replace(turn_cap=10)
    e = HandfootEnv(rules, opponents="random")
    _obs, info = e.reset(seed=6)
    rng = random.Random(6)
    truncated = terminated = False
    steps = 0
    while not (terminated or truncated):
        _obs, _r, terminated, truncated, info = e.step(random_index(info, rng))
        steps += 1
    assert truncated and not terminated and steps < 100
    assert e.game.results[0].ended_by == "turn_cap" and not info["action_mask"].any()
    with pytest.raises(EnvError, match="episode is over"):
        e.step(0)


def test_gym_wrapper_refuses_an_illegal_action_without_playing_it() -> None:
    e = HandfootEnv("hand-and-foot", opponents="random", illegal_reward=-0.5)
    obs, info = e.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    again, reward, terminated, truncated, info2 = e.step(illegal)
    assert reward == -0.5 and info2["illegal"] and not (terminated or truncated)
    assert np.array_equal(obs, again)


def test_gym_wrapper_seat_alone_with_a_bot_partner() -> None:
    e = HandfootEnv("hand-knee-foot", opponents="random", partner="basic", seat=1)
    _obs, info = e.reset(seed=2)
    for _ in range(30):
        assert e.game.actor == 1
        _obs, _r, terminated, truncated, info = e.step(random_index(info, random.Random(0)))
        if terminated or truncated:
            break


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": 7}, "played by 2, 3, 4, 5, 6"),
    ({"opponents": "nobody"}, "unknown bot"),
    ({"seat": 4}, "seat 4"),
    ({"render_mode": "human"}, "ansi"),
])
def test_gym_wrapper_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception, match=message):
        HandfootEnv("hand-and-foot", **kwargs)


def test_aec_illegal_action_names_the_action() -> None:
    e = raw_env()
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    with pytest.raises(EnvError, match=f"action {illegal} .*not legal now"):
        e.step(illegal)


# ====================================================================== the layout
def test_layout_fields_tile_the_vector() -> None:
    for name, n in MATRIX:
        layout = layout_for(make_rules(name, n))
        at = 0
        names = set()
        for f in layout.fields():
            assert f.start == at and f.size > 0 and f.name not in names
            names.add(f.name)
            at = f.stop
        assert at == layout.size == layout.scale.size == layout.low.size


def test_docs_show_the_four_player_layout() -> None:
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "RL.md").read_text()
    layout = layout_for(make_rules("hand-and-foot", 4))
    assert layout.markdown() in text  # the table is the layout's own, not a stale copy
    assert f"{len(ATOMIC_ACTIONS)} actions" in text


def test_importing_handfoot_loads_no_learning_library() -> None:
    code = ("import sys, handfoot, handfoot.engine, handfoot.views, handfoot.bots, "
            "handfoot.cli.main, handfoot.sim.arena\n"
            "bad = [m for m in ('pettingzoo', 'gymnasium', 'numpy', 'torch', 'pyspiel', "
            "'sb3_contrib') if m in sys.modules]\n"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]"


def test_house_rules_masks_and_observations_through_whole_games() -> None:
    """Under random combinations of the house rules (their actions 130-132 included), the mask
    is the legal list and every observation lies in the space."""
    from test_properties import random_combo

    rng = random.Random(21)
    seen: set[int] = set()
    for i in range(6):
        rules = random_combo(rng, rounds=1, turn_cap=60)
        e = env(rules=rules)

        def check(e: Any, agent: str, obs: dict[str, Any]) -> None:
            mask_is_legal_list(e, agent, obs)
            seen.update(np.flatnonzero(obs["action_mask"]).tolist())

        play_aec(e, i, check)
    assert max(seen) < len(ATOMIC_ACTIONS)


def test_a_book_of_black_threes_is_encoded_by_its_kind() -> None:
    from handfoot.presets import house_rules
    from scenario import game as scenario_game
    from scenario import play, to_foot

    rules = house_rules("hand-and-foot", {"black_three_book": True})
    g = scenario_game(rules, "4 | B3 B3 B3 B3 B3 B3 B3 9 9 4", stock="4 6 4 6")
    to_foot(g, 0)
    g.opened[0] = True
    play(g, ["draw", "book B3"])
    layout = layout_for(rules)
    vector = encode(view(g, 0))
    by_kind = layout.field("team0.canastas_by_kind")
    assert vector[by_kind.start] > 0  # one clean canasta
    assert not vector[layout.field("team0.canastas_by_slot").start:
                      layout.field("team0.canastas_by_slot").stop].any()
