"""The table: who holds what, the team melds, the pile and the stock.

Every packet is a list of counts per card kind (cards.py); the stock and the pile are lists of
kinds with the top card last.  ``State.clone`` copies flat lists by hand because search bots
clone thousands of times a second and ``copy.deepcopy`` is about thirty times slower.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .deal import Deal
from .rules import Rules
from .tables import Tables

# Phases of a turn.
DRAW = 0  # the turn seat draws from the stock or takes the pile
PILE_OPENING = 1  # took the pile before the team's opening: meld up to the minimum or retract
MELD = 2  # lay down and add to melds, then discard (or knock)
ANSWER = 3  # a partner answers "may I go out?"
GAME_OVER = 4
PHASE_NAMES = ("draw", "pile-opening", "meld", "answer", "game-over")

# How a round ended.
WENT_OUT = "went_out"
STOCK_OUT = "stock_out"
TURN_CAP = "turn_cap"

# Answers to "may I go out?" this turn.
NOT_ASKED, YES, NO = 0, 1, 2


class Snapshot(NamedTuple):
    """What a retracted opening restores: the turn seat's hand, its team's melds, the pile."""

    hand: list[int]
    hand_n: int
    nat: list[int]
    two: list[int]
    jok: list[int]
    closed: list[tuple[int, int, int, int]]
    pile: list[int]
    known: list[int]


class State:
    """Mutable game state.  Only the engine changes it; everything else reads views."""

    __slots__ = (
        "actor",
        "asked",
        "closed",
        "dealer",
        "deals",
        "ended_by",
        "first_canasta",
        "foot_played",
        "hand_n",
        "hands",
        "jok",
        "knee_pending",
        "known",
        "minimum",
        "nat",
        "opened",
        "packet_no",
        "packets",
        "phase",
        "pile",
        "red3",
        "results",
        "retracted",
        "round_no",
        "rules",
        "seat",
        "seed",
        "snapshot",
        "staged",
        "stock",
        "t",
        "took_pile",
        "totals",
        "turns",
        "two",
        "went_out",
    )

    rules: Rules
    seed: int | None
    deals: list[Deal] | None  # explicit deals by round (scenarios)
    round_no: int
    dealer: int
    totals: list[int]  # game score per team
    results: list[dict[str, Any]]  # one per finished round (scoring.score_round)
    stock: list[int]  # top card last
    pile: list[int]  # top card last
    hands: list[list[int]]  # counts per kind of the packet each seat is playing
    hand_n: list[int]
    packets: list[list[list[int]]]  # face-down packets still to come, next first
    packet_no: list[int]  # 0 = hand, len(rules.packets) - 1 = foot
    foot_played: list[bool]
    red3: list[int]  # red threes laid by each seat
    known: list[list[int]]  # cards every seat knows another holds (taken from the pile)
    nat: list[list[int]]  # per team, per slot: naturals in the open meld
    two: list[list[int]]
    jok: list[list[int]]
    closed: list[list[tuple[int, int, int, int]]]  # per team: (slot, naturals, 2s, jokers)
    opened: list[bool]
    first_canasta: list[bool]
    knee_pending: list[bool]
    phase: int
    seat: int  # whose turn it is
    actor: int  # who must act now (the partner while answering)
    turns: int  # turns begun this round
    took_pile: bool
    retracted: bool
    asked: int
    staged: int  # opening points laid this turn before the minimum was reached
    snapshot: Snapshot | None  # what a retract restores
    ended_by: str
    went_out: int
    minimum: int  # this round's opening minimum of the turn seat's team
    t: Tables

    def clone(self) -> State:
        other = State.__new__(State)
        self._copy_into(other)
        return other

    def _copy_into(self, other: State) -> None:
        other.rules = self.rules
        other.seed = self.seed
        other.deals = self.deals
        other.round_no = self.round_no
        other.dealer = self.dealer
        other.totals = self.totals[:]
        other.results = self.results[:]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.hands = [h[:] for h in self.hands]
        other.hand_n = self.hand_n[:]
        other.packets = [[p[:] for p in ps] for ps in self.packets]
        other.packet_no = self.packet_no[:]
        other.foot_played = self.foot_played[:]
        other.red3 = self.red3[:]
        other.known = [k[:] for k in self.known]
        other.nat = [m[:] for m in self.nat]
        other.two = [m[:] for m in self.two]
        other.jok = [m[:] for m in self.jok]
        other.closed = [c[:] for c in self.closed]
        other.opened = self.opened[:]
        other.first_canasta = self.first_canasta[:]
        other.knee_pending = self.knee_pending[:]
        other.phase = self.phase
        other.seat = self.seat
        other.actor = self.actor
        other.turns = self.turns
        other.took_pile = self.took_pile
        other.retracted = self.retracted
        other.asked = self.asked
        other.staged = self.staged
        other.snapshot = self.snapshot
        other.ended_by = self.ended_by
        other.went_out = self.went_out
        other.minimum = self.minimum
        other.t = self.t
