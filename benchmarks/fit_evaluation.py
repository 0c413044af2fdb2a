"""Refit the search bot's position evaluation (src/handfoot/bots/evaluate.py).

Plays heuristic self-play rounds, records the feature difference between the two teams at the
start of every other turn, and fits the final round score difference by least squares. Prints
each preset's own fit, the current weights' fit (R^2) and the weights to paste into
``evaluate.py``, and the spread of the outcome around the current weights' prediction at the
deal and when the stock runs out (``SIGMA_TWO``, ``SIGMA_KNEE``: the standard deviation, a
straight line in how far the stock has run down). Needs numpy (installed with the ``test``
extras).

    python benchmarks/fit_evaluation.py --rounds 600 hand-and-foot hand-knee-foot
"""

from __future__ import annotations

import argparse

import numpy as np

from handfoot.bots import make_bot
from handfoot.bots.evaluate import FEATURES, WEIGHTS_KNEE, WEIGHTS_TWO, features, progress
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.state import Phase
from handfoot.views import view


def positions(name: str, rounds: int,
              seed0: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rules = preset(name)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    late: list[float] = []
    for i in range(rounds):
        g = Game.new(rules, seed=seed0 + i)
        bots = [make_bot("heuristic", seed=s) for s in range(rules.players)]
        seen = []
        while not g.over and g.round_no == 1:
            if g.phase is Phase.DRAW and g.turns % 2 == 0:
                seen.append((np.array(features(g, 0)) - np.array(features(g, 1)), progress(g)))
            g.apply(bots[g.actor].choose(view(g, g.actor), g.legal_actions()))
        scores = g.results[0].scores
        y = scores[0] - scores[1]
        for x, p in seen:  # both teams' sides of the same position
            xs += [x, -x]
            ys += [y, -y]
            late += [p, p]
    return np.array(xs), np.array(ys), np.array(late)


def r2(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    e = y - x @ w
    return float(1 - e.var() / y.var())


def spread(x: np.ndarray, y: np.ndarray, late: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """The residual standard deviation at the deal and at stock-out: measured over the first and
    the last fifth of the stock and drawn as a straight line through the two."""
    e = y - x @ w
    first = float(e[late < 0.2].std())
    last = float(e[late >= 0.8].std())
    slope = (last - first) / 0.8
    return first - 0.1 * slope, last + 0.1 * slope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="+")
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--seed", type=int, default=500_000)
    args = parser.parse_args()
    for name in args.presets:
        x, y, late = positions(name, args.rounds, args.seed)
        w, *_ = np.linalg.lstsq(x, y, rcond=None)
        current = np.array(WEIGHTS_KNEE if len(preset(name).packets) >= 3 else WEIGHTS_TWO)
        print(f"{name}: {len(y)} positions; own fit R^2 {r2(x, y, w):.3f}, "
              f"current weights R^2 {r2(x, y, current):.3f}")
        print("  weights:", tuple(round(float(v), 3) for v in w))
        start, end = spread(x, y, late, current)
        print(f"  spread around the current weights: {start:.0f} at the deal, {end:.0f} at "
              "stock-out")
        print("  by feature:", dict(zip(FEATURES, (round(float(v), 1) for v in w), strict=True)))


if __name__ == "__main__":
    main()
