"""``handfoot bench``: engine speed, as complete games between uniformly random legal movers.

An action is counted as one ``apply`` of an action chosen from ``legal_actions()``, so the cost
of listing the legal actions is part of each action's cost.  One process, one core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from handfoot.engine import Game
from handfoot.presets import PLAYER_COUNTS, PRESET_NAMES, preset
from handfoot.rules import Rules

from .common import UserError, players_count

MAX_SECONDS = 3600.0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("bench", help="measure engine speed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=5.0, metavar="S",
                        help="time to spend on each preset (default: 5)")
    parser.add_argument("--presets", nargs="+", choices=PRESET_NAMES, default=list(PRESET_NAMES),
                        metavar="PRESET", help="presets to measure (default: all of them)")
    parser.add_argument("--players", type=players_count, default=4, metavar="N",
                        help="number of players (default: 4)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the first game; each game adds one (default: 0)")
    parser.set_defaults(run=run)


@dataclass
class Figures:
    players: int
    games: int
    rounds: int
    actions: int
    seconds: float
    actions_per_second: float
    rounds_per_second: float


def play_random_game(rules: Rules, seed: int) -> tuple[int, int]:
    """One complete game of uniformly random legal actions: (actions, rounds)."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    while not game.over:
        game.apply(choice(game.legal_actions()))
        actions += 1
    return actions, len(game.results)


def measure(rules: Rules, seconds: float, seed: int = 0) -> Figures:
    """Play whole games until ``seconds`` have passed (at least one game)."""
    games = rounds = actions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        a, r = play_random_game(rules, seed + games)
        actions += a
        rounds += r
        games += 1
        elapsed = time.perf_counter() - start
    return Figures(
        players=rules.players,
        games=games,
        rounds=rounds,
        actions=actions,
        seconds=round(elapsed, 3),
        actions_per_second=round(actions / elapsed, 1),
        rounds_per_second=round(rounds / elapsed, 2),
    )


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "processor": _processor(),
        "cpu_count": os.cpu_count(),
    }


def _processor() -> str:
    # platform.processor() is empty on most Linux systems; the model name is in /proc.
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.seconds <= MAX_SECONDS:  # also refuses nan
        raise UserError(f"--seconds must be from 0 to {MAX_SECONDS:g} (an hour a preset), "
                        f"not {args.seconds:g}")
    results: dict[str, dict[str, Any]] = {}
    info = machine()
    if not args.json:
        print(f"machine: {info['processor']}, {info['cpu_count']} cpus, {info['platform']}")
        print(f"python:  {info['python']}")
        print(f"{args.players} players, uniformly random legal actions, about {args.seconds:g} s "
              "per preset, one core")
        print()
        print(f"{'preset':<22} {'actions/s':>10} {'rounds/s':>9} {'games':>6} {'rounds':>7} "
              f"{'actions':>9} {'seconds':>8}")
    for name in args.presets:
        if args.players not in PLAYER_COUNTS[name]:
            continue
        figures = measure(preset(name, args.players), args.seconds, args.seed)
        results[name] = asdict(figures)
        if not args.json:
            f = figures
            print(f"{name:<22} {f.actions_per_second:>10,.0f} {f.rounds_per_second:>9.1f} "
                  f"{f.games:>6} {f.rounds:>7} {f.actions:>9} {f.seconds:>8.2f}", flush=True)
    if args.json:
        print(json.dumps({"machine": info, "presets": results}, indent=2))
    return 0
