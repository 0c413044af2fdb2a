"""Learning curves of ``handfoot train`` runs: the evaluation margin against the heuristic
(points a round, greedy policy, duplicate deals) over training time, one line per run and one
panel per table (or tables: a network trained for several), four panels to a row.

    python benchmarks/plot_training.py docs/training/*.csv --out docs/rl-selfplay-curves.png
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("curves", nargs="+", help="curve.csv files (the file stem labels it)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tables: dict[str, list[Path]] = {}
    for name in args.curves:
        path = Path(name)
        tables.setdefault(path.stem.rsplit("-seed", 1)[0], []).append(path)
    cols = min(4, len(tables))
    rows = -(-len(tables) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.6 * rows), squeeze=False)
    for ax in axes.flat[len(tables):]:
        ax.set_visible(False)
    for ax, (table, paths) in zip(axes.flat, sorted(tables.items()), strict=False):
        for path in paths:
            with open(path, newline="", encoding="utf-8") as handle:
                rows = [r for r in csv.DictReader(handle) if r["eval_margin"]]
            ax.plot([float(r["seconds"]) / 60 for r in rows],
                    [float(r["eval_margin"]) for r in rows], marker="o", ms=3,
                    label=path.stem.rsplit("-", 1)[-1])
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(table, fontsize=10)
        # A run started from another (--init) counts on from that run's minutes.
        ax.set_xlabel("training minutes (first point: after imitation or the start)")
        ax.set_ylabel("points a round vs heuristic")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)


if __name__ == "__main__":
    main()
