"""Events in words: the one phrasing for the demo, replays, the terminal game and the web table.

``describe(event, names, you)`` gives one line: the acting seat by its name (``names[seat]``,
or "seat 2"), in the second person for the seat ``you`` ("You draw 2 cards"), or without its
subject (``subject=False``) for callers that already said who is acting.  ``merge_melds``
joins the one-card steps of a lay-down into one meld per slot, as a person would say it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import BLACK_THREE, KIND_TOKENS, NUM_KINDS, WILD_SLOT, format_cards, plural, slot_token
from .events import (
    Answered,
    AskedToGoOut,
    CanastaFinished,
    Discarded,
    Drew,
    Event,
    FinalLap,
    GameEnded,
    Knocked,
    Melded,
    Opened,
    Passed,
    PennySetAside,
    PickedUp,
    PileTaken,
    PileToHand,
    RedThreesLaid,
    Replaced,
    Reshuffled,
    Retracted,
    RoundDealt,
    RoundEnded,
    SkippedDraw,
    StockEmptied,
    TurnBegan,
    UpcardRejected,
    UpcardTurned,
    WentOut,
)
from .rules import Rules
from .scoring import RoundResult
from .state import RoundEnd

YOU = "You"

# The verbs of describe() in the second person.
_SECOND = {
    "deals": "deal", "draws": "draw", "lays": "lay", "replaces": "replace", "takes": "take",
    "puts": "put", "melds": "meld", "completes": "complete", "sets": "set", "opens": "open",
    "picks up": "pick up", "discards": "discard", "knocks": "knock", "takes back": "take back",
    "asks": "ask", "answers": "answer", "passes": "pass", "cannot take the pile":
    "cannot take the pile", "goes out": "go out", "plays": "play",
}


def meld_text(slot: int, naturals: int, twos: int, jokers: int) -> str:
    cards = [KIND_TOKENS[slot]] * naturals if slot != WILD_SLOT else []
    return " ".join(cards + ["2"] * twos + ["JK"] * jokers)


def seat_name(seat: int, names: Sequence[str] | None = None, you: int = -1) -> str:
    if seat == you:
        return YOU
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"seat {seat}"


def drawn_text(event: Drew, before: Sequence[int], after: Sequence[int],
               names: Sequence[str] | None = None, you: int = -1) -> str:
    """The drawer's own line for a draw, naming the cards that came into the hand between
    ``before`` and ``after`` (counts per kind); red threes laid at once are not among them, so a
    draw of only red threes is told by its count, as everyone else reads it.  ``names`` and
    ``you`` as for :func:`describe`.

    >>> from handfoot.cards import KING
    >>> hand = [0] * NUM_KINDS
    >>> drew = [0] * NUM_KINDS
    >>> drew[KING] = 2
    >>> drawn_text(Drew(seat=1, drawn=2), hand, drew, ["Ann", "Bob"], you=1)
    'You draw K K'
    >>> drawn_text(Drew(seat=1, drawn=2), hand, hand, ["Ann", "Bob"])
    'Bob draws 2 cards'
    """
    new = [k for k in range(NUM_KINDS) for _ in range(max(0, after[k] - before[k]))]
    what = format_cards(new) if new else plural(event.drawn, "card")
    verb = "draw" if event.seat == you and you >= 0 else "draws"
    return f"{seat_name(event.seat, names, you)} {verb} {what}"


# Events the log does not mention: bookkeeping that another event already tells.
UNSPOKEN = frozenset({"turn"})


def describe(event: Event, names: Sequence[str] | None = None, you: int = -1,
             subject: bool = True) -> str | None:
    """One line for an event, or None for bookkeeping events (a turn beginning).

    ``names``: what to call each seat (default "seat N"); ``you``: the seat addressed as
    "You", whose verbs take the second person; ``subject=False``: leave out who acted (the
    verb stays in the third person).

    >>> from handfoot.events import Discarded, Drew
    >>> describe(Drew(seat=1, drawn=2), ["Ann", "Bob"], you=1)
    'You draw 2 cards'
    >>> describe(Discarded(seat=0, card=9), ["Ann", "Bob"], you=1)
    'Ann discards K'
    """
    second = event.seat == you and you >= 0 and subject
    who = seat_name(event.seat, names, you)

    def says(third: str, rest: str = "") -> str:
        if not subject:
            return f"{third}{rest}"
        return f"{who} {_SECOND.get(third, third) if second else third}{rest}"

    def yours() -> str:
        return "your" if second else "their"

    e = event
    if isinstance(e, TurnBegan):
        return None
    if isinstance(e, RoundDealt):
        return says("deals", f" round {e.round}")
    if isinstance(e, UpcardTurned):
        return f"upcard {KIND_TOKENS[e.card]}"
    if isinstance(e, UpcardRejected):
        where = "buried in the stock" if e.buried else "covered by the next card"
        return f"upcard {KIND_TOKENS[e.card]} rejected: {where}"
    if isinstance(e, Drew):
        return says("draws", f" {plural(e.drawn, 'card')}")
    if isinstance(e, StockEmptied):
        return "the stock is empty now"
    if isinstance(e, RedThreesLaid):
        return says("lays", f" {plural(e.laid, 'red three')}")
    if isinstance(e, Replaced):
        return says("replaces", f" {'it' if e.replaced == 1 else 'them'} from the stock")
    if isinstance(e, PileTaken):
        return says("takes", f" the pile: {plural(e.taken, 'card')}, "
                    f"{KIND_TOKENS[e.top]} on top")
    if isinstance(e, PileToHand):
        return says("puts", f" {plural(len(e.cards), 'pile card')} in {yours()} hand")
    if isinstance(e, Melded):
        return says("melds", f" {slot_token(e.slot)}: "
                    f"{meld_text(e.slot, e.naturals, e.twos, e.jokers)}")
    if isinstance(e, CanastaFinished):
        return says("completes", f" {canasta_words(e.slot, e.kind)}")
    if isinstance(e, PennySetAside):
        return says("sets", " a penny aside from the stock")
    if isinstance(e, Opened):
        return says("opens", f" with {e.points} points")
    if isinstance(e, PickedUp):
        return says("picks up", f" {yours()} {e.packet} ({plural(e.size, 'card')})")
    if isinstance(e, Discarded):
        return says("discards", f" {KIND_TOKENS[e.card]}")
    if isinstance(e, Knocked):
        return says("knocks")
    if isinstance(e, Retracted):
        return says("takes back", " a short opening")
    if isinstance(e, AskedToGoOut):
        partner = seat_name(e.partner, names, you)
        return says("asks", f" {partner}: \"may I go out?\"")
    if isinstance(e, Answered):
        return says("answers", " yes" if e.yes else " no")
    if isinstance(e, Passed):
        return says("passes") if e.chose else says("cannot take the pile", " and passes")
    if isinstance(e, WentOut):
        return says("goes out") + "!"
    if isinstance(e, Reshuffled):
        return f"the pile is shuffled into a new stock ({plural(e.cards, 'card')})"
    if isinstance(e, FinalLap):
        return "final lap: every other player has one more turn"
    if isinstance(e, SkippedDraw):
        return says("plays", f" from {yours()} new packet without drawing")
    if isinstance(e, RoundEnded):
        return "round over: " + ending_words(e.how, e.seat, names, you)
    if isinstance(e, GameEnded):
        return "game over"
    return None


def canasta_words(slot: int, kind: str) -> str:
    """``a clean canasta of Ks``, ``a canasta of 7s``, ``a wild canasta``."""
    if slot == WILD_SLOT:
        return "a wild canasta"
    if slot == BLACK_THREE:
        return "a book of black threes"
    ranks = f"{slot_token(slot)}s"
    if kind == ranks:  # a rank canasta with its own bonus, such as 7s
        return f"a canasta of {ranks}"
    return f"a {kind} canasta of {ranks}"


def ending_words(how: RoundEnd, went_out: int, names: Sequence[str] | None = None,
                 you: int = -1) -> str:
    """How a round ended, in words: "Partner 2 went out", "the stock ran out"."""
    if how is RoundEnd.WENT_OUT:
        return f"{seat_name(went_out, names, you)} went out"
    if how is RoundEnd.STOCK_OUT:
        return "the stock ran out"
    return "the turn cap was reached"


def merge_melds(events: Sequence[Event]) -> list[Event]:
    """Consecutive melds of one seat on one slot, as one meld."""
    out: list[Event] = []
    for e in events:
        last = out[-1] if out else None
        if (isinstance(e, Melded) and isinstance(last, Melded) and last.slot == e.slot
                and last.seat == e.seat):
            out[-1] = Melded(e.seat, e.slot, last.naturals + e.naturals, last.twos + e.twos,
                             last.jokers + e.jokers)
        else:
            out.append(e)
    return out


def result_lines(rules: Rules, result: RoundResult, names: Sequence[str] | None = None,
                 you: int = -1, indent: str = "  ") -> list[str]:
    """A finished round as a score sheet would read it: how it ended, then each team's
    lines and its round score.  ``names``/``you`` as in :func:`describe`."""
    how = ending_words(result.ended_by, result.went_out, names, you)
    lines = [f"round {result.round} over: {how}, after {plural(result.turns, 'turn')}"]
    for team, score in enumerate(result.teams):
        seats = ", ".join(seat_name(s, names, you) for s in rules.seats_of(team))
        lines.append(f"{indent}team {team} ({seats})")
        for line in score.lines:
            what, count = line.counted()  # the points are for all of them together
            cell = f"{count} = {line.points:,}" if count else f"{line.points:,}"
            lines.append(f"{indent}  {what:<28} {cell:>12}")
        lines.append(f"{indent}  {'round score':<28} {score.total:>12,}")
    return lines
