"""``handfoot rules list`` and ``handfoot rules show``: the presets and every option."""

from __future__ import annotations

import argparse
from typing import Any

from handfoot.options import CHOICES, LABELS
from handfoot.presets import PRESET_NAMES, preset
from handfoot.rulebook import summary_line
from handfoot.rules import dump_toml

from .common import (
    DEFAULT_PRESET,
    UserError,
    add_override_options,
    add_rules_options,
    base_mapping,
    load_rules,
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("rules", help="list the presets or show a rule set")
    commands = parser.add_subparsers(dest="rules_command", metavar="ACTION")
    listing = commands.add_parser("list", help="list the presets")
    listing.set_defaults(run=run_list)
    show = commands.add_parser("show", help="print every rule of a preset or rules file")
    show.add_argument("rules", metavar="PRESET_OR_FILE",
                      help=f"a preset ({', '.join(PRESET_NAMES)}) or a .toml/.json rules file")
    add_override_options(show)
    show.add_argument("--format", choices=("text", "toml", "json"), default="text",
                      help="text explains each value; toml and json can be read back as a "
                      "rules file (default: text)")
    show.set_defaults(run=run_show)
    explain = commands.add_parser("explain", help="the complete rules in plain words, house "
                                  "rules marked")
    # `rules explain hand-knee-foot` as `rules show hand-knee-foot` takes it, or --rules.
    explain.add_argument("named", nargs="?", default=None, metavar="PRESET_OR_FILE",
                         help=f"a preset ({', '.join(PRESET_NAMES)}) or a .toml/.json rules "
                         "file, as --rules takes it")
    add_rules_options(explain)
    explain.add_argument("--format", choices=("text", "markdown"), default="text",
                         help="plain text or Markdown (default: text)")
    explain.set_defaults(run=run_explain)
    parser.set_defaults(run=run_list)  # plain `handfoot rules` lists the presets


def run_list(args: argparse.Namespace) -> int:
    width = max(len(name) for name in PRESET_NAMES)
    for name in PRESET_NAMES:
        rules = preset(name)
        print(f"{name:<{width}}  {rules.source}")
        print(f"{'':<{width}}  {summary_line(rules)}")
    print()
    print("000 to 004 number the five written rule documents the presets follow; "
          "docs/RULES.md lists them.")
    return 0


def run_show(args: argparse.Namespace) -> int:
    rules, base = load_rules(args)
    if args.format == "toml":
        print(rules.to_toml(), end="")
        return 0
    if args.format == "json":
        print(rules.to_json())
        return 0
    mapping = rules.to_mapping()
    before = base_mapping(base, rules.players) if base else {}
    changed = {key for key, value in mapping.items()
               if before and key not in LABELS and before.get(key) != value}
    print(f"{rules.name} - {rules.source}")
    print(summary_line(rules))
    print()
    width = max(len(key) for key in mapping)
    for key, value in mapping.items():
        mark = "*" if key in changed else " "
        shown = dump_toml({key: value}).split(" = ", 1)[1].rstrip("\n")
        print(f"{mark} {key:<{width}} = {shown}")
        meaning = CHOICES.get(key, {}).get(str(value))
        if meaning:
            print(f"  {'':<{width}}   {meaning}")
    if changed:
        print()
        print(f"* differs from the {base} preset ({len(changed)} of {len(mapping)} options)")
    return 0


def run_explain(args: argparse.Namespace) -> int:
    from handfoot.print.explain import explain

    if args.named is not None:
        if args.rules not in (DEFAULT_PRESET, args.named):
            raise UserError(f"rules explain: name the rules once, {args.named!r} or --rules "
                            f"{args.rules!r}, not both")
        args.rules = args.named
    rules, base = load_rules(args)
    print(explain(rules, base, args.format), end="")
    return 0
