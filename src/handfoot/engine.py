"""The game: verify, can and apply for every action, and the one list of legal actions.

``Game`` is the state (state.py) plus the transitions.  ``verify`` raises ``IllegalAction``
naming the rule clause of docs/RULES.md; ``can`` answers yes or no; ``apply`` checks, changes
the state and returns what happened as events.  ``legal_actions`` is the only place that lists
what may be done; bots and interfaces ask it rather than judge for themselves.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import (
    Action,
    Add,
    Answer,
    Ask,
    Discard,
    Draw,
    Knock,
    LayDown,
    Retract,
    Start,
    Stop,
    TakePile,
)
from .cards import (
    BLACK_THREE,
    JOKER,
    KIND_NAMES,
    NATURAL_RANKS,
    NUM_KINDS,
    NUM_SLOTS,
    RED_THREE,
    TWO,
    WILD_SLOT,
)
from .clauses import IllegalAction
from .deal import Deal, seeded_deal
from .rules import Rules
from .state import (
    ANSWER,
    DRAW,
    GAME_OVER,
    MELD,
    NO,
    NOT_ASKED,
    PILE_OPENING,
    STOCK_OUT,
    TURN_CAP,
    WENT_OUT,
    YES,
    Snapshot,
    State,
)
from .tables import slot_name, tables_for


class Event(NamedTuple):
    """Something that happened, public to the whole table (hidden cards are only counted)."""

    name: str
    seat: int
    detail: tuple[object, ...] = ()


Refusal = tuple[str, str]  # (clause, plain-words reason)

_START_COMPS = ((3, 0, 0), (2, 1, 0), (2, 0, 1), (1, 2, 0), (1, 1, 1), (1, 0, 2))
_WILD_COMPS = ((0, 3, 0), (0, 2, 1), (0, 1, 2), (0, 0, 3))
_DRAW, _STOP = Draw(), Stop()
_KNOCK, _RETRACT, _ASK = Knock(), Retract(), Ask()
_TAKE = (TakePile(), TakePile(TWO), TakePile(JOKER))
_YES_NO = (Answer(True), Answer(False))
_STARTS = {(s, c): Start(s, *c) for s in range(NUM_SLOTS) for c in _START_COMPS + _WILD_COMPS}
_ADDS = {(s, k): Add(s, k) for s in range(NUM_SLOTS) for k in (*NATURAL_RANKS, TWO, JOKER)}
_DISCARDS = tuple(Discard(k) for k in range(NUM_KINDS))


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
        _start_round(g, [])
        return g

    def clone(self) -> Game:
        other = Game.__new__(Game)
        self._copy_into(other)
        return other

    # ------------------------------------------------------------------ the trio
    def refusal(self, action: Action) -> Refusal | None:
        """Why ``action`` is illegal now, or None when it is legal."""
        return _refusal(self, action)

    def verify(self, action: Action) -> None:
        refusal = _refusal(self, action)
        if refusal is not None:
            raise IllegalAction(refusal[0], refusal[1], action)

    def can(self, action: Action) -> bool:
        return _refusal(self, action) is None

    def apply(self, action: Action) -> list[Event]:
        self.verify(action)
        events: list[Event] = []
        _apply(self, action, events)
        return events

    def legal_actions(self) -> list[Action]:
        return legal_actions(self)

    # ------------------------------------------------------------------ public facts
    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER

    def canasta_kinds(self, team: int) -> list[str]:
        return canasta_kinds(self, team)

    def may_go_out(self, seat: int) -> bool:
        return _go_out_refusal(self, seat) is None

    def opening_minimum(self, team: int) -> int:
        return self.rules.opening_minimum(self.round_no, self.totals[team])


# ====================================================================== round set-up
def _start_round(g: Game, events: list[Event]) -> None:
    rules = g.rules
    g.round_no += 1
    g.dealer = (g.dealer + 1) % rules.players
    if g.deals is not None:
        # Deals count from the game's first round, which a scenario may set later than 1.
        played = len(g.results)
        if played >= len(g.deals):
            if g.seed is None:
                # A scenario that gives fewer deals than rounds ends after its last deal.
                g.phase = GAME_OVER
                events.append(Event("game_end", -1, tuple(g.totals)))
                return
            deal = seeded_deal(rules, g.seed, g.round_no, g.dealer)
        else:
            deal = g.deals[played]
    else:
        assert g.seed is not None
        deal = seeded_deal(rules, g.seed, g.round_no, g.dealer)
    n = rules.players
    teams = rules.teams
    g.stock = list(reversed(deal.stock))
    g.pile = list(deal.pile) if deal.pile is not None else []
    g.hands = []
    g.packets = []
    for seat in range(n):
        packets = [_counts(p) for p in deal.packets[seat]]
        g.hands.append(packets[0])
        g.packets.append(packets[1:])
    g.hand_n = [sum(h) for h in g.hands]
    g.packet_no = [0] * n
    g.foot_played = [False] * n
    g.red3 = [0] * n
    g.known = [[0] * NUM_KINDS for _ in range(n)]
    g.nat = [[0] * NUM_SLOTS for _ in range(teams)]
    g.two = [[0] * NUM_SLOTS for _ in range(teams)]
    g.jok = [[0] * NUM_SLOTS for _ in range(teams)]
    g.closed = [[] for _ in range(teams)]
    g.opened = [False] * teams
    g.first_canasta = [False] * teams
    g.knee_pending = [False] * n
    g.turns = 0
    g.ended_by = ""
    g.went_out = -1
    g.snapshot = None
    events.append(Event("deal", g.dealer, (g.round_no,)))
    # Red threes in the dealt hands go down first, from the dealer's left (rule 2.4).
    for i in range(1, n + 1):
        _lay_red_threes(g, (g.dealer + i) % n, "deal", events)
    if deal.pile is None and rules.upcard:
        _turn_upcard(g, events)
    g.seat = g.dealer
    _next_turn(g, events)


def _counts(kinds: tuple[int, ...]) -> list[int]:
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def _turn_upcard(g: Game, events: list[Event]) -> None:
    """Turn the stock's top card to start the pile, rejecting kinds the rules reject (2.5)."""
    rejects = g.rules.upcard_rejects
    for _ in range(len(g.stock)):
        card = g.stock.pop()
        if card not in rejects:
            g.pile.append(card)
            events.append(Event("upcard", -1, (card,)))
            return
        events.append(Event("upcard_rejected", -1, (card,)))
        if g.rules.upcard_rejected == "cover":
            g.pile.append(card)
        else:
            g.stock.insert(len(g.stock) // 2, card)
        if not g.stock:
            return


def _lay_red_threes(g: Game, seat: int, source: str, events: list[Event]) -> None:
    """Lay every red three the seat holds and replace those the rules replace (2.4, 3.3, 7.4)."""
    rules = g.rules
    if rules.red_threes != "bonus":
        return
    hand = g.hands[seat]
    while hand[RED_THREE]:
        count = hand[RED_THREE]
        hand[RED_THREE] = 0
        g.hand_n[seat] -= count
        g.red3[seat] += count
        events.append(Event("red_three", seat, (count,)))
        mode = rules.red_three_replacement
        if mode == "never":
            return
        if mode == "not_from_packets" and source == "packet":
            return
        if mode == "first_packet_only" and g.packet_no[seat] > 0:
            return
        drawn = 0
        for _ in range(count):
            if not g.stock:
                break
            hand[g.stock.pop()] += 1
            drawn += 1
        g.hand_n[seat] += drawn
        if drawn:
            events.append(Event("replace", seat, (drawn,)))
        source = "draw"


# ====================================================================== turns
def _next_turn(g: Game, events: list[Event]) -> None:
    """Pass the turn left and open it, ending the round where the rules say (9.1, 9.2)."""
    rules = g.rules
    g.seat = (g.seat + 1) % rules.players
    g.actor = g.seat
    g.phase = DRAW
    g.took_pile = False
    g.retracted = False
    g.asked = NOT_ASKED
    g.staged = 0
    g.snapshot = None
    team = g.seat % g.t.teams
    g.minimum = rules.opening_minimum(g.round_no, g.totals[team])
    if g.turns >= rules.turn_cap:
        _end_round(g, TURN_CAP, events)
        return
    if not g.stock:
        mode = rules.stock_out
        if mode != "pile_only" or not any(_refusal(g, a) is None for a in _TAKE):
            _end_round(g, STOCK_OUT, events)
            return
    g.turns += 1
    events.append(Event("turn", g.seat, (g.turns,)))


def _end_turn(g: Game, events: list[Event]) -> None:
    if g.rules.stock_out == "end_of_turn" and not g.stock:
        _end_round(g, STOCK_OUT, events)
        return
    _next_turn(g, events)


def _end_round(g: Game, how: str, events: list[Event]) -> None:
    from .scoring import score_round

    g.ended_by = how
    result = score_round(g)
    g.results.append(result)
    team_totals = tuple(row["total"] for row in result["teams"])
    for team, points in enumerate(team_totals):
        g.totals[team] += points
    events.append(Event("round_end", g.went_out, (how, team_totals)))
    if g.round_no >= g.rules.rounds:
        g.phase = GAME_OVER
        events.append(Event("game_end", -1, tuple(g.totals)))
        return
    _start_round(g, events)


# ====================================================================== facts used by the checks
def canasta_kinds(g: State, team: int) -> list[str]:
    t = g.t
    kinds = [t.canasta_kind(s, tw + j) for s, _n, tw, j in g.closed[team]]
    size = t.canasta
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    for s in range(NUM_SLOTS):
        if nat[s] + two[s] + jok[s] >= size:
            kinds.append(t.canasta_kind(s, two[s] + jok[s]))
    return kinds


def _has_canasta(g: State, team: int) -> bool:
    if g.closed[team]:
        return True
    size = g.t.canasta
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    return any(nat[s] + two[s] + jok[s] >= size for s in range(NUM_SLOTS))


def _go_out_refusal(g: State, seat: int) -> Refusal | None:
    """Why the seat may not go out now, if it emptied its last card (8.1-8.5)."""
    rules = g.rules
    if g.packet_no[seat] != g.t.last_packet:
        return ("8.3", f"you can go out only from your {rules.packet_names[-1]}")
    team = seat % g.t.teams
    if not g.t.quota_met(canasta_kinds(g, team)):
        need = ", ".join(f"{n} {k}" for k, n in rules.quota if n)
        return ("8.1", f"your team needs its canastas first ({need})")
    if rules.partner_in_foot != "no":
        for mate in rules.seats_of(team):
            if mate == seat:
                continue
            if g.packet_no[mate] != g.t.last_packet:
                return ("8.4", "every partner must be in their foot before you go out")
            if rules.partner_in_foot == "played_from_foot" and not g.foot_played[mate]:
                return ("8.4", "every partner must have played from their foot first")
    if rules.permission and rules.team_size > 1 and g.asked != YES:
        if g.asked == NO:
            return ("8.5", "your partner said no: you may not go out this turn")
        return ("8.5", "ask your partner \"may I go out?\" first")
    return None


def _next_packet_refusal(g: State, seat: int, team_has_canasta: bool) -> Refusal | None:
    """Why the seat may not empty its current (not last) packet now (7.2)."""
    if (g.packet_no[seat] == 0 and g.t.knee_rule and not team_has_canasta
            and g.rules.empty_before_knee == "forbidden"):
        return ("7.2", "you may not empty your hand before your team's first canasta "
                "brings your knee")
    return None


def _discard_owed(g: State) -> bool:
    return not (g.took_pile and not g.rules.discard_after_pile)


# ====================================================================== legality
def _refusal(g: Game, action: Action) -> Refusal | None:
    phase = g.phase
    if phase == GAME_OVER:
        return ("10.8", "the game is over")
    kind = type(action)
    if kind is Answer:
        if phase != ANSWER:
            return ("8.5", "nobody has asked to go out")
        return None
    if phase == ANSWER:
        return ("8.5", f"seat {g.actor} must first answer \"may I go out?\"")
    if kind is Draw:
        if phase != DRAW:
            return ("3.2", "you have already drawn this turn")
        if not g.stock:
            return ("9.1", "the stock is empty")
        return None
    if kind is Stop:
        if phase != DRAW or g.stock:
            return ("9.1", "you may stop only when the stock is empty at the start of a turn")
        return None
    if kind is TakePile:
        return _take_refusal(g, action)  # type: ignore[arg-type]
    if kind is Start or kind is Add or kind is LayDown:
        if phase == DRAW:
            return ("3.4", "draw or take the pile before melding")
        if g.retracted:
            return ("6.3", "after taking back an opening you may not meld again this turn")
        if kind is LayDown:
            return _laydown_refusal(g, action)  # type: ignore[arg-type]
        return _meld_refusal(g, action)  # type: ignore[arg-type]
    if kind is Discard:
        return _discard_refusal(g, action.kind)  # type: ignore[union-attr]
    if kind is Knock:
        if phase != MELD:
            return ("3.6", "you knock to end your turn after melding")
        if _discard_owed(g) and not _cannot_discard(g):
            return ("3.6", "you knock only after taking the pile, where the turn ends "
                    "without a discard")
        if g.staged and not g.opened[g.seat % g.t.teams]:
            return ("6.1", f"your opening has {g.staged} points; it needs {g.minimum}")
        return None
    if kind is Retract:
        if phase == DRAW or not g.staged or g.opened[g.seat % g.t.teams]:
            return ("6.3", "there is no short opening to take back")
        return None
    if kind is Ask:
        rules = g.rules
        if not rules.permission or rules.team_size == 1:
            return ("8.5", "these rules do not ask a partner's permission")
        if phase != MELD:
            return ("8.5", "ask after drawing, during your turn")
        if g.asked != NOT_ASKED:
            return ("8.5", "you have already asked this turn")
        if g.packet_no[g.seat] != g.t.last_packet:
            return ("8.3", f"you can go out only from your {rules.packet_names[-1]}")
        return None
    return ("3.1", f"unknown action {action!r}")


def _take_refusal(g: Game, action: TakePile) -> Refusal | None:
    rules = g.rules
    if g.phase != DRAW:
        return ("4.1", "you take the pile instead of drawing, at the start of your turn")
    if g.retracted:
        return ("6.3", "after taking back a short opening you must draw from the stock")
    if not g.pile:
        return ("4.1", "the pile is empty")
    team = g.seat % g.t.teams
    if not g.opened[team] and rules.pile_before_opening == "never":
        return ("4.6", "your team must make its opening before taking the pile")
    top = g.pile[-1]
    hand = g.hands[g.seat]
    if top in (RED_THREE, BLACK_THREE):
        return ("4.2", "a three on top of the pile cannot be melded, so the pile is blocked")
    if top in (TWO, JOKER):
        if rules.pile_wild_top == "blocked":
            return ("4.4", "a wild card on top blocks the pile")
        if action.wild >= 0:
            return ("4.4", "a wild card on top is taken with two of the same wild card")
        if hand[top] < 2:
            return ("4.4", f"you need two {KIND_NAMES[top]}s to take a {KIND_NAMES[top]}")
        slot, n, w2, wj = WILD_SLOT, 0, 3 if top == TWO else 0, 3 if top == JOKER else 0
    else:
        slot = top
        if action.wild < 0:
            if hand[top] < 2:
                return ("4.3", f"you need two natural {KIND_NAMES[top]}s to take the pile")
            n, w2, wj = 3, 0, 0
        else:
            if rules.pile_pair != "meldable":
                return ("4.3", "the pile is taken with two natural cards of its top card")
            if hand[top] < 1 or hand[action.wild] < 1:
                return ("4.3", f"you need a {KIND_NAMES[top]} and a {KIND_NAMES[action.wild]}")
            n, w2, wj = 2, int(action.wild == TWO), int(action.wild == JOKER)
    refusal = _fit_refusal(g, team, slot, n, w2, wj, "4.5")
    if refusal:
        return refusal
    if g.hand_n[g.seat] - (n + w2 + wj - 1) <= 1:
        return _by_trial(g, action)
    return None


def _fit_refusal(g: State, team: int, slot: int, n: int, w2: int, wj: int,
                 clause: str) -> Refusal | None:
    """Why adding these cards to the team's meld in ``slot`` breaks the meld rules."""
    t = g.t
    n0, t0, j0 = g.nat[team][slot], g.two[team][slot], g.jok[team][slot]
    n1, w1 = n0 + n, t0 + j0 + w2 + wj
    if t.fits(slot, n1, w1):
        return None
    rules = g.rules
    size = n1 + w1
    if slot == WILD_SLOT:
        if not rules.wild_melds:
            return ("5.5", "these rules allow no melds of wild cards only")
    else:
        why = t.wild_error(slot, n1, w1)
        if why:
            return ("5.4" if slot in rules.no_wild_ranks else "5.3", why)
    if size > t.canasta and not t.grows[slot]:
        if n0 + t0 + j0:
            return (clause if clause == "4.5" else "5.6",
                    f"your {slot_name(slot)} meld has {n0 + t0 + j0} cards: "
                    f"a canasta stops at {t.canasta}")
        return ("5.6", f"a canasta stops at {t.canasta} cards")
    return None


def _meld_refusal(g: Game, action: Start | Add) -> Refusal | None:
    team = g.seat % g.t.teams
    hand = g.hands[g.seat]
    slot = action.slot
    if isinstance(action, Start):
        n, w2, wj = action.naturals, action.twos, action.jokers
        if n + w2 + wj != 3:
            return ("5.1", "a new meld starts with three cards")
        if slot == WILD_SLOT and n:
            return ("5.5", "a wild meld holds only wild cards")
        if g.nat[team][slot] + g.two[team][slot] + g.jok[team][slot]:
            return ("5.2", f"your team already has an unfinished {slot_name(slot)} meld: "
                    "add to it")
        if slot != WILD_SLOT and n + w2 + wj and not n and not g.rules.wilds_first:
            return ("5.3", "a meld starts with natural cards")
    else:
        kind = action.kind
        n, w2, wj = int(kind == slot < WILD_SLOT), int(kind == TWO), int(kind == JOKER)
        if kind in (RED_THREE, BLACK_THREE):
            return ("1.3", "threes are never melded")
        if n + w2 + wj != 1:
            return ("5.1", f"a {KIND_NAMES[kind]} does not go on a {slot_name(slot)} meld")
        if not g.nat[team][slot] + g.two[team][slot] + g.jok[team][slot]:
            return ("5.2", f"your team has no open {slot_name(slot)} meld: start one "
                    "with three cards")
    if slot != WILD_SLOT and hand[slot] < n:
        return ("3.4", f"you do not hold {n} {KIND_NAMES[slot]}s")
    if hand[TWO] < w2 or hand[JOKER] < wj:
        return ("3.4", "you do not hold those wild cards")
    refusal = _fit_refusal(g, team, slot, n, w2, wj, "5.1")
    if refusal:
        return refusal
    if g.hand_n[g.seat] - (n + w2 + wj) <= 1:
        return _by_trial(g, action)
    return None


def _discard_refusal(g: Game, kind: int) -> Refusal | None:
    if g.phase != MELD:
        return ("3.5", "draw before you discard" if g.phase == DRAW else
                "finish your opening or take it back first")
    if g.hand_n[g.seat] > 1 and g.hands[g.seat][kind] and (g.opened[g.seat % g.t.teams]
                                                            or not g.staged) and _discard_owed(g):
        return None
    if not _discard_owed(g):
        return ("3.6", "after taking the pile you knock instead of discarding")
    team = g.seat % g.t.teams
    if g.staged and not g.opened[team]:
        return ("6.1", f"your opening has {g.staged} points; it needs {g.minimum}: add melds "
                "or take it back")
    if g.hands[g.seat][kind] < 1:
        return ("3.5", f"you hold no {KIND_NAMES[kind]}")
    if g.hand_n[g.seat] == 1:
        seat = g.seat
        if g.packet_no[seat] == g.t.last_packet:
            refusal = _go_out_refusal(g, seat)
            if refusal:
                return ("7.5", "discarding your last card would go out: " + refusal[1])
        else:
            return _next_packet_refusal(g, seat, _has_canasta(g, team))
    return None


def _cannot_discard(g: Game) -> bool:
    """A single card that may not be discarded (it would go out without the right to): only a
    draw of red threes that are not replaced leaves a player so (decision D21); melding down
    to it is refused by the look-ahead, so knocking here cannot dodge rule 7.5."""
    seat = g.seat
    if g.hand_n[seat] != 1:
        return False
    kind = next(k for k in range(NUM_KINDS) if g.hands[seat][k])
    return _discard_refusal(g, kind) is not None


def _by_trial(g: Game, action: Action) -> Refusal | None:
    """Try an action that leaves the player with one card or none on a copy: legal only if
    the turn can still end (7.2, 7.5, 8.x)."""
    trial = g.clone()
    refusal = _apply_step(trial, action, [])
    if refusal:
        return refusal
    return _stuck_refusal(trial)


def _stuck_refusal(g: Game) -> Refusal | None:
    """Why the turn seat could not finish the turn from here, or None if it can."""
    if g.phase == GAME_OVER or g.seat != g.actor or g.phase == DRAW:
        return None
    seat = g.seat
    if g.phase == PILE_OPENING or (g.staged and not g.opened[seat % g.t.teams]):
        return None  # a short opening can always be taken back
    c = g.hand_n[seat]
    if c >= 2 or (c == 1 and not _discard_owed(g)):
        return None
    if c == 1:
        kind = next(k for k in range(NUM_KINDS) if g.hands[seat][k])
        if _discard_refusal(g, kind) is None:
            return None
        team = seat % g.t.teams
        for s in range(NUM_SLOTS):
            if g.nat[team][s] + g.two[team][s] + g.jok[team][s] and (kind in (s, TWO, JOKER)):
                if s == WILD_SLOT and kind not in (TWO, JOKER):
                    continue
                if _meld_refusal(g, _ADDS[(s, kind)]) is None:
                    return None
        if g.packet_no[seat] == g.t.last_packet:
            refusal = _go_out_refusal(g, seat)
            return ("7.5", "you must keep a card to discard"
                    + (f" ({refusal[1]})" if refusal else ""))
        return _next_packet_refusal(g, seat, False) or ("7.5", "you must keep a card to discard")
    return ("7.5", "you may not empty your hand here")


def _laydown_refusal(g: Game, action: LayDown) -> Refusal | None:
    trial = g.clone()
    for step in _laydown_steps(trial, action):
        if isinstance(step, tuple):
            return step
        refusal = _meld_refusal_basic(trial, step)
        if refusal:
            return refusal
        refusal = _apply_step(trial, step, [])
        if refusal:
            return refusal
    team = g.seat % g.t.teams
    if not trial.opened[team]:
        return ("6.1", f"this opening counts {trial.staged} points; round {g.round_no} needs "
                f"{g.minimum}")
    return _stuck_refusal(trial)


def _meld_refusal_basic(g: Game, action: Start | Add) -> Refusal | None:
    """The meld checks without the end-of-turn look-ahead (a lay-down is judged as a whole)."""
    saved = g.hand_n[g.seat]
    g.hand_n[g.seat] = saved + 100  # skip the trial: the whole lay-down is checked at its end
    try:
        return _meld_refusal(g, action)
    finally:
        g.hand_n[g.seat] = saved


def _laydown_steps(g: Game, action: LayDown) -> list[Start | Add | Refusal]:
    """The atomic steps of a lay-down: naturals first, so wild limits are met on the way."""
    steps: list[Start | Add | Refusal] = []
    team = g.seat % g.t.teams
    opened_slots: set[int] = set()
    for part in action.parts:
        slot = part.slot
        n, w2, wj = part.naturals, part.twos, part.jokers
        is_open = bool(g.nat[team][slot] + g.two[team][slot] + g.jok[team][slot]) \
            or slot in opened_slots
        if not is_open:
            if part.size < 3:
                steps.append(("5.1", f"a new {slot_name(slot)} meld needs at least three cards"))
                return steps
            first = (min(n, 3), 0, 0)
            rest = 3 - first[0]
            take2 = min(w2, rest)
            first = (first[0], take2, rest - take2)
            if first[2] > wj:
                steps.append(("5.3", "not enough cards for that meld"))
                return steps
            steps.append(_STARTS.get((slot, first)) or ("5.3", "that meld cannot start so"))
            n, w2, wj = n - first[0], w2 - first[1], wj - first[2]
            opened_slots.add(slot)
        if slot != WILD_SLOT:
            steps += [_ADDS[(slot, slot)]] * n
        steps += [_ADDS[(slot, TWO)]] * w2 + [_ADDS[(slot, JOKER)]] * wj
    return steps


# ====================================================================== applying
def _apply(g: Game, action: Action, events: list[Event]) -> None:
    seat = g.seat
    if g.packet_no[seat] == g.t.last_packet and g.phase != ANSWER:
        g.foot_played[seat] = True
    refusal = _apply_step(g, action, events)
    assert refusal is None, refusal


def _apply_step(g: Game, action: Action, events: list[Event]) -> Refusal | None:
    """Change the state.  Returns a refusal only for outcomes a trial must reject."""
    kind = type(action)
    seat = g.seat
    rules = g.rules
    if kind is Draw:
        drawn = 0
        hand = g.hands[seat]
        for _ in range(2):
            if not g.stock:
                break
            hand[g.stock.pop()] += 1
            drawn += 1
        g.hand_n[seat] += drawn
        events.append(Event("draw", seat, (drawn,)))
        _lay_red_threes(g, seat, "draw", events)
        g.phase = MELD
        if rules.stock_out == "end_of_turn" and not g.stock:
            events.append(Event("stock_empty", seat))
        _after_draw(g, events)
        return None
    if kind is Stop:
        _end_round(g, STOCK_OUT, events)
        return None
    if kind is TakePile:
        return _apply_take(g, action, events)  # type: ignore[arg-type]
    if kind is Start or kind is Add:
        if kind is Start:
            n, w2, wj = action.naturals, action.twos, action.jokers  # type: ignore[union-attr]
        else:
            k = action.kind  # type: ignore[union-attr]
            n, w2, wj = int(k < TWO), int(k == TWO), int(k == JOKER)
        return _place(g, action.slot, n, w2, wj, events)  # type: ignore[union-attr]
    if kind is LayDown:
        for step in _laydown_steps(g, action):  # type: ignore[arg-type]
            assert not isinstance(step, tuple)
            refusal = _apply_step(g, step, events)
            if refusal:
                return refusal
        return None
    if kind is Discard:
        k = action.kind  # type: ignore[union-attr]
        g.hands[seat][k] -= 1
        g.hand_n[seat] -= 1
        _forget(g, seat, k, 1)
        g.pile.append(k)
        events.append(Event("discard", seat, (k,)))
        if g.hand_n[seat] == 0:
            if g.packet_no[seat] == g.t.last_packet:
                _go_out(g, seat, events)
                return None
            _pick_up(g, seat, events)
        _end_turn(g, events)
        return None
    if kind is Knock:
        events.append(Event("knock", seat))
        _end_turn(g, events)
        return None
    if kind is Retract:
        _retract(g, events)
        return None
    if kind is Ask:
        g.phase = ANSWER
        mates = [m for m in rules.seats_of(seat % g.t.teams) if m != seat]
        # The partner who plays next answers (decision D6 in docs/RULES.md).
        g.actor = min(mates, key=lambda m: (m - seat) % rules.players)
        events.append(Event("ask", seat, (g.actor,)))
        return None
    if kind is Answer:
        g.asked = YES if action.yes else NO  # type: ignore[union-attr]
        events.append(Event("answer", g.actor, (bool(action.yes),)))  # type: ignore[union-attr]
        g.actor = seat
        g.phase = MELD
        return None
    raise AssertionError(action)


def _after_draw(g: Game, events: list[Event]) -> None:
    """A partner's knee waits for their next turn, after drawing (7.1)."""
    seat = g.seat
    if g.knee_pending[seat]:
        g.knee_pending[seat] = False
        if g.packet_no[seat] == 0:
            _pick_up(g, seat, events)


def _pick_up(g: Game, seat: int, events: list[Event]) -> None:
    """The next face-down packet joins the seat's hand (7.1, 7.3)."""
    packet = g.packets[seat].pop(0)
    hand = g.hands[seat]
    for k in range(NUM_KINDS):
        hand[k] += packet[k]
    size = sum(packet)
    g.hand_n[seat] += size
    g.packet_no[seat] += 1
    g.knee_pending[seat] = False
    events.append(Event("pick_up", seat, (g.rules.packet_names[g.packet_no[seat]], size)))
    _lay_red_threes(g, seat, "packet", events)


def _forget(g: Game, seat: int, kind: int, count: int) -> None:
    known = g.known[seat]
    if known[kind]:
        known[kind] = max(0, known[kind] - count)


def _snapshot(g: Game) -> None:
    if g.snapshot is None:
        seat, team = g.seat, g.seat % g.t.teams
        g.snapshot = Snapshot(
            g.hands[seat][:], g.hand_n[seat], g.nat[team][:], g.two[team][:], g.jok[team][:],
            g.closed[team][:], g.pile[:], g.known[seat][:],
        )


def _retract(g: Game, events: list[Event]) -> None:
    seat, team = g.seat, g.seat % g.t.teams
    snap = g.snapshot
    assert snap is not None
    g.hands[seat] = snap.hand[:]
    g.hand_n[seat] = snap.hand_n
    g.nat[team], g.two[team], g.jok[team] = snap.nat[:], snap.two[:], snap.jok[:]
    g.closed[team] = snap.closed[:]
    g.pile = snap.pile[:]
    g.known[seat] = snap.known[:]
    g.staged = 0
    g.snapshot = None
    g.retracted = True
    if g.phase == PILE_OPENING:
        g.phase = DRAW  # the pile goes back; the player draws from the stock (6.3)
        g.took_pile = False
    events.append(Event("retract", seat))


def _apply_take(g: Game, action: TakePile, events: list[Event]) -> Refusal | None:
    rules = g.rules
    seat, team = g.seat, g.seat % g.t.teams
    top = g.pile[-1]
    opened = g.opened[team]
    if not opened:
        _snapshot(g)
    g.pile.pop()
    if top in (TWO, JOKER):
        slot, n, w2, wj = WILD_SLOT, 0, 2 * (top == TWO), 2 * (top == JOKER)
        tn, t2, tj = 0, int(top == TWO), int(top == JOKER)
    else:
        slot = top
        n = 2 if action.wild < 0 else 1
        w2, wj = int(action.wild == TWO), int(action.wild == JOKER)
        tn, t2, tj = 1, 0, 0
    g.took_pile = True
    events.append(Event("take_pile", seat, (top, len(g.pile) + 1)))
    # The top card joins the meld from the pile; the pair comes from the hand.
    g.nat[team][slot] += tn
    g.two[team][slot] += t2
    g.jok[team][slot] += tj
    top_counts = rules.pile_before_opening != "hand_only"
    if not opened and top_counts:
        g.staged += g.t.values[top]
    if opened:
        g.phase = MELD
        _release_pile(g, seat, events)
    else:
        g.phase = PILE_OPENING
    refusal = _place(g, slot, n, w2, wj, events)
    if refusal:
        return refusal
    if g.phase == MELD and g.seat == seat:
        _after_draw(g, events)
    return None


def _release_pile(g: Game, seat: int, events: list[Event], opening: bool = False) -> None:
    """The rest of the taken pile goes into the hand, seen by everyone (4.1).  ``opening``:
    the take made the team's opening (the team is marked opened just before this runs)."""
    limit = g.t.pile_take
    if opening and g.rules.pile_before_opening == "top_card_only":
        limit = 1
    count = len(g.pile) if limit == 0 else min(len(g.pile), limit - 1)
    if count == 0:
        return
    taken = g.pile[-count:]
    del g.pile[-count:]
    hand, known = g.hands[seat], g.known[seat]
    for k in taken:
        hand[k] += 1
        known[k] += 1
    g.hand_n[seat] += count
    events.append(Event("pile_to_hand", seat, tuple(taken)))
    if g.rules.red_threes == "bonus" and hand[RED_THREE]:
        known[RED_THREE] = 0
        _lay_red_threes(g, seat, "pile", events)


def _place(g: Game, slot: int, n: int, w2: int, wj: int, events: list[Event]) -> Refusal | None:
    """Move cards from the turn seat's hand onto the team meld in ``slot``, then settle what
    follows: the opening, a closed canasta, the knee, an empty hand, going out."""
    t = g.t
    seat, team = g.seat, g.seat % g.t.teams
    hand = g.hands[seat]
    if not g.opened[team]:
        _snapshot(g)
    if slot != WILD_SLOT:
        hand[slot] -= n
        _forget(g, seat, slot, n)
    hand[TWO] -= w2
    hand[JOKER] -= wj
    if w2:
        _forget(g, seat, TWO, w2)
    if wj:
        _forget(g, seat, JOKER, wj)
    count = n + w2 + wj
    g.hand_n[seat] -= count
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    nat[slot] += n
    two[slot] += w2
    jok[slot] += wj
    events.append(Event("meld", seat, (slot, n, w2, wj)))
    values = t.values
    if not g.opened[team]:
        g.staged += (n * values[slot] if slot != WILD_SLOT else 0) + w2 * values[TWO] \
            + wj * values[JOKER]
    size = nat[slot] + two[slot] + jok[slot]
    if size >= t.canasta and size - count < t.canasta:
        events.append(Event("canasta", seat, (slot, t.canasta_kind(slot, two[slot] + jok[slot]))))
        if not t.grows[slot]:
            g.closed[team].append((slot, nat[slot], two[slot], jok[slot]))
            nat[slot] = two[slot] = jok[slot] = 0
    if not g.opened[team]:
        if g.staged < g.minimum:
            if g.hand_n[seat] == 0:
                return ("6.1", "your opening is short and would leave you no cards")
            return None
        g.opened[team] = True
        g.snapshot = None
        events.append(Event("opening", seat, (g.staged,)))
        g.staged = 0
        if g.phase == PILE_OPENING:
            g.phase = MELD
            _release_pile(g, seat, events, opening=True)
            _after_draw(g, events)
    return _settle(g, seat, events)


def _settle(g: Game, seat: int, events: list[Event]) -> Refusal | None:
    """After cards reach the table: the team's first canasta brings knees; an empty hand
    brings the next packet, or goes out."""
    rules = g.rules
    team = seat % g.t.teams
    if not g.first_canasta[team] and _has_canasta(g, team):
        g.first_canasta[team] = True
        if g.t.knee_rule:
            for mate in rules.seats_of(team):
                if g.packet_no[mate] == 0:
                    g.knee_pending[mate] = True
            if g.packet_no[seat] == 0:
                _pick_up(g, seat, events)  # the finisher picks up the knee at once (7.1)
    if g.hand_n[seat] == 0:
        if g.packet_no[seat] == g.t.last_packet:
            if rules.last_card == "discard":
                return ("8.6", "you must go out with a discard: keep a card")
            refusal = _go_out_refusal(g, seat)
            if refusal:
                return ("7.5", "that would empty your foot: " + refusal[1])
            _go_out(g, seat, events)
            return None
        refusal = _next_packet_refusal(g, seat, g.first_canasta[team])
        if refusal:
            return refusal
        _pick_up(g, seat, events)
    return None


def _go_out(g: Game, seat: int, events: list[Event]) -> None:
    g.went_out = seat
    events.append(Event("went_out", seat))
    _end_round(g, WENT_OUT, events)


# ====================================================================== the legal actions
def legal_actions(g: Game) -> list[Action]:
    """Every action legal now: complete, so every legal turn is reachable through it."""
    phase = g.phase
    out: list[Action] = []
    if phase == GAME_OVER:
        return out
    if phase == ANSWER:
        return list(_YES_NO)
    if phase == DRAW:
        if g.stock:
            out.append(_DRAW)
        else:
            out.append(_STOP)
        for take in _TAKE:
            if _take_refusal(g, take) is None:
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
                    step: Start | Add = _ADDS[(s, s)]
                    if spare >= 1 or _meld_refusal(g, step) is None:
                        out.append(step)
                if (h2 or hj) and fits(s, n0, w0 + 1):
                    if h2:
                        step = _ADDS[(s, TWO)]
                        if spare >= 1 or _meld_refusal(g, step) is None:
                            out.append(step)
                    if hj:
                        step = _ADDS[(s, JOKER)]
                        if spare >= 1 or _meld_refusal(g, step) is None:
                            out.append(step)
            elif have + h2 + hj >= 3:
                for c in _WILD_COMPS if s == WILD_SLOT else _START_COMPS:
                    if have >= c[0] and h2 >= c[1] and hj >= c[2] and fits(s, c[0], c[1] + c[2]):
                        step = _STARTS[(s, c)]
                        if spare >= 3 or _meld_refusal(g, step) is None:
                            out.append(step)
    if phase == MELD:
        if _discard_owed(g):
            if g.hand_n[seat] > 1 and (g.opened[team] or not g.staged):
                out += [_DISCARDS[k] for k in range(NUM_KINDS) if hand[k]]
            else:
                out += [_DISCARDS[k] for k in range(NUM_KINDS)
                        if hand[k] and _discard_refusal(g, k) is None]
        if _refusal(g, _KNOCK) is None:
            out.append(_KNOCK)
        if _refusal(g, _ASK) is None:
            out.append(_ASK)
    if g.staged and not g.opened[team]:
        out.append(_RETRACT)
    return out
