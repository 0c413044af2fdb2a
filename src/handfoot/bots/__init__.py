"""Players that choose actions from a seat's view and the engine's legal actions.

A bot sees only ``handfoot.views.SeatView`` and the list the engine gives it; it never judges
legality itself.  ``make_bot(name, seed)`` builds one by name; each bot owns its random
generator, so a game with the same seeds plays the same way.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

from .base import Bot, BotError
from .basic import BasicBot
from .heuristic import HeuristicBot
from .levels import LEVELS, ExpertBot, StrongBot
from .oracle import OracleBot
from .policy import PolicyBot
from .random_bot import RandomBot
from .search import SearchBot

# The levels named for people come first (weakest first, one line each in ``LEVELS``), then
# the bots under their older names, which keep working.
BOTS: dict[str, Callable[..., Bot]] = {
    "beginner": BasicBot,
    "casual": HeuristicBot,
    "strong": StrongBot,
    "expert": ExpertBot,
    "random": RandomBot,
    "basic": BasicBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}

# Bots for analysis only: they see every card, so they play in the arena and simulations, never
# at a table.
ANALYSIS_BOTS: dict[str, Callable[..., Bot]] = {
    "oracle": OracleBot,
}

# Bots that play a trained model (policy: the shipped one; policy:path=FILE): outside the ladder.
MODEL_BOTS: dict[str, Callable[..., Bot]] = {
    "policy": PolicyBot,
}

# Options whose values are text, not numbers.
TEXT_OPTIONS = frozenset({"path"})


# The bots' numeric options, with the range that makes sense: below it a bot cannot play (no
# worlds to search), above it a single decision runs for minutes or hours.
OPTION_LIMITS: dict[str, tuple[float, float]] = {
    "worlds": (1, 4096),
    "ms": (0, 60_000),
    "width": (1, 64),
    "settle": (0, 4096),
    "reply": (0, 16),
    "variants": (0, 127),
    "spread": (0, 100_000),
    "margin": (-100_000, 100_000),
    "win": (0, 1),
    "answer_reply": (0, 1),
    "net_replies": (0, 1),
    "netplans": (0, 3),
}


def make_bot(spec: str, seed: int = 0, analysis: bool = False, **options: Any) -> Bot:
    """A bot from a name such as ``heuristic``, ``search:ms=50`` or ``policy:path=model.zip``
    (options after a colon: numbers, but text for ``path``); ``analysis`` also allows the bots
    that see every card (the arena and simulations)."""
    name, _, rest = spec.partition(":")
    known = BOTS | MODEL_BOTS | (ANALYSIS_BOTS if analysis else {})
    if name in ANALYSIS_BOTS and not analysis:
        raise BotError(f"bot {name!r} sees every card: it plays only in the arena and "
                       f"simulations, never at a table")
    if name not in known:
        raise BotError(f"unknown bot {name!r}; known: {', '.join(known)}")
    opts = dict(options)
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise BotError(f"bot option {item!r}: write key=value")
        if key in TEXT_OPTIONS:
            opts[key] = value
            continue
        number = _number(key, value)
        low, high = OPTION_LIMITS.get(key, (-math.inf, math.inf))
        if not low <= number <= high:  # also refuses nan
            raise BotError(f"bot option {key!r}: {value} is out of range; it goes from "
                           f"{low:g} to {high:g}")
        opts[key] = number
    accepted = [p for p in inspect.signature(known[name]).parameters if p != "seed"]
    for key in opts:
        if key not in accepted and "options" not in accepted:
            listed = ", ".join(accepted) if accepted else "none"
            raise BotError(f"bot {name!r} has no option {key!r} (its options: {listed})")
    try:
        return known[name](seed=seed, **opts)
    except TypeError as err:
        raise BotError(f"bot {name!r}: {err}") from None


def _number(key: str, text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise BotError(f"bot option {key!r}: {text!r} is not a number") from None


def is_bot(spec: str) -> bool:
    """Whether ``spec`` names a bot that may sit at a table (seat names in records often do
    not: "North", "you")."""
    try:
        make_bot(spec)
    except BotError:
        return False
    return True


def describe(name: str) -> str:
    """One line about a bot level, for menus (``beginner: plays the obvious move...``)."""
    return f"{name}: {LEVELS[name]}" if name in LEVELS else name


__all__ = ["ANALYSIS_BOTS", "BOTS", "LEVELS", "MODEL_BOTS", "BasicBot", "Bot", "BotError",
           "ExpertBot", "HeuristicBot", "OracleBot", "PolicyBot", "RandomBot", "SearchBot",
           "StrongBot", "describe", "is_bot", "make_bot"]
