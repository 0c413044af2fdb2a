"""The rules as a form: every option the engine has, the kind of control it needs, and the
rules explained in words (``handfoot rules explain``), for the lobby's house-rule editor.

Nothing here judges a value: the page sends what a person chose and the engine's own checks
(``Rules.validate``, through the same path as creating a table) answer with their message.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from handfoot.cards import KIND_TOKENS, NATURAL_RANKS
from handfoot.clauses import CLAUSES
from handfoot.presets import PRESET_NAMES, preset
from handfoot.print.explain import LABELS, OPTION_CLAUSE, clauses, marked, summary_line
from handfoot.rules import CARD_VALUE_KEYS, CHOICES, Rules

# Options whose plain form is not told by its value alone.
_SPECIAL_KINDS = {
    "pile_take": "pile_take",  # "whole" or a count
    "max_wilds": "max_wilds",  # "unlimited" or a count
    "card_values": "card_values",  # a value for every natural rank and wild card
    "upcard_rejects": "cards",
    "no_wild_ranks": "cards",
    "quota": "kinds",  # canasta kind -> count
    "canasta_bonus": "kinds",  # canasta kind -> points
    "opening_score_table": "score_table",  # [score at least, minimum] rows
    "packets": "ints",
    "opening_minimums": "ints",
}
# Who sits where is chosen with the seats, not among the house rules.
SEATING = ("players", "team_size")


def _kind(key: str, value: Any) -> str:
    if key in _SPECIAL_KINDS:
        return _SPECIAL_KINDS[key]
    if key in CHOICES:
        return "choice"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    raise AssertionError(f"rules option {key!r} has no form control")  # a new field: add it


def options() -> list[dict[str, Any]]:
    """Every option of the rules, in the rule book's order, with its control."""
    sample = preset(PRESET_NAMES[0]).to_mapping()
    out = []
    for f in fields(Rules):
        key = f.name
        if key in LABELS:
            continue
        clause = OPTION_CLAUSE[key]
        entry: dict[str, Any] = {"key": key, "kind": _kind(key, sample[key]),
                                 "label": key.replace("_", " "), "clause": clause,
                                 "title": CLAUSES.get(clause, ""),
                                 "seating": key in SEATING}
        if key in CHOICES:
            entry["choices"] = CHOICES[key]
        if key == "upcard_rejects":
            entry["cards"] = list(KIND_TOKENS)
        elif key == "no_wild_ranks":
            entry["cards"] = [KIND_TOKENS[k] for k in NATURAL_RANKS]
        elif key == "card_values":
            entry["cards"] = list(CARD_VALUE_KEYS)
        elif entry["kind"] == "kinds":
            entry["kinds"] = ["clean", "dirty", "wild",
                              *(KIND_TOKENS[k] + "s" for k in NATURAL_RANKS)]
        out.append(entry)
    order = list(CLAUSES)
    out.sort(key=lambda e: order.index(e["clause"]) if e["clause"] in order else len(order))
    return out


def presets() -> list[dict[str, Any]]:
    out = []
    for name in PRESET_NAMES:
        rules = preset(name)
        out.append({"name": name, "source": rules.source, "summary": summary_line(rules),
                    "players": rules.players, "team_size": rules.team_size})
    return out


def explained(rules: Rules, base: str | None) -> dict[str, Any]:
    """The rules, their summary, every clause in words (house rules marked) and which options
    differ from the preset they are built on."""
    return {"rules": rules.to_mapping(), "summary": summary_line(rules),
            "clauses": [{"clause": number, "title": title, "sentences": sentences}
                        for number, title, sentences in clauses(rules, base)],
            "house_rules": sorted(marked(rules, base))}
