"""The table in words: seat names (events, and the person's own draw, are narrate.py's)."""

from __future__ import annotations

from ..narrate import YOU

__all__ = ["YOU", "seat_names"]
from ..rules import Rules


def seat_names(rules: Rules, human: int) -> list[str]:
    """``You``, ``Partner 2``, ``Opp 1``: short enough for a narrow terminal."""
    names = []
    for seat in range(rules.players):
        if seat == human:
            names.append(YOU)
        elif rules.team_of(seat) == rules.team_of(human):
            names.append(f"Partner {seat}")
        else:
            names.append(f"Opp {seat}")
    return names
