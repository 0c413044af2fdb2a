"""The network trained by ``handfoot train`` (PyTorch, the ``train`` extra).

Three multilayer perceptrons with ``tanh``: the actor (the seat's view encoding to a logit per
action), the view value (the same input to the expected round margin; shipped, so ``expert``
can score sampled worlds), and the critic, which also reads the privileged input built from the
full game (``rollout.privileged``) and exists only during training: it gives PPO lower-variance
advantages and is never exported.  ``export`` writes the actor and the view value in the NumPy
format ``handfoot.bots.network`` reads (``pi.*``, ``action.*``, ``vf.*``, ``value.*``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..bots import network
from ..bots.observation import layout_for
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


def export(net: Net, rules: Sequence[Rules], out: str | Path, name: str, trained: str,
           scale: float, extra: Mapping[str, Any] | None = None) -> Path:
    """Write ``OUT.npz`` and ``OUT.json`` (the policy bot's format, with ``value_scale``);
    ``rules`` are every table the network was trained for."""
    obs, _, actions, hidden = net.sizes
    meta = network.metadata(rules, hidden, obs, actions, name=name, trained=trained)
    meta["value_scale"] = scale
    meta.update(extra or {})
    out = Path(out).with_suffix("")
    out.parent.mkdir(parents=True, exist_ok=True)
    # Written beside and moved into place: a run exports after every iteration, and an arena
    # seating DIR/model.npz meanwhile must read the last whole model, never half of one.
    npz, js = out.with_suffix(".npz"), out.with_suffix(".json")
    with open(npz.with_name(npz.name + ".tmp"), "wb") as handle:
        np.savez_compressed(handle, **actor_weights(net))
    js.with_name(js.name + ".tmp").write_text(json.dumps(meta, indent=1) + "\n",
                                             encoding="utf-8")
    npz.with_name(npz.name + ".tmp").replace(npz)
    js.with_name(js.name + ".tmp").replace(js)
    return npz


class InitError(ValueError):
    """A network to start from that does not fit the one being trained."""


def _fields_of(rules: Rules) -> dict[str, tuple[int, int]]:
    return {f.name: (f.start, f.size) for f in layout_for(rules).fields()}


def _columns(old: Rules, new: Rules) -> tuple[list[int], list[int]]:
    """Pairs of (new column, old column) for the view fields both tables' vectors hold with
    the same size: a field one of them lacks starts from zero weights."""
    before = _fields_of(old)
    new_cols: list[int] = []
    old_cols: list[int] = []
    for name, (start, size) in _fields_of(new).items():
        if name in before and before[name][1] == size:
            new_cols += range(start, start + size)
            old_cols += range(before[name][0], before[name][0] + size)
    return new_cols, old_cols


def warm_start(net: Net, state: Mapping[str, Any], old: Rules, new: Rules) -> list[str]:
    """Load a network trained at table ``old`` into ``net`` (made for table ``new``), matching
    the first layers' inputs field by field, so a table whose view adds a field (canasta
    pennies, the passes of a stock that runs out) starts from a trained network.  ``state``
    holds torch's parameter names; a missing critic starts as a copy of the view value (its
    privileged inputs at zero), which is a fair baseline for the first advantages.  ``net`` may
    be wider than the network it starts from (as many layers, each at least as wide): the old
    units keep their weights, the added ones start from ``net``'s own random weights with
    nothing leaving them (zero weights out), so the wider network computes what the old one
    did and self-play teaches the added units.  Returns the fields that start from zero (new,
    or of another size: whose turn it is, with more seats)."""
    own = net.state_dict()
    state = dict(state)
    if "critic.0.weight" not in state:
        for key in list(state):
            if key.startswith(("vf.", "value.")):
                head = "critic_out" if key.startswith("value.") else "critic"
                state[head + key[key.index("."):]] = state[key]
    layers = sorted(k for k in state if k.startswith("pi.") and k.endswith(".weight"))
    if len(layers) != len(net.sizes[3]):
        raise InitError(f"--init: the network has {len(layers)} hidden layers, this one "
                        f"{len(net.sizes[3])} (train with as many --hidden layers)")
    new_cols, old_cols = _columns(old, new)
    obs = net.sizes[0]
    for key, target in own.items():
        if key not in state:
            raise InitError(f"--init: the network has no {key!r} (train with as many "
                            "--hidden layers as it has)")
        source = torch.as_tensor(np.asarray(state[key])).to(target.dtype)
        rows = source.shape[0]
        if rows > target.shape[0] or (source.dim() == 2 and key not in _FIRST
                                      and source.shape[1] > target.shape[1]) \
                or (key in _OUTPUTS and rows != target.shape[0]):
            raise InitError(f"--init: {key} is {tuple(source.shape)}, this network's is "
                            f"{tuple(target.shape)} (train with --hidden as wide or wider)")
        # The added units' own random weights in, and nothing out of them: zero columns
        # where a layer reads an added unit of the layer before.
        weight = target.clone()
        if source.dim() == 1:
            weight[:rows] = source
        elif key not in _FIRST:
            weight[:rows, source.shape[1]:] = 0
            weight[:rows, :source.shape[1]] = source
        else:
            weight[:rows] = 0
            weight[:rows, new_cols] = source[:, old_cols]
            if key == "critic.0.weight":
                old_obs = layout_for(old).size
                priv = source.shape[1] - old_obs
                if priv > 0 and priv == target.shape[1] - obs:
                    weight[:rows, obs:] = source[:, old_obs:]
        own[key] = weight
    net.load_state_dict(own)
    kept = {(f.name, f.size) for f in layout_for(old).fields()}
    return [f.name for f in layout_for(new).fields() if (f.name, f.size) not in kept]


# The layers that read the view (matched field by field), and the heads whose outputs are the
# actions or a value (their size never changes).
_FIRST = frozenset({"pi.0.weight", "vf.0.weight", "critic.0.weight"})
_OUTPUTS = frozenset({"action.weight", "action.bias", "value.weight", "value.bias",
                      "critic_out.weight", "critic_out.bias"})


def exported_state(weights: Mapping[str, Any]) -> dict[str, Any]:
    """An exported model's arrays (``pi.0.weight``...) under torch's parameter names."""
    out: dict[str, Any] = {}
    for key, value in weights.items():
        prefix, _, rest = key.partition(".")
        if prefix in ("pi", "vf"):
            layer, _, kind = rest.partition(".")
            out[f"{prefix}.{2 * int(layer)}.{kind}"] = value
        else:
            out[key] = value
    return out
