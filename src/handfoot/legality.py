"""Whether an action is legal now, and in plain words why not.

Every check returns ``None`` or a ``Refusal``: the clause of docs/RULES.md and a reason a player
can read.  Checks that depend on how a turn can end (the opening, keeping a card to discard,
going out) try the step on a copy of the state: a step is legal only if the turn can still end
legally after it, so a player or an agent never walks into a dead end.
"""

from __future__ import annotations

from . import transitions
from .actions import (
    ADDS,
    STARTS,
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
    NUM_KINDS,
    NUM_SLOTS,
    RED_THREE,
    TWO,
    WILD_SLOT,
)
from .events import Refusal
from .state import (
    ANSWER,
    DRAW,
    GAME_OVER,
    MELD,
    NO,
    NOT_ASKED,
    PILE_OPENING,
    YES,
    State,
)
from .tables import slot_name


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


def has_canasta(g: State, team: int) -> bool:
    if g.closed[team]:
        return True
    size = g.t.canasta
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    return any(nat[s] + two[s] + jok[s] >= size for s in range(NUM_SLOTS))


def go_out_refusal(g: State, seat: int) -> Refusal | None:
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


def next_packet_refusal(g: State, seat: int, team_has_canasta: bool) -> Refusal | None:
    """Why the seat may not empty its current (not last) packet now (7.2)."""
    if (g.packet_no[seat] == 0 and g.t.knee_rule and not team_has_canasta
            and g.rules.empty_before_knee == "forbidden"):
        return ("7.2", "you may not empty your hand before your team's first canasta "
                "brings your knee")
    return None


def discard_owed(g: State) -> bool:
    return not (g.took_pile and not g.rules.discard_after_pile)


# ====================================================================== legality
def refusal(g: State, action: Action) -> Refusal | None:
    phase = g.phase
    if phase == GAME_OVER:
        return ("10.8", "the game is over")
    if isinstance(action, Answer):
        if phase != ANSWER:
            return ("8.5", "nobody has asked to go out")
        return None
    if phase == ANSWER:
        return ("8.5", f"seat {g.actor} must first answer \"may I go out?\"")
    if isinstance(action, Draw):
        if phase != DRAW:
            return ("3.2", "you have already drawn this turn")
        if not g.stock:
            return ("9.1", "the stock is empty")
        return None
    if isinstance(action, Stop):
        if phase != DRAW or g.stock:
            return ("9.1", "you may stop only when the stock is empty at the start of a turn")
        return None
    if isinstance(action, TakePile):
        return take_refusal(g, action)
    if isinstance(action, Start | Add | LayDown):
        if phase == DRAW:
            return ("3.4", "draw or take the pile before melding")
        if g.retracted:
            return ("6.3", "after taking back an opening you may not meld again this turn")
        if isinstance(action, LayDown):
            return _laydown_refusal(g, action)
        return meld_refusal(g, action)
    if isinstance(action, Discard):
        return discard_refusal(g, action.kind)
    if isinstance(action, Knock):
        if phase != MELD:
            return ("3.6", "you knock to end your turn after melding")
        if discard_owed(g) and not _cannot_discard(g):
            return ("3.6", "you knock only after taking the pile, where the turn ends "
                    "without a discard")
        if g.staged and not g.opened[g.seat % g.t.teams]:
            return ("6.1", f"your opening has {g.staged} points; it needs {g.minimum}")
        return None
    if isinstance(action, Retract):
        if phase == DRAW or not g.staged or g.opened[g.seat % g.t.teams]:
            return ("6.3", "there is no short opening to take back")
        return None
    if isinstance(action, Ask):
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


def take_refusal(g: State, action: TakePile) -> Refusal | None:
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


def meld_refusal(g: State, action: Start | Add, look_ahead: bool = True) -> Refusal | None:
    """Why this meld step is illegal.  ``look_ahead``: also refuse a step after which the turn
    could not end legally (a lay-down turns it off for its steps and judges its end as a whole)."""
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
    if look_ahead and g.hand_n[g.seat] - (n + w2 + wj) <= 1:
        return _by_trial(g, action)
    return None


def discard_refusal(g: State, kind: int) -> Refusal | None:
    if g.phase != MELD:
        return ("3.5", "draw before you discard" if g.phase == DRAW else
                "finish your opening or take it back first")
    if g.hand_n[g.seat] > 1 and g.hands[g.seat][kind] and (g.opened[g.seat % g.t.teams]
                                                            or not g.staged) and discard_owed(g):
        return None
    if not discard_owed(g):
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
            refusal = go_out_refusal(g, seat)
            if refusal:
                return ("7.5", "discarding your last card would go out: " + refusal[1])
        else:
            return next_packet_refusal(g, seat, has_canasta(g, team))
    return None


def _cannot_discard(g: State) -> bool:
    """A single card that may not be discarded (it would go out without the right to): only a
    draw of red threes that are not replaced leaves a player so (decision D21); melding down
    to it is refused by the look-ahead, so knocking here cannot dodge rule 7.5."""
    seat = g.seat
    if g.hand_n[seat] != 1:
        return False
    kind = next(k for k in range(NUM_KINDS) if g.hands[seat][k])
    return discard_refusal(g, kind) is not None


def _by_trial(g: State, action: Action) -> Refusal | None:
    """Try an action that leaves the player with one card or none on a copy: legal only if
    the turn can still end (7.2, 7.5, 8.x)."""
    trial = g.clone()
    refusal = transitions.apply_step(trial, action, [])
    if refusal:
        return refusal
    return _stuck_refusal(trial)


def _stuck_refusal(g: State) -> Refusal | None:
    """Why the turn seat could not finish the turn from here, or None if it can."""
    if g.phase == GAME_OVER or g.seat != g.actor or g.phase == DRAW:
        return None
    seat = g.seat
    if g.phase == PILE_OPENING or (g.staged and not g.opened[seat % g.t.teams]):
        return None  # a short opening can always be taken back
    c = g.hand_n[seat]
    if c >= 2 or (c == 1 and not discard_owed(g)):
        return None
    if c == 1:
        kind = next(k for k in range(NUM_KINDS) if g.hands[seat][k])
        if discard_refusal(g, kind) is None:
            return None
        team = seat % g.t.teams
        for s in range(NUM_SLOTS):
            if g.nat[team][s] + g.two[team][s] + g.jok[team][s] and (kind in (s, TWO, JOKER)):
                if s == WILD_SLOT and kind not in (TWO, JOKER):
                    continue
                if meld_refusal(g, ADDS[(s, kind)]) is None:
                    return None
        if g.packet_no[seat] == g.t.last_packet:
            refusal = go_out_refusal(g, seat)
            return ("7.5", "you must keep a card to discard"
                    + (f" ({refusal[1]})" if refusal else ""))
        return next_packet_refusal(g, seat, False) or ("7.5", "you must keep a card to discard")
    return ("7.5", "you may not empty your hand here")


def _laydown_refusal(g: State, action: LayDown) -> Refusal | None:
    trial = g.clone()
    for step in laydown_steps(trial, action):
        if isinstance(step, tuple):
            return step
        refusal = meld_refusal(trial, step, look_ahead=False)
        if refusal:
            return refusal
        refusal = transitions.apply_step(trial, step, [])
        if refusal:
            return refusal
    team = g.seat % g.t.teams
    if not trial.opened[team]:
        return ("6.1", f"this opening counts {trial.staged} points; round {g.round_no} needs "
                f"{g.minimum}")
    return _stuck_refusal(trial)


def laydown_steps(g: State, action: LayDown) -> list[Start | Add | Refusal]:
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
            steps.append(STARTS.get((slot, first)) or ("5.3", "that meld cannot start so"))
            n, w2, wj = n - first[0], w2 - first[1], wj - first[2]
            opened_slots.add(slot)
        if slot != WILD_SLOT:
            steps += [ADDS[(slot, slot)]] * n
        steps += [ADDS[(slot, TWO)]] * w2 + [ADDS[(slot, JOKER)]] * wj
    return steps
