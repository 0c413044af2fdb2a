"""The table: who holds what, the team melds, the pile and the stock.

Every packet is a list of counts per card kind (cards.py); the stock and the pile are lists of
kinds with the top card last.  ``State.clone`` copies flat lists by hand because search bots
clone thousands of times a second and ``copy.deepcopy`` is about thirty times slower.

The enums here are shared by the state, the views and everything built on them; they are
string enums, so a phase still equals its text (``Phase.DRAW == "draw"``) and JSON writes it
as that text.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import Action
from .deal import Deal
from .derived import Derived
from .rules import Rules

if TYPE_CHECKING:
    from .scoring import RoundResult


class Phase(StrEnum):
    """Where a turn stands: what the player who must act may do."""

    DRAW = "draw"  # the turn seat draws from the stock or takes the pile
    PILE_OPENING = "pile-opening"  # took the pile before the opening: meld to the minimum
    MELD = "meld"  # lay down and add to melds, then discard (or knock)
    ANSWER = "answer"  # a partner answers "may I go out?"
    GAME_OVER = "game-over"


class AskState(StrEnum):
    """The answer to "may I go out?" this turn."""

    NOT_ASKED = "not-asked"
    YES = "yes"
    NO = "no"


class RoundEnd(StrEnum):
    """How a round ended."""

    WENT_OUT = "went_out"
    STOCK_OUT = "stock_out"
    TURN_CAP = "turn_cap"


class Played(NamedTuple):
    """One applied action in a game's history: the round, the seat that acted, the action."""

    round: int
    seat: int
    action: Action


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
        "_legal",
        "_legal_at",
        "_view_parts",
        "actor",
        "asked",
        "closed",
        "dealer",
        "deals",
        "derived",
        "ended_by",
        "first_canasta",
        "first_dealer",
        "first_round",
        "foot_played",
        "foot_turns",
        "hand_n",
        "hands",
        "history",
        "jok",
        "knee_pending",
        "known",
        "minimum",
        "nat",
        "opened",
        "packet_no",
        "packets",
        "passes",
        "phase",
        "picked",
        "pile",
        "pile_owed",
        "red3",
        "reshuffles",
        "restocks",
        "results",
        "retracted",
        "round_deals",
        "round_restocks",
        "round_no",
        "rules",
        "seat",
        "seed",
        "set_aside",
        "shuffle_key",
        "snapshot",
        "staged",
        "stock",
        "took_pile",
        "totals",
        "turn_limit",
        "turn_over",
        "turns",
        "two",
        "version",
        "went_out",
    )

    rules: Rules
    seed: int | None
    deals: list[Deal] | None  # explicit deals by round (scenarios)
    first_round: int  # the round the game (or scenario) starts at
    first_dealer: int  # who deals that round
    round_deals: list[Deal]  # the deal of every round begun, in order
    # Stocks made by reshuffling the pile (9.3), top first: given (a record's, by round played,
    # or None) and made (every round begun, in order, beside round_deals).
    restocks: list[tuple[tuple[int, ...], ...]] | None
    round_restocks: list[tuple[tuple[int, ...], ...]]
    reshuffles: int  # reshuffles this round
    shuffle_key: str  # what this game's reshuffles are drawn from: its seed, or its deal
    history: list[Played] | None  # every applied action; None for clones that skip it
    version: int  # actions applied so far: every apply adds one
    round_no: int
    dealer: int
    totals: list[int]  # game score per team
    results: list[RoundResult]  # one per finished round
    stock: list[int]  # top card last
    pile: list[int]  # top card last
    hands: list[list[int]]  # counts per kind of the packet each seat is playing
    hand_n: list[int]
    packets: list[list[list[int]]]  # face-down packets still to come, next first
    packet_no: list[int]  # 0 = hand, len(rules.packets) - 1 = foot
    foot_played: list[bool]
    foot_turns: int  # bit per seat: the packet a discard brought replaces its next draw (7.3)
    red3: list[int]  # red threes laid by each seat
    known: list[list[int]]  # cards every seat knows another holds (taken from the pile)
    nat: list[list[int]]  # per team, per slot: naturals in the open meld
    two: list[list[int]]
    jok: list[list[int]]
    closed: list[list[tuple[int, int, int, int]]]  # per team: (slot, naturals, 2s, jokers)
    opened: list[bool]
    first_canasta: list[bool]
    knee_pending: list[bool]
    set_aside: list[int]  # counts per kind set aside from the stock (canasta pennies)
    picked: tuple[int, ...]  # cards picked up from the pile this turn (4.8), bottom first
    pile_owed: bool  # the next meld must use a card picked up from the pile (4.8)
    phase: Phase
    seat: int  # whose turn it is
    actor: int  # who must act now (the partner while answering)
    turns: int  # turns begun this round
    # The turn count from which next_turn looks beyond the plain case: the turn cap, or 0
    # while a final lap, a packet that replaces a draw or a picked-up pile needs seeing to,
    # so that none of them costs the plain turn a check (flow.watch).
    turn_limit: int
    passes: int  # players in a row who declined the pile with the stock empty
    took_pile: bool
    retracted: bool
    asked: AskState
    staged: int  # opening points laid this turn before the minimum was reached
    snapshot: Snapshot | None  # what a retract restores
    turn_over: bool  # the turn has ended; the next one is still to begin
    ended_by: RoundEnd | None  # set when the round has ended, until the next one begins
    went_out: int  # who went out this round (-1: nobody); set through a final lap (8.7)
    minimum: int  # this round's opening minimum of the turn seat's team
    derived: Derived  # facts derived once from the rules (derived.py)
    _legal: list[Action]  # the legal list last built ...
    _legal_at: int  # ... at this version (-1: none)
    _view_parts: Any  # pieces of views already built (views.py), None until a view is made

    def clone(self, history: bool = False) -> State:
        """A copy that changes independently.  ``history``: also copy the list of applied
        actions (search copies skip it: they never make a record)."""
        other = State.__new__(State)
        self._copy_into(other, history)
        return other

    def _copy_into(self, other: State, history: bool) -> None:
        other.rules = self.rules
        other.seed = self.seed
        other.deals = self.deals
        other.first_round = self.first_round
        other.first_dealer = self.first_dealer
        other.round_deals = self.round_deals[:]
        other.restocks = self.restocks
        other.round_restocks = self.round_restocks[:]
        other.reshuffles = self.reshuffles
        other.shuffle_key = self.shuffle_key
        other.history = self.history[:] if history and self.history is not None else None
        other.version = self.version
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
        other.foot_turns = self.foot_turns
        other.red3 = self.red3[:]
        other.known = [k[:] for k in self.known]
        other.nat = [m[:] for m in self.nat]
        other.two = [m[:] for m in self.two]
        other.jok = [m[:] for m in self.jok]
        other.closed = [c[:] for c in self.closed]
        other.opened = self.opened[:]
        other.first_canasta = self.first_canasta[:]
        other.knee_pending = self.knee_pending[:]
        other.set_aside = self.set_aside[:]
        other.picked = self.picked
        other.pile_owed = self.pile_owed
        other.phase = self.phase
        other.seat = self.seat
        other.actor = self.actor
        other.turns = self.turns
        other.turn_limit = self.turn_limit
        other.passes = self.passes
        other.took_pile = self.took_pile
        other.retracted = self.retracted
        other.asked = self.asked
        other.staged = self.staged
        other.snapshot = self.snapshot
        other.turn_over = self.turn_over
        other.ended_by = self.ended_by
        other.went_out = self.went_out
        other.minimum = self.minimum
        other.derived = self.derived
        other._legal = []
        other._legal_at = -1
        other._view_parts = None
