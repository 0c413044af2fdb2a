"""A Gymnasium single-agent wrapper: one learner against handfoot's bots.

The learner plays one seat, or (``partner=None``, the default) every seat of its team, as the
arena seats one bot in both of a team's seats; each decision is made from the acting seat's own
view.  The other seats are handfoot bots (``handfoot.bots.make_bot`` names: ``random``,
``basic``, ``heuristic``, ...).  A step is one learner action followed by the bots' actions up to
the learner's next decision; its reward is what the learner's team earned meanwhile (round ends,
scaled as in the AEC environment).  An illegal action (from an agent that ignores the mask)
changes nothing and earns ``illegal_reward``.  The legal actions are in ``info["action_mask"]`` and
``action_masks()`` (what sb3-contrib's MaskablePPO calls).

Self-play: ``opponents`` and ``partner`` may also be a policy, any callable that takes an
observation and its mask (the acting seat's own vector and the booleans of its legal actions,
as the learner gets them) and returns an action index: the learning model itself (its current
weights), a frozen snapshot of it, or anything else.  ``set_opponents`` swaps them between
episodes, for a league of past versions.

Registered as ``handfoot/HandAndFoot-v0`` and ``handfoot/HandKneeFoot-v0``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(f"handfoot.env needs Gymnasium ({err.name} is missing): "
                      'pip install "handfoot[rl]"') from None

from ..bots import make_bot
from ..bots.base import Bot, ask
from ..bots.observation import Vector, layout_for, view_text
from ..rules import Rules
from ..views import view
from . import indexed
from .encoder import Encoder

SEED_SPACE = 2**62

# A seat's player: a bot's name, or a policy called with (observation, mask) for an action.
Policy = Callable[[Vector, npt.NDArray[np.bool_]], Any]
Player = str | Policy


class HandfootEnv(gymnasium.Env[Vector, int]):
    """One learner (a seat or a team) against handfoot bots."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's form)

    def __init__(self, rules: Rules | str = "hand-and-foot", players: int | None = None,
                 rounds: int | None = None, opponents: Player = "random",
                 partner: Player | None = None, seat: int = 0, reward_scale: float = 0.001,
                 illegal_reward: float = -0.1, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode != "ansi":
            raise indexed.EnvError(f"render_mode {render_mode!r}: the environment renders 'ansi'")
        self.rules = indexed.make_rules(rules, players, rounds)
        n = self.rules.players
        if not 0 <= seat < n:
            raise indexed.EnvError(f"seat {seat}: the table has seats 0 to {n - 1}")
        self.render_mode = render_mode
        self.reward_scale = float(reward_scale)
        self.illegal_reward = float(illegal_reward)
        self.layout = layout_for(self.rules)
        self._encoder = Encoder(self.layout)
        self.seat = seat
        self.team = self.rules.team_of(seat)
        self.learner = [s == seat or (partner is None and self.rules.team_of(s) == self.team)
                        for s in range(n)]
        self.specs: list[Player | None] = []
        self._partner = partner
        self.set_opponents(opponents)
        self.observation_space = spaces.Box(self.layout.low, self.layout.high, dtype=np.float32)
        self.action_space = spaces.Discrete(indexed.NUM_ACTIONS)  # type: ignore[assignment]
        self.game = indexed.new_game(self.rules, 0)
        self.game_seed = 0
        self.engine_actions = 0  # actions applied this episode, the bots' included
        self._bots: list[Bot | None] = [None] * n
        self._legal: list[int] = []
        self._ended = False  # terminated or truncated: only reset() goes on

    def set_opponents(self, opponents: Player, partner: Player | None = None) -> None:
        """Seat other players in the opponents' seats (and the partner's, when the learner does
        not play them), at once: a league swaps snapshots of the learner between episodes."""
        if partner is not None:
            self._partner = partner
        n = self.rules.players
        self.specs = [None if self.learner[s] else
                      (self._partner if self.rules.team_of(s) == self.team else opponents)
                      for s in range(n)]
        for name in {s for s in self.specs if isinstance(s, str)}:
            make_bot(name)  # a bad name fails here, with the bots' own message
        for player in self.specs:
            if player is not None and not isinstance(player, str) and not callable(player):
                raise indexed.EnvError(f"a seat's player is a bot's name or a policy, "
                                    f"not {player!r}")
        if hasattr(self, "_bots"):
            self._bots = [make_bot(spec, seed=self.game_seed * 8 + s)
                          if isinstance(spec, str) else None
                          for s, spec in enumerate(self.specs)]

    # ------------------------------------------------------------------ the episode
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        """A new game.  The game's seed is ``seed`` itself when given (the same deals as
        ``handfoot`` makes for it), otherwise drawn from the environment's generator; the bots
        are seeded from the game's seed."""
        super().reset(seed=seed)
        self.game_seed = seed if seed is not None else int(self.np_random.integers(SEED_SPACE))
        self.game = indexed.new_game(self.rules, self.game_seed)
        self.engine_actions = 0
        self._ended = False
        self._bots = [make_bot(spec, seed=self.game_seed * 8 + s) if isinstance(spec, str)
                      else None for s, spec in enumerate(self.specs)]
        _reward, self._ended = self._advance()  # nothing is paid before a first decision
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        game = self.game
        if self._ended or game.over:
            raise indexed.EnvError("the episode is over: call reset()")
        if action not in self._legal:
            # An unmasked agent's illegal choice changes nothing and costs illegal_reward.
            info = self._info()
            info["illegal"] = True
            return self._observe(), self.illegal_reward, False, False, info
        before = indexed.rounds_played(game)
        indexed.apply_index(game, int(action), self._legal)
        self.engine_actions += 1
        reward, truncated = self._pay(before)
        if game.over or truncated:
            self._legal = []
        else:
            more, truncated = self._advance()
            reward += more
        self._ended = game.over or truncated
        return self._observe(), reward, game.over, truncated, self._info()

    def _advance(self) -> tuple[float, bool]:
        """The bots play until a learner seat must act or the episode ends."""
        game = self.game
        reward = 0.0
        bots = self._bots
        while not game.over and not self.learner[game.actor]:
            before = indexed.rounds_played(game)
            bot = bots[game.actor]
            if bot is None:
                self._policy_plays(game)
            else:
                game.apply(ask(bot, game))
            self.engine_actions += 1
            if indexed.rounds_played(game) != before:
                paid, truncated = self._pay(before)
                reward += paid
                if truncated:
                    self._legal = []
                    return reward, True
        self._legal = [] if game.over else indexed.legal_indices(game)
        return reward, False

    def _policy_plays(self, game: Any) -> None:
        """The seat to act is a policy's: it gets the seat's own vector and mask."""
        actor = game.actor
        policy = self.specs[actor]
        assert callable(policy)
        legal = indexed.legal_indices(game)
        ones = bytearray(indexed.NUM_ACTIONS)
        for i in legal:
            ones[i] = 1
        mask = np.frombuffer(ones, _BOOL)
        action = int(policy(self._encoder.encode_seat(game, actor), mask))
        indexed.apply_index(game, action, legal)

    def _pay(self, before: int) -> tuple[float, bool]:
        game = self.game
        reward = 0.0
        truncated = False
        teams = self.rules.teams
        for r in range(before, indexed.rounds_played(game)):
            totals = indexed.round_totals(game, r)
            others = (sum(totals) - totals[self.team]) / (teams - 1)
            reward += self.reward_scale * (totals[self.team] - others)
            truncated |= indexed.round_ended_by(game, r) == "turn_cap" and not game.over
        return reward, truncated

    def _observe(self) -> Vector:
        game = self.game
        seat = game.actor if self.learner[game.actor] else self.seat
        return self._encoder.encode_seat(game, seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.game.actor,
                "game_seed": self.game_seed}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner's acting seat, as booleans over the index."""
        # Ones written into a fresh byte string: NumPy's indexing of a new array costs more.
        ones = bytearray(indexed.NUM_ACTIONS)
        for i in self._legal:
            ones[i] = 1
        return np.frombuffer(ones, _BOOL)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.game
        seat = game.actor if self.learner[game.actor] else self.seat
        return view_text(view(game, seat))


_BOOL = np.dtype(np.bool_)
