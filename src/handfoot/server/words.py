"""Events on the wire: each engine event's own wire form (``Event.wire()``, named as
docs/PROTOCOL.md names them) and a line in words.  Every event the engine reports is public:
hidden cards are only ever counted in it.  The words are the engine's own
(``handfoot.narrate.describe``), in the second person for the seat a message goes to ("You draw
2 cards").
"""

from __future__ import annotations

from typing import Any

from handfoot.events import Event
from handfoot.narrate import describe


def event_text(event: Event, names: list[str], you: int = -1) -> str | None:
    """The event in words (the seat ``you`` in the second person), or None for bookkeeping."""
    return describe(event, names, you)


def event_mapping(event: Event, names: list[str]) -> dict[str, Any]:
    """The event for everyone: its text names every seat in the third person."""
    return {"name": event.name, "seat": event.seat, "text": event_text(event, names) or "",
            **event.wire()}


def lines_for(events: list[Event], names: list[str], you: int = -1) -> list[str]:
    return [line for e in events if (line := event_text(e, names, you))]

