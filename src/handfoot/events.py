"""What happened: one small immutable type per kind of event, and the refusal pair.

``Game.apply`` returns the events an action caused, in order.  Every event is public to the
whole table: hidden cards are only ever counted (a draw says how many cards, never which).
Each type has a ``seat`` (-1 for the table itself: the upcard, the end of the game) and a
string ``name`` (a property, not a field) for logs and the wire.  They are named tuples because
the engine makes several per action and a tuple is the cheapest immutable value to build.
"""

from __future__ import annotations

from typing import NamedTuple

from .state import RoundEnd


class RoundDealt(NamedTuple):
    """A round was dealt; ``seat`` is the dealer."""

    seat: int
    round: int

    @property
    def name(self) -> str:
        return "deal"


class UpcardTurned(NamedTuple):
    seat: int  # -1
    card: int

    @property
    def name(self) -> str:
        return "upcard"


class UpcardRejected(NamedTuple):
    """A turned upcard the rules reject: buried in the stock, or covered by the next (2.5)."""

    seat: int  # -1
    card: int
    buried: bool

    @property
    def name(self) -> str:
        return "upcard_rejected"


class TurnBegan(NamedTuple):
    seat: int
    turn: int  # turns begun this round, this one included

    @property
    def name(self) -> str:
        return "turn"


class Drew(NamedTuple):
    seat: int
    drawn: int  # how many cards: 2, or 1 from a one-card stock

    @property
    def name(self) -> str:
        return "draw"


class StockEmptied(NamedTuple):
    """The seat drew the stock's last card (the round ends with this turn, 9.1)."""

    seat: int

    @property
    def name(self) -> str:
        return "stock_empty"


class RedThreesLaid(NamedTuple):
    seat: int
    laid: int

    @property
    def name(self) -> str:
        return "red_three"


class Replaced(NamedTuple):
    """Cards drawn from the stock to replace red threes just laid."""

    seat: int
    replaced: int

    @property
    def name(self) -> str:
        return "replace"


class PileTaken(NamedTuple):
    """The seat took the pile: ``top`` melds with a pair from the hand; ``taken`` counts the
    cards taken, the top card included (the rest reach the hand once the team has opened)."""

    seat: int
    top: int
    taken: int

    @property
    def name(self) -> str:
        return "take_pile"


class PileToHand(NamedTuple):
    """The cards under the taken top card go into the hand, seen by everyone."""

    seat: int
    cards: tuple[int, ...]

    @property
    def name(self) -> str:
        return "pile_to_hand"


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


class CanastaFinished(NamedTuple):
    seat: int
    slot: int
    kind: str  # clean, dirty, wild, or a rank kind such as 7s

    @property
    def name(self) -> str:
        return "canasta"


class PennySetAside(NamedTuple):
    """A card went from the stock face down beside a finished canasta (Pennies from Heaven)."""

    seat: int

    @property
    def name(self) -> str:
        return "penny"


class Opened(NamedTuple):
    """The seat's lay-down reached the opening minimum: the team has made its opening."""

    seat: int
    points: int

    @property
    def name(self) -> str:
        return "opening"


class PickedUp(NamedTuple):
    seat: int
    packet: str  # knee, foot, ...
    size: int

    @property
    def name(self) -> str:
        return "pick_up"


class Discarded(NamedTuple):
    seat: int
    card: int

    @property
    def name(self) -> str:
        return "discard"


class Knocked(NamedTuple):
    seat: int

    @property
    def name(self) -> str:
        return "knock"


class Retracted(NamedTuple):
    seat: int

    @property
    def name(self) -> str:
        return "retract"


class AskedToGoOut(NamedTuple):
    seat: int
    partner: int  # who answers

    @property
    def name(self) -> str:
        return "ask"


class Answered(NamedTuple):
    seat: int  # the partner who answered
    yes: bool

    @property
    def name(self) -> str:
        return "answer"


class Passed(NamedTuple):
    """With the stock empty, the seat did not (or could not) take the pile."""

    seat: int
    chose: bool  # False when the pile could not be taken at all

    @property
    def name(self) -> str:
        return "pass"


class WentOut(NamedTuple):
    seat: int

    @property
    def name(self) -> str:
        return "went_out"


class Reshuffled(NamedTuple):
    """The pile, all but its top card, was shuffled into a new stock (9.3): how many cards,
    never their order."""

    seat: int  # -1
    cards: int

    @property
    def name(self) -> str:
        return "reshuffle"


class FinalLap(NamedTuple):
    """The seat went out and every other player now has one more turn (8.7)."""

    seat: int

    @property
    def name(self) -> str:
        return "final_lap"


class SkippedDraw(NamedTuple):
    """The seat begins its turn in the packet a discard brought, without drawing (7.3)."""

    seat: int

    @property
    def name(self) -> str:
        return "no_draw"


class RoundEnded(NamedTuple):
    seat: int  # who went out, or -1
    how: RoundEnd
    scores: tuple[int, ...]  # each team's round score

    @property
    def name(self) -> str:
        return "round_end"


class GameEnded(NamedTuple):
    seat: int  # -1
    totals: tuple[int, ...]

    @property
    def name(self) -> str:
        return "game_end"


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
    """Plain JSON-friendly form: ``{"event": name, field: value, ...}`` (cards as kind numbers;
    callers that show cards turn them into tokens)."""
    out: dict[str, object] = {"event": event.name}
    for key, value in zip(event._fields, event, strict=True):
        out[key] = str(value) if isinstance(value, RoundEnd) else value
    return out


Refusal = tuple[str, str]  # (clause of docs/RULES.md, plain-words reason)
