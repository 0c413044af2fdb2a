"""``handfoot simulate``: many bot games under one rule set or several side by side."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

from handfoot.bots import BotError
from handfoot.sim import SimError
from handfoot.sim.runner import check_jobs, default_jobs
from handfoot.sim.simulate import (
    PLOT_MISSING,
    Variant,
    format_summary,
    run_simulation,
    write_csv,
    write_json,
    write_plots,
)

from .common import DEFAULT_PRESET, UserError, add_override_options, rules_from_args


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many bot games and summarise what the rules do",
        description="Plays N games with one bot in every seat, under one rule set or several "
        "side by side, and records every round: scores, length, how it ended, canastas, "
        "red threes.",
    )
    parser.add_argument("--rules", action="append", default=None, metavar="NAME_OR_FILE",
                        help=f"a preset or rules file; repeat to compare several "
                        f"(default: {DEFAULT_PRESET})")
    parser.add_argument("--compare", action="append", default=[], metavar="KEY=VALUE",
                        help="a variant: the first rules plus this one change (repeatable), "
                        "e.g. --compare pile_take=whole")
    add_override_options(parser)
    parser.add_argument("--bot", default="heuristic", metavar="SPEC",
                        help="the bot in every seat (default: heuristic)")
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help="games per variant (default: 100)")
    parser.add_argument("--rounds", type=int, default=None, metavar="N",
                        help="rounds per game, e.g. 1 for single rounds (default: the rules')")
    parser.add_argument("--seed", type=int, default=0, help="run seed (default: 0)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: all cores)")
    parser.add_argument("--ray", default=None, metavar="ADDRESS",
                        help="run the games as tasks on this Ray cluster (needs ray)")
    parser.add_argument("--json", dest="json_file", type=Path, default=None, metavar="FILE",
                        help="write every round and the summaries as JSON")
    parser.add_argument("--csv", dest="csv_file", type=Path, default=None, metavar="FILE",
                        help="write one CSV row per round")
    parser.add_argument("--plots", type=Path, default=None, metavar="DIR",
                        help="write PNG plots here (needs matplotlib: the 'plot' extra)")
    parser.add_argument("--no-timing", action="store_true",
                        help="leave the timing out of the summary and the JSON file")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (it is drawn only when stderr is a terminal)")
    parser.set_defaults(run=run)


def variants(args: argparse.Namespace) -> list[Variant]:
    names: list[str] = args.rules or [DEFAULT_PRESET]
    out: list[Variant] = []

    def rules_for(name: str, extra: list[str]) -> Any:
        ns = argparse.Namespace(rules=name, overrides=[*args.overrides, *extra],
                                players=args.players)
        rules = rules_from_args(ns)
        if args.rounds is not None:
            rules = rules.replace(rounds=args.rounds)
        return rules

    for name in names:
        out.append(Variant(name, rules_for(name, [])))
    for change in args.compare:
        out.append(Variant(f"{names[0]} + {change}", rules_for(names[0], [change])))
    seen: dict[str, int] = {}
    unique = []
    for v in out:
        seen[v.name] = seen.get(v.name, 0) + 1
        unique.append(v if seen[v.name] == 1 else Variant(f"{v.name} #{seen[v.name]}", v.rules))
    return unique


def run(args: argparse.Namespace) -> int:
    if args.rounds is not None and args.rounds < 1:
        raise UserError("--rounds must be at least 1")
    jobs = args.jobs if args.jobs is not None else default_jobs()
    check_jobs(jobs)
    if args.plots is not None and importlib.util.find_spec("matplotlib") is None:
        # Fail before playing: a long run should not end in an error about plots.
        raise UserError(PLOT_MISSING)
    keep = args.json_file is not None or args.csv_file is not None or args.plots is not None
    try:
        result = run_simulation(variants(args), args.bot, args.games, args.seed, jobs,
                                ray_address=args.ray, progress=not args.quiet,
                                keep_rounds=keep)
        if args.plots is not None:
            write_plots(result, args.plots)
    except (BotError, SimError) as err:
        raise UserError(str(err)) from None
    timing = not args.no_timing
    if args.json_file is not None:
        write_json(result, args.json_file, timing)
    if args.csv_file is not None:
        write_csv(result, args.csv_file)
    print(format_summary(result, timing), end="")
    return 0
