"""Whether an action is legal now, and in plain words why not: one check per action type.

Every check returns ``None`` or a ``Refusal``: the clause of docs/RULES.md and a reason a player
can read.  Checks that depend on how a turn can end (the opening, keeping a card to discard,
going out) try the step on a copy of the state: a step is legal only if the turn can still end
legally after it, so a player or an agent never walks into a dead end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import facts, transitions
from .actions import (
    ADDS,
    BOOK,
    START_MAKEUPS,
    STARTS,
    WILD_MAKEUPS,
    Action,
    Add,
    Answer,
    Ask,
    BlackThreeBook,
    Discard,
    Draw,
    Knock,
    LayDown,
    PickUpPile,
    Retract,
    Start,
    Stop,
    TakeOnto,
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
from .derived import slot_name
from .events import Refusal
from .state import AskState, Phase, State

DRAW, PILE_OPENING, MELD, ANSWER, GAME_OVER = (
    Phase.DRAW, Phase.PILE_OPENING, Phase.MELD, Phase.ANSWER, Phase.GAME_OVER)
_MUST_GO_OUT = Refusal("8.5.3", "your partner said yes: you must go out this turn")
# Refusals the legal list's builder meets on many turns, built once: a refusal built anew costs
# the inner loop more than the check that finds it.
_DRAW_AFTER_RETRACT = Refusal("6.3",
                              "after taking back a short opening you must draw from the stock")
_TWO_NATURALS = tuple(Refusal("4.3", f"you need two natural {name}s to take the pile")
                      for name in KIND_NAMES)  # by the kind on top
_TWO_WILDS = tuple(Refusal("4.4", f"you need two {name}s to take a {name}")
                   for name in KIND_NAMES)  # by the wild card on top
YES, NOT_ASKED = AskState.YES, AskState.NOT_ASKED


def refusal(g: State, action: Action) -> Refusal | None:
    """Why ``action`` is illegal now, or None when it is legal."""
    if g.phase is GAME_OVER:
        return Refusal("10.8", "the game is over")
    check = CHECKS.get(type(action))
    if check is None:
        return Refusal("3.1", f"unknown action {action!r}")
    if g.phase is ANSWER and check is not _answer:
        return Refusal("8.5", f"seat {g.actor} must first answer \"may I go out?\"")
    return check(g, action)


def must_go_out(g: State) -> bool:
    """Whether the partner's yes obliges the turn seat to go out this turn (8.5.3).

    In a game the question is asked only when going out can be (8.5.4) and every step after
    the yes keeps it so; the last condition matters only in a world sampled for search, where
    the asker's hidden hand was dealt at random: there the yes cannot oblige the impossible."""
    return g.asked is YES and g.rules.permission_yes == "binding" and can_go_out(g)


# ====================================================================== the checks
def _answer(g: State, action: Answer) -> Refusal | None:
    if g.phase is not ANSWER:
        return Refusal("8.5", "nobody has asked to go out")
    return None


def _draw(g: State, action: Draw) -> Refusal | None:
    if g.phase is not DRAW:
        if g.rules.foot_replaces_draw:
            return Refusal("3.2", "you draw only at the start of a turn, and not on a turn your "
                           "new packet replaces the draw (7.3)")
        return Refusal("3.2", "you have already drawn this turn")
    if not g.stock:
        return Refusal("9.1", "the stock is empty")
    return None


def _stop(g: State, action: Stop) -> Refusal | None:
    if g.phase is not DRAW or g.stock:
        return Refusal("9.1", "you may decline the pile only when the stock is empty at the start "
                       "of a turn")
    return None


def _draw_time_refusal(g: State) -> Refusal | None:
    """Every way of taking the pile is the turn's draw (4.1), and none follows a short opening
    taken back (6.3)."""
    if g.phase is not DRAW:
        return Refusal("4.1", "you take the pile instead of drawing, at the start of your turn")
    if g.retracted:
        return _DRAW_AFTER_RETRACT
    return None


def _pile_closed_refusal(g: State) -> Refusal | None:
    """The pile cannot be taken whole at all: it is empty (4.1), or the rules keep it from a
    team that has not opened (4.6)."""
    if not g.pile:
        return Refusal("4.1", "the pile is empty")
    if not g.opened[g.seat % g.derived.teams] and g.rules.pile_before_opening == "never":
        return Refusal("4.6", f"{facts.teams(g.rules)} opening must be made before taking the pile")
    return None


def take_refusal(g: State, action: TakePile) -> Refusal | None:
    rules = g.rules
    refusal = _draw_time_refusal(g) or _pile_closed_refusal(g)
    if refusal is not None:
        return refusal
    team = g.seat % g.derived.teams
    top = g.pile[-1]
    hand = g.hands[g.seat]
    if top in (RED_THREE, BLACK_THREE):
        if not g.derived.top_takeable[top]:
            return Refusal("4.2",
                           "a three on top of the pile cannot be melded, so the pile is blocked")
        return _book_take_refusal(g, action) or _short_pile_opening(g, action)
    if top in (TWO, JOKER):
        if rules.pile_wild_top == "blocked":
            return Refusal("4.4", "a wild card on top blocks the pile")
        if action.wild >= 0:
            return Refusal("4.4", "a wild card on top is taken with two of the same wild card")
        if hand[top] < 2:
            return _TWO_WILDS[top]
        slot, n, w2, wj = WILD_SLOT, 0, 3 if top == TWO else 0, 3 if top == JOKER else 0
    else:
        slot = top
        if action.wild < 0:
            if hand[top] < 2:
                return _TWO_NATURALS[top]
            n, w2, wj = 3, 0, 0
        else:
            if rules.pile_pair != "meldable":
                return Refusal("4.3", "the pile is taken with two natural cards of its top card")
            if hand[top] < 1 or hand[action.wild] < 1:
                return Refusal("4.3",
                               f"you need a {KIND_NAMES[top]} and a {KIND_NAMES[action.wild]}")
            n, w2, wj = 2, int(action.wild == TWO), int(action.wild == JOKER)
    refusal = _fit_refusal(g, team, slot, n, w2, wj, "4.5")
    if refusal:
        return refusal
    if rules.pile_opening_checked and not g.opened[team]:
        refusal = _short_pile_opening(g, action)
        if refusal:
            return refusal
    if g.hand_n[g.seat] - (n + w2 + wj - 1) <= 1:
        return _by_trial(g, action)
    return None


def _book_take_refusal(g: State, action: TakePile) -> Refusal | None:
    """A black three on top that does not block: taken only to finish a book of black threes
    from the foot (4.2, 5.7)."""
    size = g.derived.canasta
    seat = g.seat
    if action.wild >= 0 or not g.derived.book:
        return Refusal("4.2", "a black three on top is taken only by picking the pile up"
                       if not g.derived.book else "a black three on top is taken only to finish a "
                       "book of black threes from the foot")
    if g.packet_no[seat] != g.derived.last_packet:
        return Refusal("5.7", f"a book of black threes is melded only from your "
                       f"{g.rules.packet_names[-1]}")
    if g.hands[seat][BLACK_THREE] < size - 1:
        return Refusal("5.7",
                       f"you need {size - 1} black threes to finish a book with the one on top")
    if g.hand_n[seat] - (size - 1) <= 1:
        return _by_trial(g, action)
    return None


def _take_onto(g: State, action: TakeOnto) -> Refusal | None:
    rules = g.rules
    refusal = _draw_time_refusal(g)
    if refusal is not None:
        return refusal
    if not rules.pile_onto_meld:
        return Refusal("4.7", "these rules do not take the pile with its top card alone")
    if not g.pile:
        return Refusal("4.1", "the pile is empty")
    top = g.pile[-1]
    if top in (RED_THREE, BLACK_THREE):
        return Refusal("4.2", "a three on top of the pile cannot be melded, so the pile is blocked")
    if top in (TWO, JOKER):
        return Refusal("4.7", "only a natural card on top goes onto a meld by itself")
    team = g.seat % g.derived.teams
    if not g.nat[team][top] + g.two[team][top] + g.jok[team][top]:
        return Refusal("4.7", f"{facts.team_has(rules)} no open meld of {slot_name(top)} for the "
                       "top card")
    return _fit_refusal(g, team, top, 1, 0, 0, "4.5")


def _pick_up(g: State, action: PickUpPile) -> Refusal | None:
    rules = g.rules
    refusal = _draw_time_refusal(g)
    if refusal is not None:
        return refusal
    if not rules.pile_any_card:
        return Refusal("4.8", "these rules take the pile only by melding its top card")
    refusal = _pile_closed_refusal(g)
    if refusal is not None:
        return refusal
    top = g.pile[-1]
    if not g.derived.top_takeable[top]:
        return Refusal("4.2", "a three on top of the pile blocks it")
    if top in (TWO, JOKER) and rules.pile_wild_top == "blocked":
        return Refusal("4.4", "a wild card on top blocks the pile")
    trial = g.clone()
    transitions.apply_step(trial, action, [])
    if not any(_owed_step_refusal(trial, step) is None for step in _owed_steps(trial)):
        return Refusal("4.8", "none of the cards you would pick up can be melded at once")
    return _short_pile_opening(g, action)


def _short_pile_opening(g: State, action: Action) -> Refusal | None:
    """Under ``pile_opening_checked``, a pile taken before the team's opening must be able to
    reach the minimum this turn, judged when it is taken (4.6, decision D33): the refusal says
    the most the opening could count."""
    team = g.seat % g.derived.teams
    if not g.rules.pile_opening_checked or g.opened[team]:
        return None
    trial = g.clone()
    if transitions.apply_step(trial, action, []) is not None:
        return None  # the take's own check names what is wrong with it
    most = _opening_reach(trial)
    if most is None:
        return None
    needs = (f"round {g.round_no} needs {g.minimum}" if g.rules.opening_by == "round" else
             f"{facts.teams(g.rules)} score calls for {g.minimum}")
    return Refusal("4.6", f"this pile opening can reach at most {most} points; {needs}")


def _owed_steps(g: State) -> list[Action]:
    """The meld steps that use a card picked up from the pile (4.8), for trying."""
    team = g.seat % g.derived.teams
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    kinds = set(g.picked)
    out: list[Action] = []
    for s in range(NUM_SLOTS):
        is_open = bool(nat[s] + two[s] + jok[s])
        if s != WILD_SLOT and s in kinds:
            out += [ADDS[(s, s)]] if is_open else [STARTS[(s, m)] for m in START_MAKEUPS]
        for wild, at in ((TWO, 1), (JOKER, 2)):
            if wild in kinds:
                if is_open:
                    out.append(ADDS[(s, wild)])
                else:
                    makeups = WILD_MAKEUPS if s == WILD_SLOT else START_MAKEUPS
                    out += [STARTS[(s, m)] for m in makeups if m[at]]
    if BLACK_THREE in kinds and g.derived.book:
        out.append(BOOK)
    return out


def _owed_step_refusal(g: State, step: Action) -> Refusal | None:
    if isinstance(step, BlackThreeBook):
        return book_refusal(g)
    assert isinstance(step, Start | Add)
    return meld_refusal(g, step)


def _book(g: State, action: BlackThreeBook) -> Refusal | None:
    if g.phase is DRAW:
        return Refusal("3.4", "draw or take the pile before melding")
    if g.retracted:
        return Refusal("6.3", "after taking back an opening you may not meld again this turn")
    return book_refusal(g)


def book_refusal(g: State, look_ahead: bool = True) -> Refusal | None:
    """Why a book of black threes may not be melded now (5.7)."""
    seat = g.seat
    if not g.derived.book:
        return Refusal("1.3", "threes are never melded")
    if g.packet_no[seat] != g.derived.last_packet:
        return Refusal("5.7", f"a book of black threes is melded only from your "
                       f"{g.rules.packet_names[-1]}")
    size = g.derived.canasta
    if g.hands[seat][BLACK_THREE] < size:
        return Refusal("5.7", f"a book of black threes takes {size} of them")
    if g.pile_owed and BLACK_THREE not in g.picked:
        return facts.PILE_OWED
    if look_ahead and (g.hand_n[seat] - size <= 1 or must_go_out(g)):
        return _by_trial(g, BOOK)
    return None


def _fit_refusal(g: State, team: int, slot: int, n: int, w2: int, wj: int,
                 clause: str) -> Refusal | None:
    """Why adding these cards to the team's meld in ``slot`` breaks the meld rules."""
    d = g.derived
    n0, t0, j0 = g.nat[team][slot], g.two[team][slot], g.jok[team][slot]
    n1, w1 = n0 + n, t0 + j0 + w2 + wj
    if d.fits(slot, n1, w1):
        return None
    rules = g.rules
    size = n1 + w1
    if slot == WILD_SLOT:
        if not rules.wild_melds:
            return Refusal("5.5", "these rules allow no melds of wild cards only")
    else:
        why = d.wild_error(slot, n1, w1)
        if why:
            return Refusal("5.4" if slot in rules.no_wild_ranks else "5.3", why)
    if size > d.canasta and not d.grows[slot]:
        if n0 + t0 + j0:
            return Refusal(clause if clause == "4.5" else "5.6",
                           f"{facts.teams(rules)} {slot_name(slot)} meld has "
                           f"{n0 + t0 + j0} cards: a canasta stops at {d.canasta}")
        return Refusal("5.6", f"a canasta stops at {d.canasta} cards")
    return None


def _meld(g: State, action: Start | Add) -> Refusal | None:
    if g.phase is DRAW:
        return Refusal("3.4", "draw or take the pile before melding")
    if g.retracted:
        return Refusal("6.3", "after taking back an opening you may not meld again this turn")
    return meld_refusal(g, action)


def meld_refusal(g: State, action: Start | Add, look_ahead: bool = True) -> Refusal | None:
    """Why this meld step is illegal.  ``look_ahead``: also refuse a step after which the turn
    could not end legally (a lay-down turns it off for its steps and judges its end as a whole)."""
    team = g.seat % g.derived.teams
    hand = g.hands[g.seat]
    slot = action.slot
    if g.pile_owed and not facts.step_uses_picked(g, action):
        return facts.PILE_OWED
    open_size = g.nat[team][slot] + g.two[team][slot] + g.jok[team][slot]
    if isinstance(action, Start):
        n, w2, wj = action.naturals, action.twos, action.jokers
        if n + w2 + wj != 3:
            return Refusal("5.1", "a new meld starts with three cards")
        if slot == WILD_SLOT and n:
            return Refusal("5.5", "a wild meld holds only wild cards")
        if open_size:
            return Refusal("5.2", f"{facts.team_has(g.rules)} an unfinished {slot_name(slot)} meld "
                           "already: add to it")
        if slot != WILD_SLOT and not n and not g.rules.wilds_first:
            return Refusal("5.3", "a meld starts with natural cards")
    else:
        kind = action.kind
        n, w2, wj = int(kind == slot < WILD_SLOT), int(kind == TWO), int(kind == JOKER)
        if kind in (RED_THREE, BLACK_THREE):
            return Refusal("1.3", "threes are never melded")
        if n + w2 + wj != 1:
            return Refusal("5.1", f"a {KIND_NAMES[kind]} does not go on a {slot_name(slot)} meld")
        if not open_size:
            if any(c[0] == slot for c in g.closed[team]):
                return Refusal("5.6", f"{facts.teams(g.rules)} canasta of {slot_name(slot)} is "
                               f"closed at {g.derived.canasta} cards: start a new meld of "
                               f"{slot_name(slot)} with three cards")
            return Refusal("5.2", f"{facts.team_has(g.rules)} no open meld of {slot_name(slot)}: "
                           "start one with three cards")
    if slot != WILD_SLOT and hand[slot] < n:
        return Refusal("3.4", f"you do not hold {n} {KIND_NAMES[slot]}s")
    if hand[TWO] < w2 or hand[JOKER] < wj:
        return Refusal("3.4", "you do not hold those wild cards")
    refusal = _fit_refusal(g, team, slot, n, w2, wj, "5.1")
    if refusal:
        return refusal
    if look_ahead and (g.hand_n[g.seat] - (n + w2 + wj) <= 1 or must_go_out(g)):
        return _by_trial(g, action)
    return None


def discard_refusal(g: State, kind: int) -> Refusal | None:
    if g.phase is not MELD:
        return Refusal("3.5", "draw before you discard" if g.phase is DRAW else
                       "finish your opening or take it back first")
    seat = g.seat
    team = seat % g.derived.teams
    owed = facts.discard_owed(g)
    if (g.hand_n[seat] > 1 and g.hands[seat][kind] and (g.opened[team] or not g.staged)
            and owed and not must_go_out(g)):
        return None
    if not owed:
        return Refusal("3.6", "after taking the pile you knock instead of discarding")
    if g.staged and not g.opened[team]:
        return Refusal("6.1", f"your opening has {g.staged} points; it needs {g.minimum}: add "
                       "melds or take it back")
    if g.hands[seat][kind] < 1:
        return Refusal("3.5", f"you hold no {KIND_NAMES[kind]}")
    if g.hand_n[seat] == 1:
        if g.packet_no[seat] == g.derived.last_packet:
            why = facts.go_out_refusal(g, seat)
            if why and not g.rules.strip_bare:  # where it is, the card is shed instead (D34)
                return facts.stripping_refusal(g, seat, why)
        else:
            return facts.next_packet_refusal(g, seat, facts.has_canasta(g, team))
        return None
    if must_go_out(g):
        return _MUST_GO_OUT
    return None


def _discard(g: State, action: Discard) -> Refusal | None:
    if g.pile_owed:  # the legal list never offers a discard then; a player may try one
        return facts.PILE_OWED
    return discard_refusal(g, action.kind)


def _knock(g: State, action: Knock) -> Refusal | None:
    if g.phase is not MELD:
        return Refusal("3.6", "you knock to end your turn after melding")
    if g.pile_owed:
        return facts.PILE_OWED
    if facts.discard_owed(g) and not _cannot_discard(g):
        return Refusal("3.6", "you knock only after taking the pile, where the turn ends "
                       "without a discard")
    if g.staged and not g.opened[g.seat % g.derived.teams]:
        return Refusal("6.1", f"your opening has {g.staged} points; it needs {g.minimum}")
    if must_go_out(g):
        return _MUST_GO_OUT
    return None


def _retract(g: State, action: Retract) -> Refusal | None:
    if g.phase is DRAW or not g.staged or g.opened[g.seat % g.derived.teams]:
        return Refusal("6.3", "there is no short opening to take back")
    return None


def _ask(g: State, action: Ask) -> Refusal | None:
    rules = g.rules
    if not rules.permission or rules.team_size == 1:
        return Refusal("8.5", "these rules do not ask a partner's permission")
    if g.phase is not MELD:
        return Refusal("8.5", "ask after drawing, during your turn")
    if g.asked is not NOT_ASKED:
        return Refusal("8.5", "you have already asked this turn")
    if g.pile_owed:
        return facts.PILE_OWED
    seat = g.seat
    if g.packet_no[seat] != g.derived.last_packet:
        return Refusal("8.3", f"you can go out only from your {rules.packet_names[-1]}")
    if rules.permission_yes == "binding" and not can_go_out(g):
        why = facts.go_out_refusal(_assuming_yes(g), seat)
        reason = why.reason if why else "you cannot play out every card this turn"
        return Refusal("8.5.4" if why is None else why.clause,
                       f"ask only when you can go out this turn: {reason}")
    return None


def _laydown(g: State, action: LayDown) -> Refusal | None:
    if g.phase is DRAW:
        return Refusal("3.4", "draw or take the pile before melding")
    if g.retracted:
        return Refusal("6.3", "after taking back an opening you may not meld again this turn")
    trial = g.clone()
    if g.pile_owed:
        if not facts.step_uses_picked(g, action):
            return facts.PILE_OWED
        trial.pile_owed = False  # the lay-down as a whole uses a picked-up card (4.8)
    for step in facts.laydown_steps(trial, action):
        if isinstance(step, Refusal):
            return step
        refusal = meld_refusal(trial, step, look_ahead=False)
        if refusal:
            return refusal
        refusal = transitions.apply_step(trial, step, [])
        if refusal:
            return refusal
    team = g.seat % g.derived.teams
    if not trial.opened[team]:
        return Refusal("6.1", f"this opening counts {trial.staged} points; round {g.round_no} "
                       f"needs {g.minimum}")
    return _stuck_refusal(trial)


CHECKS: dict[type, Callable[[State, Any], Refusal | None]] = {
    Draw: _draw,
    Stop: _stop,
    TakePile: take_refusal,
    Start: _meld,
    Add: _meld,
    LayDown: _laydown,
    Discard: _discard,
    Knock: _knock,
    Retract: _retract,
    Ask: _ask,
    Answer: _answer,
    TakeOnto: _take_onto,
    PickUpPile: _pick_up,
    BlackThreeBook: _book,
}


# ====================================================================== looking ahead
def _cannot_discard(g: State) -> bool:
    """A single card that may not be discarded (it would go out without the right to): only a
    draw of red threes that are not replaced leaves a player so (decision D21); melding down
    to it is refused by the look-ahead, so knocking here cannot dodge rule 7.5."""
    seat = g.seat
    if g.hand_n[seat] != 1:
        # No card at all: only a player who stripped bare (D34) and then drew red threes or
        # took a one-card pile onto a meld holds none, and knocks.
        return g.hand_n[seat] == 0
    kind = next(k for k in range(NUM_KINDS) if g.hands[seat][k])
    return discard_refusal(g, kind) is not None


def _by_trial(g: State, action: Action) -> Refusal | None:
    """Try an action that leaves the player with one card or none on a copy: legal only if
    the turn can still end (7.2, 7.5, 8.x); after a binding yes, only if the player can still
    go out this turn (8.5.3)."""
    trial = g.clone()
    refusal = transitions.apply_step(trial, action, [])
    if refusal:
        return refusal
    if must_go_out(g) and trial.ended_by is None and not can_go_out(trial):
        return _MUST_GO_OUT
    return _stuck_refusal(trial)


def _stuck_refusal(g: State) -> Refusal | None:
    """Why the turn seat could not finish the turn from here, or None if it can."""
    if g.ended_by is not None or g.turn_over or g.seat != g.actor or g.phase is DRAW:
        return None
    seat = g.seat
    if g.phase is PILE_OPENING or (g.staged and not g.opened[seat % g.derived.teams]):
        return None  # a short opening can always be taken back
    c = g.hand_n[seat]
    if c >= 2 or (c == 1 and not facts.discard_owed(g)):
        return None
    if c == 1:
        kind = next(k for k in range(NUM_KINDS) if g.hands[seat][k])
        if discard_refusal(g, kind) is None:
            return None
        team = seat % g.derived.teams
        for s in range(NUM_SLOTS):
            if g.nat[team][s] + g.two[team][s] + g.jok[team][s] and (kind in (s, TWO, JOKER)):
                if s == WILD_SLOT and kind not in (TWO, JOKER):
                    continue
                if meld_refusal(g, ADDS[(s, kind)]) is None:
                    return None
        if g.packet_no[seat] == g.derived.last_packet:
            return facts.stripping_refusal(g, seat, facts.go_out_refusal(g, seat))
        return facts.next_packet_refusal(g, seat, False) or \
            Refusal("7.5", "you must keep a card to discard")
    return Refusal("7.5", "you may not empty your hand here")


def _opening_reach(g: State) -> int | None:
    """None when some run of meld steps this turn makes the team's opening from ``g`` and the
    turn can still end; otherwise the most the opening can count.

    Like can_go_out it works through the slots in order with the engine's own steps; of the
    positions with the same hand and canastas it keeps the one counting most, since the
    slots still to come can add the same to each."""
    seat = g.seat
    team = seat % g.derived.teams
    if g.opened[team]:
        return None if _stuck_refusal(g) is None else g.staged
    starts = [g]
    if g.pile_owed:  # the first meld must use a card picked up (4.8)
        starts = []
        for step in _owed_steps(g):
            if isinstance(step, BlackThreeBook):
                refusal = book_refusal(g, look_ahead=False)
            else:
                assert isinstance(step, Start | Add)
                refusal = meld_refusal(g, step, look_ahead=False)
            after = g.clone()
            if refusal is None and transitions.apply_step(after, step, []) is None:
                starts.append(after)
    frontier: list[State] = []
    for start in starts:
        frontier += _book_outcomes(start) if g.derived.book else [start]
    most = g.staged
    for s in range(-1, NUM_SLOTS):
        merged: dict[tuple[object, ...], State] = {}
        for position in frontier:
            for after in (_slot_outcomes(position, s) if s >= 0 else [position]):
                if after.opened[team]:
                    if _stuck_refusal(after) is None:
                        return None
                    continue
                most = max(most, after.staged)
                key = (tuple(after.hands[seat]), tuple(sorted(facts.canasta_kinds(after, team))))
                kept = merged.get(key)
                if kept is None or after.staged > kept.staged:
                    merged[key] = after
        frontier = list(merged.values())
    return most


def _assuming_yes(g: State) -> State:
    """A copy of the state in which the partner has said yes (to ask whether going out is
    possible before asking)."""
    trial = g.clone()
    if trial.rules.permission and trial.rules.team_size > 1:
        trial.asked = AskState.YES
    return trial


def can_go_out(g: State) -> bool:
    """Whether the turn seat can go out this turn from here, were its partner to say yes:
    meld every card, or all but one and discard that one (8.1 to 8.6).

    The search applies the engine's own meld steps to copies.  Steps on different meld slots
    commute, so it works through the slots in order: after each slot it keeps one position
    for every distinct hand and set of finished canastas, which is all that later slots and
    the going-out check depend on."""
    seat = g.seat
    if g.phase is not MELD or g.packet_no[seat] != g.derived.last_packet or g.retracted:
        return False
    trial = _assuming_yes(g)
    if not _out_possible(trial):
        return False
    if _finished(trial):
        return True
    team = seat % g.derived.teams
    allowance = 1 if facts.discard_owed(trial) else 0
    frontier = _book_outcomes(trial) if g.derived.book else [trial]
    if any(p.ended_by is not None or _finished(p) for p in frontier):
        return True
    for s in range(NUM_SLOTS):
        merged: dict[tuple[object, ...], State] = {}
        for position in frontier:
            for after in _slot_outcomes(position, s):
                if after.ended_by is not None or _finished(after):
                    return True
                hand = after.hands[seat]
                # Naturals of this slot and those before it can no longer be melded.
                if hand[RED_THREE] + hand[BLACK_THREE] + sum(hand[:s + 1]) > allowance:
                    continue
                key = (tuple(hand), tuple(sorted(facts.canasta_kinds(after, team))))
                merged.setdefault(key, after)
        frontier = list(merged.values())
        if not frontier:
            return False
    return False


def _book_outcomes(g: State) -> list[State]:
    """``g`` and the positions after one, two, ... books of black threes (5.7): books come
    first, since nothing else uses black threes."""
    out = [g]
    while book_refusal(out[-1], look_ahead=False) is None:
        after = out[-1].clone()
        if transitions.apply_step(after, BOOK, []) is not None:
            break
        out.append(after)
        if after.ended_by is not None:
            break
    return out


def _could_finish(g: State, team: int, kind: str) -> bool:
    """Whether the hand holds enough of the right cards to finish a canasta of ``kind`` this
    turn, counting every card it could use and ignoring the wild-card limits (a necessary
    condition only: the search decides)."""
    d, rules = g.derived, g.rules
    hand = g.hands[g.seat]
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    size, wilds = d.canasta, hand[TWO] + hand[JOKER]
    if (d.book and hand[BLACK_THREE] >= size
            and (kind == "clean" or (kind == "dirty" and rules.clean_fills_dirty))):
        return True  # a book of black threes is a clean canasta (5.7)
    if kind == "wild":
        return rules.wild_melds and nat[WILD_SLOT] + two[WILD_SLOT] + jok[WILD_SLOT] + wilds >= size

    def clean(r: int) -> bool:
        return (two[r] + jok[r] == 0 and nat[r] + hand[r] >= size) or hand[r] >= size

    if kind == "clean" or (kind == "dirty" and rules.clean_fills_dirty):
        ranks = [r for r in range(WILD_SLOT)
                 if rules.special_fills_clean or d.rank_kind[r] is None]
        if any(clean(r) for r in ranks):
            return True
    if kind == "dirty":
        return any(r not in rules.no_wild_ranks and two[r] + jok[r] + wilds >= 1
                   and nat[r] + two[r] + jok[r] + hand[r] + wilds >= size
                   for r in range(WILD_SLOT))
    if kind == "clean":
        return False
    rank = next(r for r in range(WILD_SLOT) if d.rank_kind[r] == kind)
    return clean(rank)


def _finished(g: State) -> bool:
    """One card left, and discarding it goes out."""
    seat = g.seat
    if g.hand_n[seat] != 1 or not facts.discard_owed(g):
        return False
    kind = next(k for k in range(NUM_KINDS) if g.hands[seat][k])
    if g.rules.strip_bare and facts.go_out_refusal(g, seat) is not None:
        return False  # the discard would only strip bare (D34)
    return discard_refusal(g, kind) is None


def _slot_outcomes(g: State, slot: int) -> list[State]:
    """Every position reachable from ``g`` by meld steps on ``slot`` alone, ``g`` included."""
    seat = g.seat
    team = seat % g.derived.teams
    out = [g]
    seen = {_slot_key(g, team, slot)}
    todo = [g]
    while todo:
        position = todo.pop()
        if position.ended_by is not None:
            continue
        hand = position.hands[seat]
        have = hand[slot] if slot != WILD_SLOT else 0
        h2, hj = hand[TWO], hand[JOKER]
        if not have and not (h2 or hj):
            continue
        steps: list[Start | Add] = []
        if position.nat[team][slot] + position.two[team][slot] + position.jok[team][slot]:
            if have:
                steps.append(ADDS[(slot, slot)])
            if h2:
                steps.append(ADDS[(slot, TWO)])
            if hj:
                steps.append(ADDS[(slot, JOKER)])
        else:
            steps += [STARTS[(slot, c)] for c in
                      (WILD_MAKEUPS if slot == WILD_SLOT else START_MAKEUPS)
                      if have >= c[0] and h2 >= c[1] and hj >= c[2]]
        for step in steps:
            if meld_refusal(position, step, look_ahead=False) is not None:
                continue
            after = position.clone()
            if transitions.apply_step(after, step, []) is not None:
                continue
            key = _slot_key(after, team, slot)
            if key in seen:
                continue
            seen.add(key)
            out.append(after)
            todo.append(after)
    return out


def _slot_key(g: State, team: int, slot: int) -> tuple[int, ...]:
    hand = g.hands[g.seat]
    return (hand[slot] if slot != WILD_SLOT else 0, hand[TWO], hand[JOKER], g.nat[team][slot],
            g.two[team][slot], g.jok[team][slot], len(g.closed[team]), g.hand_n[g.seat])


def _out_possible(g: State) -> bool:
    """Cheap necessary conditions for going out this turn, so the search runs only where
    it might succeed: the partners' feet (8.4), cards no meld can take, and enough cards to
    finish the canastas the quota still lacks."""
    seat = g.seat
    why = facts.go_out_refusal(g, seat)
    if why is not None and why.clause != "8.1":
        return False
    d = g.derived
    team = seat % d.teams
    hand = g.hands[seat]
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    allowance = 1 if facts.discard_owed(g) else 0
    wilds = hand[TWO] + hand[JOKER]
    threes = hand[BLACK_THREE]
    stuck = hand[RED_THREE] + (threes % d.canasta if d.book else threes)
    wanted = 0  # wild cards that short ranks need to start their melds
    singles = 0
    for r in range(WILD_SLOT):
        h = hand[r]
        if not h or h >= 3 or nat[r] + two[r] + jok[r]:
            continue
        if wilds >= 3 - h and d.fits(r, h, 3 - h):
            wanted += 3 - h
            singles += h == 1
        else:
            stuck += h
    if stuck > allowance:
        return False
    if wanted > wilds + (2 if singles and stuck < allowance else 0):
        return False
    lacking = facts.quota_missing(g, team)
    if any(not _could_finish(g, team, kind) for kind in lacking):
        return False
    missing = sum(lacking.values())
    if missing:
        # Each missing canasta needs a meld brought to the canasta size this turn: at best
        # the largest open melds, then new ones from nothing.
        sizes = sorted((nat[s] + two[s] + jok[s] for s in range(len(nat))
                        if nat[s] + two[s] + jok[s] < d.canasta), reverse=True)
        sizes += [0] * missing
        if sum(d.canasta - size for size in sizes[:missing]) > g.hand_n[seat]:
            return False
    return True
