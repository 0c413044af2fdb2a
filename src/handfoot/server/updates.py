"""Updates as clients read them: one applied action (or undo) with its events, kept for
reconnecting clients and the log, its words made for each reader.

An event on the wire is its own wire form (``Event.wire()``, named as docs/PROTOCOL.md names
them) with a line in words.  Every event the engine reports is public: hidden cards are only
ever counted in it.  The words are the engine's own (``handfoot.narrate.describe``), in the
second person for the seat they go to ("You draw 2 cards")."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from handfoot.events import Drew, Event
from handfoot.narrate import describe, drawn_text, merge_melds

from .protocol import CatchUpEntry

Lines = tuple[str, ...]


@dataclass(slots=True)
class Entry:
    """One update as clients read it, kept for reconnecting clients and the log.

    A server keeps a few hundred of these per table, so they hold no containers Python's
    collector must walk again and again: the events as the JSON text every client receives
    (written once, not once per client) and the words as tuples of strings, one per seat and
    one for spectators (``lines[-1]``), the same tuple wherever the words are the same."""

    version: int
    seat: int
    by: str
    action: str
    events: str  # the wire form as JSON text, the same for everyone
    lines: tuple[Lines, ...]

    def log(self, reader: int | None) -> list[str]:
        return list(self.lines[-1 if reader is None else reader])

    def public(self, reader: int | None) -> CatchUpEntry:
        return {"version": self.version, "seat": self.seat, "by": self.by,
                "action": self.action, "events": json.loads(self.events),
                "log": self.log(reader)}


def event_mapping(event: Event, names: list[str]) -> dict[str, Any]:
    """The event on the wire, for everyone: its text names every seat in the third person."""
    return {"name": event.name, "seat": event.seat, "text": describe(event, names) or "",
            **event.wire()}


BOT_FOR_YOU = "Bot (for you)"


Hands = tuple[tuple[int, ...], tuple[int, ...]]  # the drawer's hand before and after a draw


def words(raw: list[Event], names: list[str], hands: Hands | None = None,
          for_you: int | None = None) -> tuple[Lines, ...]:
    """The events in each seat's words (its own seat in the second person; the drawer's own
    copy naming the cards drawn, given its ``hands``), then in a spectator's. A lay-down's
    steps on one meld read as one line ("You meld 6: 6 6 JK").  ``for_you``: the seat a bot
    played for its gone person, whose own words name the bot ("Bot (for you) draws 2
    cards")."""
    raw = merge_melds(raw)
    public = tuple(line for e in raw if (line := describe(e, names)))
    out = []
    for reader in range(len(names)):
        mine = []
        if reader == for_you:
            bot_names = [BOT_FOR_YOU if s == reader else n for s, n in enumerate(names)]
        for e in raw:
            if hands is not None and isinstance(e, Drew) and e.seat == reader:
                mine.append(drawn_text(e, *hands, bot_names, -1) if reader == for_you
                            else drawn_text(e, *hands, names, reader))
            elif reader == for_you:
                if line := describe(e, bot_names):
                    mine.append(line)
            elif line := describe(e, names, reader):
                mine.append(line)
        lines = tuple(mine)
        out.append(public if lines == public else lines)
    out.append(public)
    return tuple(out)


def undo_words(seat: int, steps: int, names: list[str]) -> tuple[Lines, ...]:
    what = "a step" if steps == 1 else f"{steps} steps"
    public = (f"{names[seat]} takes back {what}",)
    return (*(((f"You take back {what}",) if s == seat else public) for s in range(len(names))),
            public)


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
