"""Many games with one bot in every seat, under one or several rule sets, round by round.

Game ``i`` of every variant uses the same seeds (game seed and bot seeds from the run's seed
and ``i``), so variants are compared on the same shuffles as far as the rules allow.  Results
never depend on how many processes play them, or whether they run on a Ray cluster.
"""

from __future__ import annotations

import csv
import importlib
import json
import os
import tempfile
import time
from array import array
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import IO, Any

from ..bots import make_bot
from ..bots.base import ask
from ..engine import Game
from ..rules import Rules
from ..scoring import RoundResult
from ..state import RoundEnd
from .runner import MAX_GAMES, Progress, SimError, derive_seed, stream

ENDINGS = tuple(str(how) for how in RoundEnd)
RAY_MISSING = ("--ray needs the Ray package, which is not installed: install the 'ray' extra "
               "(pip install 'handfoot[ray]'); everything else works without it")
RAY_IN_FLIGHT = 64  # tasks submitted ahead of the one being waited for
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


class Rounds:
    """Every round of a run, kept in a temporary file (one JSON line each) instead of memory,
    and read back as often as asked: ``for r in rounds``, ``len(rounds)``."""

    def __init__(self) -> None:
        # Closed, and so removed, with the object.
        self._file: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self._count = 0

    def append(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record) + "\n")
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._file.flush()
        self._file.seek(0)
        for _ in range(self._count):
            yield json.loads(self._file.readline())
        self._file.seek(0, os.SEEK_END)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rounds | list):
            return NotImplemented
        return len(self) == len(other) and all(
            a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by content


def run_simulation(variants: Sequence[Variant], bot: str, games: int, seed: int = 0,
                   jobs: int = 1, ray_address: str | None = None,
                   progress: bool = True, keep_rounds: bool = True) -> dict[str, Any]:
    """Play every variant ``games`` times; the summaries, and every round if ``keep_rounds``
    (as :class:`Rounds`, on disk), as one mapping ready for JSON (see :func:`write_json`).

    Games are folded into the summaries as they finish, so memory does not grow with the run."""
    if games < 1:
        raise SimError("--games must be at least 1")
    if games > MAX_GAMES:
        raise SimError(f"--games {games:,} is more than one run plays (at most {MAX_GAMES:,} "
                       "per variant, already hours of play); run several with different --seed")
    make_bot(bot, 0, analysis=True)  # a bad bot name fails before any worker starts
    items = ((v.rules, bot, seed, g) for v in variants for g in range(games))
    count = len(variants) * games
    rounds = Rounds() if keep_rounds else None
    tallies = [Summary(v.rules.teams) for v in variants]
    total = 0
    start = time.perf_counter()
    with Progress("simulate games", count, enabled=progress) as bar:
        if ray_address is not None:
            per_game = run_on_ray(ray_address, items, bar)
        else:
            per_game = stream(play_game, items, count, jobs, bar)
        for k, game in enumerate(per_game):
            variant = variants[k // games]
            for r in game:
                record = dict(r, variant=variant.name)
                tallies[k // games].add(record)
                if rounds is not None:
                    rounds.append(record)
                total += 1
    seconds = time.perf_counter() - start
    out_variants = [{"name": v.name, "rules": v.rules.to_mapping(), "summary": t.result()}
                    for v, t in zip(variants, tallies, strict=True)]
    workers = "ray" if ray_address is not None else min(jobs, count)
    timing: dict[str, Any] = {"seconds": round(seconds, 2), "jobs": workers,
                              "rounds_per_second": round(total / seconds, 1)}
    if isinstance(workers, int):
        timing["rounds_per_second_per_core"] = round(total / seconds / max(1, workers), 1)
    # The timing is the only part of the result that differs between runs of one command.
    return {"bot": bot, "games": games, "seed": seed, "variants": out_variants,
            "rounds": rounds if rounds is not None else [], "timing": timing}


def run_on_ray(address: str, items: Iterable[tuple[Any, ...]],
               progress: Progress | None = None) -> Iterator[list[dict[str, Any]]]:
    """The same per-game worker as Ray tasks; results yielded in the items' (seed) order, a
    bounded number of tasks in flight."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise SimError(RAY_MISSING) from None
    ray.init(address=address)
    try:
        task = ray.remote(play_game)
        source = iter(items)
        refs = deque(task.remote(*item) for item in islice(source, RAY_IN_FLIGHT))
        if progress:
            progress.start()
        while refs:
            result = ray.get(refs.popleft())
            nxt = next(source, None)
            if nxt is not None:
                refs.append(task.remote(*nxt))
            if progress:
                progress.step()
            yield result
    finally:
        ray.shutdown()


# ====================================================================== summaries
class Summary:
    """A variant's measures, folded in round by round (whole-number sums, so the result is
    the same however the rounds arrive)."""

    def __init__(self, teams: int) -> None:
        self.teams = teams
        self.n = 0
        self.ended = dict.fromkeys(ENDINGS, 0)
        self.score_sum = 0
        self.by_team = [0] * teams
        self.turns = 0
        self.canastas: dict[str, int] = {}
        self.red = 0

    def add(self, r: dict[str, Any]) -> None:
        self.n += 1
        if r["ended_by"] in self.ended:
            self.ended[r["ended_by"]] += 1
        self.score_sum += sum(r["scores"])
        for t in range(self.teams):
            self.by_team[t] += r["scores"][t]
        self.turns += r["turns"]
        for team in r["canastas"]:
            for k, n in team.items():
                self.canastas[k] = self.canastas.get(k, 0) + n
        self.red += sum(r["red_threes"])

    def result(self) -> dict[str, Any]:
        n = self.n
        if n == 0:
            return {"rounds": 0}
        return {
            "rounds": n,
            "mean_score": round(self.score_sum / (n * self.teams), 1),
            "mean_score_by_team": [round(x / n, 1) for x in self.by_team],
            "going_out_rate": round(self.ended["went_out"] / n, 4),
            "stock_out_rate": round(self.ended["stock_out"] / n, 4),
            "turn_cap_rounds": self.ended["turn_cap"],
            "mean_turns": round(self.turns / n, 1),
            "canastas_per_round": {k: round(self.canastas[k] / n, 3)
                                   for k in sorted(self.canastas)},
            "red_threes_per_round": round(self.red / n, 3),
        }


def summarise(records: Iterable[dict[str, Any]], teams: int) -> dict[str, Any]:
    tally = Summary(teams)
    for r in records:
        tally.add(r)
    return tally.result()


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
    teams = 0
    seen: set[str] = set()
    for r in result["rounds"]:
        teams = max(teams, len(r["scores"]))
        seen.update(k for team in r["canastas"] for k in team)
    kinds = sorted(seen)
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


def write_json(result: dict[str, Any], path: Path, timing: bool = True) -> None:
    """The result as ``json.dumps(result, indent=1)`` would write it, the rounds streamed from
    their file one at a time."""
    with path.open("w", encoding="utf-8") as f:
        f.write("{")
        first = True
        for key, value in result.items():
            if key == "timing" and not timing:
                continue
            f.write("\n " if first else ",\n ")
            first = False
            f.write(json.dumps(key) + ": ")
            if key == "rounds":
                _write_list(f, value)
            else:
                f.write(json.dumps(value, indent=1).replace("\n", "\n "))
        f.write("\n}\n" if not first else "}\n")


def _write_list(f: IO[str], items: Iterable[Any]) -> None:
    empty = True
    for item in items:
        f.write("[\n  " if empty else ",\n  ")
        empty = False
        f.write(json.dumps(item, indent=1).replace("\n", "\n  "))
    f.write("[]" if empty else "\n ]")


def write_plots(result: dict[str, Any], directory: Path) -> list[Path]:
    """PNG plots of the variants side by side; needs matplotlib (the ``plot`` extra).

    The turn-cap chart is drawn only when some round was cut off by the cap: an empty chart
    says nothing."""
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise SimError(PLOT_MISSING) from None
    matplotlib.use("Agg")  # files only: no display needed
    plt = importlib.import_module("matplotlib.pyplot")
    directory.mkdir(parents=True, exist_ok=True)
    variants = result["variants"]
    names = [v["name"] for v in variants]
    # One pass over the rounds: per variant, each team's scores, the turns, and the endings,
    # as compact arrays (8 bytes a number).
    scores: dict[str, list[array[int]]] = {name: [] for name in names}
    turns: dict[str, array[int]] = {name: array("q") for name in names}
    ended: dict[str, dict[str, int]] = {name: dict.fromkeys(ENDINGS, 0) for name in names}
    for r in result["rounds"]:
        name = r["variant"]
        per_team = scores[name]
        while len(per_team) < len(r["scores"]):
            per_team.append(array("q"))
        for t, x in enumerate(r["scores"]):
            per_team[t].append(x)
        turns[name].append(r["turns"])
        if r["ended_by"] in ended[name]:
            ended[name][r["ended_by"]] += 1
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
    score_bins = _bins([x for name in names for team in scores[name] for x in team])
    for ax, name in zip(axes, names, strict=True):
        for t, team in enumerate(scores[name]):
            ax.hist(list(team), bins=score_bins, alpha=0.6, label=f"team {t}")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("points")
        ax.legend(fontsize=8)
    save(fig, "scores.png")

    fig, axes = panels("round length")
    turn_bins = _bins([x for name in names for x in turns[name]])
    for ax, name in zip(axes, names, strict=True):
        ax.hist(list(turns[name]), bins=turn_bins, color="tab:green")
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

    def rate(name: str, how: str) -> float:
        n = len(turns[name])
        return ended[name][how] / n if n else 0.0

    grouped(["went out", "stock out", "turn cap"],
            {name: [rate(name, how) for how in ENDINGS] for name in names},
            "how rounds end", "share of rounds", "endings.png")
    kinds = sorted({k for v in variants for k in v["summary"].get("canastas_per_round", {})})
    grouped(kinds or ["none"],
            {v["name"]: [v["summary"].get("canastas_per_round", {}).get(k, 0) for k in kinds]
             or [0] for v in variants},
            "canastas per round (all teams)", "canastas", "canastas.png")
    if any(v["summary"].get("turn_cap_rounds", 0) for v in variants):
        grouped(["turn-cap rounds"],
                {v["name"]: [v["summary"].get("turn_cap_rounds", 0)] for v in variants},
                "rounds cut off by the turn cap", "rounds", "turn_cap.png")
    return written


def _bins(values: Sequence[float], n: int = 30) -> list[float]:
    # The same bins in every panel, so the variants' shapes can be compared by eye.
    low, high = (min(values), max(values)) if values else (0, 1)
    step = (high - low) / n or 1.0
    return [low + i * step for i in range(n + 1)]
