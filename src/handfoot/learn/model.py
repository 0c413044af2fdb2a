"""The network trained by ``handfoot train`` (PyTorch, the ``train`` extra).

Three multilayer perceptrons with ``tanh``: the actor (the seat's view encoding to a logit per
action), the view value (the same input to the expected round margin; shipped, so ``expert``
can score sampled worlds), and the critic, which also reads the privileged input built from the
full game (``rollout.privileged``) and exists only during training: it gives PPO lower-variance
advantages and is never exported.  ``export`` writes the actor and the view value in the NumPy
format ``handfoot.bots.network`` reads (``pi.*``, ``action.*``, ``vf.*``, ``value.*``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..bots import network
from ..rules import Rules


def _mlp(size: int, hidden: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(size, width), nn.Tanh()]
        size = width
    return nn.Sequential(*layers)


class Net(nn.Module):
    def __init__(self, obs: int, priv: int, actions: int, hidden: Sequence[int]) -> None:
        super().__init__()
        self.sizes = (obs, priv, actions, tuple(hidden))
        self.pi = _mlp(obs, hidden)
        self.action = nn.Linear(hidden[-1], actions)
        self.vf = _mlp(obs, hidden)
        self.value = nn.Linear(hidden[-1], 1)
        self.critic = _mlp(obs + priv, hidden)
        self.critic_out = nn.Linear(hidden[-1], 1)
        # Small initial logits: the first policy is near uniform over the legal actions.
        nn.init.orthogonal_(self.action.weight, gain=0.01)
        nn.init.zeros_(self.action.bias)

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        out = self.action(self.pi(obs))
        return torch.where(mask, out, torch.full_like(out, -1e8))

    def view_value(self, obs: torch.Tensor) -> Any:
        return self.value(self.vf(obs)).squeeze(-1)

    def critic_value(self, obs: torch.Tensor, priv: torch.Tensor) -> Any:
        return self.critic_out(self.critic(torch.cat([obs, priv], dim=-1))).squeeze(-1)


def actor_weights(net: Net) -> dict[str, Any]:
    """The exported arrays: the actor and the view value network, float32."""
    out: dict[str, Any] = {}
    for prefix, seq in (("pi", net.pi), ("vf", net.vf)):
        linear = [m for m in seq if isinstance(m, nn.Linear)]
        for i, layer in enumerate(linear):
            out[f"{prefix}.{i}.weight"] = layer.weight.detach().cpu().numpy().astype(np.float32)
            out[f"{prefix}.{i}.bias"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    for name, layer in (("action", net.action), ("value", net.value)):
        out[f"{name}.weight"] = layer.weight.detach().cpu().numpy().astype(np.float32)
        out[f"{name}.bias"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    return out


def export(net: Net, rules: Rules, out: str | Path, name: str, trained: str,
           scale: float, extra: Mapping[str, Any] | None = None) -> Path:
    """Write ``OUT.npz`` and ``OUT.json`` (the policy bot's format, with ``value_scale``)."""
    obs, _, actions, hidden = net.sizes
    meta = network.metadata([rules], hidden, obs, actions, name=name, trained=trained)
    meta["value_scale"] = scale
    meta.update(extra or {})
    out = Path(out).with_suffix("")
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out.with_suffix(".npz"), **actor_weights(net))
    import json

    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return out.with_suffix(".npz")
