"""The table in words: seat names, and one line per event for the running log."""

from __future__ import annotations

from ..cards import KIND_TOKENS, NUM_KINDS, format_cards, slot_token
from ..engine import Event
from ..narrate import meld_text
from ..rules import Rules

YOU = "You"


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


def _int(x: object) -> int:
    return int(str(x))


def describe(event: Event, names: list[str], rules: Rules) -> str | None:
    """A log line for one event, or None for events that need no line."""
    d = event.detail
    who = names[event.seat] if 0 <= event.seat < len(names) else ""
    name = event.name
    if name == "deal":
        return f"— round {d[0]}: {who} deals"
    if name == "turn":
        return None
    if name == "draw":
        n = _int(d[0])
        return _says(who, "draws", "draw") + f" {n} card{'s' if n != 1 else ''}"
    if name == "red_three":
        n = _int(d[0])
        return _says(who, "lays", "lay") + f" {n} red three{'s' if n != 1 else ''}"
    if name == "replace":
        return _says(who, "replaces", "replace") + " it from the stock"
    if name == "upcard":
        return f"upcard {KIND_TOKENS[_int(d[0])]}"
    if name == "upcard_rejected":
        where = "is buried in the stock" if rules.upcard_rejected == "bury" else "is covered"
        return f"upcard {KIND_TOKENS[_int(d[0])]} {where}"
    if name == "take_pile":
        n = _int(d[1])
        return _says(who, "takes", "take") + \
            f" the pile: {n} card{'s' if n != 1 else ''}, {KIND_TOKENS[_int(d[0])]} on top"
    if name == "pile_to_hand":
        goes = "pile cards go" if len(d) != 1 else "pile card goes"
        return f"{len(d)} {goes} to {'your' if who == YOU else who + '’s'} hand"
    if name == "meld":
        slot = _int(d[0])
        return _says(who, "melds", "meld") + \
            f" {slot_token(slot)}: {meld_text(slot, *(_int(x) for x in d[1:]))}"
    if name == "canasta":
        return f"★ {who}: {d[1]} canasta of {slot_token(_int(d[0]))}"
    if name == "opening":
        return _says(who, "opens", "open") + f" with {d[0]} points"
    if name == "pick_up":
        return _says(who, "picks", "pick") + f" up the {d[0]} ({d[1]} cards)"
    if name == "discard":
        return _says(who, "discards", "discard") + f" {KIND_TOKENS[_int(d[0])]}"
    if name == "knock":
        return _says(who, "knocks", "knock")
    if name == "retract":
        return _says(who, "takes", "take") + " back a short opening"
    if name == "ask":
        target = names[_int(d[0])]
        return _says(who, "asks", "ask") + f" {target}: may I go out?"
    if name == "answer":
        return _says(who, "answers", "answer") + (" yes" if d[0] else " no")
    if name == "stock_empty":
        return "the stock is empty"
    if name == "went_out":
        return "★ " + _says(who, "goes", "go") + " out!"
    if name == "round_end":
        return f"round over ({str(d[0]).replace('_', ' ')})"
    if name == "game_end":
        return "game over"
    return None


def drawn_text(before: tuple[int, ...], after: tuple[int, ...], event: Event,
               names: list[str]) -> str:
    """The person's own draw, naming the cards (red threes laid at once are not among them)."""
    new = [k for k in range(NUM_KINDS) for _ in range(max(0, after[k] - before[k]))]
    if not new:
        return _says(names[event.seat], "draws", "draw") + f" {event.detail[0]} cards"
    return _says(names[event.seat], "draws", "draw") + f" {format_cards(new)}"
