"""A trained agent as a bot: a policy network choosing from the legal list.

``policy`` seats the model shipped with the package for the table (NumPy weights in
``handfoot/bots/models``, docs/RL.md); ``policy:path=FILE.npz`` a model exported the same way
(weights in ``FILE.npz``, metadata in ``FILE.json``), and ``policy:path=FILE.zip`` a MaskablePPO
model saved by examples/train_maskable_ppo.py (that one needs PyTorch and sb3-contrib).  Every
model records the tables it was trained for (the full rules, player count included) and the bot
refuses, in one line, a table that differs in anything the model cannot handle
(``handfoot.bots.network``).  The model sees what every bot sees, the seat's view, encoded as
the learning environment encodes it (handfoot.bots.observation, which the environments import
from here), and may pick only among the engine's legal actions, by their place in the core's
atomic index.  NumPy (the ``rl`` extra) and the encoder are imported when the bot first chooses;
a model is loaded once per process.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..actions import ACTION_INDEX, ATOMIC_ACTIONS, Action
from ..views import SeatView
from . import network
from .base import BotError

_MODELS: dict[str, Any] = {}


class PolicyError(BotError):
    """The model cannot be used: packages missing, no readable model at the path, or a model
    made for another table."""


class PolicyBot:
    name = "policy"

    def __init__(self, seed: int = 0, path: str | None = None) -> None:
        self.path = str(path) if path else None
        if self.path is not None and not Path(self.path).is_file():
            raise PolicyError(f"bot 'policy': no model file at {self.path}")
        # Said before the game starts, not at the bot's first turn in the middle of it.
        _check_packages(zip_model=bool(self.path and self.path.endswith(".zip")))
        self._model: Any = None
        self._numpy = True

    def _load(self, view: SeatView) -> None:
        _check_packages(zip_model=False)
        from .observation import layout_for

        rules = view.rules
        try:
            if self.path is None:
                path = network.shipped_for(rules)
                self._model = _cached(str(path), lambda: network.load_npz(path))
            elif not self.path.endswith(".zip"):
                path = Path(self.path)
                self._model = _cached(self.path, lambda: network.load_npz(path))
                network.check_table(self._model.meta, rules, path.name)
            else:
                self._numpy = False
                meta = network.zip_metadata(self.path)
                if meta is not None:
                    network.check_table(meta, rules, Path(self.path).name)
                self._model = load(self.path)
        except network.ModelError as err:
            raise PolicyError(str(err)) from None
        size = layout_for(rules).size
        expects = (self._model.observation_size if self._numpy
                   else self._model.observation_space.shape[0])
        if expects != size:
            raise PolicyError(
                f"bot 'policy': {self.path} was trained on observations of {expects} numbers, "
                f"but {rules.name} with {rules.players} players has {size}: train a model "
                "for this table")

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if self._model is None:
            self._load(view)
        from .observation import encode

        # A model trained before actions were added at the end of the index knows fewer: it
        # chooses among the legal actions it knows (the added ones are house rules' only).
        known = min(len(ATOMIC_ACTIONS), self._model.actions if self._numpy
                    else int(self._model.action_space.n))
        indices = [i for i in (ACTION_INDEX[a] for a in legal) if i < known]
        if not indices:
            return legal[0]
        if self._numpy:
            chosen = int(self._model.choose(encode(view), indices))
        else:
            import numpy as np

            mask = np.zeros(known, dtype=np.bool_)
            mask[indices] = True
            action, _ = self._model.predict(encode(view), action_masks=mask,
                                            deterministic=True)
            chosen = int(action)
        # The mask makes any other choice impossible; the check keeps the bot honest anyway.
        return ATOMIC_ACTIONS[chosen] if chosen in indices else legal[0]


def _cached(key: str, make: Any) -> Any:
    model = _MODELS.get(key)
    if model is None:
        model = _MODELS[key] = make()
    return model


# A .zip model needs what the train extra brings (with a CPU build of torch installed first,
# docs/RL.md); an exported model needs NumPy alone.
def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken install, or a module made unimportable
        return False


def _zip_needs(missing: str) -> str:
    return (f"bot 'policy' needs NumPy, PyTorch and sb3-contrib for a .zip model ({missing} is "
            'missing): pip install torch "handfoot[train]" (or export it to NumPy: docs/RL.md)')


def _check_packages(zip_model: bool) -> None:
    """NumPy, which every model needs, is asked for before the game starts; PyTorch only
    when a .zip model is loaded, after its metadata has said whether it suits the table."""
    if _installed("numpy"):
        return
    raise PolicyError(_zip_needs("numpy") if zip_model else
                      f"bot 'policy' needs NumPy: {network.NUMPY_MISSING}")


def load(path: str) -> Any:
    """The MaskablePPO model at ``path``, loaded once per process on the CPU."""
    model = _MODELS.get(path)
    if model is None:
        try:
            import torch
            from sb3_contrib import MaskablePPO
        except ImportError as err:
            raise PolicyError(_zip_needs(err.name or "torch")) from None
        torch.set_num_threads(1)  # one decision at a time; the arena runs one bot per core
        try:
            model = MaskablePPO.load(path, device="cpu")
        except Exception as err:  # a damaged or foreign file: say which, in one line
            raise PolicyError(f"bot 'policy': cannot load {path}: {err}") from None
        _MODELS[path] = model
    return model
