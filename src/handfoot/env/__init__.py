"""Hand and Foot for learning agents: PettingZoo AEC and parallel environments, a Gymnasium
wrapper and a vectorized environment.

Needs the ``rl`` extra (``pip install "handfoot[rl]"``: PettingZoo, Gymnasium, NumPy); the rest
of handfoot never imports this package.  docs/RL.md describes the observation layout, the action
index, the rewards and what an agent may see.

    from handfoot.env import env
    e = env(rules="hand-knee-foot", players=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        ...

The encoder (``handfoot.bots.observation``, shared with the policy bot) needs only NumPy, so the
OpenSpiel game and the policy bot use it without PettingZoo; the environments load on first use.
Importing this package registers the Gymnasium ids ``handfoot/HandAndFoot-v0`` and
``handfoot/HandKneeFoot-v0``.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..bots.observation import Layout, encode, layout_for
from .indexed import NUM_ACTIONS, EnvError

GYM_IDS = {"handfoot/HandAndFoot-v0": "hand-and-foot", "handfoot/HandKneeFoot-v0": "hand-knee-foot"}

_LAZY = {"raw_env": "aec", "env": "aec", "parallel_env": "parallel", "HandfootEnv": "single",
         "HandfootVectorEnv": "vector"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'handfoot.env' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


def register() -> None:
    """Register the Gymnasium ids (done on importing this package when Gymnasium is there)."""
    import gymnasium

    for env_id, rules in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="handfoot.env.single:HandfootEnv",
                               kwargs={"rules": rules})


with contextlib.suppress(ImportError):  # without Gymnasium there is nothing to register
    register()

__all__ = ["GYM_IDS", "NUM_ACTIONS", "EnvError", "HandfootEnv", "HandfootVectorEnv", "Layout",
           "encode", "env", "layout_for", "parallel_env", "raw_env", "register"]
