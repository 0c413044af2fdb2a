"""Events in words: one phrasing for the demo, replays and the terminal game.

``describe`` gives the phrase without its subject ("melds K: K K K", "picks up the foot (11
cards)"); callers put the seat or the player's name in front.  ``merge_melds`` joins the
one-card steps of a lay-down into one meld per slot, as a person would say it.
"""

from __future__ import annotations

from .cards import KIND_TOKENS, WILD_SLOT, slot_token
from .events import Event


def meld_text(slot: int, naturals: int, twos: int, jokers: int) -> str:
    cards = [KIND_TOKENS[slot]] * naturals if slot != WILD_SLOT else []
    return " ".join(cards + ["2"] * twos + ["JK"] * jokers)


def _card(value: object) -> str:
    return KIND_TOKENS[int(str(value))]


def describe(event: Event) -> str | None:
    """Words for one event, or None for bookkeeping events (turn, game end)."""
    d = event.detail
    name = event.name
    if name == "draw":
        return f"draws {d[0]}"
    if name == "red_three":
        return f"lays {d[0]} red three{'s' if d[0] != 1 else ''}"
    if name == "replace":
        return f"replaces {'it' if d[0] == 1 else 'them'} from the stock"
    if name == "take_pile":
        return f"takes the pile ({d[1]} cards, {_card(d[0])} on top)"
    if name == "pile_to_hand":
        return f"puts {len(d)} pile card{'s' if len(d) != 1 else ''} in hand"
    if name == "meld":
        slot = int(str(d[0]))
        return f"melds {slot_token(slot)}: " + meld_text(slot, *(int(str(x)) for x in d[1:]))
    if name == "canasta":
        slot, kind = int(str(d[0])), str(d[1])
        if slot == WILD_SLOT:
            return "completes a wild canasta"
        ranks = f"{slot_token(slot)}s"
        if kind == ranks:  # a rank canasta with its own bonus, such as 7s
            return f"completes a canasta of {ranks}"
        return f"completes a {kind} canasta of {ranks}"
    if name == "opening":
        # Fired when the minimum is reached, part way through a lay-down.
        return "makes the team's opening"
    if name == "pick_up":
        return f"picks up the {d[0]} ({d[1]} cards)"
    if name == "discard":
        return f"discards {_card(d[0])}"
    if name == "knock":
        return "knocks"
    if name == "retract":
        return "takes back a short opening"
    if name == "ask":
        return f"asks seat {d[0]} \"may I go out?\""
    if name == "answer":
        return f"answers {'yes' if d[0] else 'no'}"
    if name == "stock_empty":
        return "draws the stock's last card"
    if name == "went_out":
        return "GOES OUT"
    if name == "round_end":
        return f"round ends ({str(d[0]).replace('_', ' ')})"
    if name == "deal":
        return f"deals round {d[0]}"
    if name == "upcard":
        return f"upcard {_card(d[0])}"
    if name == "upcard_rejected":
        return f"upcard {_card(d[0])} rejected"
    return None


def merge_melds(events: list[Event]) -> list[Event]:
    out: list[Event] = []
    for e in events:
        if (e.name == "meld" and out and out[-1].name == "meld"
                and out[-1].detail[0] == e.detail[0] and out[-1].seat == e.seat):
            prev = out[-1].detail
            merged = (prev[0], *(int(str(a)) + int(str(b))
                                 for a, b in zip(prev[1:], e.detail[1:], strict=True)))
            out[-1] = Event("meld", e.seat, merged)
        else:
            out.append(e)
    return out
