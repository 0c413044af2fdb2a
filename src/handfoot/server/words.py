"""Events on the wire: each engine event as named fields and a line in words.

This is the server's one contact with the engine's event type, so a change there (typed
events) is a change here only.  Every event the engine reports is public: hidden cards are
only ever counted in it.
"""

from __future__ import annotations

from typing import Any

from handfoot.cards import KIND_TOKENS, NUM_KINDS, format_cards, slot_token
from handfoot.events import Event
from handfoot.narrate import describe


def _int(value: object) -> int:
    return int(str(value))


def _card(value: object) -> str:
    return KIND_TOKENS[_int(value)]


def event_fields(event: Event) -> dict[str, Any]:
    """The event's own fields, named as docs/PROTOCOL.md lists them."""
    d = event.detail
    name = event.name
    if name == "deal":
        return {"round": _int(d[0])}
    if name in ("upcard", "upcard_rejected", "discard"):
        return {"card": _card(d[0])}
    if name == "turn":
        return {"turns": _int(d[0])}
    if name in ("draw", "red_three", "replace"):
        return {"count": _int(d[0])}
    if name == "take_pile":
        return {"card": _card(d[0]), "count": _int(d[1])}
    if name == "pile_to_hand":
        return {"cards": format_cards([_int(k) for k in d])}
    if name == "meld":
        return {"meld": slot_token(_int(d[0])), "naturals": _int(d[1]), "twos": _int(d[2]),
                "jokers": _int(d[3])}
    if name == "canasta":
        return {"meld": slot_token(_int(d[0])), "kind": str(d[1])}
    if name == "opening":
        return {"points": _int(d[0])}
    if name == "pick_up":
        return {"packet": str(d[0]), "count": _int(d[1])}
    if name == "ask":
        return {"partner": _int(d[0])}
    if name == "answer":
        return {"yes": bool(d[0])}
    if name == "round_end":
        totals = d[1] if isinstance(d[1], tuple | list) else ()
        return {"how": str(d[0]), "totals": [_int(t) for t in totals]}
    if name == "game_end":
        return {"totals": [_int(t) for t in d]}
    return {}


def event_text(event: Event, names: list[str]) -> str | None:
    """The event in words with the seat's name in front, or None for bookkeeping events."""
    if event.name in ("turn", "game_end"):
        return "game over" if event.name == "game_end" else None
    phrase = describe(event)
    if phrase is None:
        return None
    if event.name == "deal":
        return f"— {names[event.seat]} deals round {event.detail[0]}"
    if event.name == "draw":  # "draws 2" could be read as drawing a two
        n = _int(event.detail[0])
        return f"{names[event.seat]} draws {n} card{'s' if n != 1 else ''}"
    if event.name == "round_end":
        fields = event_fields(event)
        totals = ", ".join(str(t) for t in fields["totals"])
        return f"{phrase}: {totals}"
    if event.name == "ask":
        return f"{names[event.seat]} asks {names[_int(event.detail[0])]}: may I go out?"
    if 0 <= event.seat < len(names):
        return f"{names[event.seat]} {phrase}"
    return phrase


def event_mapping(event: Event, names: list[str]) -> dict[str, Any]:
    return {"name": event.name, "seat": event.seat, "text": event_text(event, names) or "",
            **event_fields(event)}


def drawn_line(name: str, before: tuple[int, ...], after: tuple[int, ...], count: int) -> str:
    """The drawer's own line: the cards that came into the hand (red threes laid at once are
    not among them)."""
    new = [k for k in range(NUM_KINDS) for _ in range(max(0, after[k] - before[k]))]
    if not new:
        return f"{name} draws {count} card{'s' if count != 1 else ''}"
    return f"{name} draws {format_cards(new)}"
