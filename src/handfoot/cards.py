"""Card kinds, their text form, and the shoe.

The rules never look at suits, only at the kind of a card, so the core keeps every packet as a
list of counts indexed by kind.  Suits exist for display; a physical card id maps to both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import HandfootError

# Kind indices.  0..10 are the meldable ranks 4..A; they double as meld slots.
FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(11)
TWO = 11
JOKER = 12
RED_THREE = 13
BLACK_THREE = 14
NUM_KINDS = 15
NATURAL_RANKS = range(11)
WILD_KINDS = (TWO, JOKER)
# The team's meld of wild cards only sits in slot 11, after the eleven rank slots.
WILD_SLOT = 11
NUM_SLOTS = 12

KIND_TOKENS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK", "R3", "B3")
KIND_NAMES = (
    "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace", "2", "joker",
    "red three", "black three",
)
_ALIASES = {"JOKER": JOKER, "T": TEN, "JACK": JACK, "QUEEN": QUEEN, "KING": KING, "ACE": ACE,
            "RED3": RED_THREE, "BLACK3": BLACK_THREE, "W": JOKER}
_TOKEN_TO_KIND = {t: i for i, t in enumerate(KIND_TOKENS)} | _ALIASES

# Display only: the suit of a physical card.  Threes keep their colour.
SUITS = ("♣", "♦", "♥", "♠")
CARDS_PER_DECK = 54


class CardError(HandfootError):
    """A card token that names no card kind."""


def plural(n: int, noun: str) -> str:
    """``1 deck``, ``2 decks``: a count in words that read right."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


# Quoted text typed or sent by a person is cut to this many characters: an error line that
# echoes a million-character "action" whole is no longer one line.
EXCERPT = 40


def excerpt(text: str) -> str:
    """``text`` quoted as ``repr`` does, cut short when it is long (and its length said)."""
    if len(text) <= EXCERPT:
        return repr(text)
    return f"{text[:EXCERPT]!r}... ({len(text):,} characters)"


def agree(n: int, one: str, many: str) -> str:
    """The word that agrees with a count: ``agree(1, "holds", "hold")`` after ``1 deck``."""
    return one if n == 1 else many


def parse_kind(token: str) -> int:
    """Kind index of a token such as ``K``, ``10``, ``2``, ``JK`` or ``R3`` (case-insensitive)."""
    kind = _TOKEN_TO_KIND.get(token.strip().upper())
    if kind is None:
        raise CardError(
            f"unknown card {excerpt(token)}: use 4-10, J, Q, K, A, 2, JK (joker), R3 or B3 (threes)"
        )
    return kind


def kind_token(kind: int) -> str:
    return KIND_TOKENS[kind]


def slot_token(slot: int) -> str:
    """Text form of a meld slot: a rank, or ``wild`` for the meld of wild cards."""
    return "wild" if slot == WILD_SLOT else KIND_TOKENS[slot]


def parse_slot(token: str) -> int:
    if token.strip().lower() in ("wild", "w", "wilds"):
        return WILD_SLOT
    kind = parse_kind(token)
    if kind not in NATURAL_RANKS:
        raise CardError(f"{excerpt(token)} is not a meldable rank: melds are 4 to ace, or wild")
    return kind


def is_wild(kind: int) -> bool:
    return kind in (TWO, JOKER)


def counts_of(kinds: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def kinds_of(counts: Sequence[int]) -> list[int]:
    """The kinds in a count vector, in kind order (a canonical listing of a packet)."""
    out: list[int] = []
    for k, n in enumerate(counts):
        out.extend([k] * n)
    return out


def parse_cards(text: str | Iterable[str]) -> list[int]:
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_kind(t) for t in tokens]


def format_cards(kinds: Iterable[int]) -> str:
    return " ".join(KIND_TOKENS[k] for k in kinds)


def format_counts(counts: Sequence[int]) -> str:
    return format_cards(kinds_of(counts))


def shoe_counts(decks: int, jokers: int = 2) -> list[int]:
    """Kind counts of ``decks`` full decks with ``jokers`` jokers each (two in a standard
    deck)."""
    per_deck = [4] * 11 + [4, jokers, 2, 2]
    return [n * decks for n in per_deck]


# Physical card ids, for shuffling and display.  Within a deck: 13 ranks x 4 suits, then jokers.
# Rank order inside a deck: 2, 3, 4, ..., A.
_RANK_KIND = (TWO, -1, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE)


def card_kind(card_id: int) -> int:
    c = card_id % CARDS_PER_DECK
    if c >= 52:
        return JOKER
    rank, suit = divmod(c, 4)
    kind = _RANK_KIND[rank]
    if kind == -1:
        return RED_THREE if suit in (1, 2) else BLACK_THREE
    return kind


def card_suit(card_id: int) -> str:
    c = card_id % CARDS_PER_DECK
    return "" if c >= 52 else SUITS[c % 4]


def shoe_ids(decks: int) -> list[int]:
    return list(range(decks * CARDS_PER_DECK))
