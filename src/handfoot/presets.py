"""The named rule sets, as data, each naming the document it comes from.

A preset is a complete mapping of every rules field.  Settings the five documents share are
written once in ``_SHARED``, which starts from every house rule off (options.off_values); each
preset then states what its document says (or, where the
document is silent, the decision recorded in docs/RULES.md).  ``PLAYER_COUNTS`` holds the
documents' changes for other numbers of players.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from .options import off_values
from .rules import Rules, RulesError, loads_json, loads_toml, parse_value

_CARD_VALUES = {
    "4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10, "K": 10,
    "A": 20, "2": 20, "JK": 50,
}

# Every preset starts with each option that has an "off" (options.py: the house rules of other
# tables, and the extra bonuses and penalties) off, and turns on only what its document says;
# a new house rule is off here without a line of its own.  Then the settings the five
# documents share.
_SHARED: dict[str, Any] = off_values() | {
    "players": 4,
    "team_size": 2,
    "rounds": 4,
    "card_values": _CARD_VALUES,
    "upcard": True,
    "meld_min": 3,
    "canasta_size": 7,
    "naturals_before_wild": 2,
    "add_to_canasta": "never",
    "opening_by": "round",
    "opening_minimums": [50, 90, 120, 150],
    # Classic canasta's table, for tables that switch opening_by to "score"; no document
    # gives numbers for it (docs/RULES.md, decision D9).
    "opening_score_table": [[-1000000, 15], [0, 50], [1500, 90], [3000, 120]],
    "special_fills_clean": True,
    "clean_fills_dirty": False,
    "turn_cap": 400,
    "knee_pickup": "when_empty",
    "empty_before_knee": "forbidden",
    # 000, 001, 003 and 004 say the partner's answer binds (8.5.3).
    "permission_yes": "binding",
}

_HAND_AND_FOOT_CANASTAS = {"clean": 500, "dirty": 300, "wild": 1500}
_KNEE_CANASTAS = {"7s": 5000, "5s": 3000, "wild": 2500, "clean": 500, "dirty": 300}
_KNEE_QUOTA = {"7s": 1, "5s": 1, "wild": 1, "clean": 1, "dirty": 1}

_PRESETS: dict[str, dict[str, Any]] = {
    "hand-and-foot": _SHARED | {
        "name": "hand-and-foot",
        "source": "002 Hand and Foot (card makers' version)",
        "decks": 5,
        "packets": [11, 11],
        "upcard_rejects": ["2", "JK", "R3", "B3"],
        "upcard_rejected": "bury",
        "red_threes": "bonus",
        "red_three_bonus": 100,
        "red_three_penalty": 100,
        "red_three_replacement": "always",
        "black_three_penalty": 5,
        "pile_take": 7,
        "pile_pair": "natural",
        "pile_wild_top": "matching_pair",
        "pile_before_opening": "top_card_counts",
        "discard_after_pile": True,
        "wild_ratio": "fewer_than_naturals",
        "max_wilds": 3,
        "no_wild_ranks": [],
        "wild_melds": True,
        "quota": {"clean": 1, "dirty": 1},
        "partner_in_foot": "no",
        "permission": False,
        "last_card": "discard",
        "going_out_bonus": 100,
        "stock_out": "cannot_draw",
        "canasta_bonus": _HAND_AND_FOOT_CANASTAS,
    },
    "hand-and-foot-classic": _SHARED | {
        "name": "hand-and-foot-classic",
        "source": "003 Hand and Foot (reference write-up)",
        "decks": 5,
        "packets": [13, 13],
        "upcard_rejects": ["2", "JK", "R3"],
        "upcard_rejected": "bury",
        "red_threes": "bonus",
        "red_three_bonus": 100,
        "red_three_penalty": 100,
        "red_three_replacement": "always",
        "black_three_penalty": 5,
        "pile_take": 7,
        "pile_pair": "natural",
        "pile_wild_top": "matching_pair",
        "pile_before_opening": "top_card_counts",
        "discard_after_pile": True,
        "wild_ratio": "at_most_half",
        "max_wilds": 2,
        "no_wild_ranks": [],
        "wild_melds": True,
        "quota": {"clean": 2, "dirty": 2, "wild": 1},
        "partner_in_foot": "played_from_foot",
        "permission": True,
        "last_card": "meld_or_discard",
        "going_out_bonus": 100,
        "stock_out": "end_of_turn",
        "canasta_bonus": _HAND_AND_FOOT_CANASTAS,
        "exact_cut_bonus": 100,
    },
    "hand-and-foot-13": _SHARED | {
        "name": "hand-and-foot-13",
        "source": "004 Hand and Foot (13/13 guide)",
        "decks": 5,
        "packets": [13, 13],
        "upcard_rejects": ["2", "JK", "R3", "B3"],
        "upcard_rejected": "bury",
        "red_threes": "dead",
        "red_three_bonus": 0,
        "red_three_penalty": 100,
        "red_three_replacement": "never",
        "black_three_penalty": 5,
        "pile_take": 7,
        "pile_pair": "natural",
        "pile_wild_top": "blocked",
        "pile_before_opening": "hand_only",
        "discard_after_pile": True,
        "wild_ratio": "at_most_naturals",
        "max_wilds": 3,
        "no_wild_ranks": [],
        "wild_melds": False,
        "quota": {"clean": 2, "dirty": 2},
        "partner_in_foot": "no",
        "permission": True,
        "last_card": "meld_or_discard",
        "going_out_bonus": 100,
        "stock_out": "nobody_takes",
        "canasta_bonus": {"clean": 500, "dirty": 300, "wild": 0},
        "over_meld_penalty": 100,
    },
    "hand-knee-foot": _SHARED | {
        "name": "hand-knee-foot",
        "source": "000 Hand, Knee and Foot",
        "decks": 6,
        "packets": [15, 13, 11],
        "upcard_rejects": ["2", "JK", "5", "7", "R3"],
        "upcard_rejected": "cover",
        "red_threes": "bonus",
        "red_three_bonus": 100,
        "red_three_penalty": 500,
        "red_three_replacement": "not_from_packets",
        "red_three_set_size": 7,
        "red_three_set_bonus": 300,
        "black_three_penalty": 100,
        "pile_take": "whole",
        "pile_pair": "natural",
        "pile_wild_top": "matching_pair",
        "pile_before_opening": "top_card_counts",
        "discard_after_pile": False,
        "wild_ratio": "none",
        "max_wilds": 2,
        "no_wild_ranks": ["5", "7"],
        "wild_melds": True,
        "quota": _KNEE_QUOTA,
        "knee_pickup": "team_first_canasta",
        "partner_in_foot": "no",
        "permission": True,
        "last_card": "meld_or_discard",
        "going_out_bonus": 200,
        "stock_out": "end_of_turn",
        "canasta_bonus": _KNEE_CANASTAS,
        "knee_reminder_penalty": 1000,
        "turn_cap": 600,
    },
}
_PRESETS["triple-play"] = _PRESETS["hand-knee-foot"] | {
    "name": "triple-play",
    "source": "001 Triple Play (game maker's rules)",
    "upcard_rejects": ["2", "JK", "5", "7", "R3"],
    "upcard_rejected": "bury",
    "red_three_replacement": "first_packet_only",
    "pile_pair": "meldable",
    "wild_ratio": "at_most_half",
    "stock_out": "cannot_draw",
}
_PRESETS["hand-knee-foot-club"] = _PRESETS["hand-knee-foot"] | {
    "name": "hand-knee-foot-club",
    "source": "000 Hand, Knee and Foot, club scoring sheet",
    "opening_minimums": [60, 90, 120, 150],
    "canasta_bonus": {"7s": 2000, "5s": 2000, "wild": 1500, "clean": 500, "dirty": 300},
}

# 003's Pennies from Heaven: its numbers are ours (docs/RULES.md, decision D23).
_PRESETS["pennies-from-heaven"] = _PRESETS["hand-and-foot-classic"] | {
    "name": "pennies-from-heaven",
    "source": "003 Hand and Foot, its Pennies from Heaven variant",
    "no_wild_ranks": ["7"],
    "quota": {"7s": 1, "clean": 2, "dirty": 2, "wild": 1},
    "canasta_bonus": {"7s": 2500, "wild": 1500, "clean": 500, "dirty": 300},
    "canasta_pennies": 1,
}

# Changes the documents make for other numbers of players.  Every preset is written for four.
_SOLO_HF = {"team_size": 1}
PLAYER_COUNTS: dict[str, dict[int, dict[str, Any]]] = {
    "hand-and-foot": {  # 002: one deck more than players; 2, 3, 5 alone; 6 as two teams of 3
        2: _SOLO_HF | {"decks": 3},
        3: _SOLO_HF | {"decks": 4},
        4: {},
        5: _SOLO_HF | {"decks": 6},
        6: {"team_size": 3, "decks": 7},
    },
    "hand-and-foot-classic": {  # 003: solo players deal larger packets and a cut-down quota
        2: _SOLO_HF | {"decks": 3, "packets": [15, 15], "quota": {"clean": 1, "dirty": 2}},
        3: _SOLO_HF | {"decks": 4, "packets": [15, 15], "quota": {"clean": 1, "dirty": 2}},
        4: {},
        5: _SOLO_HF | {"decks": 6, "packets": [15, 15], "quota": {"clean": 1, "dirty": 2}},
        6: {"team_size": 3, "decks": 7},
    },
    "hand-and-foot-13": {
        2: _SOLO_HF | {"decks": 3},
        3: _SOLO_HF | {"decks": 4},
        4: {},
        5: _SOLO_HF | {"decks": 6},
        6: {"team_size": 3, "decks": 7},
    },
    # 000: six play as two teams of three with seven decks; three alone (decision D11).
    "hand-knee-foot": {
        2: _SOLO_HF | {"decks": 4},
        3: _SOLO_HF | {"decks": 5},
        4: {},
        5: _SOLO_HF | {"decks": 7},
        6: {"team_size": 3, "decks": 7},
    },
}
PLAYER_COUNTS["pennies-from-heaven"] = {
    n: changes | ({"quota": {"7s": 1, "clean": 1, "dirty": 2}} if changes.get("team_size") == 1
                  else {})
    for n, changes in PLAYER_COUNTS["hand-and-foot-classic"].items()
}
PLAYER_COUNTS["triple-play"] = PLAYER_COUNTS["hand-knee-foot"]
PLAYER_COUNTS["hand-knee-foot-club"] = PLAYER_COUNTS["hand-knee-foot"]

PRESET_NAMES = tuple(_PRESETS)


def preset_mapping(name: str, players: int | None = None) -> dict[str, Any]:
    """The complete mapping of a preset, adjusted for ``players`` if given."""
    if name not in _PRESETS:
        raise RulesError("preset", f"unknown preset {name!r}; known: {', '.join(PRESET_NAMES)}")
    data = dict(_PRESETS[name])
    if players is not None and players != data["players"]:
        counts = PLAYER_COUNTS[name]
        if players not in counts:
            raise RulesError("players", f"{name} is played by {', '.join(map(str, counts))}")
        data.update(counts[players])
        data["players"] = players
    return data


def preset(name: str, players: int | None = None) -> Rules:
    return Rules.from_mapping(preset_mapping(name, players))


def house_rules(
    base: str,
    overrides: Mapping[str, Any] | None = None,
    players: int | None = None,
) -> Rules:
    """A preset plus overrides (in mapping form).  The name records that it was changed."""
    data = preset_mapping(base, players)
    changes = dict(overrides or {})
    changes.pop("base", None)
    for key in changes:
        if key not in data:
            known = set(data)
            import difflib

            close = difflib.get_close_matches(key, sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RulesError(key, "unknown setting" + hint)
    data.update(changes)
    if changes and "name" not in changes:
        data["name"] = f"{base} + house rules"
    return Rules.from_mapping(data)


def parse_overrides(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` strings from the command line; values are read as TOML."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError(pair, "expected key=value")
        out[key] = parse_value(key, text.strip())
    return out


def rules_from_text(text: str, filename: str, players: int | None = None) -> Rules:
    """A rules file: either a complete rules mapping, or ``base = "preset"`` plus overrides."""
    data = loads_json(text) if PurePath(filename).suffix == ".json" else loads_toml(text)
    if "base" in data:
        base = data["base"]
        if not isinstance(base, str):
            raise RulesError("base", "must name a preset")
        return house_rules(base, data, players)
    rules = Rules.from_mapping(data)
    if players is not None and players != rules.players:
        raise RulesError("players", "a complete rules file fixes its own player count")
    return rules
