"""The game: verify, can and apply for every action, and the one list of legal actions.

``Game`` is the state (state.py) plus the rules' transitions.  ``verify`` raises
``IllegalAction`` naming the rule clause of docs/RULES.md; ``can`` answers yes or no; ``apply``
checks, changes the state (transitions.py) and returns what happened as events.
``legal_actions`` is the only place that lists what may be done; bots and interfaces ask it
rather than judge for themselves.  The checks themselves live in legality.py.
"""

from __future__ import annotations

from . import legality, transitions
from .actions import (
    ADDS,
    ANSWERS,
    ASK,
    DISCARDS,
    DRAW_CARDS,
    KNOCK,
    RETRACT,
    START_MAKEUPS,
    STARTS,
    STOP,
    TAKES,
    WILD_MAKEUPS,
    Action,
    Add,
    Start,
)
from .cards import (
    JOKER,
    NUM_KINDS,
    NUM_SLOTS,
    TWO,
    WILD_SLOT,
)
from .clauses import IllegalAction
from .deal import Deal
from .events import Event, Refusal
from .rules import Rules
from .state import (
    ANSWER,
    DRAW,
    GAME_OVER,
    MELD,
    State,
)
from .tables import tables_for

__all__ = ["Event", "Game", "Refusal", "legal_actions"]


class Game(State):
    """A game in progress.  Build with :meth:`Game.new`; change only through :meth:`apply`."""

    __slots__ = ()

    @classmethod
    def new(
        cls,
        rules: Rules,
        seed: int | None = None,
        deals: list[Deal] | None = None,
        first_dealer: int = 0,
        first_round: int = 1,
    ) -> Game:
        """A game from a seed, or from explicit deals (one per round, for scenarios).

        ``first_round`` starts a scenario later in the game (round 3 opens at 120); explicit
        deals then count from that round and ``first_dealer`` deals it."""
        if seed is None and not deals:
            raise ValueError("a game needs a seed or at least one explicit deal")
        if not 1 <= first_round <= rules.rounds:
            raise ValueError(f"first_round must be 1 to {rules.rounds}")
        g = cls.__new__(cls)
        g.rules = rules
        g.t = tables_for(rules)
        g.seed = seed
        g.deals = list(deals) if deals else None
        g.round_no = first_round - 1
        g.dealer = (first_dealer - 1) % rules.players
        g.totals = [0] * rules.teams
        g.results = []
        g.ended_by = ""
        g.went_out = -1
        transitions.start_round(g, [])
        return g

    def clone(self) -> Game:
        other = Game.__new__(Game)
        self._copy_into(other)
        return other

    # ------------------------------------------------------------------ the trio
    def refusal(self, action: Action) -> Refusal | None:
        """Why ``action`` is illegal now, or None when it is legal."""
        return legality.refusal(self, action)

    def verify(self, action: Action) -> None:
        refusal = legality.refusal(self, action)
        if refusal is not None:
            raise IllegalAction(refusal[0], refusal[1], action)

    def can(self, action: Action) -> bool:
        return legality.refusal(self, action) is None

    def apply(self, action: Action) -> list[Event]:
        self.verify(action)
        events: list[Event] = []
        transitions.apply_action(self, action, events)
        return events

    def legal_actions(self) -> list[Action]:
        return legal_actions(self)

    # ------------------------------------------------------------------ public facts
    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER

    def canasta_kinds(self, team: int) -> list[str]:
        return legality.canasta_kinds(self, team)

    def may_go_out(self, seat: int) -> bool:
        return legality.go_out_refusal(self, seat) is None

    def opening_minimum(self, team: int) -> int:
        return self.rules.opening_minimum(self.round_no, self.totals[team])


# ====================================================================== the legal actions
def legal_actions(g: Game) -> list[Action]:
    """Every action legal now: complete, so every legal turn is reachable through it."""
    phase = g.phase
    out: list[Action] = []
    if phase == GAME_OVER:
        return out
    if phase == ANSWER:
        return list(ANSWERS)
    if phase == DRAW:
        if g.stock:
            out.append(DRAW_CARDS)
        else:
            out.append(STOP)
        for take in TAKES:
            if legality.take_refusal(g, take) is None:
                out.append(take)
        return out
    seat = g.seat
    team = seat % g.t.teams
    hand = g.hands[seat]
    if not g.retracted:
        fits = g.t.fits
        nat, two, jok = g.nat[team], g.two[team], g.jok[team]
        h2, hj = hand[TWO], hand[JOKER]
        # Steps that leave two cards or more can never strand the player, so only the
        # others need the full check with its look-ahead.
        spare = g.hand_n[seat] - 2
        for s in range(NUM_SLOTS):
            have = hand[s] if s != WILD_SLOT else 0
            n0, w0 = nat[s], two[s] + jok[s]
            if n0 + w0:
                if have and fits(s, n0 + 1, w0):
                    step: Start | Add = ADDS[(s, s)]
                    if spare >= 1 or legality.meld_refusal(g, step) is None:
                        out.append(step)
                if (h2 or hj) and fits(s, n0, w0 + 1):
                    if h2:
                        step = ADDS[(s, TWO)]
                        if spare >= 1 or legality.meld_refusal(g, step) is None:
                            out.append(step)
                    if hj:
                        step = ADDS[(s, JOKER)]
                        if spare >= 1 or legality.meld_refusal(g, step) is None:
                            out.append(step)
            elif have + h2 + hj >= 3:
                for c in WILD_MAKEUPS if s == WILD_SLOT else START_MAKEUPS:
                    if have >= c[0] and h2 >= c[1] and hj >= c[2] and fits(s, c[0], c[1] + c[2]):
                        step = STARTS[(s, c)]
                        if spare >= 3 or legality.meld_refusal(g, step) is None:
                            out.append(step)
    if phase == MELD:
        if legality.discard_owed(g):
            if g.hand_n[seat] > 1 and (g.opened[team] or not g.staged):
                out += [DISCARDS[k] for k in range(NUM_KINDS) if hand[k]]
            else:
                out += [DISCARDS[k] for k in range(NUM_KINDS)
                        if hand[k] and legality.discard_refusal(g, k) is None]
        if legality.refusal(g, KNOCK) is None:
            out.append(KNOCK)
        if legality.refusal(g, ASK) is None:
            out.append(ASK)
    if g.staged and not g.opened[team]:
        out.append(RETRACT)
    return out
