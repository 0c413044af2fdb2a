"""``handfoot print``: printable PDFs (a score sheet, blank or filled, and a rules card)."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any

from handfoot.scorekeeper import ScoreError

from .common import DEFAULT_PRESET, UserError, add_rules_options, load_rules

OUTPUT_HELP = "the PDF file to write; - writes it to standard output (a file called - is ./-)"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("print", help="print a score sheet or a rules card as PDF")
    commands = parser.add_subparsers(dest="print_command", metavar="WHAT", required=True)
    sheet = commands.add_parser("sheet", help="a score sheet: blank for a rule set, or filled "
                                "from a kept game")
    sheet.add_argument("game", nargs="?", metavar="GAME",
                       help="a kept game's number or name (see `handfoot score list`); "
                       "without it, a blank sheet for --rules")
    add_rules_options(sheet)
    # No default: a kept game's sheet has the game's own rules, and refuses --rules.
    sheet.set_defaults(rules=None)
    sheet.add_argument("--team", action="append", default=[], metavar="NAME",
                       help="a team's name for a blank sheet (repeatable); a kept game's sheet "
                       "has the game's names")
    sheet.add_argument("--db", metavar="PATH", help="the score file of kept games")
    sheet.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help=OUTPUT_HELP)
    sheet.set_defaults(run=run_sheet)
    card = commands.add_parser("card", help="a one-page rules card for a rule set")
    add_rules_options(card)
    card.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help=OUTPUT_HELP)
    card.set_defaults(run=run_card)


def _target(name: str) -> Path | io.BytesIO:
    """Where the PDF goes: the named file, or (for ``-``) memory, then standard output."""
    if name != "-":
        return Path(name)
    if sys.stdout.isatty():
        raise UserError("-o -: standard output is a terminal, where a PDF is unreadable; "
                        "redirect it (-o - > sheet.pdf, or -o - | lpr) or name a file")
    return io.BytesIO()


def _done(target: Path | io.BytesIO, note: str = "") -> None:
    if isinstance(target, Path):
        print(f"wrote {target}{f' ({note})' if note else ''}")
        return
    # Standard output carries the PDF alone; anything said about it goes to standard error.
    sys.stdout.flush()
    sys.stdout.buffer.write(target.getvalue())
    sys.stdout.buffer.flush()
    if note:
        print(f"handfoot: {note}", file=sys.stderr)


def run_sheet(args: argparse.Namespace) -> int:
    from handfoot.print.pdf import filled_sheet, score_sheet
    from handfoot.scorekeeper.game import make_seating

    from .score import open_store

    if args.game:
        # A kept game's sheet prints the game as kept: another name or rule set would make
        # the sheet disagree with `handfoot score show`, so they are refused, not ignored.
        given = [option for option, value in (("--team", args.team), ("--rules", args.rules),
                                              ("--set", args.overrides),
                                              ("--players", args.players)) if value]
        if given:
            raise UserError(f"{' and '.join(given)}: a kept game's sheet prints the game's own "
                            "teams and rules; leave out GAME for a blank sheet with these")
    elif args.db:
        raise UserError("--db: name the kept GAME to print from it (a blank sheet needs no "
                        "score file)")
    target = _target(args.output)
    if args.game:
        try:
            store = open_store(args)
            try:
                game = store.load(args.game)
            finally:
                store.close()
        except ScoreError as err:
            raise UserError(str(err)) from None
        filled_sheet(game, target)
    else:
        args.rules = args.rules or DEFAULT_PRESET
        rules, _ = load_rules(args)
        try:
            # The names checked as `score new` checks them: one printable line each, no two
            # alike, one per team.
            teams = list(make_seating(rules, list(args.team)).teams) if args.team else None
        except ScoreError as err:
            raise UserError(str(err)) from None
        score_sheet(rules, target, teams)
    _done(target)
    return 0


def run_card(args: argparse.Namespace) -> int:
    from handfoot.print.pdf import rules_card

    rules, base = load_rules(args)
    target = _target(args.output)
    pages = rules_card(rules, target, base)
    _done(target, f"{pages} pages: the rules did not fit on one" if pages > 1 else "")
    return 0
