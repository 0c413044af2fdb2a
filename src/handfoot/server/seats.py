"""A table's seats: who sits there, who drives it now, and the text people type."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Protocol

from handfoot.bots.base import Bot

from . import protocol as p
from .drivers import BotError, check_level

PERSON, BOT, OPEN = "person", "bot", "open"


class Client(Protocol):
    """A connection as a table sees it (connection.py)."""

    seat: int | None
    host: bool

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass(slots=True)
class Seat:
    index: int
    team: int
    name: str
    token_hash: str | None  # set: a person's seat
    level: str  # the bot that plays it when no person does
    client: Client | None = None
    driver: str = PERSON
    hold_left: float = 0.0
    hold_since: float | None = None  # when the running hold began counting
    hand_back: bool = False  # the person is back; the bot hands over at the next turn
    bot: Bot | None = None

    @property
    def person(self) -> bool:
        return self.token_hash is not None


def clean_text(text: str, limit: int) -> str:
    """Text from a person with control and format characters removed, spaces trimmed and
    runs of spaces joined, at most ``limit`` characters."""
    kept = "".join(ch if not unicodedata.category(ch).startswith("C") else " " for ch in text)
    return " ".join(kept.split())[:limit]


def bot_levels(spec: str | list[str], seats: int,
               reply_to: str | int | None = None) -> list[str]:
    levels = [spec] if isinstance(spec, str) else list(spec)
    if len(levels) == 1:
        levels = levels * seats
    if len(levels) != seats:
        raise p.ProtocolError("bad_message", f"bots: {seats} seats need one level or "
                              f"{seats}, not {len(levels)}", reply_to)
    try:
        return [check_level(level) for level in levels]
    except BotError as err:
        raise p.ProtocolError("bad_message", f"bots: {err}", reply_to) from None
