"""The table in words: seat names, and the person's own draw (events are narrate.py's)."""

from __future__ import annotations

from ..cards import NUM_KINDS, format_cards, plural
from ..events import Drew
from ..narrate import YOU

__all__ = ["YOU", "drawn_text", "seat_names"]
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


def _says(name: str, third: str, second: str) -> str:
    return f"{name} {second if name == YOU else third}"


def drawn_text(before: tuple[int, ...], after: tuple[int, ...], event: Drew,
               names: list[str]) -> str:
    """The person's own draw, naming the cards (red threes laid at once are not among them)."""
    new = [k for k in range(NUM_KINDS) for _ in range(max(0, after[k] - before[k]))]
    if not new:
        return _says(names[event.seat], "draws", "draw") + f" {plural(event.drawn, 'card')}"
    return _says(names[event.seat], "draws", "draw") + f" {format_cards(new)}"
