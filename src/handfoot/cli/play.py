"""``handfoot play``: a full game against bots in the terminal.

You sit at seat 0; the other seats are bots.  The game record is saved as it goes (by default
in the user data folder), so ``handfoot replay FILE`` checks it and ``--resume FILE`` carries
on from it.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from handfoot.bots import BOTS, LEVELS, BotError, describe, is_bot
from handfoot.bots.levels import fallback_note
from handfoot.files.folder import data_folder
from handfoot.files.lock import FileInUse, SaveLock
from handfoot.record import Record, Seat
from handfoot.tui.session import DEFAULT_BOT, HUMAN_NAME

from .common import UserError, add_rules_options, read_record, rules_from_args

# A minute between moves is already a game no one would wait for; more is a typing slip.
MAX_PACE = 60.0


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
                        help="bot level for every other seat, or one per seat in seat order: "
                        + "; ".join(describe(b) for b in LEVELS) + f" (older names: "
                        f"{', '.join(b for b in BOTS if b not in LEVELS)}; default: "
                        f"{DEFAULT_BOT})")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the deals and the bots (default: a new one each game)")
    parser.add_argument("--resume", metavar="FILE", default=None,
                        help="carry on a saved game record: its rules, and its bots where its "
                        "seats are named by bot (other seats get --bots)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="where the game record is written (default: the resumed file if "
                        "handfoot play wrote it, else a new file in the user data folder)")
    parser.add_argument("--pace", type=float, default=0.6, metavar="SECONDS",
                        help="seconds between the bots' moves (default: 0.6; f skips ahead)")
    web = parser.add_argument_group(
        "a web table", "sit at a table served by handfoot serve: the same game on screen, "
        "or in plain lines of text with --plain")
    web.add_argument("--join", metavar="INVITE_URL", default=None,
                     help="the table's invite link (http://HOST:PORT/t/TABLE)")
    web.add_argument("--plain", action="store_true",
                     help="with --join: play in plain lines of text (a prompt and the log), "
                     "for scripts and screen readers")
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
    """The folder for saved games, in handfoot's data folder."""
    return data_folder() / "games"


def default_save_path(seed: int, folder: Path | None = None) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return (folder or data_dir()) / f"game-{stamp}-seed{seed}.json"


# The lock on the file the game being played is saved to (handfoot.files.lock).
_held: SaveLock | None = None


def hold_save_file(path: Path | None) -> None:
    """Lock ``path`` for this process (letting go of the file locked before), or refuse in
    one line when another handfoot is saving a game to it."""
    global _held
    lock = SaveLock.acquire(path) if path is not None else None
    if _held is not None:
        _held.release()
    _held = lock


def next_game(session: Any) -> Any:
    """The game after a finished one: the same table, a new seed, saved next to the last."""
    folder = session.save_path.parent if session.save_path is not None else None
    for _ in range(10):
        seed = random.SystemRandom().randrange(10**6)
        path = default_save_path(seed, folder)
        try:
            hold_save_file(path)
        except FileInUse:
            continue  # another game started the same second with the same seed
        break
    return session.next_game(seed, path)


def build_session(args: argparse.Namespace) -> Any:
    """The session the options describe (also used by the tests, without a terminal)."""
    from handfoot.tui.session import PlayError, Session

    if not math.isfinite(args.pace) or args.pace < 0:
        raise UserError("--pace must be a number of seconds, 0 or more")
    if args.pace > MAX_PACE:
        raise UserError(f"--pace: {args.pace:g} seconds between moves is too slow; at most "
                        f"{MAX_PACE:g}")
    levels = [b.strip() for b in args.bots.split(",") if b.strip()] or [DEFAULT_BOT]
    try:
        if args.resume:
            given = read_record(args.resume)
            record = seat_bots(given, levels)
            save = Path(args.save) if args.save else Path(args.resume)
            if not args.save and record.seats != given.seats:
                # Not a record of this command (a scenario, another program's): carry it on in
                # a new file rather than write our seat names over its own.
                stamp = time.strftime("%Y%m%d-%H%M%S")
                save = data_dir() / f"{Path(args.resume).stem}-resumed-{stamp}.json"
            return Session.resume(record, save)
        rules = rules_from_args(args)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        save = Path(args.save) if args.save else default_save_path(seed)
        for level in dict.fromkeys(levels):
            note = fallback_note(level, rules)
            if note:
                print(note, file=sys.stderr)
        return Session.new(rules, seed, levels, human=0, save_path=save)
    except (PlayError, BotError) as err:
        raise UserError(str(err)) from None


def seat_bots(record: Record, levels: list[str]) -> Record:
    """The record with a bot at every seat but the person's.

    A record's seat names are whatever its writer chose: ``handfoot play`` names each seat by
    its bot (and the person ``you``), a scenario by compass point.  A seat whose name is not a
    bot is played by the ``--bots`` level for it, so any valid record can be carried on."""
    names = [s.name for s in record.seats]
    human = names.index(HUMAN_NAME) if HUMAN_NAME in names else 0
    others = [s for s in range(len(names)) if s != human]
    if len(levels) == 1:
        levels = levels * len(others)
    if len(levels) != len(others):
        raise UserError(f"--bots: {len(others)} bot seats need {len(others)} bot levels, "
                        f"not {len(levels)}")
    chosen = dict(zip(others, levels, strict=True))
    seats = [Seat(seat.team, HUMAN_NAME if i == human
                  else seat.name if is_bot(seat.name) else chosen[i])
             for i, seat in enumerate(record.seats)]
    return dataclasses.replace(record, seats=seats)


def check_save_path(path: Path) -> None:
    """Refuse, before the game starts, a record file that could not be written: a game whose
    record cannot be kept is a game that can be lost."""
    if path.is_dir():
        raise UserError(f"--save {path}: is a folder; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # The record is written to a temporary file beside it, then renamed over it.
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".check"):
            pass
    except OSError as err:
        raise UserError(f"cannot save the game to {path}: {err.strerror or err}") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise UserError(f"cannot save the game to {path}: the file is read-only")


def run(args: argparse.Namespace) -> int:
    if args.join is not None:
        if args.plain:
            from . import join

            return join.run(args)
        from . import join_screen

        return join_screen.run(args)
    if args.plain:
        raise UserError("--plain is for --join (a web table); the game against bots is on "
                        "screen only")
    from handfoot.tui.app import PlayApp

    session = build_session(args)
    if session.save_path is not None:
        check_save_path(session.save_path)
    try:
        hold_save_file(session.save_path)
    except FileInUse as err:
        raise UserError(str(err)) from None
    try:
        # The game reads keys from standard input and draws on standard error (so standard
        # output can still be piped: it gets only the closing lines).
        for stream, name in ((sys.stdin, "standard input"), (sys.stderr, "standard error")):
            if not stream.isatty():
                raise UserError(f"handfoot play needs a terminal, and {name} is not one (a "
                                "pipe or a file); run it in a terminal window, or watch bots "
                                "play with `handfoot demo`")
        app = PlayApp(session, pace=args.pace, new_game=next_game)
        app.run()
    finally:
        hold_save_file(None)
    session = app.session  # a new game may have followed the first
    if session.save_path is not None and session.save_error is None:
        verb = "replay it with: handfoot replay" if session.over \
            else "carry on with: handfoot play --resume"
        print(f"handfoot: game record saved to {session.save_path}")
        print(f"handfoot: {verb} {session.save_path}")
    elif session.save_error:
        print(f"handfoot: {session.save_error}", file=sys.stderr)
        return 1
    return 0 if app.return_code in (None, 0) else app.return_code
