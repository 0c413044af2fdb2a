"""A trained policy network evaluated with NumPy, and the table it was trained for.

A model is two files with one stem: ``NAME.npz`` holds the weights as plain arrays (no pickle)
and ``NAME.json`` the metadata: the format, the observation size, the number of actions it
knows, the layers and their activation, and ``tables``, the full rules mapping
(``Rules.to_mapping()``) of every table it was trained for, player count included.  The bot
compares the table it is seated at with these and refuses, in one line, a table that differs in
any setting the model cannot handle (``TOLERATED`` lists the ones it can: names and the game's
length).  The same metadata rides inside a MaskablePPO zip as the member ``handfoot.json``.

The forward pass is the one sb3's ``MlpPolicy`` computes for the actor: the flattened vector
through ``Linear``-``tanh`` layers to the action logits; only the legal actions' logits are
computed (the last layer's rows for them), and the deterministic choice is the largest.  NumPy
is imported only when a model is loaded (the ``rl`` extra).
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..record import VERSION as RECORD_VERSION
from ..record import rules_as_played
from ..rules import Rules
from .base import BotError

FORMAT = "handfoot-policy/1"
ZIP_MEMBER = "handfoot.json"
NUMPY_MISSING = "install the rl extra: pip install 'handfoot[rl]'"
# Settings a model plays whatever their value: names, and the game's length (a model trained
# on whole games plays a single round as it plays any round).
TOLERATED = frozenset({"name", "source", "rounds", "turn_cap"})
SHIPPED_DIR = "models"  # inside handfoot.bots: the models shipped with the package


class ModelError(BotError):
    """A model that cannot be used here: missing, damaged, or made for another table."""


def metadata(rules: Sequence[Rules], layers: Sequence[int], observation_size: int,
             actions: int, name: str, activation: str = "tanh",
             trained: str = "") -> dict[str, Any]:
    """The metadata a model file records (see the module's docstring)."""
    return {
        "format": FORMAT,
        "name": name,
        "observation_size": int(observation_size),
        "actions": int(actions),
        "layers": [int(n) for n in layers],
        "activation": activation,
        "tables": [r.to_mapping() for r in rules],
        # The record format's version names which settings the tables' mappings knew, so a
        # setting added later reads as off (record.rules_as_played), as in an older record.
        "rules_version": RECORD_VERSION,
        "players": sorted({r.players for r in rules}),
        "tolerated": sorted(TOLERATED),
        "trained": trained,
    }


def check_table(meta: Mapping[str, Any], rules: Rules, label: str) -> None:
    """Refuse in one line a table the model was not trained for."""
    tables = meta.get("tables") or []
    if not tables:
        raise ModelError(f"bot 'policy': {label} records no table it was trained for")
    here = rules.to_mapping()
    tolerated = set(meta.get("tolerated", TOLERATED)) & TOLERATED

    def differing(table: Mapping[str, Any]) -> list[str]:
        keys = (set(table) | set(here)) - tolerated
        return sorted(k for k in keys if table.get(k) != here.get(k))

    # Models written before the metadata named its version were written under version 3.
    version = meta.get("rules_version", 3)
    if not isinstance(version, int) or not 1 <= version <= RECORD_VERSION:
        raise ModelError(f"bot 'policy': {label} names an unknown rules version {version!r}")
    tables = [rules_as_played(dict(t), version) for t in tables]
    diffs = [differing(t) for t in tables]
    if any(not d for d in diffs):
        return
    best = min(range(len(tables)), key=lambda i: len(diffs[i]))
    table, diff = tables[best], diffs[best]
    shown = ", ".join(diff[:12]) + (", ..." if len(diff) > 12 else "")
    trained = "; ".join(sorted({f"{t.get('name')} with {t.get('players')} players"
                                for t in tables}))
    raise ModelError(
        f"bot 'policy': {label} was trained for {trained}, but this table "
        f"({rules.name}, {rules.players} players) differs from {table.get('name')} in "
        f"{len(diff)} setting{'s' * (len(diff) != 1)} ({shown}): train a model for this table")


def zip_metadata(path: str) -> dict[str, Any] | None:
    """The metadata inside a MaskablePPO zip, or None for a zip saved without it."""
    try:
        with zipfile.ZipFile(path) as archive:
            if ZIP_MEMBER not in archive.namelist():
                return None
            data: dict[str, Any] = json.loads(archive.read(ZIP_MEMBER))
            return data
    except (OSError, zipfile.BadZipFile, ValueError):
        return None


def stamp_zip(path: str | Path, meta: Mapping[str, Any]) -> None:
    """Add (or replace) the metadata member of a saved MaskablePPO zip."""
    with zipfile.ZipFile(path) as archive:
        members = {n: archive.read(n) for n in archive.namelist() if n != ZIP_MEMBER}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        archive.writestr(ZIP_MEMBER, json.dumps(dict(meta), indent=1) + "\n")


def sb3_metadata(model: Any, rules: Sequence[Rules], name: str,
                 trained: str = "") -> dict[str, Any]:
    """The metadata of a MaskablePPO model trained on these tables."""
    layers = [m.out_features for m in model.policy.mlp_extractor.policy_net
              if hasattr(m, "out_features")]
    return metadata(rules, layers, int(model.observation_space.shape[0]),
                    int(model.action_space.n), name=name,
                    activation=model.policy.activation_fn.__name__.lower(), trained=trained)


class NumpyPolicy:
    """The actor of a trained network, evaluated with NumPy."""

    def __init__(self, weights: Mapping[str, Any], meta: Mapping[str, Any], label: str) -> None:
        import numpy as np

        self.meta = dict(meta)
        self.label = label
        if meta.get("format") != FORMAT:
            raise ModelError(f"bot 'policy': {label} is not a {FORMAT} model")
        if meta.get("activation") != "tanh":
            raise ModelError(f"bot 'policy': {label}: activation {meta.get('activation')!r} "
                             "is not supported (tanh is)")
        hidden = len(meta["layers"])
        self.hidden = [(np.asarray(weights[f"pi.{i}.weight"], dtype=np.float32),
                        np.asarray(weights[f"pi.{i}.bias"], dtype=np.float32))
                       for i in range(hidden)]
        self.out_w = np.asarray(weights["action.weight"], dtype=np.float32)
        self.out_b = np.asarray(weights["action.bias"], dtype=np.float32)
        self.value: list[tuple[Any, Any]] = []
        if "value.weight" in weights:
            self.value = [(np.asarray(weights[f"vf.{i}.weight"], dtype=np.float32),
                           np.asarray(weights[f"vf.{i}.bias"], dtype=np.float32))
                          for i in range(hidden)]
            self.value.append((np.asarray(weights["value.weight"], dtype=np.float32),
                               np.asarray(weights["value.bias"], dtype=np.float32)))
        self.observation_size = int(meta["observation_size"])
        self.actions = int(meta["actions"])
        if self.hidden[0][0].shape[1] != self.observation_size or \
                self.out_w.shape[0] != self.actions:
            raise ModelError(f"bot 'policy': {label}: the weights do not match the metadata")

    def features(self, obs: Any) -> Any:
        """The last hidden layer for one observation or a batch (rows)."""
        import numpy as np

        h = np.asarray(obs, dtype=np.float32)
        for w, b in self.hidden:
            h = np.tanh(h @ w.T + b)
        return h

    def logits(self, obs: Any) -> Any:
        """Every action's logit, for one observation or a batch."""
        return self.features(obs) @ self.out_w.T + self.out_b

    def masked_logits(self, obs: Any, mask: Any) -> Any:
        """Logits with the actions outside ``mask`` (booleans, a row per observation) at the
        lowest float, as sb3's masked distribution has them."""
        import numpy as np

        out = self.logits(obs)
        return np.where(np.asarray(mask, dtype=bool), out, np.float32(-1e8))

    def choose(self, obs: Any, legal: Sequence[int]) -> int:
        """The legal action with the largest logit (the deterministic policy), computing the
        logits of the legal actions only."""
        import numpy as np

        h = self.features(obs)
        rows = np.asarray(legal, dtype=np.intp)
        scores = self.out_w[rows] @ h + self.out_b[rows]
        return int(rows[int(np.argmax(scores))])

    def values(self, obs: Any) -> Any:
        """The critic's estimate, for one observation or a batch (if the file holds it)."""
        import numpy as np

        if not self.value:
            raise ModelError(f"bot 'policy': {self.label} holds no value network")
        h = np.asarray(obs, dtype=np.float32)
        for w, b in self.value[:-1]:
            h = np.tanh(h @ w.T + b)
        w, b = self.value[-1]
        return (h @ w.T + b)[..., 0]


def load_npz(path: str | Path, meta_path: str | Path | None = None) -> NumpyPolicy:
    """A model from ``NAME.npz`` and its ``NAME.json``."""
    try:
        import numpy as np
    except ImportError:
        raise ModelError(f"bot 'policy' needs NumPy: {NUMPY_MISSING}") from None
    path = Path(path)
    meta_file = Path(meta_path) if meta_path else path.with_suffix(".json")
    try:
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        with np.load(path, allow_pickle=False) as data:
            weights = {k: data[k] for k in data.files}
    except FileNotFoundError as err:
        raise ModelError(f"bot 'policy': no model file at {err.filename}") from None
    except (OSError, ValueError, KeyError) as err:
        raise ModelError(f"bot 'policy': cannot load {path}: {err}") from None
    try:
        return NumpyPolicy(weights, meta, path.name)
    except KeyError as err:
        raise ModelError(f"bot 'policy': {path.name} lacks the array {err}") from None


def shipped() -> list[Path]:
    """The models shipped inside the package (their ``.npz`` files)."""
    folder = resources.files("handfoot.bots").joinpath(SHIPPED_DIR)
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".npz"))


def shipped_for(rules: Rules) -> Path:
    """The shipped model trained for this table, or a one-line refusal naming what exists."""
    found = shipped()
    reasons: list[tuple[int, str]] = []
    here = rules.to_mapping()
    for path in found:
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        try:
            check_table(meta, rules, path.stem)
        except ModelError as err:
            # How far the model's closest table is from this one: the refusal names the
            # nearest model's differences.
            far = min(sum(t.get(k) != here.get(k) for k in set(t) | set(here)
                           if k not in TOLERATED) for t in meta.get("tables") or [{}])
            reasons.append((far, str(err)))
            continue
        return path
    if reasons:
        raise ModelError(min(reasons)[1])
    raise ModelError(f"bot 'policy': no shipped model plays {rules.name} with {rules.players} "
                     "players: train one and seat it as policy:path=FILE")


def export_sb3(model: Any, meta: Mapping[str, Any], out: str | Path) -> Path:
    """Write a MaskablePPO model's actor and critic as ``OUT.npz`` and ``OUT.json``."""
    import numpy as np

    policy = model.policy
    arrays: dict[str, Any] = {}

    def linear_layers(seq: Any) -> list[Any]:
        return [m for m in seq if hasattr(m, "weight")]

    for prefix, seq in (("pi", policy.mlp_extractor.policy_net),
                        ("vf", policy.mlp_extractor.value_net)):
        for i, layer in enumerate(linear_layers(seq)):
            arrays[f"{prefix}.{i}.weight"] = layer.weight.detach().cpu().numpy()
            arrays[f"{prefix}.{i}.bias"] = layer.bias.detach().cpu().numpy()
    arrays["action.weight"] = policy.action_net.weight.detach().cpu().numpy()
    arrays["action.bias"] = policy.action_net.bias.detach().cpu().numpy()
    arrays["value.weight"] = policy.value_net.weight.detach().cpu().numpy()
    arrays["value.bias"] = policy.value_net.bias.detach().cpu().numpy()
    out = Path(out).with_suffix("")
    np.savez_compressed(out.with_suffix(".npz"), **arrays)
    out.with_suffix(".json").write_text(json.dumps(dict(meta), indent=1) + "\n",
                                        encoding="utf-8")
    return out.with_suffix(".npz")
