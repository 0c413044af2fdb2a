"""The statistics the arena reports: win rates, score differences and ratings.

Everything uses the normal approximation at 95% (z = 1.96).  A draw counts as half a win, the
usual convention for ratings.  Pure functions of their inputs, no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95% interval."""

    value: float
    low: float
    high: float


def wilson(wins: float, games: int, z: float = Z95) -> Interval:
    """The win rate ``wins / games`` with its Wilson score interval (``wins`` may end in .5).

    Wilson rather than the plain normal interval because bots are often far from 50%, where
    the plain one leaves [0, 1] and is too narrow.
    """
    if games <= 0:
        return Interval(math.nan, 0.0, 1.0)
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    # At 0 or 1 the bound is exactly 0 or 1; rounding would leave 0.9999999999999999.
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return Interval(p, low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean with its normal-approximation interval (sample standard deviation, n - 1).

    For paired differences pass one difference per deal: the deal's luck cancels inside the
    pair, so the interval is narrower than the unpaired one over the same games.
    """
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, -math.inf, math.inf)
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def elo_of(rate: float) -> float:
    """The Elo difference that predicts winning ``rate`` of the games (inf at 0 or 1)."""
    if rate <= 0:
        return -math.inf
    if rate >= 1:
        return math.inf
    return 400 * math.log10(rate / (1 - rate))


def elo_difference(wins: float, games: int) -> Interval:
    """Elo difference from a win rate; the interval maps the Wilson bounds through
    :func:`elo_of` (the map is monotone, so the bounds carry over)."""
    w = wilson(wins, games)
    return Interval(elo_of(w.value), elo_of(w.low), elo_of(w.high))


def bradley_terry(names: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]],
                  prior: float = 1.0, iterations: int = 10_000,
                  tolerance: float = 1e-10) -> dict[str, float]:
    """Elo ratings (mean 0) fitted to pairwise results by the Bradley-Terry model.

    ``results[(a, b)] = (a's wins counting draws as half, games)``.  Fitted with the classic
    minorise-maximise iteration.  ``prior`` adds that many drawn games between every pair that
    met, so a bot that won or lost everything still gets a finite rating.
    """
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    wins = [0.0] * n
    games = [[0.0] * n for _ in range(n)]
    for (a, b), (w, g) in results.items():
        i, j = index[a], index[b]
        wins[i] += w + prior / 2
        wins[j] += g - w + prior / 2
        games[i][j] += g + prior
        games[j][i] += g + prior
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if games[i][j])
            new.append(wins[i] / denom if denom else strength[i])
        # Strengths are defined up to a factor: keep their geometric mean at 1.
        scale = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / scale for s in new]
        done = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < tolerance
        strength = new
        if done:
            break
    return {name: 400 * math.log10(strength[i]) for name, i in index.items()}
