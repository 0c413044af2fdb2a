"""Action types and their text form.

Atomic actions (draw, take the pile, start a meld with three cards, add one card, discard, ...)
form a small fixed set, so bots and learning agents can mask them by index.  ``LayDown`` is the
compound form people use: several new melds and additions checked as a whole.  Every action's
``text`` parses back with :func:`parse_action`, and its ``repr`` rebuilds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import (
    BLACK_THREE,
    JOKER,
    KIND_TOKENS,
    NATURAL_RANKS,
    NUM_KINDS,
    NUM_SLOTS,
    TWO,
    WILD_SLOT,
    CardError,
    excerpt,
    parse_kind,
    parse_slot,
    slot_token,
)
from .errors import HandfootError


class ActionSyntaxError(HandfootError):
    """Text that does not spell an action."""


class _Rebuilds:
    """The repr of an action is the call that rebuilds it: ``parse_action('discard K')``."""

    __slots__ = ()

    @property
    def text(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"parse_action({self.text!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(_Rebuilds):
    """Draw two cards from the stock."""

    @property
    def text(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True, repr=False)
class Stop(_Rebuilds):
    """With the stock empty, decline to take the pile: the round ends."""

    @property
    def text(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True, repr=False)
class TakePile(_Rebuilds):
    """Take the pile, melding its top card with a pair from the hand.

    ``wild`` is -1 for a natural pair; under ``pile_pair = "meldable"`` it may name the wild
    kind (2 or joker) that partners one natural.
    """

    wild: int = -1

    @property
    def text(self) -> str:
        return "take-pile" if self.wild < 0 else f"take-pile with {KIND_TOKENS[self.wild]}"


@dataclass(frozen=True, slots=True, repr=False)
class TakeOnto(_Rebuilds):
    """Take the pile by adding its top card alone to the team's open meld of its rank
    (``pile_onto_meld``, rule 4.7)."""

    @property
    def text(self) -> str:
        return "take-pile onto meld"


@dataclass(frozen=True, slots=True, repr=False)
class PickUpPile(_Rebuilds):
    """Pick the pile up into the hand, where a card of it can be melded at once
    (``pile_any_card``, rule 4.8): the first meld that follows must use one of its cards."""

    @property
    def text(self) -> str:
        return "pick-up-pile"


@dataclass(frozen=True, slots=True, repr=False)
class BlackThreeBook(_Rebuilds):
    """Meld a book of black threes from the foot, a canasta's worth at once
    (``black_three_book``, rule 5.7)."""

    @property
    def text(self) -> str:
        return "book B3"


@dataclass(frozen=True, slots=True, repr=False)
class Start(_Rebuilds):
    """Start a new meld in ``slot`` (a rank, or the wild slot) with exactly three cards."""

    slot: int
    naturals: int
    twos: int
    jokers: int

    @property
    def text(self) -> str:
        return "meld " + _part_text(self.slot, self.naturals, self.twos, self.jokers)


@dataclass(frozen=True, slots=True, repr=False)
class Add(_Rebuilds):
    """Add one card of ``kind`` to the team's open meld in ``slot``."""

    slot: int
    kind: int

    @property
    def text(self) -> str:
        return f"add {slot_token(self.slot)}: {KIND_TOKENS[self.kind]}"


@dataclass(frozen=True, slots=True, repr=False)
class Discard(_Rebuilds):
    kind: int

    @property
    def text(self) -> str:
        return f"discard {KIND_TOKENS[self.kind]}"


@dataclass(frozen=True, slots=True, repr=False)
class Knock(_Rebuilds):
    """End the turn without a discard, after taking the pile where the rules say so."""

    @property
    def text(self) -> str:
        return "knock"


@dataclass(frozen=True, slots=True, repr=False)
class Retract(_Rebuilds):
    """Take back this turn's opening melds when they fall short of the minimum."""

    @property
    def text(self) -> str:
        return "retract"


@dataclass(frozen=True, slots=True, repr=False)
class Ask(_Rebuilds):
    """Ask a partner "may I go out?"."""

    @property
    def text(self) -> str:
        return "ask"


@dataclass(frozen=True, slots=True, repr=False)
class Answer(_Rebuilds):
    yes: bool

    @property
    def text(self) -> str:
        return "answer yes" if self.yes else "answer no"


@dataclass(frozen=True, slots=True, repr=False)
class Part(_Rebuilds):
    """One piece of a lay-down: cards for one meld slot (new or already open)."""

    def __repr__(self) -> str:
        return f"parse_part({self.text!r})"

    slot: int
    naturals: int
    twos: int
    jokers: int

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    @property
    def text(self) -> str:
        return _part_text(self.slot, self.naturals, self.twos, self.jokers)


@dataclass(frozen=True, slots=True, repr=False)
class LayDown(_Rebuilds):
    """Several new melds and additions at once, checked as a whole (the opening minimum)."""

    parts: tuple[Part, ...]

    @property
    def text(self) -> str:
        return "lay " + ", ".join(p.text for p in self.parts)


Action = (
    Draw | Stop | TakePile | Start | Add | Discard | Knock | Retract | Ask | Answer | LayDown
    | TakeOnto | PickUpPile | BlackThreeBook
)


def _part_text(slot: int, naturals: int, twos: int, jokers: int) -> str:
    cards = []
    if slot != WILD_SLOT:
        cards += [KIND_TOKENS[slot]] * naturals
    cards += ["2"] * twos + ["JK"] * jokers
    # Name the meld whenever the cards alone do not: wild cards only, for the wild meld or for
    # a rank's meld.
    prefix = "" if naturals else f"{slot_token(slot)}: "
    return prefix + " ".join(cards)


def parse_part(text: str) -> Part:
    """``K K K 2`` (slot from the naturals), ``wild: 2 2 JK`` or ``K: 2`` (slot named)."""
    head, sep, tail = text.partition(":")
    slot: int | None = None
    cards_text = text
    try:
        if sep:
            slot = parse_slot(head)
            cards_text = tail
        kinds = [parse_kind(t) for t in cards_text.split()]
    except CardError as err:
        raise ActionSyntaxError(str(err)) from None
    if not kinds:
        raise ActionSyntaxError(f"no cards in {excerpt(text.strip())}")
    naturals = [k for k in kinds if k in NATURAL_RANKS]
    others = [k for k in kinds if k not in NATURAL_RANKS and k not in (TWO, JOKER)]
    if others:
        raise ActionSyntaxError(f"{KIND_TOKENS[others[0]]} cannot be melded")
    ranks = set(naturals)
    if len(ranks) > 1:
        raise ActionSyntaxError(f"{excerpt(text.strip())} mixes ranks: one rank per meld")
    if slot is None:
        slot = ranks.pop() if ranks else WILD_SLOT
    elif ranks and ranks != {slot}:
        raise ActionSyntaxError(f"{excerpt(text.strip())}: cards do not match the named meld")
    if slot == WILD_SLOT and naturals:
        raise ActionSyntaxError("a wild meld holds only 2s and jokers")
    return Part(slot, len(naturals), kinds.count(TWO), kinds.count(JOKER))


def parse_action(text: str) -> Action:
    """Read the text form of an action (the inverse of ``action.text``).

    >>> parse_action("lay K K K 2, 4 4 4").text
    'lay K K K 2, 4 4 4'
    >>> parse_action("discard 10")
    parse_action('discard 10')
    """
    words = text.strip().split(maxsplit=1)
    if not words:
        raise ActionSyntaxError("empty action")
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    simple: dict[str, Action] = {
        "draw": Draw(), "stop": Stop(), "knock": Knock(), "retract": Retract(), "ask": Ask(),
        "pick-up-pile": PickUpPile(),
    }
    try:
        if verb in simple:
            if rest:
                raise ActionSyntaxError(f"{excerpt(verb)} takes nothing after it")
            return simple[verb]
        if verb == "take-pile":
            if not rest:
                return TakePile()
            if rest.lower().split() == ["onto", "meld"]:
                return TakeOnto()
            tokens = rest.split()
            if len(tokens) != 2 or tokens[0].lower() != "with":
                raise ActionSyntaxError("write 'take-pile', 'take-pile with 2|JK' or "
                                        "'take-pile onto meld'")
            wild = parse_kind(tokens[1])
            if wild not in (TWO, JOKER):
                raise ActionSyntaxError("take-pile with names a wild card: 2 or JK")
            return TakePile(wild)
        if verb == "answer":
            if rest.lower() in ("yes", "y"):
                return Answer(True)
            if rest.lower() in ("no", "n"):
                return Answer(False)
            raise ActionSyntaxError("write 'answer yes' or 'answer no'")
        if verb == "discard":
            kind = parse_kind(rest)
            return Discard(kind)
        if verb == "meld":
            part = parse_part(rest)
            return Start(part.slot, part.naturals, part.twos, part.jokers)
        if verb == "add":
            part = parse_part(rest)
            if part.size != 1:
                raise ActionSyntaxError("'add' places one card: write 'add K: 2'")
            kind = part.slot if part.naturals else (TWO if part.twos else JOKER)
            return Add(part.slot, kind)
        if verb == "book":
            if parse_kind(rest) != BLACK_THREE:
                raise ActionSyntaxError("a book of its own is made only of black threes: "
                                        "write 'book B3'")
            return BlackThreeBook()
        if verb == "lay":
            parts = tuple(parse_part(p) for p in rest.split(",") if p.strip())
            if not parts:
                raise ActionSyntaxError("'lay' needs at least one meld")
            return LayDown(parts)
    except CardError as err:
        raise ActionSyntaxError(str(err)) from None
    raise ActionSyntaxError(
        f"unknown action {excerpt(verb)}: draw, take-pile, pick-up-pile, meld, add, lay, book, "
        "discard, knock, retract, ask, answer, stop"
    )


# The canonical instances of the atomic actions, shared so the engine allocates none per step.
START_MAKEUPS = ((3, 0, 0), (2, 1, 0), (2, 0, 1), (1, 2, 0), (1, 1, 1), (1, 0, 2))
WILD_MAKEUPS = ((0, 3, 0), (0, 2, 1), (0, 1, 2), (0, 0, 3))
DRAW_CARDS, STOP, KNOCK, RETRACT, ASK = Draw(), Stop(), Knock(), Retract(), Ask()
TAKE_ONTO, PICK_UP, BOOK = TakeOnto(), PickUpPile(), BlackThreeBook()
TAKES = (TakePile(), TakePile(TWO), TakePile(JOKER))
ANSWERS = (Answer(True), Answer(False))
STARTS = {
    (slot, makeup): Start(slot, *makeup)
    for slot in range(NUM_SLOTS) for makeup in START_MAKEUPS + WILD_MAKEUPS
}
ADDS = {(slot, k): Add(slot, k) for slot in range(NUM_SLOTS) for k in (*NATURAL_RANKS, TWO, JOKER)}
DISCARDS = tuple(Discard(k) for k in range(NUM_KINDS))


def _build_atomic() -> tuple[Action, ...]:
    out: list[Action] = [DRAW_CARDS, STOP, *TAKES]
    out += [STARTS[(slot, m)] for slot in NATURAL_RANKS for m in START_MAKEUPS]
    out += [STARTS[(WILD_SLOT, m)] for m in WILD_MAKEUPS]
    for slot in NATURAL_RANKS:
        out += [ADDS[(slot, slot)], ADDS[(slot, TWO)], ADDS[(slot, JOKER)]]
    out += [ADDS[(WILD_SLOT, TWO)], ADDS[(WILD_SLOT, JOKER)]]
    out += list(DISCARDS)
    out += [KNOCK, RETRACT, ASK, *ANSWERS]
    # House rules of issue 21, after every older action so that existing indices never move.
    out += [TAKE_ONTO, PICK_UP, BOOK]
    return tuple(out)


# The meld steps of each slot, as the legal-action builder reads them: by slot, the step that
# adds a natural, a 2, a joker, and the starts as (naturals, 2s, jokers, start).
RANK_SLOTS = tuple(NATURAL_RANKS)
ADD_NATURAL: tuple[Add, ...] = tuple(ADDS[(s, s)] for s in NATURAL_RANKS)
ADD_TWO: tuple[Add, ...] = tuple(ADDS[(s, TWO)] for s in range(NUM_SLOTS))
ADD_JOKER: tuple[Add, ...] = tuple(ADDS[(s, JOKER)] for s in range(NUM_SLOTS))
STARTS_OF: tuple[tuple[tuple[int, int, int, Start], ...], ...] = tuple(
    tuple((*m, STARTS[(s, m)]) for m in (WILD_MAKEUPS if s == WILD_SLOT else START_MAKEUPS))
    for s in range(NUM_SLOTS)
)

# The fixed atomic action space: index <-> action, for masks and learning agents.
ATOMIC_ACTIONS: tuple[Action, ...] = _build_atomic()
ACTION_INDEX: dict[Action, int] = {a: i for i, a in enumerate(ATOMIC_ACTIONS)}
