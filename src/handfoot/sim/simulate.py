"""Many games with one bot in every seat, under one or several rule sets, round by round.

Game ``i`` of every variant uses the same seeds (game seed and bot seeds from the run's seed
and ``i``), so variants are compared on the same shuffles as far as the rules allow.  Results
never depend on how many processes play them, or whether they run on a Ray cluster.
"""

from __future__ import annotations

import csv
import importlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..bots.base import ask
from ..engine import Game
from ..rules import Rules
from ..scoring import RoundResult
from ..state import RoundEnd
from .runner import Progress, SimError, derive_seed, run_all

ENDINGS = tuple(str(how) for how in RoundEnd)
RAY_MISSING = ("--ray needs the Ray package, which is not installed (install ray); "
               "everything else works without it")
PLOT_MISSING = ("--plots needs matplotlib, which is not installed: install the 'plot' extra "
                "(pip install 'handfoot[plot]')")


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    rules: Rules


def game_seed(seed: int, game: int) -> int:
    return derive_seed("simulate", seed, "game", game)


def bot_seed(seed: int, game: int, seat: int) -> int:
    return derive_seed("simulate", seed, "game", game, "seat", seat)


def play_game(rules: Rules, bot: str, seed: int, game_no: int) -> list[dict[str, Any]]:
    """One game, one record per round (module level: runs in workers and Ray tasks)."""
    bots = [make_bot(bot, bot_seed(seed, game_no, s), analysis=True)
            for s in range(rules.players)]
    game = Game.new(rules, seed=game_seed(seed, game_no), history=False)
    records = []
    while not game.over:
        played = len(game.results)
        game.apply(ask(bots[game.actor], game))
        records += [_record(result, game_no) for result in game.results[played:]]
    return records


def _record(result: RoundResult, game_no: int) -> dict[str, Any]:
    """One round as a row: read from each team's tally, not from the score lines' labels."""
    tallies = [team.tally for team in result.teams]
    assert all(tallies), "an engine round result carries its tallies"
    return {
        "game": game_no,
        "round": result.round,
        "ended_by": str(result.ended_by),
        "went_out": result.went_out,
        "turns": result.turns,
        "scores": list(result.scores),
        "canastas": [dict(sorted(t.canastas.items())) if t else {} for t in tallies],
        "red_threes": [t.red_threes_laid if t else 0 for t in tallies],
        "turn_cap": result.ended_by is RoundEnd.TURN_CAP,
    }


def run_simulation(variants: Sequence[Variant], bot: str, games: int, seed: int = 0,
                   jobs: int = 1, ray_address: str | None = None,
                   progress: bool = True) -> dict[str, Any]:
    """Play every variant ``games`` times; rounds and summaries as one JSON-ready mapping."""
    if games < 1:
        raise SimError("--games must be at least 1")
    make_bot(bot, 0, analysis=True)  # a bad bot name fails before any worker starts
    items = [(v.rules, bot, seed, g) for v in variants for g in range(games)]
    bar = Progress("simulate games", len(items), enabled=progress)
    start = time.perf_counter()
    if ray_address is not None:
        per_game = run_on_ray(ray_address, items, bar)
    else:
        per_game = run_all(play_game, items, jobs, bar)
    seconds = time.perf_counter() - start
    out_variants = []
    rounds: list[dict[str, Any]] = []
    for k, v in enumerate(variants):
        records = [dict(r, variant=v.name) for game in per_game[k * games:(k + 1) * games]
                   for r in game]
        rounds += records
        out_variants.append({"name": v.name, "rules": v.rules.to_mapping(),
                             "summary": summarise(records, v.rules.teams)})
    workers = "ray" if ray_address is not None else min(jobs, len(items))
    timing: dict[str, Any] = {"seconds": round(seconds, 2), "jobs": workers,
                              "rounds_per_second": round(len(rounds) / seconds, 1)}
    if isinstance(workers, int):
        timing["rounds_per_second_per_core"] = round(len(rounds) / seconds / max(1, workers), 1)
    # The timing is the only part of the result that differs between runs of one command.
    return {"bot": bot, "games": games, "seed": seed, "variants": out_variants,
            "rounds": rounds, "timing": timing}


def run_on_ray(address: str, items: Sequence[tuple[Any, ...]],
               progress: Progress | None = None) -> list[list[dict[str, Any]]]:
    """The same per-game worker as Ray tasks; results gathered in the items' (seed) order."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise SimError(RAY_MISSING) from None
    ray.init(address=address)
    try:
        task = ray.remote(play_game)
        refs = [task.remote(*item) for item in items]
        results = []
        for ref in refs:
            results.append(ray.get(ref))
            if progress:
                progress.step()
        return results
    finally:
        ray.shutdown()


# ====================================================================== summaries
def summarise(records: Sequence[dict[str, Any]], teams: int) -> dict[str, Any]:
    n = len(records)
    if n == 0:
        return {"rounds": 0}
    ended = {how: sum(r["ended_by"] == how for r in records) for how in ENDINGS}
    kinds = sorted({k for r in records for team in r["canastas"] for k in team})
    return {
        "rounds": n,
        "mean_score": round(sum(sum(r["scores"]) for r in records) / (n * teams), 1),
        "mean_score_by_team": [round(sum(r["scores"][t] for r in records) / n, 1)
                               for t in range(teams)],
        "going_out_rate": round(ended["went_out"] / n, 4),
        "stock_out_rate": round(ended["stock_out"] / n, 4),
        "turn_cap_rounds": ended["turn_cap"],
        "mean_turns": round(sum(r["turns"] for r in records) / n, 1),
        "canastas_per_round": {
            k: round(sum(team.get(k, 0) for r in records for team in r["canastas"]) / n, 3)
            for k in kinds
        },
        "red_threes_per_round": round(sum(sum(r["red_threes"]) for r in records) / n, 3),
    }


def format_summary(result: dict[str, Any], timing: bool = True) -> str:
    """The variants side by side, one row per measure."""
    variants = result["variants"]
    teams = max(len(v["summary"].get("mean_score_by_team", [])) for v in variants)
    kinds = sorted({k for v in variants for k in v["summary"].get("canastas_per_round", {})})

    def get(v: dict[str, Any], key: str) -> Any:
        return v["summary"].get(key)

    rows: list[tuple[str, list[str]]] = [
        ("rounds", [str(get(v, "rounds")) for v in variants]),
        ("mean score (team, round)", [f"{get(v, 'mean_score')}" for v in variants]),
    ]
    for t in range(teams):
        rows.append((f"  team {t}", [
            _at(get(v, "mean_score_by_team"), t) for v in variants]))
    rows += [
        ("going out", [_pct(get(v, "going_out_rate")) for v in variants]),
        ("stock out", [_pct(get(v, "stock_out_rate")) for v in variants]),
        ("turn cap (rounds)", [str(get(v, "turn_cap_rounds")) for v in variants]),
        ("mean turns per round", [str(get(v, "mean_turns")) for v in variants]),
        ("red threes per round", [str(get(v, "red_threes_per_round")) for v in variants]),
    ]
    for k in kinds:
        rows.append((f"{k} canastas per round", [
            f"{(get(v, 'canastas_per_round') or {}).get(k, 0):.2f}" for v in variants]))
    head = ["", *[v["name"] for v in variants]]
    table = [head, *[[label, *cells] for label, cells in rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    lines = [f"{result['games']} games per variant, bot {result['bot']} in every seat, "
             f"seed {result['seed']}", ""]
    for row in table:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True)))
                     .rstrip())
    if timing and "timing" in result:
        t = result["timing"]
        lines += ["", f"time: {t['seconds']} s, {t['rounds_per_second']} rounds/s on "
                      f"{t['jobs']} worker(s)"
                  + (f", {t['rounds_per_second_per_core']} rounds/s per core"
                     if "rounds_per_second_per_core" in t else "")]
    return "\n".join(lines) + "\n"


def _at(values: list[float] | None, t: int) -> str:
    return str(values[t]) if values and t < len(values) else "-"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


# ====================================================================== files
def csv_columns(result: dict[str, Any]) -> list[str]:
    teams = max(len(r["scores"]) for r in result["rounds"]) if result["rounds"] else 0
    kinds = sorted({k for r in result["rounds"] for team in r["canastas"] for k in team})
    cols = ["variant", "game", "round", "ended_by", "went_out", "turns", "turn_cap"]
    cols += [f"score_team{t}" for t in range(teams)]
    cols += [f"red_threes_team{t}" for t in range(teams)]
    cols += [f"{k}_canastas_team{t}" for k in kinds for t in range(teams)]
    return cols


def write_csv(result: dict[str, Any], path: Path) -> int:
    """One row per round; returns the number of rows."""
    cols = csv_columns(result)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=cols, restval="")
        writer.writeheader()
        for r in result["rounds"]:
            row: dict[str, Any] = {c: r[c] for c in cols[:7]}
            row["turn_cap"] = int(r["turn_cap"])
            for t, score in enumerate(r["scores"]):
                row[f"score_team{t}"] = score
                row[f"red_threes_team{t}"] = r["red_threes"][t]
                for c in cols:
                    if c.endswith(f"_canastas_team{t}"):
                        row[c] = r["canastas"][t].get(c[: -len(f"_canastas_team{t}")], 0)
            writer.writerow(row)
    return len(result["rounds"])


def write_plots(result: dict[str, Any], directory: Path) -> list[Path]:
    """PNG plots of the variants side by side; needs matplotlib (the ``plot`` extra)."""
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise SimError(PLOT_MISSING) from None
    matplotlib.use("Agg")  # files only: no display needed
    plt = importlib.import_module("matplotlib.pyplot")
    directory.mkdir(parents=True, exist_ok=True)
    variants = result["variants"]
    names = [v["name"] for v in variants]
    by_variant = {name: [r for r in result["rounds"] if r["variant"] == name] for name in names}
    written = []

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        path = directory / name
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

    def panels(title: str) -> tuple[Any, list[Any]]:
        fig, axes = plt.subplots(1, len(names), figsize=(4.5 * len(names), 3.6),
                                 sharex=True, sharey=True, squeeze=False)
        fig.suptitle(title)
        return fig, list(axes[0])

    fig, axes = panels("round scores per team")
    score_bins = _bins([x for r in result["rounds"] for x in r["scores"]])
    for ax, name in zip(axes, names, strict=True):
        rs = by_variant[name]
        teams = max((len(r["scores"]) for r in rs), default=0)
        for t in range(teams):
            ax.hist([r["scores"][t] for r in rs], bins=score_bins, alpha=0.6,
                    label=f"team {t}")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("points")
        ax.legend(fontsize=8)
    save(fig, "scores.png")

    fig, axes = panels("round length")
    for ax, name in zip(axes, names, strict=True):
        ax.hist([r["turns"] for r in by_variant[name]],
                bins=_bins([r["turns"] for r in result["rounds"]]), color="tab:green")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("turns")
    save(fig, "turns.png")

    width = 0.8 / len(names)

    def grouped(labels: list[str], values: dict[str, list[float]], title: str, ylabel: str,
                file: str) -> None:
        fig, ax = plt.subplots(figsize=(max(5.0, 1.4 * len(labels) * len(names)), 3.8))
        for i, name in enumerate(names):
            xs = [j + (i - (len(names) - 1) / 2) * width for j in range(len(labels))]
            ax.bar(xs, values[name], width=width, label=name)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=8)
        save(fig, file)

    grouped(["went out", "stock out", "turn cap"],
            {v["name"]: [_rate(by_variant[v["name"]], how) for how in ENDINGS] for v in variants},
            "how rounds end", "share of rounds", "endings.png")
    kinds = sorted({k for v in variants for k in v["summary"].get("canastas_per_round", {})})
    grouped(kinds or ["none"],
            {v["name"]: [v["summary"].get("canastas_per_round", {}).get(k, 0) for k in kinds]
             or [0] for v in variants},
            "canastas per round (all teams)", "canastas", "canastas.png")
    grouped(["turn-cap rounds"],
            {v["name"]: [v["summary"].get("turn_cap_rounds", 0)] for v in variants},
            "rounds cut off by the turn cap", "rounds", "turn_cap.png")
    return written


def _bins(values: Sequence[float], n: int = 30) -> list[float]:
    # The same bins in every panel, so the variants' shapes can be compared by eye.
    low, high = (min(values), max(values)) if values else (0, 1)
    step = (high - low) / n or 1.0
    return [low + i * step for i in range(n + 1)]


def _rate(records: Sequence[dict[str, Any]], how: str) -> float:
    return sum(r["ended_by"] == how for r in records) / len(records) if records else 0.0
