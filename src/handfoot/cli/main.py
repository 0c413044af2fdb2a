"""``handfoot``: the entry point.  Bad input ends with one ``handfoot: error:`` line, exit 2."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tomllib

from handfoot import __version__
from handfoot.actions import ActionSyntaxError
from handfoot.cards import CardError
from handfoot.clauses import IllegalAction
from handfoot.deal import DealError
from handfoot.rules import RulesError

from .common import UserError

# Each module has add_parser(subparsers), which sets the command's ``run`` default.
COMMANDS = ["rules", "demo", "bench", "replay", "arena", "simulate", "play", "score", "printout",
            "serve"]

# Errors that mean the input was wrong, not the program.
INPUT_ERRORS = (
    UserError,
    RulesError,
    IllegalAction,
    DealError,
    ActionSyntaxError,
    CardError,
    json.JSONDecodeError,
    tomllib.TOMLDecodeError,
    UnicodeDecodeError,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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


def _error(message: str) -> int:
    print(f"handfoot: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
