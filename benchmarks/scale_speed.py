"""Steps per second of handfoot's environments for scale beside PettingZoo's gin rummy, in one
run (docs/PERFORMANCE.md, docs/RL.md).

Every runner plays whole games with uniformly random legal actions on one core and counts the
decisions played (actions the acting seat took); a vector's step counts one decision per game
that played one (a game's restart is not a decision):

- aec: PettingZoo's loop over ``handfoot.env.raw_env`` (``last()``, a random action among the
  mask's ones, ``step``);
- parallel: ``handfoot.env.parallel_env``, every seat's observation each step, the acting
  seat's action;
- vector-N: ``handfoot.env.HandfootVectorEnv`` with N games, actions drawn for all N at once
  from the mask array (the buffers are used in place: ``copy=False``);
- gin-rummy: PettingZoo's classic ``gin_rummy_v4`` (RLCard's game), the same loop as aec.  It
  left PettingZoo after 1.24 and needs RLCard: run this script with ``pettingzoo==1.24.3`` and
  ``rlcard`` importable (say in a folder on PYTHONPATH), or it is skipped.  Its renderer's
  import of pygame is stubbed when pygame is missing (nothing is rendered).

With ``--net`` (hand-and-foot with four players, the table of the model shipped with the
package) two more runners choose with that network (``handfoot.bots.network``, NumPy) instead of
at random: aec+net evaluates it once per decision, vector-N+net once per step for all N games:
what batching buys a learner or a self-play league.

The runners take turns in short slices so that a machine shared with other work slows them
alike, and each is timed in CPU seconds of this process (``process_time``), which other work
on the machine disturbs less than the wall clock; the ratios are the figures to read.

    python benchmarks/scale_speed.py --seconds 6 --net [--rules R] [--players N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import types
from collections.abc import Callable
from typing import Any

# One core: NumPy's BLAS would otherwise spin threads (and their CPU time is counted here).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from handfoot.env import HandfootVectorEnv, parallel_env, raw_env  # noqa: E402
from handfoot.env.indexed import make_rules  # noqa: E402
from handfoot.rules import Rules  # noqa: E402

Runner = Callable[[float], int]  # seconds -> decisions played in them


def aec_runner(e: Any, name: str, net: Any = None) -> Runner:
    """PettingZoo's AEC loop, resumed across slices; the network's choice with ``net``."""
    seeds = iter(range(10**9))
    rng = random.Random(0)
    state: dict[str, Any] = {}

    def restart() -> None:
        e.reset(seed=next(seeds))
        state["it"] = iter(e.agent_iter())

    restart()

    def run(seconds: float) -> int:
        n = 0
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            for _ in range(64):
                if next(state["it"], None) is None:
                    restart()
                    continue
                obs, _r, terminated, truncated, _info = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                if net is None:
                    e.step(int(legal[rng.randrange(len(legal))]))
                else:
                    e.step(net.choose(obs["observation"], legal[legal < net.actions]))
                n += 1
        return n
    return run


def parallel_runner(rules: Rules) -> Runner:
    e = parallel_env(rules=rules)
    seeds = iter(range(10**9))
    rng = random.Random(0)
    obs, infos = e.reset(seed=next(seeds))
    state = {"obs": obs, "infos": infos}

    def run(seconds: float) -> int:
        n = 0
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            for _ in range(64):
                if not e.agents:
                    state["obs"], state["infos"] = e.reset(seed=next(seeds))
                infos = state["infos"]
                acting = next(a for a in e.agents if infos[a]["to_act"])
                legal = state["obs"][acting]["action_mask"].nonzero()[0]
                out = e.step({acting: int(legal[rng.randrange(len(legal))])})
                state["obs"], state["infos"] = out[0], out[4]
                n += 1
        return n
    return run


def vector_runner(rules: Rules, games: int, net: Any = None) -> Runner:
    vec = HandfootVectorEnv(games, rules=rules, copy=False)
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    masks = vec.masks
    done = vec._done

    def run(seconds: float) -> int:
        n = 0
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            for _ in range(8):
                # A random legal action per game: the largest of random scores under the mask;
                # or the network's choice, evaluated for all the games at once.
                if net is None:
                    raw = rng.random(masks.shape)
                else:  # the model knows the first net.actions actions of the index
                    raw = np.full(masks.shape, -np.inf, dtype=np.float32)
                    raw[:, :net.actions] = net.logits(vec.observations)
                scores = np.where(masks, raw, -np.inf)
                n += games - int(done.sum())
                vec.step(scores.argmax(axis=1))
        return n
    return run


def gin_rummy() -> Any:
    """PettingZoo's classic gin rummy, or None where this PettingZoo or RLCard lacks it."""
    try:
        import pygame  # noqa: F401
    except ImportError:
        sys.modules.setdefault("pygame", types.ModuleType("pygame"))  # only its renderer uses it
    try:
        from pettingzoo.classic import gin_rummy_v4  # type: ignore[attr-defined]
    except ImportError:
        return None
    return gin_rummy_v4.env()


def measure(runners: dict[str, Runner], seconds: float, slice_s: float = 0.5
            ) -> dict[str, dict[str, float]]:
    totals = {name: [0, 0.0, 0.0] for name in runners}
    for _ in range(max(1, round(seconds / slice_s))):
        for name, run in runners.items():
            start, cpu = time.perf_counter(), time.process_time()
            totals[name][0] += run(slice_s)
            totals[name][1] += time.perf_counter() - start
            totals[name][2] += time.process_time() - cpu
    return {name: {"decisions": int(d), "seconds": round(s, 2), "cpu_seconds": round(c, 2),
                   "per_second": round(d / c)} for name, (d, s, c) in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="hand-and-foot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0, help="per runner")
    parser.add_argument("--games", type=int, nargs="+", default=[16, 64],
                        help="games per vector (one runner each)")
    parser.add_argument("--net", action="store_true",
                        help="also choose with the shipped network (hand-and-foot, 4 players)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = make_rules(args.rules, args.players)
    runners: dict[str, Runner] = {"aec": aec_runner(raw_env(rules=rules), "aec"),
                                  "parallel": parallel_runner(rules)}
    for n in args.games:
        runners[f"vector-{n}"] = vector_runner(rules, n)
    if args.net:
        from handfoot.bots import network

        net = network.load_npz(network.shipped_for(rules))
        runners["aec+net"] = aec_runner(raw_env(rules=rules), "aec+net", net)
        for n in args.games:
            runners[f"vector-{n}+net"] = vector_runner(rules, n, net)
    gin = gin_rummy()
    if gin is not None:
        runners["gin-rummy"] = aec_runner(gin, "gin-rummy")
    import pettingzoo

    out = measure(runners, args.seconds)
    meta = {"rules": rules.name, "players": rules.players, "seconds": args.seconds,
            "pettingzoo": pettingzoo.__version__, "python": sys.version.split()[0]}
    if args.json:
        print(json.dumps({"meta": meta, "runs": out}, indent=1))
        return
    print(f"{rules.name}, {rules.players} players; PettingZoo {meta['pettingzoo']}; "
          f"{args.seconds:g} s per runner")
    print("| runner | decisions per CPU second | / aec | / gin rummy |")
    print("|---|---:|---:|---:|")
    aec = out["aec"]["per_second"]
    gin_rate = out["gin-rummy"]["per_second"] if "gin-rummy" in out else None
    for name, r in out.items():
        vs_gin = f"{r['per_second'] / gin_rate:.1f}" if gin_rate else "-"
        print(f"| {name} | {r['per_second']:,} | {r['per_second'] / aec:.2f} | {vs_gin} |")
    if gin is None:
        print("(gin rummy skipped: it needs pettingzoo==1.24.3 and rlcard)")


if __name__ == "__main__":
    main()
