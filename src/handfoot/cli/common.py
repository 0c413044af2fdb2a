"""Options and helpers shared by the commands: choosing rules from the command line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from handfoot.presets import (
    PRESET_NAMES,
    house_rules,
    parse_overrides,
    preset_mapping,
    rules_from_text,
)
from handfoot.rules import Rules, RulesError, loads_json, loads_toml

DEFAULT_PRESET = "hand-and-foot"
RULES_FILE_SUFFIXES = (".toml", ".json")


class UserError(Exception):
    """Bad input from the person at the keyboard: reported in one line, never a traceback."""


def players_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of players, got {text!r}") from None
    if not 2 <= n <= 6:
        raise argparse.ArgumentTypeError(f"the presets are played by 2 to 6 players, not {n}")
    return n


def add_override_options(parser: argparse.ArgumentParser) -> None:
    """``--set`` and ``--players``: changes on top of whatever rules were chosen."""
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one rule; the value is read as TOML, e.g. --set pile_take=whole "
        "--set 'quota={clean=2, dirty=2}' (repeatable)",
    )
    parser.add_argument(
        "--players",
        type=players_count,
        default=None,
        metavar="N",
        help="number of players, 2 to 6, with the preset's own changes for that number "
        "(default: 4)",
    )


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules``, ``--set`` and ``--players``; read them back with :func:`rules_from_args`."""
    parser.add_argument(
        "--rules",
        default=DEFAULT_PRESET,
        metavar="NAME_OR_FILE",
        help=f"a preset ({', '.join(PRESET_NAMES)}) or a .toml/.json rules file: complete "
        f"rules, or base = \"preset\" plus overrides (default: {DEFAULT_PRESET})",
    )
    add_override_options(parser)


def is_rules_file(name: str) -> bool:
    return name not in PRESET_NAMES and (
        Path(name).suffix.lower() in RULES_FILE_SUFFIXES or Path(name).is_file()
    )


def unknown_rules(name: str) -> UserError:
    return UserError(
        f"unknown preset {name!r}; known presets: {', '.join(PRESET_NAMES)} "
        "(or give a .toml or .json rules file)"
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules named by ``--rules`` (or a positional ``rules``), ``--set`` and ``--players``."""
    return load_rules(args)[0]


def load_rules(args: argparse.Namespace) -> tuple[Rules, str | None]:
    """The rules, and the preset they are based on (None for a complete rules file that is
    not a preset), so ``rules show`` can mark what differs."""
    name: str = args.rules
    players: int | None = getattr(args, "players", None)
    overrides = parse_overrides(list(getattr(args, "overrides", None) or []))
    if name in PRESET_NAMES:
        return house_rules(name, overrides, players), name
    if not is_rules_file(name):
        raise unknown_rules(name)
    text = Path(name).read_text(encoding="utf-8")
    rules = rules_from_text(text, name, players)
    if overrides:
        changes = dict(overrides)
        changes.setdefault("name", f"{rules.name} + house rules")
        rules = rules.replace(**changes)
    data = loads_json(text) if Path(name).suffix.lower() == ".json" else loads_toml(text)
    base = data.get("base", data.get("name"))
    return rules, base if isinstance(base, str) and base in PRESET_NAMES else None


def base_mapping(base: str, players: int) -> dict[str, Any]:
    """A preset's mapping in the normal form of ``Rules.to_mapping`` (sorted lists and so on)."""
    try:
        return Rules.from_mapping(preset_mapping(base, players)).to_mapping()
    except RulesError:
        return {}  # a preset not played by this many players has nothing to compare with
