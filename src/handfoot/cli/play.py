"""``handfoot play``: a full game against bots in the terminal.

You sit at seat 0; the other seats are bots.  The game record is saved as it goes (by default
in the user data folder), so ``handfoot replay FILE`` checks it and ``--resume FILE`` carries
on from it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from handfoot.bots import BOTS, BotError
from handfoot.tui.session import DEFAULT_BOT

from .common import UserError, add_rules_options, rules_from_args


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game against bots in the terminal",
        description="Play Hand and Foot (or Hand, Knee and Foot) against bots in the terminal: "
        "you are seat 0, your partner and the opponents are bots. Press ? in the game for the "
        "keys; docs/PLAY.md describes them.",
    )
    add_rules_options(parser)
    parser.add_argument("--bots", default=DEFAULT_BOT, metavar="LEVEL[,LEVEL...]",
                        help=f"bot level for every other seat, or one per seat in seat order "
                        f"({', '.join(BOTS)}, weakest first; default: {DEFAULT_BOT})")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the deals and the bots (default: a new one each game)")
    parser.add_argument("--resume", metavar="FILE", default=None,
                        help="carry on a saved game record (its rules and bots are used)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="where the game record is written (default: the resumed file, "
                        "or a new file in the user data folder)")
    parser.add_argument("--pace", type=float, default=0.6, metavar="SECONDS",
                        help="seconds between the bots' moves (default: 0.6; f skips ahead)")
    web = parser.add_argument_group(
        "a web table", "sit at a table served by handfoot serve, in plain lines of text")
    web.add_argument("--join", metavar="INVITE_URL", default=None,
                     help="the table's invite link (http://HOST:PORT/t/TABLE)")
    web.add_argument("--name", default=None, help="your name at the table (default: your "
                     "login name)")
    web.add_argument("--seat", type=int, default=None, metavar="N",
                     help="the seat to take (default: the first open one)")
    web.add_argument("--host-token", default=None, metavar="TOKEN",
                     help="the host token from creating the table: lets you start the game")
    web.add_argument("--token", default=None, metavar="SEAT_TOKEN",
                     help="a seat token to take that seat back (default: the one kept from "
                     "joining this table before)")
    parser.set_defaults(run=run)


def data_dir() -> Path:
    """The user data folder for saved games, by the platform's custom."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "handfoot" / "games"


def default_save_path(seed: int) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return data_dir() / f"game-{stamp}-seed{seed}.json"


def build_session(args: argparse.Namespace) -> Any:
    """The session the options describe (also used by the tests, without a terminal)."""
    from handfoot.record import RecordError, load_record
    from handfoot.tui.session import PlayError, Session

    if args.pace < 0:
        raise UserError("--pace cannot be negative")
    try:
        if args.resume:
            try:
                text = Path(args.resume).read_text(encoding="utf-8")
            except OSError as err:
                raise UserError(f"cannot read {args.resume}: {err.strerror or err}") from None
            try:
                record = load_record(text)
            except RecordError as err:
                raise UserError(f"{args.resume} is not a valid game record: {err}") from None
            save = Path(args.save) if args.save else Path(args.resume)
            return Session.resume(record, save)
        rules = rules_from_args(args)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        levels = [b.strip() for b in args.bots.split(",") if b.strip()]
        save = Path(args.save) if args.save else default_save_path(seed)
        return Session.new(rules, seed, levels or [DEFAULT_BOT], human=0, save_path=save)
    except (PlayError, BotError) as err:
        raise UserError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    if args.join is not None:
        from . import join

        return join.run(args)
    from handfoot.tui.app import PlayApp

    session = build_session(args)
    app = PlayApp(session, pace=args.pace)
    app.run()
    if session.save_path is not None:
        print(f"handfoot: game record saved to {session.save_path}")
        print(f"handfoot: replay it with: handfoot replay {session.save_path}")
    return 0
