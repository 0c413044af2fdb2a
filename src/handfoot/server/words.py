"""Events on the wire: each engine event as named fields (docs/PROTOCOL.md) and a line in words.

This is the server's one contact with the engine's event types, so a change there is a change
here only.  Every event the engine reports is public: hidden cards are only ever counted in it.
The words are the engine's own (``handfoot.narrate.describe``), in the second person for the
seat a message goes to ("You draw 2 cards").
"""

from __future__ import annotations

from typing import Any

from handfoot.cards import KIND_TOKENS, NUM_KINDS, format_cards, slot_token
from handfoot.events import (
    Answered,
    AskedToGoOut,
    CanastaFinished,
    Discarded,
    Drew,
    Event,
    GameEnded,
    Melded,
    Opened,
    Passed,
    PickedUp,
    PileTaken,
    PileToHand,
    RedThreesLaid,
    Replaced,
    RoundDealt,
    RoundEnded,
    TurnBegan,
    UpcardRejected,
    UpcardTurned,
)
from handfoot.narrate import YOU, describe


def event_fields(e: Event) -> dict[str, Any]:
    """The event's own fields, named as docs/PROTOCOL.md lists them."""
    if isinstance(e, RoundDealt):
        return {"round": e.round}
    if isinstance(e, UpcardTurned | Discarded):
        return {"card": KIND_TOKENS[e.card]}
    if isinstance(e, UpcardRejected):
        return {"card": KIND_TOKENS[e.card], "buried": e.buried}
    if isinstance(e, TurnBegan):
        return {"turns": e.turn}
    if isinstance(e, Drew):
        return {"count": e.drawn}
    if isinstance(e, RedThreesLaid):
        return {"count": e.laid}
    if isinstance(e, Replaced):
        return {"count": e.replaced}
    if isinstance(e, PileTaken):
        return {"card": KIND_TOKENS[e.top], "count": e.taken}
    if isinstance(e, PileToHand):
        return {"cards": format_cards(list(e.cards))}
    if isinstance(e, Melded):
        return {"meld": slot_token(e.slot), "naturals": e.naturals, "twos": e.twos,
                "jokers": e.jokers}
    if isinstance(e, CanastaFinished):
        return {"meld": slot_token(e.slot), "kind": e.kind}
    if isinstance(e, Opened):
        return {"points": e.points}
    if isinstance(e, PickedUp):
        return {"packet": e.packet, "count": e.size}
    if isinstance(e, AskedToGoOut):
        return {"partner": e.partner}
    if isinstance(e, Answered):
        return {"yes": e.yes}
    if isinstance(e, Passed):
        return {"chose": e.chose}
    if isinstance(e, RoundEnded):
        return {"how": str(e.how), "scores": list(e.scores)}
    if isinstance(e, GameEnded):
        return {"totals": list(e.totals)}
    return {}  # stock_empty, penny, knock, retract, went_out: the name says it all


def event_text(event: Event, names: list[str], you: int = -1) -> str | None:
    """The event in words (the seat ``you`` in the second person), or None for bookkeeping."""
    return describe(event, names, you)


def event_mapping(event: Event, names: list[str]) -> dict[str, Any]:
    """The event for everyone: its text names every seat in the third person."""
    return {"name": event.name, "seat": event.seat, "text": event_text(event, names) or "",
            **event_fields(event)}


def lines_for(events: list[Event], names: list[str], you: int = -1) -> list[str]:
    return [line for e in events if (line := event_text(e, names, you))]


def drawn_line(before: tuple[int, ...], after: tuple[int, ...], count: int,
               who: str = YOU) -> str:
    """The drawer's own line: the cards that came into the hand (red threes laid at once are
    not among them).  ``who``: the drawer's name when not "You" (a bot playing the seat)."""
    new = [k for k in range(NUM_KINDS) for _ in range(max(0, after[k] - before[k]))]
    verb = "draw" if who == YOU else "draws"
    if not new:
        return f"{who} {verb} {count} card{'s' if count != 1 else ''}"
    return f"{who} {verb} {format_cards(new)}"
