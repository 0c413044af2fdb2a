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

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import compress, repeat
from operator import is_

from . import facts, flow, legality
from .actions import (
    ADD_JOKER,
    ADD_NATURAL,
    ADD_TWO,
    ANSWERS,
    ASK,
    BOOK,
    DISCARDS,
    DRAW_CARDS,
    KNOCK,
    RANK_SLOTS,
    RETRACT,
    STARTS_OF,
    STOP,
    Action,
    parse_action,
)
from .cards import BLACK_THREE, JOKER, RED_THREE, TWO, WILD_SLOT
from .clauses import IllegalAction
from .deal import Deal
from .derived import derived_for
from .errors import HandfootError
from .events import Event, Refusal
from .flow import settle as _settle
from .rules import Rules
from .state import AskState, Phase, Played, State
from .transitions import apply_action as _apply_action

__all__ = ["Game", "legal_actions"]

# The enum members the builders compare with, as module constants (one look-up fewer each,
# in code that runs for every action).
_DRAW, _MELD, _ANSWER, _PILE_OPENING, _GAME_OVER = (
    Phase.DRAW, Phase.MELD, Phase.ANSWER, Phase.PILE_OPENING, Phase.GAME_OVER)
_YES = AskState.YES
_new_tuple = tuple.__new__


class GameSetupError(HandfootError):
    """A game asked for with settings no game can have (no seed and no deal, a round or a
    dealer outside the rules)."""


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
        reshuffles: Sequence[Sequence[tuple[int, ...]]] | None = None,
    ) -> Game:
        """A game from a seed, or from explicit deals (one per round, for scenarios).

        ``first_round`` starts a scenario later in the game (round 3 opens at 120); explicit
        deals then count from that round and ``first_dealer`` deals it.  ``history=False``
        keeps no list of applied actions (for games that will never be recorded).
        ``reshuffles``: by round, the new stock (top first) of each time the pile is shuffled
        into a new stock (9.3), as a record gives them; later ones follow from the seed."""
        if seed is None and not deals:
            raise GameSetupError("a game needs a seed or at least one explicit deal")
        if not 1 <= first_round <= rules.rounds:
            raise GameSetupError(f"first_round must be 1 to {rules.rounds}")
        if not 0 <= first_dealer < rules.players:
            raise GameSetupError(f"first_dealer must be a seat from 0 to {rules.players - 1}")
        g = cls.__new__(cls)
        g.rules = rules
        g.derived = derived_for(rules)
        g.seed = seed
        g.deals = list(deals) if deals else None
        g.first_round = first_round
        g.first_dealer = first_dealer
        g.round_deals = []
        g.restocks = [tuple(tuple(order) for order in r) for r in reshuffles] \
            if reshuffles is not None else None
        g.round_restocks = []
        g.reshuffles = 0
        g.shuffle_key = ""
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
        g._view_parts = None
        flow.start_round(g, [])
        return g

    def clone(self, history: bool = False) -> Game:
        """A copy that changes independently of this game.  ``history``: also copy the list of
        applied actions (search copies skip it)."""
        other = Game.__new__(Game)
        self._copy_into(other, history)
        return other

    @contextmanager
    def edit(self) -> Iterator[Game]:
        """Change the table by hand inside a ``with`` block, for scenarios that start from a
        position play would take long to reach (melds already down, a seat in its foot).  On
        leaving the block, whatever the game worked out from the old table (its legal list, the
        pieces of its views) is forgotten, so it answers from the new one.  Play never needs
        this: ``apply`` keeps the game consistent itself, and nothing here runs on its path.
        """
        try:
            yield self
        finally:
            self._legal = []
            self._legal_at = -1
            self._view_parts = None

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
            return Refusal("3.1", wrong_seat(self, seat))
        return legality.refusal(self, _action(action))

    def verify(self, action: Action | str, seat: int | None = None) -> None:
        """Raise ``IllegalAction`` (with the rule clause and a reason) unless it is legal."""
        action = _action(action)
        refusal = self.refusal(action, seat)
        if refusal is not None:
            raise IllegalAction(refusal.clause, refusal.reason, action)

    def can(self, action: Action | str, seat: int | None = None) -> bool:
        return self.refusal(action, seat) is None

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply an action (or its text form) for the seat that must act; return the events."""
        if isinstance(action, str):
            action = parse_action(action)
        # An action from the list just built for this very position needs no second check.
        # Identity (the list holds the shared canonical actions) is a C-level scan; an equal
        # action built elsewhere is simply checked again.
        if (seat is not None or self._legal_at != self.version
                or not any(map(is_, self._legal, repeat(action)))):
            self.verify(action, seat)
        actor, round_no = self.actor, self.round_no
        events: list[Event] = []
        _apply_action(self, action, events)
        if self.turn_over or self.ended_by is not None:  # most steps leave the turn going on
            _settle(self, events)
        self.version += 1
        history = self.history
        if history is not None:
            # tuple.__new__ builds the named tuple without its Python-level __new__ (a
            # frame per action in the hot loop); the result is an ordinary Played.
            history.append(_new_tuple(Played, (round_no, actor, action)))
        return events

    def legal_actions(self) -> list[Action]:
        """Every action legal now: complete, so every legal turn is reachable through it.

        One builder per phase; the list is kept for this position (``apply`` then knows an
        action taken from it needs no second check) and a copy handed out."""
        if self._legal_at == self.version:
            return self._legal[:]
        phase = self.phase
        if phase is _DRAW:
            out = _legal_draw(self)
        elif phase is _MELD:
            out = _legal_meld(self)
        elif phase is _ANSWER:
            out = list(ANSWERS)
        elif phase is _PILE_OPENING:
            out = _legal_pile_opening(self)
        else:
            out = []
        self._legal = out
        self._legal_at = self.version
        return out[:]

    # ------------------------------------------------------------------ public facts
    @property
    def over(self) -> bool:
        return self.phase is _GAME_OVER

    def team_of(self, seat: int) -> int:
        return seat % self.derived.teams

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
# Game.legal_actions (above) dispatches to one builder per phase; the module-level name is
# the same function, for callers holding a game.
legal_actions = Game.legal_actions


def _legal_draw(g: State) -> list[Action]:
    out: list[Action] = [DRAW_CARDS if g.stock else STOP]
    pile = g.pile
    # A pile that is empty or topped by a three cannot be taken at all (4.1, 4.2), but for a
    # black three where a table says it does not block.
    if pile and (pile[-1] < RED_THREE or (pile[-1] == BLACK_THREE
                                          and not g.rules.black_three_blocks)):
        d = g.derived
        for pair in d.pair_takes:
            if legality.take_refusal(g, pair) is None:
                out.append(pair)
        if d.other_takes:  # the house rules' other ways (4.7, 4.8)
            checks = legality.CHECKS
            for take in d.other_takes:
                if checks[type(take)](g, take) is None:
                    out.append(take)
    return out


def _legal_pile_opening(g: State) -> list[Action]:
    out: list[Action] = []
    if not g.retracted:
        _meld_steps(g, out)
        if g.derived.meld_extras:
            if g.derived.book:
                _book_step(g, out)
            if g.pile_owed:
                _owed_only(g, out)
    if g.staged:
        out.append(RETRACT)
    return out


def _book_step(g: State, out: list[Action]) -> None:
    """A book of black threes (5.7), where the rules have it."""
    if g.hands[g.seat][BLACK_THREE] >= g.derived.canasta and legality.book_refusal(g) is None:
        out.append(BOOK)


def _owed_only(g: State, out: list[Action]) -> None:
    """After picking up the pile, only melds that use one of its cards (4.8): the fast path
    of _meld_steps does not look at the obligation."""
    out[:] = [a for a in out if facts.step_uses_picked(g, a)]


def _legal_meld(g: State) -> list[Action]:
    out: list[Action] = []
    seat = g.seat
    d = g.derived
    team = seat % d.teams
    must_go_out = g.asked is _YES and legality.must_go_out(g)
    if not g.retracted:
        _meld_steps(g, out, must_go_out)
        if d.meld_extras:
            if d.book:
                _book_step(g, out)
            if g.pile_owed:
                _owed_only(g, out)  # and nothing else until one of them is melded
                return out
    hand = g.hands[seat]
    owed = not (g.took_pile and not g.rules.discard_after_pile)  # facts.discard_owed
    # A short opening is made or taken back before any discard (6.1).
    if owed and (g.opened[team] or not g.staged):
        if g.hand_n[seat] > 1 and not must_go_out:
            out += compress(DISCARDS, hand)
        else:
            out += [card for card in compress(DISCARDS, hand)
                    if legality.discard_refusal(g, card.kind) is None]
    # Knocking is refused at once where a discard is owed and more than one card is held.
    if (not owed or g.hand_n[seat] <= 1) and legality.refusal(g, KNOCK) is None:
        out.append(KNOCK)
    if g.packet_no[seat] == d.last_packet and legality.refusal(g, ASK) is None:
        out.append(ASK)
    if g.staged and not g.opened[team]:
        out.append(RETRACT)
    return out


def _meld_steps(g: State, out: list[Action], must_go_out: bool = False) -> None:
    """The meld steps the hand allows.  Steps that leave two cards or more can never strand
    the player, so only the others (and every step after a binding yes) get the full check
    with its look-ahead.  The hot loop of the engine: it reads the rules' table of how many
    wild cards each meld may hold rather than asking fits()."""
    d = g.derived
    seat = g.seat
    team = seat % d.teams
    hand = g.hands[seat]
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    h2, hj = hand[TWO], hand[JOKER]
    wilds = h2 + hj
    spare = -1 if must_go_out else g.hand_n[seat] - 2
    max_wilds_at = d.max_wilds_at
    meld_refusal = legality.meld_refusal
    for s in RANK_SLOTS:
        have = hand[s]
        n0 = nat[s]
        w0 = two[s] + jok[s]
        if n0 or w0:
            most = max_wilds_at[s]
            if have and w0 <= most[n0 + 1] and (
                    spare >= 1 or meld_refusal(g, ADD_NATURAL[s]) is None):
                out.append(ADD_NATURAL[s])
            if wilds and w0 < most[n0]:
                if h2 and (spare >= 1 or meld_refusal(g, ADD_TWO[s]) is None):
                    out.append(ADD_TWO[s])
                if hj and (spare >= 1 or meld_refusal(g, ADD_JOKER[s]) is None):
                    out.append(ADD_JOKER[s])
        elif have and have + wilds >= 3:
            most = max_wilds_at[s]
            for n, w2, wj, start in STARTS_OF[s]:
                if (have >= n and h2 >= w2 and hj >= wj and w2 + wj <= most[n]
                        and (spare >= 3 or meld_refusal(g, start) is None)):
                    out.append(start)
    if wilds:
        _wild_steps(g, out, h2, hj, two[WILD_SLOT] + jok[WILD_SLOT], spare)


def _wild_steps(g: State, out: list[Action], h2: int, hj: int, w0: int, spare: int) -> None:
    """Steps on the meld of wild cards (5.5)."""
    most = g.derived.max_wilds_at[WILD_SLOT][0]
    meld_refusal = legality.meld_refusal
    if w0:
        if w0 < most:
            if h2 and (spare >= 1 or meld_refusal(g, ADD_TWO[WILD_SLOT]) is None):
                out.append(ADD_TWO[WILD_SLOT])
            if hj and (spare >= 1 or meld_refusal(g, ADD_JOKER[WILD_SLOT]) is None):
                out.append(ADD_JOKER[WILD_SLOT])
    elif h2 + hj >= 3:
        for _n, w2, wj, start in STARTS_OF[WILD_SLOT]:
            if (h2 >= w2 and hj >= wj and w2 + wj <= most
                    and (spare >= 3 or meld_refusal(g, start) is None)):
                out.append(start)
