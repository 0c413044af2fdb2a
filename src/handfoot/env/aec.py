"""The PettingZoo AEC environment: one agent per seat, turn by turn.

The agent to act is always the seat the engine says must act now; the "may I go out?" answer is
simply the partner's turn.  Rewards are shared by a team and paid when a round ends (docs/RL.md):
``reward_scale`` times the team's round points minus the mean of the other teams' round points.
The episode terminates when the game ends and is truncated when a round is cut off by the rules'
turn cap (clause 9.2), which is a guard against endless rounds rather than a result of play.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(f"handfoot.env needs PettingZoo and Gymnasium ({err.name} is missing): "
                      'pip install "handfoot[rl]"') from None

from ..bots.observation import layout_for, view_text
from ..rules import Rules
from ..views import view
from . import indexed
from .encoder import Encoder

NAME = "handfoot_v0"


class raw_env(AECEnv):  # type: ignore[misc]
    """Hand and Foot (any rule set the engine accepts) for 2 to 6 players.

    ``rules`` is a preset name or a :class:`~handfoot.rules.Rules`; ``players`` and ``rounds``
    change the player count and the game's length (``rounds=1`` plays single rounds).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": NAME,
                                          "is_parallelizable": False}

    def __init__(self, rules: Rules | str = "hand-and-foot", players: int | None = None,
                 rounds: int | None = None, reward_scale: float = 0.001,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode != "ansi":
            raise indexed.EnvError(f"render_mode {render_mode!r}: the environment renders 'ansi'")
        self.rules = indexed.make_rules(rules, players, rounds)
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        self.layout = layout_for(self.rules)
        self._encoder = Encoder(self.layout)
        n = self.rules.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        self._team = [self.rules.team_of(s) for s in range(n)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        box = spaces.Box(self.layout.low, self.layout.high, dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(indexed.NUM_ACTIONS,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(indexed.NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self._next_seed: int | None = None
        self.game_seed: int | None = None
        self.game = indexed.new_game(self.rules, 0)
        self._legal: list[int] | None = None
        self._paid = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game.  ``reset(seed=s)`` deals the game with seed ``s`` (the same game as
        ``handfoot`` deals for seed ``s``); later resets without a seed take ``s + 1``,
        ``s + 2``, ... and a first reset without one draws a seed at random."""
        if seed is not None:
            self._next_seed = seed
        elif self._next_seed is None:
            self._next_seed = self._seeds.getrandbits(62)
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.game = indexed.new_game(self.rules, self.game_seed)
        self._legal = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = False
        self.agent_selection = self.possible_agents[self.game.actor]

    def legal_indices(self) -> list[int]:
        """The acting seat's legal actions as indices (the mask's ones)."""
        if self._legal is None:
            self._legal = indexed.legal_indices(self.game)
        return self._legal

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        game = self.game
        obs = self._encoder.encode_seat(game, seat)
        if seat == game.actor and not game.over:
            mask = indexed.mask_of(self.legal_indices())
        else:
            mask = np.zeros(indexed.NUM_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise indexed.EnvError(f"{agent} must act: None is only for agents that are done")
        game = self.game
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        finished = indexed.apply_index(game, int(action), self.legal_indices())
        self._legal = None
        if finished:
            after = indexed.rounds_played(game)
            before = after - finished
            self._pay_rounds(before, after)
            if game.over:
                self.terminations = dict.fromkeys(self.agents, True)
            elif any(indexed.round_ended_by(game, r) == "turn_cap" for r in range(before, after)):
                self.truncations = dict.fromkeys(self.agents, True)
            # Rewards are paid only here (and are zero on every other step), so only here do
            # they need adding to the cumulative rewards.
            self._accumulate_rewards()
        self.agent_selection = self.possible_agents[game.actor]

    def _pay_rounds(self, first: int, stop: int) -> None:
        teams = self.rules.teams
        scale = self.reward_scale
        pay = [0.0] * teams
        for r in range(first, stop):
            totals = indexed.round_totals(self.game, r)
            whole = sum(totals)
            for t in range(teams):
                others = (whole - totals[t]) / (teams - 1)
                pay[t] += scale * (totals[t] - others)
        self.rewards = {a: pay[self._team[s]] for s, a in enumerate(self.possible_agents)}
        self._paid = True

    # ------------------------------------------------------------------ the rest
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return view_text(view(self.game, self.game.actor))

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> Any:
    """:class:`raw_env` wrapped as PettingZoo's classic games are: out-of-range actions are
    refused and the API's call order is enforced (PettingZoo's ``AssertOutOfBoundsWrapper``
    inside its ``OrderEnforcingWrapper``, as one wrapper: :class:`OrderEnforced`)."""
    return OrderEnforced(raw_env(**kwargs))


def _forwarded(name: str) -> property:
    """An attribute of the wrapped environment, read directly (an error before reset, as
    PettingZoo's wrapper has it, for the attributes that only a reset makes)."""
    guarded = name in _MADE_BY_RESET

    def get(self: OrderEnforced) -> Any:
        if guarded and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The wrapped environment's ``{name}``.")


_MADE_BY_RESET = ("rewards", "terminations", "truncations", "infos", "agent_selection",
                  "num_agents", "agents")


class OrderEnforced(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` around its ``AssertOutOfBoundsWrapper``, as one
    wrapper with the same checks, errors and warnings.

    PettingZoo's wrappers reach the attributes read on every step (``agent_selection``, the
    terminations, the rewards, ...) through ``__getattr__``, which Python calls only after
    the ordinary lookup has failed, and two wrappers deep that doubled the time of a step of
    the loop.  Here those attributes are properties that read the environment directly, and
    the bounds check is one comparison for a plain integer (the action space's own check for
    anything else).
    """

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    num_agents = _forwarded("num_agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")
    possible_agents = _forwarded("possible_agents")

    def step(self, action: Any) -> None:
        raw = self.env
        if not self._has_reset or not raw.agents:
            super().step(action)  # the order check's error or warning
            return
        agent = raw.agent_selection
        assert (
            (action is None and (raw.terminations[agent] or raw.truncations[agent]))
            or (type(action) is int and 0 <= action < indexed.NUM_ACTIONS)
            or raw.action_space(agent).contains(action)
        ), "action is not in action space"
        self._has_updated = True
        raw.step(action)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            super().observe(agent)  # the order check's error
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result

    def __str__(self) -> str:
        return str(self.env)
