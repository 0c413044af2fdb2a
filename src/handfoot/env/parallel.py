"""The PettingZoo parallel API: every seat's observation each step, one seat acting.

Hand and Foot is played in turns, and the parallel environment keeps the turn order: at every
step exactly one seat may act (the one the engine says must act now, the partner when answering
"may I go out?"), and only its ``action_mask`` has ones; every other seat's mask is all zeros
and its entry in the actions (if any) is ignored.  Observations, rewards, terminations and
truncations are those of the AEC environment (``handfoot.env.raw_env``, docs/RL.md), which this
one drives: the same seed and the same actions give the same game.  Every live agent gets its
own view's observation at every step; ``infos[agent]["to_act"]`` says which one must act.

    from handfoot.env import parallel_env
    e = parallel_env(rules="hand-and-foot", players=4)
    obs, infos = e.reset(seed=1)
    while e.agents:
        acting = next(a for a in e.agents if infos[a]["to_act"])
        legal = obs[acting]["action_mask"].nonzero()[0]
        obs, rewards, terminations, truncations, infos = e.step({acting: int(legal[0])})
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(f"handfoot.env needs PettingZoo and Gymnasium ({err.name} is missing): "
                      'pip install "handfoot[rl]"') from None

from ..rules import Rules
from . import indexed
from .aec import raw_env

NAME = "handfoot_parallel_v0"


class parallel_env(ParallelEnv):  # type: ignore[misc]
    """Hand and Foot for 2 to 6 players under PettingZoo's parallel API, turn order kept.

    The arguments are :class:`handfoot.env.raw_env`'s.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": NAME,
                                          "is_parallelizable": True}

    def __init__(self, rules: Rules | str = "hand-and-foot", players: int | None = None,
                 rounds: int | None = None, reward_scale: float = 0.001,
                 render_mode: str | None = None) -> None:
        self.aec = raw_env(rules=rules, players=players, rounds=rounds,
                           reward_scale=reward_scale, render_mode=render_mode)
        self.rules = self.aec.rules
        self.render_mode = render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []

    @functools.cache  # noqa: B019 (the same space object every time, as PettingZoo asks)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    @property
    def game(self) -> Any:
        """The engine's game being played."""
        return self.aec.game

    @property
    def game_seed(self) -> int | None:
        return self.aec.game_seed

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game, seeded as :meth:`raw_env.reset` seeds it."""
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observe(), self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float],
                                                     dict[str, bool], dict[str, bool],
                                                     dict[str, dict[str, Any]]]:
        if not self.agents:
            raise indexed.EnvError("the game is over: call reset()")
        aec = self.aec
        acting = aec.agent_selection
        action = actions.get(acting)
        if action is None:
            raise indexed.EnvError(f"{acting} must act now: give its action in the actions")
        aec.step(int(action))
        rewards = {a: float(aec.rewards[a]) for a in self.agents}
        terminations = {a: bool(aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(aec.truncations[a]) for a in self.agents}
        observations = self._observe()
        infos = self._infos()
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observe(self) -> dict[str, Any]:
        observe = self.aec.observe
        return {a: observe(a) for a in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        acting = None if self.aec.game.over else self.aec.agent_selection
        return {a: {"to_act": a == acting} for a in self.agents}

    def render(self) -> str | None:
        return self.aec.render()

    def state(self) -> Any:
        raise NotImplementedError("a global state would show hidden cards; observe a seat")

    def close(self) -> None:
        pass
