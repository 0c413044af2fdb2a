"""The game: verify, can and apply for every action, and the one list of legal actions.

``Game`` is the state (state.py) plus the rules' transitions.  ``verify`` raises
``IllegalAction`` naming the rule clause of docs/RULES.md; ``can`` answers yes or no; ``apply``
checks, changes the state (transitions.py, then flow.py) and returns what happened as events.
A game keeps its own history, like a chess board's move stack: the deal of every round and
every applied action with the seat that took it.

``legal_actions`` is the only place that lists what may be done, one builder per phase; bots
and interfaces ask it rather than judge for themselves.  The checks live in legality.py.
"""

from __future__ import annotations

from itertools import compress

from . import facts, flow, legality, transitions
from .actions import (
    ANSWERS,
    ASK,
    DISCARDS,
    DRAW_CARDS,
    KNOCK,
    MELD_STEPS,
    RETRACT,
    STOP,
    TAKES,
    Action,
    parse_action,
)
from .cards import JOKER, TWO
from .clauses import IllegalAction
from .deal import Deal
from .events import Event, Refusal
from .rules import Rules
from .state import Phase, Played, State
from .tables import tables_for

__all__ = ["Game", "legal_actions"]


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
        history: bool = True,
    ) -> Game:
        """A game from a seed, or from explicit deals (one per round, for scenarios).

        ``first_round`` starts a scenario later in the game (round 3 opens at 120); explicit
        deals then count from that round and ``first_dealer`` deals it.  ``history=False``
        keeps no list of applied actions (for games that will never be recorded)."""
        if seed is None and not deals:
            raise ValueError("a game needs a seed or at least one explicit deal")
        if not 1 <= first_round <= rules.rounds:
            raise ValueError(f"first_round must be 1 to {rules.rounds}")
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first_dealer must be a seat from 0 to {rules.players - 1}")
        g = cls.__new__(cls)
        g.rules = rules
        g.t = tables_for(rules)
        g.seed = seed
        g.deals = list(deals) if deals else None
        g.first_round = first_round
        g.first_dealer = first_dealer
        g.round_deals = []
        g.history = [] if history else None
        g.version = 0
        g.round_no = first_round - 1
        g.dealer = (first_dealer - 1) % rules.players
        g.totals = [0] * rules.teams
        g.results = []
        g.ended_by = None
        g.went_out = -1
        g.turn_over = False
        g._legal = []
        g._legal_at = -1
        flow.start_round(g, [])
        return g

    def clone(self, history: bool = False) -> Game:
        """A copy that changes independently of this game.  ``history``: also copy the list of
        applied actions (search copies skip it)."""
        other = Game.__new__(Game)
        self._copy_into(other, history)
        return other

    def __repr__(self) -> str:
        where = "game over" if self.phase is Phase.GAME_OVER else (
            f"round {self.round_no}/{self.rules.rounds}, turn {self.turns}, seat {self.seat}, "
            f"{self.phase}" + (f" (seat {self.actor} to answer)" if self.actor != self.seat
                               else ""))
        return f"<Game {self.rules.name}, {where}>"

    # ------------------------------------------------------------------ the trio
    # ``seat``, where given, is who wants to act: anyone but the seat that must act now is
    # refused (3.1), so a caller serving several players need not check turns itself.
    def refusal(self, action: Action | str, seat: int | None = None) -> Refusal | None:
        """Why ``action`` is illegal now, or None when it is legal."""
        if seat is not None and seat != self.actor:
            return ("3.1", wrong_seat(self, seat))
        return legality.refusal(self, _action(action))

    def verify(self, action: Action | str, seat: int | None = None) -> None:
        """Raise ``IllegalAction`` (with the rule clause and a reason) unless it is legal."""
        action = _action(action)
        refusal = self.refusal(action, seat)
        if refusal is not None:
            raise IllegalAction(refusal[0], refusal[1], action)

    def can(self, action: Action | str, seat: int | None = None) -> bool:
        return self.refusal(action, seat) is None

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply an action (or its text form) for the seat that must act; return the events."""
        if type(action) is str:
            action = parse_action(action)
        assert not isinstance(action, str)
        # An action from the list just built for this very position needs no second check.
        if (seat is not None or self._legal_at != self.version
                or action not in self._legal):
            self.verify(action, seat)
        actor, round_no = self.actor, self.round_no
        events: list[Event] = []
        transitions.apply_action(self, action, events)
        flow.settle(self, events)
        self.version += 1
        if self.history is not None:
            self.history.append(Played(round_no, actor, action))
        return events

    def legal_actions(self) -> list[Action]:
        """Every action legal now: complete, so every legal turn is reachable through it."""
        return legal_actions(self)

    # ------------------------------------------------------------------ public facts
    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def team_of(self, seat: int) -> int:
        return seat % self.t.teams

    def canasta_kinds(self, team: int) -> list[str]:
        """The kinds of the canastas the team has finished this round."""
        return facts.canasta_kinds(self, team)

    def quota_missing(self, team: int) -> dict[str, int]:
        """The canastas the team still lacks to go out, by kind (empty when it has them)."""
        return facts.quota_missing(self, team)

    def may_go_out(self, seat: int) -> bool:
        """Whether ``seat`` would be allowed to go out if it emptied its last card now."""
        return facts.go_out_refusal(self, seat) is None

    def opening_minimum(self, team: int) -> int:
        return self.rules.opening_minimum(self.round_no, self.totals[team])


def wrong_seat(g: State, seat: int) -> str:
    """Why ``seat`` may not act now: another seat must."""
    if g.actor != g.seat:
        return f"seat {g.actor} is to answer \"may I go out?\", not seat {seat}"
    return f"it is seat {g.actor}'s turn, not seat {seat}'s"


def _action(action: Action | str) -> Action:
    return parse_action(action) if isinstance(action, str) else action


# ====================================================================== the legal actions
def legal_actions(g: State) -> list[Action]:
    """Every action legal now: complete, so every legal turn is reachable through it."""
    if g._legal_at == g.version:
        return g._legal[:]
    phase = g.phase
    if phase is Phase.DRAW:
        out = _legal_draw(g)
    elif phase is Phase.MELD:
        out = _legal_meld(g)
    elif phase is Phase.ANSWER:
        out = list(ANSWERS)
    elif phase is Phase.PILE_OPENING:
        out = _legal_pile_opening(g)
    else:
        out = []
    g._legal = out
    g._legal_at = g.version
    return out[:]


def _legal_draw(g: State) -> list[Action]:
    out: list[Action] = [DRAW_CARDS if g.stock else STOP]
    for take in TAKES:
        if legality.take_refusal(g, take) is None:
            out.append(take)
    return out


def _legal_pile_opening(g: State) -> list[Action]:
    out: list[Action] = []
    if not g.retracted:
        _meld_steps(g, out)
    if g.staged:
        out.append(RETRACT)
    return out


def _legal_meld(g: State) -> list[Action]:
    out: list[Action] = []
    seat = g.seat
    team = seat % g.t.teams
    must_go_out = legality.must_go_out(g)
    if not g.retracted:
        _meld_steps(g, out, must_go_out)
    hand = g.hands[seat]
    if facts.discard_owed(g):
        if g.hand_n[seat] > 1 and (g.opened[team] or not g.staged) and not must_go_out:
            out += compress(DISCARDS, hand)
        else:
            out += [d for d in compress(DISCARDS, hand)
                    if legality.discard_refusal(g, d.kind) is None]
    if legality.refusal(g, KNOCK) is None:
        out.append(KNOCK)
    if g.packet_no[seat] == g.t.last_packet and legality.refusal(g, ASK) is None:
        out.append(ASK)
    if g.staged and not g.opened[team]:
        out.append(RETRACT)
    return out


def _meld_steps(g: State, out: list[Action], must_go_out: bool = False) -> None:
    """The meld steps the hand allows.  Steps that leave two cards or more can never strand
    the player, so only the others (and every step after a binding yes) get the full check
    with its look-ahead."""
    t = g.t
    seat = g.seat
    team = seat % t.teams
    hand = g.hands[seat]
    fits = t.fits
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    h2, hj = hand[TWO], hand[JOKER]
    spare = -1 if must_go_out else g.hand_n[seat] - 2
    meld_refusal = legality.meld_refusal
    for s, is_rank, add_nat, add_two, add_jok, starts in MELD_STEPS:
        have = hand[s] if is_rank else 0
        n0, w0 = nat[s], two[s] + jok[s]
        if n0 + w0:
            if have and fits(s, n0 + 1, w0) and (spare >= 1 or meld_refusal(g, add_nat) is None):
                out.append(add_nat)
            if (h2 or hj) and fits(s, n0, w0 + 1):
                if h2 and (spare >= 1 or meld_refusal(g, add_two) is None):
                    out.append(add_two)
                if hj and (spare >= 1 or meld_refusal(g, add_jok) is None):
                    out.append(add_jok)
        elif have + h2 + hj >= 3:
            for c, step in starts:
                if (have >= c[0] and h2 >= c[1] and hj >= c[2] and fits(s, c[0], c[1] + c[2])
                        and (spare >= 3 or meld_refusal(g, step) is None)):
                    out.append(step)
