"""Options and helpers shared by the commands: choosing rules from the command line."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from handfoot.files import RECORD, RULES, read_text
from handfoot.presets import (
    PRESET_NAMES,
    house_rules,
    parse_overrides,
    preset_mapping,
    rules_from_text,
)
from handfoot.record import Record, RecordError, load_record
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
        # exists(), not is_file(): a device or pipe is a file named, refused by read_text.
        Path(name).suffix.lower() in RULES_FILE_SUFFIXES or Path(name).exists()
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
    rules, data = read_rules_file(name, players)
    if overrides:
        changes = dict(overrides)
        changes.setdefault("name", f"{rules.name} + house rules")
        rules = rules.replace(**changes)
    base = data.get("base", data.get("name"))
    return rules, base if isinstance(base, str) and base in PRESET_NAMES else None


def read_rules_file(name: str, players: int | None) -> tuple[Rules, dict[str, Any]]:
    """A rules file's rules and its plain mapping; every error names the file."""
    path = Path(name)
    text = read_text(path, RULES, f"the rules file {name}")
    try:
        data = loads_json(text) if path.suffix.lower() == ".json" else loads_toml(text)
        _check_complete(data)
        return rules_from_text(text, name, players), data
    except RulesError as err:
        text = str(err).removeprefix("rules: (file): ")
        raise UserError(f"{name}: {text}") from None


def _check_complete(data: dict[str, Any]) -> None:
    """A file without ``base`` must give every setting; one that gives few of them was almost
    certainly meant as changes to a preset."""
    if "base" in data:
        return
    known = {f.name for f in dataclasses.fields(Rules)}
    missing = sorted(known - set(data))
    if not missing or any(key not in known for key in data):
        return  # complete, or with an unknown key, which is the first thing to say
    if len(missing) > len(known) // 2:
        raise RulesError("base", f"the file gives {len(known) - len(missing)} of the "
                         f"{len(known)} settings and names no preset to take the rest from; "
                         f"add a line such as base = \"{DEFAULT_PRESET}\" (presets: "
                         f"{', '.join(PRESET_NAMES)}) and keep only the changes")
    raise RulesError(", ".join(missing), "missing setting (no silent defaults); give "
                     f"{'them' if len(missing) > 1 else 'it'}, or add base = "
                     f"\"{DEFAULT_PRESET}\" to take the others from a preset")


def base_mapping(base: str, players: int) -> dict[str, Any]:
    """A preset's mapping in the normal form of ``Rules.to_mapping`` (sorted lists and so on)."""
    try:
        return Rules.from_mapping(preset_mapping(base, players)).to_mapping()
    except RulesError:
        return {}  # a preset not played by this many players has nothing to compare with


def read_record(path: str) -> Record:
    """A game record from a file, or one line saying why not."""
    text = read_text(path, RECORD)
    try:
        return load_record(text)
    except RecordError as err:
        raise UserError(f"{path} is not a valid game record: {err}") from None
