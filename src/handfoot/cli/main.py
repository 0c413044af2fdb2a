"""``handfoot``: the entry point.  Bad input ends with one ``handfoot: error:`` line, exit 2."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tomllib
from typing import NoReturn

from handfoot import HandfootError, __version__
from handfoot.actions import ActionSyntaxError
from handfoot.bots import BotError
from handfoot.cards import CardError
from handfoot.clauses import IllegalAction
from handfoot.deal import DealError
from handfoot.rules import RulesError
from handfoot.scorekeeper import ScoreError
from handfoot.sim import SimError

from .common import UserError

# Each module has add_parser(subparsers), which sets the command's ``run`` default.
COMMANDS = ["rules", "demo", "bench", "replay", "arena", "simulate", "play", "score", "printout",
            "serve", "train"]

# Errors that mean the input was wrong, not the program.
INPUT_ERRORS = (
    UserError,
    RulesError,
    BotError,
    SimError,
    ScoreError,
    IllegalAction,
    DealError,
    ActionSyntaxError,
    CardError,
    json.JSONDecodeError,
    tomllib.TOMLDecodeError,
    UnicodeDecodeError,
    HandfootError,  # every other error of the package's own: the input, not the program
)


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors as one ``handfoot: error:`` line like every other
    error (its sub-commands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("handfoot").strip()
        where = f"{command}: " if command else ""
        self.exit(2, f"handfoot: error: {where}{message} (`{self.prog} --help` shows the "
                  "options)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="handfoot",
        description="A rules engine for Hand and Foot and Hand, Knee and Foot.",
    )
    parser.add_argument("--version", action="version", version=f"handfoot {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"handfoot.cli.{name}").add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version, or argparse's own usage error (exit 2)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        code: int = args.run(args)
        return code
    except KeyboardInterrupt:
        print("handfoot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``handfoot demo | head``): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as err:
        where = f": {err.filename}" if err.filename else ""
        return _error(f"{err.strerror or err}{where}")
    except INPUT_ERRORS as err:
        return _error(str(err))
    except MemoryError:
        return _error("out of memory: the run asked for more than this machine has; "
                      "ask for less (fewer games, deals or decks)")
    except Exception as err:
        # A bug, not the user's input: still one line, with what to report; the traceback
        # only when asked for (HANDFOOT_DEBUG=1).
        if os.environ.get("HANDFOOT_DEBUG"):
            raise
        print(f"handfoot: internal error: {type(err).__name__}: {err} (please report it; "
              "HANDFOOT_DEBUG=1 shows where)", file=sys.stderr)
        return 70


def _error(message: str) -> int:
    print(f"handfoot: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
