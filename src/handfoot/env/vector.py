"""Many games stepped in one call, Gymnasium's vector conventions: batched arrays, autoreset.

:class:`HandfootVectorEnv` plays ``num_envs`` games side by side for self-play: in each game
the seat to act (whoever the engine says must act now) takes the action given for that game,
and the step returns, for every game, the next acting seat's observation and mask, and what
every seat earned.  The arrays are allocated once and written in place:

- ``observations``: ``(num_envs, size)`` float32, the view of the seat to act, encoded as in the
  other environments (docs/RL.md), never anything that seat cannot see;
- ``rewards``: ``(num_envs, players)`` float32, each seat's reward this step (paid when a round
  ends, shared by a team, as the AEC environment pays them): one row per game, since a round's
  end pays every seat and not only the one that acted;
- ``terminations`` and ``truncations``: ``(num_envs,)`` booleans (the game's end; a round cut
  off by the turn cap);
- ``infos``: ``action_mask`` ``(num_envs, 133)`` booleans (only the seat to act's legal
  actions), ``seat`` ``(num_envs,)`` the seat to act, ``game_seed`` the games' seeds.

``copy=True`` (the default, as in Gymnasium's vector environments) hands out copies;
``copy=False`` hands out the buffers themselves, rewritten by the next call.  Games reset
themselves as Gymnasium's ``AutoresetMode.NEXT_STEP`` has it (the default: the step after a
game ends starts the next game and ignores that game's action) or ``SAME_STEP`` (the game
restarts in the step that ends it; the last observation is in ``infos["final_obs"]``, marked by
``infos["_final_obs"]``).  ``reset(seed=s)`` deals game ``i`` the engine's game of seed
``s + i``; each restart of game ``i`` then takes the seed ``num_envs`` further on, so a vector
plays the games the single environments would play for those seeds (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(f"handfoot.env needs Gymnasium ({err.name} is missing): "
                      'pip install "handfoot[rl]"') from None

from ..bots.observation import layout_for
from ..engine import Game
from ..rules import Rules
from . import indexed
from .encoder import Encoder

SEED_SPACE = 2**62
_A = indexed.NUM_ACTIONS
_NO_ACTIONS = bytes(_A)


class HandfootVectorEnv(VectorEnv):
    """``num_envs`` games of one rule set, stepped together (see the module's docstring)."""

    def __init__(self, num_envs: int, rules: Rules | str = "hand-and-foot",
                 players: int | None = None, rounds: int | None = None,
                 reward_scale: float = 0.001, copy: bool = True,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP) -> None:
        if num_envs < 1:
            raise indexed.EnvError(f"num_envs must be at least 1, not {num_envs}")
        self.rules = indexed.make_rules(rules, players, rounds)
        self.num_envs = n = int(num_envs)
        self.players = p = self.rules.players
        self.reward_scale = float(reward_scale)
        self.copy = copy
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.render_mode = None
        self.layout = layout = layout_for(self.rules)
        self._team = [self.rules.team_of(s) for s in range(p)]
        self.single_observation_space = spaces.Box(layout.low, layout.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(indexed.NUM_ACTIONS)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, n)
        self.action_space = spaces.MultiDiscrete(np.full(n, indexed.NUM_ACTIONS))
        # The buffers every step writes into.
        self.observations = np.zeros((n, layout.size), dtype=np.float32)
        self.masks = np.zeros((n, indexed.NUM_ACTIONS), dtype=np.bool_)
        self._mask_bytes = self.masks.view(np.uint8).data.cast("B")
        self.rewards = np.zeros((n, p), dtype=np.float32)
        self.terminations = np.zeros(n, dtype=np.bool_)
        self.truncations = np.zeros(n, dtype=np.bool_)
        self.seats = np.zeros(n, dtype=np.int64)
        self.game_seeds = np.zeros(n, dtype=np.int64)
        self.final_obs = np.zeros((n, layout.size), dtype=np.float32)
        self.final_mark = np.zeros(n, dtype=np.bool_)
        self._encoders = [Encoder(layout) for _ in range(n)]
        self.games: list[Game] = [indexed.new_game(self.rules, 0) for _ in range(n)]
        self._legal: list[list[int]] = [[] for _ in range(n)]
        self._done = np.zeros(n, dtype=np.bool_)
        self._next_seed = [0] * n

    # ------------------------------------------------------------------ the API
    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """New games in every slot: game ``i`` of seed ``seed + i`` (or ``seed[i]``)."""
        n = self.num_envs
        if seed is None:
            rng = np.random.default_rng()
            base = int(rng.integers(SEED_SPACE))
            seeds = [base + i for i in range(n)]
        elif isinstance(seed, int | np.integer):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != n:
                raise indexed.EnvError(f"{len(seeds)} seeds for {n} games")
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        self.final_mark.fill(False)
        for i, s in enumerate(seeds):
            self._start(i, s)
        return self._out(self.observations), self._infos(False)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Each game's seat to act plays ``actions[i]`` (an index the mask allows)."""
        n = self.num_envs
        acts = np.asarray(actions).reshape(n).tolist()
        rewards = self.rewards
        rewards.fill(0.0)
        terms = [False] * n
        truncs = [False] * n
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        if same_step:
            self.final_mark.fill(False)
        done = self._done
        games = self.games
        legals = self._legal
        for i, action in enumerate(acts):
            if done[i]:  # NEXT_STEP: the step after a game's end starts the next one
                self._start(i, self._next_seed[i])
                continue
            game = games[i]
            seat = game.actor
            finished = indexed.apply_index(game, int(action), legals[i])
            if not finished:
                self._observe(i)
                continue
            after = indexed.rounds_played(game)
            truncated = False
            for r in range(after - finished, after):
                pay = indexed.margins(indexed.round_totals(game, r), self.reward_scale)
                rewards[i] += [pay[t] for t in self._team]
                truncated |= indexed.round_ended_by(game, r) == "turn_cap"
            terms[i] = game.over
            truncs[i] = truncated and not game.over
            if not (game.over or truncated):
                self._observe(i)
            elif same_step:
                self.final_obs[i] = self._encoders[i].encode_seat(game, seat)
                self.final_mark[i] = True
                self._start(i, self._next_seed[i])
            else:
                done[i] = True
                legals[i] = []
                self.observations[i] = self._encoders[i].encode_seat(game, seat)
                self._mask_bytes[i * _A:(i + 1) * _A] = _NO_ACTIONS
                self.seats[i] = seat
        self.terminations[:] = terms
        self.truncations[:] = truncs
        out = self._out
        return (out(self.observations), out(rewards), out(self.terminations),
                out(self.truncations), self._infos(same_step))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of each game's seat to act (what sb3-contrib calls)."""
        return self._out(self.masks)  # type: ignore[no-any-return]

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # ------------------------------------------------------------------ inside
    def _start(self, i: int, seed: int) -> None:
        self.games[i] = indexed.new_game(self.rules, seed)
        self.game_seeds[i] = seed
        self._next_seed[i] = seed + self.num_envs
        self._done[i] = False
        self._observe(i)

    def _observe(self, i: int) -> None:
        game = self.games[i]
        seat = game.actor
        legal = self._legal[i] = indexed.legal_indices(game)
        self.observations[i] = self._encoders[i].encode_seat(game, seat)
        # The mask's row written as bytes: NumPy's indexing of a small row costs more.
        ones = bytearray(_A)
        for a in legal:
            ones[a] = 1
        self._mask_bytes[i * _A:(i + 1) * _A] = ones
        self.seats[i] = seat

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else array

    def _infos(self, final: bool) -> dict[str, Any]:
        out = self._out
        infos = {"action_mask": out(self.masks), "seat": out(self.seats),
                 "game_seed": out(self.game_seeds)}
        if final and self.final_mark.any():
            infos["final_obs"] = out(self.final_obs)
            infos["_final_obs"] = out(self.final_mark)
        return infos
