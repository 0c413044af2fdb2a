"""The game played by action index: rules and games, the index, masks, round results.

Everything the environments ask of the game besides views goes through here, so a change in the
core's API is met in one place.  The mask is the engine's legal list mapped through the fixed
atomic index (``handfoot.actions.ATOMIC_ACTIONS``); nothing here judges legality itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import ACTION_INDEX, ATOMIC_ACTIONS, Action
from ..engine import Game
from ..errors import HandfootError
from ..presets import preset
from ..rules import Rules

NUM_ACTIONS = len(ATOMIC_ACTIONS)
Mask = npt.NDArray[np.int8]

# The engine hands out its canonical action instances, so an identity lookup finds an index
# without hashing a dataclass; ACTION_INDEX answers for any other equal instance.
_BY_ID = {id(a): i for i, a in enumerate(ATOMIC_ACTIONS)}


class EnvError(HandfootError):
    """A bad argument to an environment, or an action that is not legal now."""


def make_rules(rules: Rules | str, players: int | None = None, rounds: int | None = None) -> Rules:
    """A rule set from a Rules object or a preset name, with ``players`` and ``rounds`` set."""
    if isinstance(rules, str):
        base = preset(rules, players)
    else:
        base = rules
        if players is not None and players != base.players:
            base = base.replace(players=players)
    if rounds is not None and rounds != base.rounds:
        base = base.replace(rounds=rounds)
    if not 2 <= base.players <= 6:
        raise EnvError(f"the environment seats 2 to 6 players, not {base.players}")
    return base


def new_game(rules: Rules, seed: int) -> Game:
    return Game.new(rules, seed=seed)


def index_of(action: Action) -> int:
    i = _BY_ID.get(id(action))
    return ACTION_INDEX[action] if i is None else i


def legal_indices(game: Game) -> list[int]:
    """Indices of the legal actions, in the engine's order."""
    legal = game.legal_actions()
    try:
        return list(map(_BY_ID.__getitem__, map(id, legal)))
    except KeyError:  # an action that is not the engine's shared instance
        return [index_of(a) for a in legal]


def mask_of(indices: Sequence[int]) -> Mask:
    # Ones written into a fresh byte string cost less than NumPy's indexing of a new array.
    ones = bytearray(NUM_ACTIONS)
    for i in indices:
        ones[i] = 1
    return np.frombuffer(ones, _INT8)


_INT8 = np.dtype(np.int8)  # a dtype object, which NumPy need not look up on each call


def action_at(index: int) -> Action:
    return ATOMIC_ACTIONS[index]


def apply_index(game: Game, index: int, legal: Sequence[int]) -> int:
    """Play atomic action ``index``, which must be in ``legal`` (the game's legal indices);
    return how many rounds it finished (0 or 1)."""
    if index not in legal:
        action = ATOMIC_ACTIONS[index] if 0 <= index < NUM_ACTIONS else None
        if action is None:
            raise EnvError(f"action {index} is outside the index 0..{NUM_ACTIONS - 1}")
        refusal = game.refusal(action)
        why = f": {refusal.reason} (rule {refusal.clause})" if refusal else ""
        raise EnvError(f"action {index} ({action.text}) is not legal now{why}; "
                       "play one the action mask allows")
    before = len(game.results)
    game.apply(ATOMIC_ACTIONS[index])
    return len(game.results) - before


def rounds_played(game: Game) -> int:
    return len(game.results)


def round_totals(game: Game, index: int) -> tuple[int, ...]:
    """Each team's points in finished round ``index`` (0-based)."""
    return tuple(_get(team, "total") for team in _get(game.results[index], "teams"))


def margins(totals: Sequence[int], scale: float) -> list[float]:
    """Each team's reward for a round of these team totals: ``scale`` times its points minus
    the mean of the other teams' points (the teams' rewards sum to zero)."""
    teams = len(totals)
    whole = sum(totals)
    return [scale * (t - (whole - t) / (teams - 1)) for t in totals]


def round_ended_by(game: Game, index: int) -> str:
    return str(_get(game.results[index], "ended_by"))


def _get(obj: Any, key: str) -> Any:
    # Round results are mappings today and frozen dataclasses after the core's rework.
    return obj[key] if isinstance(obj, dict) else getattr(obj, key)
