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


def default_save_path(seed: int, folder: Path | None = None) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return (folder or data_dir()) / f"game-{stamp}-seed{seed}.json"


def next_game(session: Any) -> Any:
    """The game after a finished one: the same table, a new seed, saved next to the last."""
    seed = random.SystemRandom().randrange(10**6)
    folder = session.save_path.parent if session.save_path is not None else None
    return session.next_game(seed, default_save_path(seed, folder))


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
    from handfoot.tui.app import PlayApp

    session = build_session(args)
    app = PlayApp(session, pace=args.pace, new_game=next_game)
    app.run()
    session = app.session  # a new game may have followed the first
    if session.save_path is not None and session.save_error is None:
        verb = "replay it with: handfoot replay" if session.game.over \
            else "carry on with: handfoot play --resume"
        print(f"handfoot: game record saved to {session.save_path}")
        print(f"handfoot: {verb} {session.save_path}")
    elif session.save_error:
        print(f"handfoot: {session.save_error}", file=sys.stderr)
        return 1
    return 0 if app.return_code in (None, 0) else app.return_code
