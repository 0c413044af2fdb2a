"""Hand and Foot for learning agents: a PettingZoo AEC environment and a Gymnasium wrapper.

Needs the ``rl`` extra (``pip install "handfoot[rl]"``: PettingZoo, Gymnasium, NumPy); the rest
of handfoot never imports this package.  docs/RL.md describes the observation layout, the action
index, the rewards and what an agent may see.

    from handfoot.env import env
    e = env(rules="hand-knee-foot", players=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        ...
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"handfoot.env needs PettingZoo and Gymnasium ({err.name} is missing): "
        'pip install "handfoot[rl]"'
    ) from None

from .aec import env, raw_env
from .encode import Layout, encode, layout_for
from .engine import NUM_ACTIONS, EnvError

__all__ = ["NUM_ACTIONS", "EnvError", "Layout", "encode", "env", "layout_for", "raw_env"]
