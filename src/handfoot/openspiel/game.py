"""The OpenSpiel game, its states and its observer (see the package's docstring)."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..actions import ATOMIC_ACTIONS
from ..engine import Game
from ..env import engine as core
from ..env.encode import layout_for
from ..rules import Rules
from ..views import sample_world, view

SHORT_NAME = "python_handfoot"
MAX_PLAYERS = 6
POINTS = 1000.0  # returns are in thousands of points

DEFAULTS: dict[str, Any] = {
    "preset": "hand-and-foot",
    "players": 4,
    "rounds": 0,  # 0: the preset's
    "turn_cap": 0,  # 0: the preset's
    "deals": 1 << 16,
    "seed_base": 0,
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Hand and Foot (handfoot)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    rules = core.make_rules(str(params["preset"]), int(params["players"]),
                            int(params["rounds"]) or None)
    if int(params["turn_cap"]):
        rules = rules.replace(turn_cap=int(params["turn_cap"]))
    return rules


class HandfootGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one rule set; states start at the chance node that picks the deal."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = DEFAULTS | dict(params or {})
        if int(full["deals"]) < 1:
            raise ValueError("deals must be at least 1")
        rules = rules_from_params(full)
        # Loose bounds in thousands of points: no team scores beyond them in a round.
        most = rules.rounds * 50.0
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ATOMIC_ACTIONS),
            max_chance_outcomes=int(full["deals"]),
            num_players=rules.players,
            min_utility=-most,
            max_utility=most,
            utility_sum=None,
            max_game_length=rules.rounds * rules.turn_cap * 60,
        )
        super().__init__(GAME_TYPE, info, full)

    def new_initial_state(self) -> HandfootState:
        return HandfootState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> HandfootObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return HandfootObserver(settings_of(self).rules, recall)


class Settings:
    """A game's settings as the states need them, built once per parameter set."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.rules = rules_from_params(params)
        self.deals = int(params["deals"])
        self.seed_base = int(params["seed_base"])


_SETTINGS: dict[str, Settings] = {}


def settings_of(game: Any) -> Settings:
    # OpenSpiel may hand a state a fresh Python wrapper of the game, without the attributes
    # set in HandfootGame.__init__: the settings are found again from the parameters.
    params = DEFAULTS | dict(game.get_parameters())
    key = json.dumps(params, sort_keys=True)
    found = _SETTINGS.get(key)
    if found is None:
        found = _SETTINGS[key] = Settings(params)
    return found


class HandfootState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the chance node, then the engine's game."""

    def __init__(self, game: Any, spec: Settings | None = None) -> None:
        super().__init__(game)
        self.spec = spec or settings_of(game)
        self.game: Game | None = None  # None until the chance outcome picks the deal
        self.actions: list[int] = []  # the public action history (atomic indices)

    # ------------------------------------------------------------------ the pyspiel API
    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game.actor

    def _legal_actions(self, player: int) -> list[int]:
        if self.game is None or self.game.over or player != self.game.actor:
            return []
        return sorted(core.legal_indices(self.game))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.spec.deals
        return [(i, p) for i in range(self.spec.deals)]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self.game = core.new_game(self.spec.rules, self.spec.seed_base + int(action))
            return
        core.apply_index(self.game, int(action), core.legal_indices(self.game))
        self.actions.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {self.spec.seed_base + action}"
        return ATOMIC_ACTIONS[action].text

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.over

    def returns(self) -> list[float]:
        rules = self.spec.rules
        if self.game is None:
            return [0.0] * rules.players
        totals = self.game.totals
        return [totals[rules.team_of(s)] / POINTS for s in range(rules.players)]

    def resample_from_infostate(self, player: int, sampler: Any) -> HandfootState:
        """A state the player cannot tell from this one: the unseen cards dealt at random."""
        state = HandfootState(self.get_game(), self.spec)
        state.actions = self.actions[:]
        if self.game is not None:
            rng = random.Random(int(sampler() * 2**53))
            state.game = sample_world(view(self.game, player), rng)
        return state

    def __str__(self) -> str:
        if self.game is None:
            return "chance: the deal"
        g = self.game
        return (f"round {g.round_no}, seat {g.actor} to act, scores "
                f"{' '.join(map(str, g.totals))}, {len(self.actions)} actions")

    def __deepcopy__(self, memo: dict[int, Any]) -> HandfootState:
        # OpenSpiel clones Python states with deepcopy; the engine's clone shares the rules
        # and their tables instead of copying them.
        other = HandfootState(self.get_game(), self.spec)
        other.game = self.game.clone() if self.game is not None else None
        other.actions = self.actions[:]
        return other


class HandfootObserver:
    """Observation and information-state tensors and strings, from the seat's view only."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.layout = layout_for(rules)
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.layout.size, dtype=np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: HandfootState, player: int) -> None:
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.layout.encode(view(state.game, player))

    def string_from(self, state: HandfootState, player: int) -> str:
        if state.game is None:
            return f"seat {player}: before the deal"
        data = view(state.game, player).to_mapping()
        del data["rules"]  # the same for every state of the game
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text += " history " + " ".join(map(str, state.actions))
        return text
