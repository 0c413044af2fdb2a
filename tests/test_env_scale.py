"""The environments for scale: PettingZoo's parallel API (turn order kept), the vectorized
environment (the same games as the single one, buffers written in place, autoreset in both of
Gymnasium's modes) and self-play in the Gymnasium wrapper (policies in the other seats)."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

from handfoot.env import (  # noqa: E402
    HandfootEnv,
    HandfootVectorEnv,
    encode,
    parallel_env,
    raw_env,
)
from handfoot.env.indexed import EnvError, legal_indices, make_rules  # noqa: E402
from handfoot.views import view  # noqa: E402

SHORT = make_rules("hand-and-foot", 2, 1).replace(turn_cap=40)  # rounds cut off quickly


# ====================================================================== parallel
@pytest.mark.parametrize("players", [2, 4, 6])
def test_parallel_api_test(players: int) -> None:
    parallel_api_test(parallel_env(players=players, rounds=1), num_cycles=400)


def test_parallel_keeps_the_turn_order_and_plays_the_aec_game() -> None:
    """Only the seat to act has a non-empty mask (exactly the engine's legal list); the same
    seed and actions give the AEC environment's observations and rewards."""
    par = parallel_env(rules=SHORT)
    aec = raw_env(rules=SHORT)
    obs, infos = par.reset(seed=5)
    aec.reset(seed=5)
    rng = random.Random(5)
    steps = 0
    while par.agents:
        acting = [a for a in par.agents if infos[a]["to_act"]]
        assert acting == [aec.agent_selection]
        game = par.game
        for a in par.agents:
            mask = obs[a]["action_mask"]
            if a == acting[0]:
                assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal_indices(game))
            else:
                assert not mask.any()
            assert np.array_equal(obs[a]["observation"], aec.observe(a)["observation"])
            assert np.array_equal(obs[a]["observation"],
                                  encode(view(game, int(a.split("_")[1]))))
        legal = np.flatnonzero(obs[acting[0]]["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        # Actions given for seats not to act are ignored.
        others = {a: 0 for a in par.agents}
        obs, rewards, terms, truncs, infos = par.step(others | {acting[0]: action})
        aec.step(action)
        assert rewards == {a: aec.rewards[a] for a in rewards}
        assert terms == {a: aec.terminations[a] for a in terms}
        assert truncs == {a: aec.truncations[a] for a in truncs}
        steps += 1
    assert steps > 20 and (any(truncs.values()) or any(terms.values()))


def test_parallel_wants_the_acting_seats_action() -> None:
    par = parallel_env(players=4)
    _obs, infos = par.reset(seed=1)
    idle = next(a for a in par.agents if not infos[a]["to_act"])
    with pytest.raises(EnvError, match="must act now"):
        par.step({idle: 0})


# ====================================================================== vector
def single_games(rules: Any, seed: int, actions: list[int]) -> list[tuple[Any, ...]]:
    """Replay actions in the AEC environment: (obs, mask, rewards, terminated, truncated)
    after each, starting a new game with the next seed when one ends."""
    e = raw_env(rules=rules)
    e.reset(seed=seed)
    out = []
    for action in actions:
        agent = e.agent_selection
        seat = e.game.actor
        e.step(action)
        ended = any(e.terminations.values()) or any(e.truncations.values())
        rewards = [e.rewards[a] for a in e.possible_agents]
        if ended:
            out.append((e.observe(agent)["observation"], None, rewards,
                        any(e.terminations.values()), any(e.truncations.values()), seat))
            break
        now = e.agent_selection
        out.append((e.observe(now)["observation"], e.observe(now)["action_mask"], rewards,
                    False, False, e.game.actor))
    return out


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_plays_the_same_games_as_the_single_environment(mode: AutoresetMode) -> None:
    n = 3
    vec = HandfootVectorEnv(n, rules=SHORT, autoreset_mode=mode)
    obs, infos = vec.reset(seed=100)
    assert obs.shape == (n, vec.layout.size) and infos["action_mask"].shape == (n, 133)
    assert infos["game_seed"].tolist() == [100, 101, 102]
    rng = np.random.default_rng(0)
    # Per game: the seed being played, its actions, and what the vector gave after each.
    seeds = [100 + i for i in range(n)]
    played: list[list[int]] = [[] for _ in range(n)]
    seen: list[list[tuple[Any, ...]]] = [[] for _ in range(n)]
    finished: list[tuple[int, list[int], list[tuple[Any, ...]]]] = []
    pending = [False] * n
    for _ in range(400):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        seats_before = infos["seat"].copy()
        obs, rewards, terms, truncs, infos = vec.step(actions)
        for i in range(n):
            if pending[i]:  # NEXT_STEP: this step started the next game
                assert not terms[i] and not truncs[i] and not rewards[i].any()
                assert infos["game_seed"][i] == seeds[i] + n
                seeds[i] += n
                played[i], seen[i], pending[i] = [], [], False
                continue
            played[i].append(int(actions[i]))
            ended = bool(terms[i] or truncs[i])
            if ended and mode == AutoresetMode.SAME_STEP:
                last = infos["final_obs"][i]
                assert infos["_final_obs"][i]
            else:
                last = obs[i]
            seen[i].append((last.copy(), None if ended else infos["action_mask"][i].copy(),
                            rewards[i].tolist(), bool(terms[i]), bool(truncs[i]),
                            int(seats_before[i]) if ended else int(infos["seat"][i])))
            if ended:
                finished.append((seeds[i], played[i], seen[i]))
                if mode == AutoresetMode.SAME_STEP:
                    assert infos["game_seed"][i] == seeds[i] + n
                    seeds[i] += n
                    played[i], seen[i] = [], []
                else:
                    pending[i] = True
                    assert not infos["action_mask"][i].any()
    assert len(finished) >= n  # every game ended at least once, most restarted
    for seed, actions, got in finished + [(seeds[i], played[i], seen[i]) for i in range(n)]:
        want = single_games(SHORT, seed, actions)
        assert len(want) == len(got)
        for (o, m, r, te, tr, s), (wo, wm, wr, wte, wtr, ws) in zip(got, want, strict=True):
            assert np.array_equal(o, wo) and s == ws and (te, tr) == (wte, wtr)
            assert r == pytest.approx(wr)
            if wm is None:
                assert m is None
            else:
                assert np.array_equal(m, wm.astype(bool))


def test_vector_writes_into_its_buffers_without_copy() -> None:
    vec = HandfootVectorEnv(4, rules="hand-and-foot", players=4, copy=False)
    obs, infos = vec.reset(seed=1)
    assert obs is vec.observations and infos["action_mask"] is vec.masks
    actions = [int(np.flatnonzero(m)[0]) for m in infos["action_mask"]]
    obs2, rewards, terms, _truncs, _infos = vec.step(actions)
    assert obs2 is vec.observations and rewards is vec.rewards and terms is vec.terminations
    assert rewards.shape == (4, 4) and rewards.dtype == np.float32
    assert vec.action_masks() is vec.masks
    copied = HandfootVectorEnv(2, copy=True)
    obs, _ = copied.reset(seed=1)
    assert obs is not copied.observations


def test_vector_spaces_and_bad_arguments() -> None:
    vec = HandfootVectorEnv(5, rules="hand-knee-foot", players=6)
    assert vec.observation_space.shape == (5, vec.layout.size)
    assert vec.single_action_space.n == 133 and vec.action_space.shape == (5,)
    with pytest.raises(EnvError, match="num_envs"):
        HandfootVectorEnv(0)
    with pytest.raises(EnvError, match="2 seeds for 5 games"):
        vec.reset(seed=[1, 2])


# ====================================================================== self-play
def test_gym_wrapper_seats_policies_that_see_only_their_seat() -> None:
    """Opponents as a callable policy: it gets the acting seat's own vector and mask."""
    calls: list[int] = []
    holder: dict[str, HandfootEnv] = {}

    def policy(obs: Any, mask: Any) -> int:
        game = holder["env"].game
        assert np.array_equal(obs, encode(view(game, game.actor)))
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal_indices(game))
        assert game.actor % 2 == 1  # an opponent's seat
        calls.append(game.actor)
        return int(np.flatnonzero(mask)[0])

    e = HandfootEnv("hand-and-foot", players=4, rounds=1, opponents=policy)
    holder["env"] = e
    _obs, info = e.reset(seed=3)
    for _ in range(60):
        _obs, _r, term, trunc, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
        if term or trunc:
            break
    assert {1, 3} <= set(calls)


def test_gym_wrapper_self_play_against_a_snapshot_and_swaps_it() -> None:
    first: list[int] = []
    second: list[int] = []

    def snapshot(log: list[int]) -> Any:
        def play(obs: Any, mask: Any) -> int:
            log.append(1)
            legal = np.flatnonzero(mask)
            return int(legal[-1])
        return play

    e = HandfootEnv("hand-and-foot", players=2, rounds=1, opponents=snapshot(first))
    _obs, info = e.reset(seed=4)
    for _ in range(10):
        _obs, *_rest, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    e.set_opponents(snapshot(second))
    for _ in range(10):
        _obs, *_rest, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert first and second
    e.set_opponents("basic")  # back to a bot, at once
    _obs, *_rest, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(EnvError, match="bot's name or a policy"):
        e.set_opponents(42)  # type: ignore[arg-type]


def test_gym_wrapper_refuses_a_policys_illegal_action() -> None:
    e = HandfootEnv("hand-and-foot", players=2, rounds=1, opponents=lambda o, m: 132)
    with pytest.raises(EnvError, match="not legal now"):
        _obs, info = e.reset(seed=2)
        for _ in range(50):
            _obs, *_rest, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
