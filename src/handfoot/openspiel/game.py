"""The OpenSpiel games, their states and their observer (see the package's docstring)."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..actions import ATOMIC_ACTIONS, Discard, PickUpPile, TakeOnto, TakePile
from ..bots.observation import layout_for
from ..engine import Game
from ..env import indexed
from ..rules import Rules
from ..views import sample_world, view

SHORT_NAME = "python_handfoot"  # the margin: zero-sum, as PettingZoo and Gymnasium pay
SCORES_NAME = "python_handfoot_scores"  # the absolute team scores: general-sum
MAX_PLAYERS = 6
POINTS = 1000.0  # rewards and returns are in thousands of points

DEFAULTS: dict[str, Any] = {
    "preset": "hand-and-foot",
    "players": 4,
    "rounds": 0,  # 0: the preset's
    "turn_cap": 0,  # 0: the preset's
    "deals": 1 << 16,
    "seed_base": 0,
}


def _game_type(short_name: str, long_name: str, utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        # Rewards are paid when a round ends; returns are their sum so far.
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


GAME_TYPE = _game_type(SHORT_NAME, "Hand and Foot (handfoot), round-score margins",
                       pyspiel.GameType.Utility.ZERO_SUM)
SCORES_GAME_TYPE = _game_type(SCORES_NAME, "Hand and Foot (handfoot), team scores",
                              pyspiel.GameType.Utility.GENERAL_SUM)

# The public history the information-state tensor sums over the round, per seat: the cards it
# discarded, per kind (15), and how often it took the pile (1).
_DISCARD_KIND = {i: a.kind for i, a in enumerate(ATOMIC_ACTIONS) if isinstance(a, Discard)}
_TAKES = frozenset(i for i, a in enumerate(ATOMIC_ACTIONS)
                   if isinstance(a, TakePile | TakeOnto | PickUpPile))
HISTORY_PER_SEAT = 16
def rules_from_params(params: dict[str, Any]) -> Rules:
    rules = indexed.make_rules(str(params["preset"]), int(params["players"]),
                            int(params["rounds"]) or None)
    if int(params["turn_cap"]):
        rules = rules.replace(turn_cap=int(params["turn_cap"]))
    return rules


class HandfootGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one rule set; states start at the chance node that picks the deal.

    ``python_handfoot`` pays each seat its team's round margin (its points minus the mean of
    the other teams' points, as PettingZoo and Gymnasium pay with their default scale);
    ``python_handfoot_scores`` pays the team's round points themselves."""

    game_type = GAME_TYPE

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = DEFAULTS | dict(params or {})
        if int(full["deals"]) < 1:
            raise ValueError("deals must be at least 1")
        rules = rules_from_params(full)
        # Loose bounds in thousands of points: no team scores beyond them in a round.
        most = rules.rounds * 50.0
        margin = self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ATOMIC_ACTIONS),
            max_chance_outcomes=int(full["deals"]),
            num_players=rules.players,
            min_utility=-2 * most if margin else -most,
            max_utility=2 * most if margin else most,
            utility_sum=0.0 if margin else None,
            max_game_length=rules.rounds * rules.turn_cap * 60,
        )
        super().__init__(self.game_type, info, full)

    def new_initial_state(self) -> HandfootState:
        return HandfootState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> HandfootObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return HandfootObserver(settings_of(self).rules, recall)


class HandfootScoresGame(HandfootGame):
    """The same game paying absolute team scores (general-sum)."""

    game_type = SCORES_GAME_TYPE


class Settings:
    """A game's settings as the states need them, built once per parameter set."""

    def __init__(self, params: dict[str, Any], margin: bool) -> None:
        self.rules = rules_from_params(params)
        self.deals = int(params["deals"])
        self.seed_base = int(params["seed_base"])
        self.margin = margin


_SETTINGS: dict[str, Settings] = {}


def settings_of(game: Any) -> Settings:
    # OpenSpiel may hand a state a fresh Python wrapper of the game, without the attributes
    # set in HandfootGame.__init__: the settings are found again from the parameters.
    params = DEFAULTS | dict(game.get_parameters())
    margin = game.get_type().short_name == SHORT_NAME
    key = json.dumps([params, margin], sort_keys=True)
    found = _SETTINGS.get(key)
    if found is None:
        found = _SETTINGS[key] = Settings(params, margin)
    return found


class HandfootState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the chance node, then the engine's game."""

    def __init__(self, game: Any, spec: Settings | None = None) -> None:
        super().__init__(game)
        self.spec = spec or settings_of(game)
        n = self.spec.rules.players
        self.game: Game | None = None  # None until the chance outcome picks the deal
        self.actions: list[int] = []  # the public action history (atomic indices)
        self._rewards = [0.0] * n  # paid by the last action (a round's end)
        self._returns = [0.0] * n  # the sum of the rewards so far
        # The public history of the round so far, per seat (see HISTORY_PER_SEAT).
        self.history = [[0] * HISTORY_PER_SEAT for _ in range(n)]

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
        return sorted(indexed.legal_indices(self.game))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.spec.deals
        return [(i, p) for i in range(self.spec.deals)]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self.game is None:
            self.game = indexed.new_game(self.spec.rules, self.spec.seed_base + action)
            return
        game = self.game
        seat = game.actor
        before = indexed.rounds_played(game)
        finished = indexed.apply_index(game, action, indexed.legal_indices(game))
        self.actions.append(action)
        if finished:
            self._pay(before, indexed.rounds_played(game))
            self.history = [[0] * HISTORY_PER_SEAT for _ in self.history]
            return
        if any(self._rewards):
            self._rewards = [0.0] * len(self._rewards)
        kind = _DISCARD_KIND.get(action)
        if kind is not None:
            self.history[seat][kind] += 1
        elif action in _TAKES:
            self.history[seat][15] += 1

    def _pay(self, first: int, stop: int) -> None:
        rules = self.spec.rules
        pay = [0.0] * rules.teams
        for r in range(first, stop):
            totals = indexed.round_totals(self.game, r)  # type: ignore[arg-type]
            paid = (indexed.margins(totals, 1.0 / POINTS) if self.spec.margin
                    else [t / POINTS for t in totals])
            pay = [a + b for a, b in zip(pay, paid, strict=True)]
        self._rewards = [pay[rules.team_of(s)] for s in range(rules.players)]
        self._returns = [a + b for a, b in zip(self._returns, self._rewards, strict=True)]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {self.spec.seed_base + action}"
        return ATOMIC_ACTIONS[action].text

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.over

    def rewards(self) -> list[float]:
        """What the last action paid: each seat's team reward for a round that just ended."""
        return self._rewards[:]

    def returns(self) -> list[float]:
        """The sum of the rewards so far (at the end: the team's game margin, or score)."""
        return self._returns[:]

    def resample_from_infostate(self, player: int, sampler: Any) -> HandfootState:
        """A state the player cannot tell from this one: the unseen cards dealt at random."""
        state = HandfootState(self.get_game(), self.spec)
        state.actions = self.actions[:]
        state._rewards = self._rewards[:]
        state._returns = self._returns[:]
        state.history = [h[:] for h in self.history]
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
        other._rewards = self._rewards[:]
        other._returns = self._returns[:]
        other.history = [h[:] for h in self.history]
        return other


class HandfootObserver:
    """Observation and information-state tensors and strings, from the seat's view only.

    The information-state tensor is the observation followed by the round's public history
    summed per seat, relative to the observer (seat +0 first): the cards each seat discarded
    this round, per kind (divided by 10), and how often it took the pile (divided by 10)."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.layout = layout_for(rules)
        self.players = rules.players
        self.perfect_recall = perfect_recall
        size = self.layout.size
        extra = HISTORY_PER_SEAT * rules.players if perfect_recall else 0
        self.tensor = np.zeros(size + extra, dtype=np.float32)
        self.dict = {"view": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:].reshape(rules.players, HISTORY_PER_SEAT)

    def set_from(self, state: HandfootState, player: int) -> None:
        if state.game is None:
            self.tensor.fill(0.0)
            return
        size = self.layout.size
        self.tensor[:size] = self.layout.encode(view(state.game, player))
        if self.perfect_recall:
            n = self.players
            rows = [state.history[(player + k) % n] for k in range(n)]
            self.dict["history"][:] = np.asarray(rows, dtype=np.float32) / 10.0

    def string_from(self, state: HandfootState, player: int) -> str:
        if state.game is None:
            return f"seat {player}: before the deal"
        data = view(state.game, player).to_mapping()
        del data["rules"]  # the same for every state of the game
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text += " history " + " ".join(map(str, state.actions))
        return text
