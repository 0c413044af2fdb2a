"""What happened, and why an action was refused: the engine's two small record types."""

from __future__ import annotations

from typing import NamedTuple


class Event(NamedTuple):
    """Something that happened, public to the whole table (hidden cards are only counted)."""

    name: str
    seat: int
    detail: tuple[object, ...] = ()


Refusal = tuple[str, str]  # (clause of docs/RULES.md, plain-words reason)
