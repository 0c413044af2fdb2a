"""``handfoot arena``: bots against each other on duplicate deals, on all cores."""

from __future__ import annotations

import argparse
import json
from typing import Any

from handfoot.bots import BotError
from handfoot.sim import SimError
from handfoot.sim.arena import format_markdown, format_text, run_arena
from handfoot.sim.runner import check_jobs, default_jobs

from .common import UserError, add_rules_options, rules_from_args


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="measure bots against each other on duplicate deals",
        description="Every pair of bots plays the same deals twice, the teams swapping seats; "
        "reports win rates, score differences and Elo with 95% intervals. With more than "
        "two bots, a round robin and a rating table. Where more than two sides play (three "
        "or five players, each alone), each deal is played once per side, A in that side's "
        "seats and B in the others; A wins a game by beating every other side (an even bot "
        "wins 1 in 3 or 1 in 5), and there is no Elo or rating table.",
    )
    parser.add_argument("--bots", nargs="+", required=True, metavar="SPEC",
                        help="two or more bots, e.g. strong casual or expert search:ms=50 (the "
                        "levels beginner, casual, strong, expert; the older names random, basic, "
                        "heuristic, search; policy, the shipped trained model, or "
                        "policy:path=FILE "
                        "(docs/RL.md); and oracle, which sees every card: an upper bound for "
                        "analysis); partners as A+B, e.g. strong+casual: the team's first seat "
                        "plays A, its second B")
    parser.add_argument("--deals", type=int, default=100, metavar="N",
                        help="deals per pair, each played once per side: twice with two "
                        "teams (default: 100)")
    parser.add_argument("--rounds", type=int, default=None, metavar="N",
                        help="rounds per game, e.g. 1 for single rounds (default: the rules')")
    parser.add_argument("--seed", type=int, default=0, help="arena seed (default: 0)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: all cores)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--no-timing", action="store_true",
                        help="leave out the timing, so the output is the same on every run")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (it is drawn only when stderr is a terminal)")
    add_rules_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.rounds is not None:
        if args.rounds < 1:
            raise UserError("--rounds must be at least 1")
        rules = rules.replace(rounds=args.rounds)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    check_jobs(jobs)
    try:
        report = run_arena(rules, args.bots, args.deals, args.seed, jobs,
                           progress=not args.quiet)
    except (BotError, SimError) as err:
        raise UserError(str(err)) from None
    timing = not args.no_timing
    if not timing:
        del report["timing"]
    if args.json:
        print(json.dumps(report, indent=2))
    elif args.markdown:
        print(format_markdown(report, timing), end="")
    else:
        print(format_text(report, timing), end="")
    return 0
