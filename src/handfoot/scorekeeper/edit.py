"""Changing one field of an entered round (``--set canastas.clean=2``), and listing what an
edit changed, field by field, for the history."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from handfoot.rules import Rules, RulesError, parse_value

from . import ScoreError
from .entry import (
    PENALTY_COUNTS,
    PLAYER_THREES,
    Seating,
    canasta_key,
    group_key,
    packet_keys,
    read_team,
)
from .names import shown

_SCALARS = ("red_threes_laid", "melded_points", "went_out", *PENALTY_COUNTS, "other_penalties")


def parse_assignment(text: str) -> tuple[str, Any]:
    path, sep, value = text.partition("=")
    if not sep or not path.strip():
        raise ScoreError(f"--set {shown(text)!r}: expected FIELD=VALUE, e.g. canastas.clean=2")
    try:
        return path.strip(), parse_value(path.strip(), value.strip())
    except RulesError as err:
        raise ScoreError(f"--set {shown(text)!r}: {err}") from None


def apply_set(rules: Rules, seating: Seating, team: int, entry: Mapping[str, Any], path: str,
              value: Any) -> dict[str, Any]:
    """The entry with one field set, read again as a whole (so it is checked like new)."""
    raw: dict[str, Any] = copy.deepcopy(dict(entry))
    parts = path.split(".")
    head = parts[0]
    if head == "canastas" and len(parts) == 2:
        raw["canastas"][canasta_key(parts[1])] = value
    elif head == "melded_cards" and len(parts) == 2:
        groups = dict(raw.get("melded_cards") or {})
        groups[group_key(parts[1])] = value
        raw["melded_cards"], raw["melded_points"] = groups, None
    elif head == "melded_points" and len(parts) == 1:
        raw["melded_points"], raw["melded_cards"] = value, None
    elif head == "players" and len(parts) == 3:
        seat = seating.player_number(team, parts[1])
        fields = (*packet_keys(rules), *PLAYER_THREES)
        if parts[2] not in fields:
            raise ScoreError(f"{path}: a player's fields are {', '.join(fields)}")
        raw["players"][seat][parts[2]] = value
    elif head in _SCALARS and len(parts) == 1:
        raw[head] = value
    else:
        raise ScoreError(
            f"{path}: not a field of a team's round; use canastas.KIND, red_threes_laid, "
            "melded_points, melded_cards.GROUP, went_out, players.N.FIELD (hand, knee, foot, "
            "red_threes_held, black_threes_held), over_meld, knee_reminders, exact_cuts, "
            "other_penalties")
    return read_team(rules, seating, team, raw)


def flatten(seating: Seating, team: int, entry: Mapping[str, Any]) -> dict[str, Any]:
    """Field path -> value, players by name, for comparing two versions of an entry."""
    out: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "players":
            for name, player in zip(seating.players[team], value, strict=True):
                for field, n in player.items():
                    out[f"players.{name}.{field}"] = n
        elif isinstance(value, dict):
            for sub, n in value.items():
                out[f"{key}.{sub}"] = n
        else:
            out[key] = value
    return out


def changes(seating: Seating, team: int, old: Mapping[str, Any] | None,
            new: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """(field, old value, new value) for every field that differs."""
    before = flatten(seating, team, old) if old is not None else {}
    after = flatten(seating, team, new)
    out = []
    for key in [*after, *(k for k in before if k not in after)]:
        if before.get(key) != after.get(key):
            out.append((key, before.get(key), after.get(key)))
    return out
