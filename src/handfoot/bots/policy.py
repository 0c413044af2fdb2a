"""A trained agent as a bot: a saved sb3-contrib MaskablePPO model choosing from the legal list.

``policy:path=FILE`` seats the model saved by examples/train_maskable_ppo.py.  The model sees
what every bot sees, the seat's view, encoded as the learning environment encodes it
(handfoot.env.encode), and may pick only among the engine's legal actions (the mask).  NumPy,
PyTorch and sb3-contrib are imported only when the bot first chooses; a model is loaded once
per process.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..actions import ATOMIC_ACTIONS, Action
from ..views import SeatView
from .base import BotError

_MODELS: dict[str, Any] = {}


class PolicyError(BotError):
    """The model cannot be used: packages missing, no readable model at the path, or a model
    made for another table (its observation size differs)."""


class PolicyBot:
    name = "policy"

    def __init__(self, seed: int = 0, path: str | None = None) -> None:
        if not path:
            raise PolicyError("bot 'policy' needs the saved model: write policy:path=FILE.zip")
        self.path = str(path)
        if not Path(self.path).is_file():
            raise PolicyError(f"bot 'policy': no model file at {self.path}")
        # Said before the game starts, not at the bot's first turn in the middle of it.
        missing = next((name for name, _ in _NEEDS if not _installed(name)), None)
        if missing is not None:
            raise PolicyError(_install(missing))
        self._model: Any = None

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        try:
            import numpy as np

            from ..env.encode import encode, layout_for
            from ..env.engine import NUM_ACTIONS, index_of
        except ImportError as err:
            raise PolicyError(_install(err.name or "numpy")) from None

        if self._model is None:
            model = load(self.path)
            size = layout_for(view.rules).size
            expects = model.observation_space.shape
            if expects != (size,):
                raise PolicyError(
                    f"bot 'policy': {self.path} was trained on observations of "
                    f"{expects[0] if expects else '?'} numbers, but {view.rules.name} with "
                    f"{view.rules.players} players has {size}: train a model for this table")
            self._model = model

        # A model trained before actions were added at the end of the index knows fewer: it
        # chooses among the legal actions it knows (the added ones are house rules' only).
        known = min(NUM_ACTIONS, int(self._model.action_space.n))
        indices = [i for i in (index_of(a) for a in legal) if i < known]
        if not indices:
            return legal[0]
        mask = np.zeros(known, dtype=np.bool_)
        mask[indices] = True
        action, _ = self._model.predict(encode(view), action_masks=mask, deterministic=True)
        chosen = int(action)
        # The mask makes any other choice impossible; the check keeps the bot honest anyway.
        return ATOMIC_ACTIONS[chosen] if chosen in indices else legal[0]


# The packages the bot imports, as the messages name them; the "train" extra brings them
# (with a CPU build of torch installed first, docs/RL.md).
_NEEDS = (("numpy", "NumPy"), ("torch", "PyTorch"), ("sb3_contrib", "sb3-contrib"))


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken install, or a module made unimportable
        return False


def _install(missing: str) -> str:
    names = ", ".join(shown for _, shown in _NEEDS[:-1]) + f" and {_NEEDS[-1][1]}"
    return (f"bot 'policy' needs {names} ({missing} is missing): install the train extra, "
            'pip install torch "handfoot[train]"')


def load(path: str) -> Any:
    """The MaskablePPO model at ``path``, loaded once per process on the CPU."""
    model = _MODELS.get(path)
    if model is None:
        try:
            import torch
            from sb3_contrib import MaskablePPO
        except ImportError as err:
            raise PolicyError(_install(err.name or "torch")) from None
        torch.set_num_threads(1)  # one decision at a time; the arena runs one bot per core
        try:
            model = MaskablePPO.load(path, device="cpu")
        except Exception as err:  # a damaged or foreign file: say which, in one line
            raise PolicyError(f"bot 'policy': cannot load {path}: {err}") from None
        _MODELS[path] = model
    return model
