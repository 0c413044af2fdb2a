"""``handfoot print``: printable PDFs (a score sheet, blank or filled, and a rules card)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from handfoot.cards import agree
from handfoot.scorekeeper import ScoreError

from .common import UserError, add_rules_options, load_rules


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("print", help="print a score sheet or a rules card as PDF")
    commands = parser.add_subparsers(dest="print_command", metavar="WHAT", required=True)
    sheet = commands.add_parser("sheet", help="a score sheet: blank for a rule set, or filled "
                                "from a kept game")
    sheet.add_argument("game", nargs="?", metavar="GAME",
                       help="a kept game's number or name (see `handfoot score list`); "
                       "without it, a blank sheet for --rules")
    add_rules_options(sheet)
    sheet.add_argument("--team", action="append", default=[], metavar="NAME",
                       help="a team's name for a blank sheet (repeatable)")
    sheet.add_argument("--db", metavar="PATH", help="the score file of kept games")
    sheet.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    sheet.set_defaults(run=run_sheet)
    card = commands.add_parser("card", help="a one-page rules card for a rule set")
    add_rules_options(card)
    card.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    card.set_defaults(run=run_card)


def run_sheet(args: argparse.Namespace) -> int:
    from handfoot.print.pdf import filled_sheet, score_sheet

    from .score import open_store

    out = Path(args.output)
    if args.game:
        try:
            store = open_store(args)
            try:
                game = store.load(args.game)
            finally:
                store.close()
        except ScoreError as err:
            raise UserError(str(err)) from None
        filled_sheet(game, out)
    else:
        rules, _ = load_rules(args)
        if args.team and len(args.team) != rules.teams:
            raise UserError(f"--team: these rules have {rules.teams} teams, but "
                            f"{len(args.team)} {agree(len(args.team), 'was', 'were')} named")
        score_sheet(rules, out, list(args.team) or None)
    print(f"wrote {out}")
    return 0


def run_card(args: argparse.Namespace) -> int:
    from handfoot.print.pdf import rules_card

    rules, base = load_rules(args)
    out = Path(args.output)
    pages = rules_card(rules, out, base)
    print(f"wrote {out}" + (f" ({pages} pages: the rules did not fit on one)"
                            if pages > 1 else ""))
    return 0
