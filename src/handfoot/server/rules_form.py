"""The rules as a form: every option the engine has, the kind of control it needs, and the
rules explained in words (``handfoot rules explain``), for the lobby's house-rule editor.

Nothing here judges a value: the page sends what a person chose and the engine's own checks
(``Rules.validate``, through the same path as creating a table) answer with their message.
"""

from __future__ import annotations

from typing import Any

from handfoot.cards import KIND_TOKENS, NATURAL_RANKS
from handfoot.clauses import CLAUSES
from handfoot.options import CARD_VALUE_KEYS, OPTIONS
from handfoot.presets import PRESET_NAMES, preset
from handfoot.rulebook import clauses, marked, summary_line
from handfoot.rules import Rules

# Who sits where is chosen with the seats, not among the house rules.
SEATING = ("players", "team_size")
# The canasta kinds a table of kinds may name: the base kinds, then a kind per rank.
_CANASTA_KINDS = ["clean", "dirty", "wild", *(KIND_TOKENS[k] + "s" for k in NATURAL_RANKS)]


def options() -> list[dict[str, Any]]:
    """Every option of the rules, in the rule book's order, with its control: the control is the
    option's kind in the table of options (handfoot.options)."""
    out = []
    for option in OPTIONS:
        if option.clause is None:
            continue  # a label (name, source), not a rule
        entry: dict[str, Any] = {"key": option.key, "kind": option.kind,
                                 "label": option.key.replace("_", " "),
                                 "clause": option.clause,
                                 "title": CLAUSES.get(option.clause, ""),
                                 "seating": option.key in SEATING}
        if option.kind == "choice":
            entry["choices"] = dict(option.choices)
        elif option.kind == "cards":
            entry["cards"] = [KIND_TOKENS[k] for k in option.cards]
        elif option.kind == "card_values":
            entry["cards"] = list(CARD_VALUE_KEYS)
        elif option.kind == "kinds":
            entry["kinds"] = list(_CANASTA_KINDS)
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
