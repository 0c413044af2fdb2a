"""Updates as clients read them: one applied action (or undo) with its events, kept for
reconnecting clients and the log, its words made for each reader."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from handfoot.events import Event
from handfoot.narrate import merge_melds

from .words import event_text


@dataclass(slots=True)
class Entry:
    """One update as every client may see it (kept for reconnecting clients).  Its words are
    made for each reader: "You draw 2 cards" for the drawer, "Ann draws 2 cards" for others,
    and the drawer's own copy names the cards drawn."""

    version: int
    seat: int
    by: str
    action: str
    events: list[dict[str, Any]]  # the wire form, the same for everyone
    raw: list[Event]
    names: list[str]
    drawn: str | None = None  # the actor's own draw line
    undone: int = 0  # for an undo: the steps taken back
    _lines: dict[int | None, list[str]] = field(default_factory=dict)

    def log(self, reader: int | None) -> list[str]:
        lines = self._lines.get(reader)
        if lines is None:
            you = reader if reader is not None else -1
            if self.undone:
                who = "You take" if reader == self.seat else f"{self.names[self.seat]} takes"
                steps = "a step" if self.undone == 1 else f"{self.undone} steps"
                lines = [f"{who} back {steps}"]
            else:
                lines = []
                # A lay-down's steps on one meld read as one line ("You meld 6: 6 6 JK").
                for e in merge_melds(self.raw):
                    if self.drawn is not None and reader == self.seat and e.name == "draw" \
                            and e.seat == reader:
                        lines.append(self.drawn)
                    elif line := event_text(e, self.names, you):
                        lines.append(line)
            self._lines[reader] = lines
        return lines

    def public(self, reader: int | None) -> dict[str, Any]:
        return {"version": self.version, "seat": self.seat, "by": self.by,
                "action": self.action, "events": self.events, "log": self.log(reader)}


LogItem = str | Entry  # a line for everyone, or an update's lines in each reader's words


def log_lines(items: Iterable[LogItem], reader: int | None, limit: int) -> list[str]:
    """The last ``limit`` lines of a log (oldest first), in the reader's words."""
    lines: list[str] = []
    for item in reversed(list(items)):
        if isinstance(item, str):
            lines.append(item)
        else:
            lines.extend(reversed(item.log(reader)))
        if len(lines) >= limit:
            break
    return lines[:limit][::-1]
