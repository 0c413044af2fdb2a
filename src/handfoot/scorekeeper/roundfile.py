"""Round files: one round's entries as TOML (or JSON), the scriptable way to enter a round and
the form in which an interactive entry that failed its checks is kept."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from handfoot.files import ROUND_FILE, InputFileError, read_text
from handfoot.rules import Rules, dump_toml

from . import ScoreError
from .entry import Seating, packet_keys


def load_round_file(path: Path) -> dict[str, Any]:
    try:
        text = read_text(path, ROUND_FILE)
    except InputFileError as err:
        raise ScoreError(str(err)) from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as err:
        raise ScoreError(f"{path}: not valid {path.suffix[1:].upper() or 'TOML'}: {err}") \
            from None
    except ValueError:  # Python's limit on an integer's digits (4,300), met by the reader
        raise ScoreError(f"{path}: holds a number of thousands of digits, past any count of "
                         "a round") from None
    except RecursionError:  # the readers recurse once per bracket
        raise ScoreError(f"{path}: brackets nested too deeply; no "
                         "round file nests so deep") from None
    if not isinstance(data, dict):
        raise ScoreError(f"{path}: a round file holds one object with a 'teams' list")
    return data


def entry_to_raw(seating: Seating, team: int, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A stored entry in round-file form: names instead of numbers, zeros left out."""
    raw: dict[str, Any] = {"name": seating.teams[team]}
    if entry["canastas"]:
        raw["canastas"] = dict(entry["canastas"])
    if entry["red_threes_laid"]:
        raw["red_threes_laid"] = entry["red_threes_laid"]
    if entry.get("melded_cards") is not None:
        raw["melded_cards"] = dict(entry["melded_cards"])
    else:
        raw["melded_points"] = entry["melded_points"]
    if entry["went_out"]:
        raw["went_out"] = seating.players[team][entry["went_out"] - 1]
    for key in ("over_meld", "knee_reminders", "exact_cuts"):
        if entry[key]:
            raw[key] = entry[key]
    if entry["other_penalties"]:
        raw["other_penalties"] = [dict(p) for p in entry["other_penalties"]]
    players = []
    for name, player in zip(seating.players[team], entry["players"], strict=True):
        row: dict[str, Any] = {"name": name}
        row.update({k: v for k, v in player.items() if v})
        players.append(row)
    raw["players"] = players
    return raw


def round_toml(data: Mapping[str, Any]) -> str:
    """A round file's text: ``round``, then a ``[[teams]]`` table per team, each followed by
    its ``[[teams.players]]``."""
    out = []
    if data.get("round") is not None:
        out.append(dump_toml({"round": data["round"]}))
    for team in data.get("teams", []):
        out.append("\n[[teams]]\n")
        out.append(dump_toml({k: v for k, v in team.items() if k != "players"}))
        for player in team.get("players", []):
            out.append("\n[[teams.players]]\n")
            out.append(dump_toml(player))
    return "".join(out)


def template(rules: Rules, seating: Seating) -> str:
    """A blank round file for these rules, every field shown once with a comment."""
    keys = packet_keys(rules)
    kinds = dump_toml({"canastas": {k: 0 for k, _ in rules.canasta_bonus
                                    if k != "wild" or rules.wild_melds}}).strip()
    lines = ["# round = 1   (optional: the next round is entered by default)"]
    for team, players in zip(seating.teams, seating.players, strict=True):
        # TOML's own strings (dump_toml), as UTF-8: json.dumps's ASCII escapes wrote an emoji
        # as a surrogate pair, which no TOML reader takes.
        lines += ["", "[[teams]]", dump_toml({"name": team}).strip(),
                  kinds,
                  "red_threes_laid = 0",
                  "melded_points = 0   # or melded_cards = { jokers = 0, \"2s-aces\" = 0, "
                  "\"K-8\" = 0, \"7-4\" = 0 }",
                  "went_out = false    # or the name of the player who went out"]
        for name in players:
            lines += ["", "[[teams.players]]", dump_toml({"name": name}).strip(),
                      *(f"{k} = 0   # points left" for k in keys),
                      "red_threes_held = 0", "black_threes_held = 0"]
    return "\n".join(lines) + "\n"
