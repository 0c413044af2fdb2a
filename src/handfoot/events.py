"""What happened: one small immutable type per kind of event, and the refusal.

``Game.apply`` returns the events an action caused, in order.  Every event is public to the
whole table: hidden cards are only ever counted (a draw says how many cards, never which).
Each type has a ``seat`` (-1 for the table itself: the upcard, the end of the game), a string
``name`` (a property, not a field) for logs and the wire, and ``wire()``, its own fields as
docs/PROTOCOL.md names them: each event says once how it travels.  They are named tuples because
the engine makes several per action and a tuple is the cheapest immutable value to build.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import KIND_TOKENS, format_cards, slot_token
from .state import RoundEnd


class RoundDealt(NamedTuple):
    """A round was dealt; ``seat`` is the dealer."""

    seat: int
    round: int

    @property
    def name(self) -> str:
        return "deal"

    def wire(self) -> dict[str, object]:
        return {"round": self.round}


class UpcardTurned(NamedTuple):
    seat: int  # -1
    card: int

    @property
    def name(self) -> str:
        return "upcard"

    def wire(self) -> dict[str, object]:
        return {"card": KIND_TOKENS[self.card]}


class UpcardRejected(NamedTuple):
    """A turned upcard the rules reject: buried in the stock, or covered by the next (2.5)."""

    seat: int  # -1
    card: int
    buried: bool

    @property
    def name(self) -> str:
        return "upcard_rejected"

    def wire(self) -> dict[str, object]:
        return {"card": KIND_TOKENS[self.card], "buried": self.buried}


class TurnBegan(NamedTuple):
    seat: int
    turn: int  # turns begun this round, this one included

    @property
    def name(self) -> str:
        return "turn"

    def wire(self) -> dict[str, object]:
        return {"turns": self.turn}


class Drew(NamedTuple):
    seat: int
    drawn: int  # how many cards: 2, or 1 from a one-card stock

    @property
    def name(self) -> str:
        return "draw"

    def wire(self) -> dict[str, object]:
        return {"count": self.drawn}


class StockEmptied(NamedTuple):
    """The seat drew the stock's last card (the round ends with this turn, 9.1)."""

    seat: int

    @property
    def name(self) -> str:
        return "stock_empty"

    def wire(self) -> dict[str, object]:
        return {}


class RedThreesLaid(NamedTuple):
    seat: int
    laid: int

    @property
    def name(self) -> str:
        return "red_three"

    def wire(self) -> dict[str, object]:
        return {"count": self.laid}


class Replaced(NamedTuple):
    """Cards drawn from the stock to replace red threes just laid."""

    seat: int
    replaced: int

    @property
    def name(self) -> str:
        return "replace"

    def wire(self) -> dict[str, object]:
        return {"count": self.replaced}


class PileTaken(NamedTuple):
    """The seat took the pile: ``top`` melds with a pair from the hand; ``taken`` counts the
    cards taken, the top card included (the rest reach the hand once the team has opened)."""

    seat: int
    top: int
    taken: int

    @property
    def name(self) -> str:
        return "take_pile"

    def wire(self) -> dict[str, object]:
        return {"card": KIND_TOKENS[self.top], "count": self.taken}


class PileToHand(NamedTuple):
    """The cards under the taken top card go into the hand, seen by everyone."""

    seat: int
    cards: tuple[int, ...]

    @property
    def name(self) -> str:
        return "pile_to_hand"

    def wire(self) -> dict[str, object]:
        return {"cards": format_cards(list(self.cards))}


class Melded(NamedTuple):
    """Cards from the seat's hand went onto the team's meld in ``slot``."""

    seat: int
    slot: int
    naturals: int
    twos: int
    jokers: int

    @property
    def name(self) -> str:
        return "meld"

    def wire(self) -> dict[str, object]:
        return {"meld": slot_token(self.slot), "naturals": self.naturals, "twos": self.twos,
                "jokers": self.jokers}


class CanastaFinished(NamedTuple):
    seat: int
    slot: int
    kind: str  # clean, dirty, wild, or a rank kind such as 7s

    @property
    def name(self) -> str:
        return "canasta"

    def wire(self) -> dict[str, object]:
        return {"meld": slot_token(self.slot), "kind": self.kind}


class PennySetAside(NamedTuple):
    """A card went from the stock face down beside a finished canasta (Pennies from Heaven)."""

    seat: int

    @property
    def name(self) -> str:
        return "penny"

    def wire(self) -> dict[str, object]:
        return {}


class Opened(NamedTuple):
    """The seat's lay-down reached the opening minimum: the team has made its opening."""

    seat: int
    points: int

    @property
    def name(self) -> str:
        return "opening"

    def wire(self) -> dict[str, object]:
        return {"points": self.points}


class PickedUp(NamedTuple):
    seat: int
    packet: str  # knee, foot, ...
    size: int

    @property
    def name(self) -> str:
        return "pick_up"

    def wire(self) -> dict[str, object]:
        return {"packet": self.packet, "count": self.size}


class Discarded(NamedTuple):
    seat: int
    card: int

    @property
    def name(self) -> str:
        return "discard"

    def wire(self) -> dict[str, object]:
        return {"card": KIND_TOKENS[self.card]}


class Knocked(NamedTuple):
    seat: int

    @property
    def name(self) -> str:
        return "knock"

    def wire(self) -> dict[str, object]:
        return {}


class Retracted(NamedTuple):
    seat: int

    @property
    def name(self) -> str:
        return "retract"

    def wire(self) -> dict[str, object]:
        return {}


class AskedToGoOut(NamedTuple):
    seat: int
    partner: int  # who answers

    @property
    def name(self) -> str:
        return "ask"

    def wire(self) -> dict[str, object]:
        return {"partner": self.partner}


class Answered(NamedTuple):
    seat: int  # the partner who answered
    yes: bool

    @property
    def name(self) -> str:
        return "answer"

    def wire(self) -> dict[str, object]:
        return {"yes": self.yes}


class Passed(NamedTuple):
    """With the stock empty, the seat did not (or could not) take the pile."""

    seat: int
    chose: bool  # False when the pile could not be taken at all

    @property
    def name(self) -> str:
        return "pass"

    def wire(self) -> dict[str, object]:
        return {"chose": self.chose}


class WentOut(NamedTuple):
    seat: int

    @property
    def name(self) -> str:
        return "went_out"

    def wire(self) -> dict[str, object]:
        return {}


class Reshuffled(NamedTuple):
    """The pile, all but its top card, was shuffled into a new stock (9.3): how many cards,
    never their order."""

    seat: int  # -1
    cards: int

    @property
    def name(self) -> str:
        return "reshuffle"

    def wire(self) -> dict[str, object]:
        return {"count": self.cards}


class FinalLap(NamedTuple):
    """The seat went out and every other player now has one more turn (8.7)."""

    seat: int

    @property
    def name(self) -> str:
        return "final_lap"

    def wire(self) -> dict[str, object]:
        return {}


class SkippedDraw(NamedTuple):
    """The seat begins its turn in the packet a discard brought, without drawing (7.3)."""

    seat: int

    @property
    def name(self) -> str:
        return "no_draw"

    def wire(self) -> dict[str, object]:
        return {}


class RoundEnded(NamedTuple):
    seat: int  # who went out, or -1
    how: RoundEnd
    scores: tuple[int, ...]  # each team's round score

    @property
    def name(self) -> str:
        return "round_end"

    def wire(self) -> dict[str, object]:
        return {"how": str(self.how), "scores": list(self.scores)}


class GameEnded(NamedTuple):
    seat: int  # -1
    totals: tuple[int, ...]

    @property
    def name(self) -> str:
        return "game_end"

    def wire(self) -> dict[str, object]:
        return {"totals": list(self.totals)}


Event = (
    RoundDealt | UpcardTurned | UpcardRejected | TurnBegan | Drew | StockEmptied | RedThreesLaid
    | Replaced | PileTaken | PileToHand | Melded | CanastaFinished | PennySetAside | Opened
    | PickedUp | Discarded | Knocked | Retracted | AskedToGoOut | Answered | Passed | WentOut
    | RoundEnded | GameEnded | Reshuffled | FinalLap | SkippedDraw
)

EVENT_TYPES: tuple[type[Event], ...] = (
    RoundDealt, UpcardTurned, UpcardRejected, TurnBegan, Drew, StockEmptied, RedThreesLaid,
    Replaced, PileTaken, PileToHand, Melded, CanastaFinished, PennySetAside, Opened, PickedUp,
    Discarded, Knocked, Retracted, AskedToGoOut, Answered, Passed, WentOut, RoundEnded,
    GameEnded, Reshuffled, FinalLap, SkippedDraw,
)


def event_to_mapping(event: Event) -> dict[str, object]:
    """The event as the web table sends it (docs/PROTOCOL.md, "Events"), without its words:
    ``{"name": ..., "seat": ..., field: value, ...}``, cards as tokens.

    >>> event_to_mapping(Discarded(seat=2, card=9))
    {'name': 'discard', 'seat': 2, 'card': 'K'}
    """
    return {"name": event.name, "seat": event.seat, **event.wire()}


class Refusal(NamedTuple):
    """Why an action is not allowed: the clause of docs/RULES.md it breaks and the reason in
    plain words.  Every check of the engine returns one or None.  A named tuple: as light to
    keep and compare as a pair, though building one costs a call, so the refusals the legal
    list's builder meets most are built once (legality.py).  A front end that refuses before
    the engine is asked (a move still on its way to a web table) leaves ``clause`` empty.

    >>> Refusal("4.1", "the pile is empty")
    Refusal(clause='4.1', reason='the pile is empty')
    """

    clause: str
    reason: str
