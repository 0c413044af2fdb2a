"""Shuffling and dealing a round: from a seed, or from an explicit deal (a scenario)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import (
    JOKER,
    CardError,
    agree,
    card_kind,
    counts_of,
    format_cards,
    parse_cards,
    plural,
    shoe_counts,
)
from .errors import HandfootError
from .rules import Rules


class DealError(HandfootError):
    """An explicit deal that does not fit the rules (wrong packet sizes, cards not in the shoe)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one round before play: each seat's packets, the stock (top first) and, if
    the scenario fixes it, the pile (bottom first) instead of turning an upcard."""

    packets: tuple[tuple[tuple[int, ...], ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...] | None = None

    def to_mapping(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "packets": [[format_cards(p) for p in seat] for seat in self.packets],
            "stock": format_cards(self.stock),
        }
        if self.pile is not None:
            out["pile"] = format_cards(self.pile)
        return out

    @classmethod
    def from_mapping(cls, data: Any, rules: Rules) -> Deal:
        if not isinstance(data, dict):
            raise DealError("a deal is an object with 'packets' and 'stock'")
        unknown = set(data) - {"packets", "stock", "pile"}
        if unknown:
            raise DealError(f"unknown deal field {sorted(unknown)[0]!r}")
        try:
            seats = data["packets"]
            if not isinstance(seats, list) or len(seats) != rules.players:
                raise DealError(f"'packets' needs one list of packets for each of the "
                                f"{rules.players} seats")
            packets = []
            for s, seat in enumerate(seats):
                if not isinstance(seat, list) or len(seat) != len(rules.packets):
                    raise DealError(f"seat {s}: needs {len(rules.packets)} packets "
                                    f"({', '.join(rules.packet_names)})")
                packets.append(tuple(tuple(parse_cards(_text(p))) for p in seat))
            stock = tuple(parse_cards(_text(data.get("stock", ""))))
            pile = tuple(parse_cards(_text(data["pile"]))) if "pile" in data else None
        except CardError as err:
            raise DealError(str(err)) from None
        deal = cls(tuple(packets), stock, pile)
        deal.check(rules)
        return deal

    def check(self, rules: Rules) -> None:
        used = counts_of(k for seat in self.packets for p in seat for k in p)
        for k in (*self.stock, *(self.pile or ())):
            used[k] += 1
        shoe = shoe_counts(rules.decks, rules.jokers)
        for k, n in enumerate(used):
            if n > shoe[k]:
                raise DealError(f"the deal uses {n} of card {format_cards([k])}, "
                                f"but {plural(rules.decks, 'deck')} "
                                f"{agree(rules.decks, 'holds', 'hold')} {shoe[k]}")


def _text(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if not isinstance(value, str):
        raise DealError(f"expected cards as text, got {value!r}")
    return value


def shuffled(rules: Rules, seed: int, round_no: int) -> list[int]:
    """The shoe's card kinds in shuffled order, top first, from the game seed and round."""
    rng = random.Random(f"handfoot/{seed}/{round_no}")
    # A shuffle's permutation depends only on the generator and the length, so shuffling the
    # kinds of the card ids in order deals exactly what shuffling the ids would.
    kinds = _shoe_kinds(rules.decks, rules.jokers)[:]
    rng.shuffle(kinds)
    return kinds


@lru_cache(maxsize=16)
def _shoe_kinds(decks: int, jokers: int) -> list[int]:
    """The shoe in its unshuffled order: each deck's 52 cards, then its jokers (with two jokers
    a deck, exactly the physical card ids in order, so seeded deals never change)."""
    out: list[int] = []
    for deck in range(decks):
        out += [card_kind(deck * 54 + c) for c in range(52)]
        out += [JOKER] * jokers
    return out


def reshuffled(cards: list[int], key: str, round_no: int, count: int) -> tuple[int, ...]:
    """The pile's cards (bottom first) shuffled into a new stock, top first: the ``count``-th
    reshuffle of round ``round_no`` of the game whose shuffles ``key`` names (its seed, or its
    deal for a scenario without one), so a replay shuffles the same way (9.3)."""
    rng = random.Random(f"handfoot/{key}/{round_no}/reshuffle/{count}")
    order = cards[:]
    rng.shuffle(order)
    return tuple(order)


def deal_from_order(rules: Rules, order: list[int], dealer: int) -> Deal:
    """Deal packet by packet, each seat from the dealer's left taking its packet off the top."""
    pos = 0
    packets: list[list[tuple[int, ...]]] = [[] for _ in range(rules.players)]
    for size in rules.packets:
        for i in range(1, rules.players + 1):
            seat = (dealer + i) % rules.players
            packets[seat].append(tuple(order[pos:pos + size]))
            pos += size
    return Deal(tuple(tuple(p) for p in packets), tuple(order[pos:]))


def seeded_deal(rules: Rules, seed: int, round_no: int, dealer: int) -> Deal:
    return deal_from_order(rules, shuffled(rules, seed, round_no), dealer)
