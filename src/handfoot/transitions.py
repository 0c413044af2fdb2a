"""How each action changes the state: one handler per action type.

Handlers assume the action was checked (legality.py) and append what happened to ``events``.
They end a turn by setting ``turn_over`` and a round by setting ``ended_by``; what follows (the
next turn, scoring, the next deal) is flow.py's, so a trial on a copy (legality.py) can apply a
step without dealing a new round.  A handler returns a ``Refusal`` only for outcomes a trial
must reject (emptying a hand that may not be emptied).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import facts
from .actions import (
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
from .cards import BLACK_THREE, JOKER, NUM_KINDS, RED_THREE, TWO, WILD_SLOT
from .events import (
    Answered,
    AskedToGoOut,
    CanastaFinished,
    Discarded,
    Drew,
    Event,
    Knocked,
    Melded,
    Opened,
    Passed,
    PennySetAside,
    PickedUp,
    PileTaken,
    PileToHand,
    RedThreesLaid,
    Refusal,
    Replaced,
    Retracted,
    StockEmptied,
    WentOut,
)
from .state import AskState, Phase, RoundEnd, Snapshot, State

MELD, ANSWER, PILE_OPENING, DRAW = Phase.MELD, Phase.ANSWER, Phase.PILE_OPENING, Phase.DRAW
# The three events of nearly every action (a draw, a meld, a discard) are built with
# tuple.__new__, which skips the named tuple's Python-level __new__: an ordinary event.
_event = tuple.__new__


def apply_action(g: State, action: Action, events: list[Event]) -> None:
    """Apply a checked action for the seat that must act."""
    seat = g.seat
    if g.packet_no[seat] == g.derived.last_packet and g.phase is not ANSWER:
        g.foot_played[seat] = True
    HANDLERS[type(action)](g, action, events)


def apply_step(g: State, action: Action, events: list[Event]) -> Refusal | None:
    """Apply one action to a trial copy: what the checks use to look ahead."""
    return HANDLERS[type(action)](g, action, events)


# ====================================================================== red threes
def lay_red_threes(g: State, seat: int, source: str, events: list[Event]) -> None:
    """Lay every red three the seat holds and replace those the rules replace (2.4, 3.3, 7.4).
    ``source``: "deal", "draw", "packet" or "pile": where the red threes came from."""
    rules = g.rules
    if rules.red_threes != "bonus":
        return
    hand = g.hands[seat]
    while hand[RED_THREE]:
        count = hand[RED_THREE]
        hand[RED_THREE] = 0
        g.hand_n[seat] -= count
        g.red3[seat] += count
        events.append(RedThreesLaid(seat, count))
        mode = rules.red_three_replacement
        if mode == "never":
            return
        if mode == "not_from_packets" and source == "packet":
            return
        if mode == "first_packet_only" and g.packet_no[seat] > 0:
            return
        drawn = 0
        stock = g.stock
        for _ in range(count):
            if not stock:
                break
            hand[stock.pop()] += 1
            drawn += 1
        g.hand_n[seat] += drawn
        if drawn:
            events.append(Replaced(seat, drawn))
        source = "draw"


# ====================================================================== the handlers
def _draw(g: State, action: Draw, events: list[Event]) -> None:
    seat = g.seat
    hand = g.hands[seat]
    stock = g.stock
    drawn = min(g.derived.draw, len(stock))
    for _ in range(drawn):
        hand[stock.pop()] += 1
    g.hand_n[seat] += drawn
    events.append(_event(Drew, (seat, drawn)))
    if hand[RED_THREE]:
        lay_red_threes(g, seat, "draw", events)
    g.phase = MELD
    if not stock and g.rules.stock_out == "end_of_turn":
        events.append(StockEmptied(seat))
    if g.knee_pending[seat]:
        _knee_after_draw(g, events)


def _stop(g: State, action: Stop, events: list[Event]) -> None:
    """Decline the pile with the stock empty: a pass where every player is asked in turn,
    otherwise the end of the round (9.1)."""
    if g.rules.stock_out == "nobody_takes":
        g.passes += 1
        events.append(Passed(g.seat, True))
        g.turn_over = True
    else:
        g.ended_by = RoundEnd.STOCK_OUT


def _take(g: State, action: TakePile, events: list[Event]) -> Refusal | None:
    rules = g.rules
    seat, team = g.seat, g.seat % g.derived.teams
    pile = g.pile
    top = pile[-1]
    opened = g.opened[team]
    if not opened:
        _snapshot(g)
    taken = _take_count(g, len(pile), opened)
    pile.pop()
    if top == BLACK_THREE:
        # A black three that does not block is taken to finish a book from the foot (5.7).
        return _take_for_book(g, seat, top, taken, opened, events)
    if top in (TWO, JOKER):
        slot, n, w2, wj = WILD_SLOT, 0, 2 * (top == TWO), 2 * (top == JOKER)
        tn, t2, tj = 0, int(top == TWO), int(top == JOKER)
    else:
        slot = top
        n = 2 if action.wild < 0 else 1
        w2, wj = int(action.wild == TWO), int(action.wild == JOKER)
        tn, t2, tj = 1, 0, 0
    g.took_pile = True
    g.passes = 0
    events.append(PileTaken(seat, top, taken))
    # The top card joins the meld from the pile; the pair comes from the hand.
    g.nat[team][slot] += tn
    g.two[team][slot] += t2
    g.jok[team][slot] += tj
    if not opened and rules.pile_before_opening != "hand_only":
        g.staged += g.derived.values[top]
    if opened:
        g.phase = MELD
        _release_pile(g, seat, events)
    else:
        g.phase = PILE_OPENING
    refusal = _place(g, slot, n, w2, wj, events)
    if refusal:
        return refusal
    if g.phase is MELD and g.seat == seat and g.knee_pending[seat]:
        _knee_after_draw(g, events)
    return None


def _take_for_book(g: State, seat: int, top: int, taken: int, opened: bool,
                   events: list[Event]) -> Refusal | None:
    g.took_pile = True
    g.passes = 0
    events.append(PileTaken(seat, top, taken))
    if opened:
        g.phase = MELD
        _release_pile(g, seat, events)
    else:
        g.phase = PILE_OPENING
    refusal = _book(g, 1, events)
    if refusal is None and g.phase is MELD and g.seat == seat and g.knee_pending[seat]:
        _knee_after_draw(g, events)
    return refusal


def _take_onto(g: State, action: TakeOnto, events: list[Event]) -> Refusal | None:
    """The top card alone onto the team's open meld of its rank; the rest of the pile into the
    hand (4.7).  Only a team that has opened has melds, so no opening is at stake."""
    d = g.derived
    seat, team = g.seat, g.seat % d.teams
    pile = g.pile
    taken = _take_count(g, len(pile), True)
    top = pile.pop()
    g.took_pile = True
    g.passes = 0
    events.append(PileTaken(seat, top, taken))
    g.nat[team][top] += 1
    g.phase = MELD
    _release_pile(g, seat, events)
    size = g.nat[team][top] + g.two[team][top] + g.jok[team][top]
    canasta = size >= d.canasta
    if canasta:
        _canasta(g, seat, team, top, size - 1 < d.canasta, events)
    refusal = _settle(g, seat, events, canasta)
    if g.phase is MELD and g.seat == seat and g.knee_pending[seat]:
        _knee_after_draw(g, events)
    return refusal


def _pick_up_pile(g: State, action: PickUpPile, events: list[Event]) -> None:
    """The pile (as many cards as pile_take says) into the hand; the next meld must use one
    of them (4.8).  Before the opening they count toward it like any card of the hand, and a
    short opening taken back returns them to the pile (6.3)."""
    seat, team = g.seat, g.seat % g.derived.teams
    opened = g.opened[team]
    if not opened:
        _snapshot(g)
    pile = g.pile
    top = pile[-1]
    count = _take_count(g, len(pile), opened)
    taken = tuple(pile[-count:])
    del pile[-count:]
    hand, known = g.hands[seat], g.known[seat]
    for k in taken:
        hand[k] += 1
        known[k] += 1
    g.hand_n[seat] += count
    g.took_pile = True
    g.passes = 0
    g.picked = taken
    g.pile_owed = True
    g.turn_limit = 0  # the next turn forgets the picked-up pile (flow._watched)
    events.append(PileTaken(seat, top, count))
    events.append(PileToHand(seat, taken))
    if opened:
        g.phase = MELD
        _lay_picked_threes(g, seat, events)
        if g.knee_pending[seat]:
            _knee_after_draw(g, events)
    else:
        g.phase = PILE_OPENING


def _lay_picked_threes(g: State, seat: int, events: list[Event]) -> None:
    """Red threes picked up with the pile are laid once the team has opened (until then a
    short opening could still send them back to the pile)."""
    hand = g.hands[seat]
    if g.rules.red_threes == "bonus" and hand[RED_THREE]:
        g.known[seat][RED_THREE] = 0
        lay_red_threes(g, seat, "pile", events)


def _take_count(g: State, pile_size: int, opened: bool) -> int:
    """How many cards a take moves, the top card included (4.1, 4.6)."""
    if not opened and g.rules.pile_before_opening == "top_card_only":
        return 1
    limit = g.derived.pile_take
    return pile_size if limit == 0 else min(pile_size, limit)


def _start(g: State, action: Start, events: list[Event]) -> Refusal | None:
    return _place(g, action.slot, action.naturals, action.twos, action.jokers, events)


def _add(g: State, action: Add, events: list[Event]) -> Refusal | None:
    k = action.kind
    return _place(g, action.slot, int(k < TWO), int(k == TWO), int(k == JOKER), events)


def _lay_down(g: State, action: LayDown, events: list[Event]) -> Refusal | None:
    if g.pile_owed and facts.step_uses_picked(g, action):
        g.pile_owed = False
    for step in facts.laydown_steps(g, action):
        assert not isinstance(step, Refusal)
        refusal = _place_step(g, step, events)
        if refusal:
            return refusal
    return None


def _place_step(g: State, step: Start | Add, events: list[Event]) -> Refusal | None:
    if type(step) is Start:
        return _start(g, step, events)
    assert isinstance(step, Add)
    return _add(g, step, events)


def _book_action(g: State, action: BlackThreeBook, events: list[Event]) -> Refusal | None:
    return _book(g, 0, events)


def _discard(g: State, action: Discard, events: list[Event]) -> None:
    seat = g.seat
    k = action.kind
    g.hands[seat][k] -= 1
    g.hand_n[seat] -= 1
    known = g.known[seat]
    if known[k]:
        known[k] -= 1
    g.pile.append(k)
    events.append(_event(Discarded, (seat, k)))
    g.turn_over = True
    if g.hand_n[seat] == 0:
        if g.packet_no[seat] == g.derived.last_packet:
            # Where a table lets a player strip bare, a discard that may not go out sheds the
            # last card and the round goes on (D34); the check passed it for that reason.
            if not g.rules.strip_bare or facts.go_out_refusal(g, seat) is None:
                _go_out(g, seat, events)
            return
        _pick_up(g, seat, events)
        if g.rules.foot_replaces_draw:
            g.foot_turns |= 1 << seat  # the packet replaces the next turn's draw (7.3)
            g.turn_limit = 0  # which flow._watched sees to


def _knock(g: State, action: Knock, events: list[Event]) -> None:
    events.append(Knocked(g.seat))
    g.turn_over = True


def _retract(g: State, action: Retract, events: list[Event]) -> None:
    seat, team = g.seat, g.seat % g.derived.teams
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
    g.picked = ()
    g.pile_owed = False
    if g.phase is PILE_OPENING:
        g.phase = DRAW  # the pile goes back; the player draws from the stock (6.3)
        g.took_pile = False
    events.append(Retracted(seat))


def _ask(g: State, action: Ask, events: list[Event]) -> None:
    rules = g.rules
    seat = g.seat
    mates = [m for m in rules.seats_of(seat % g.derived.teams) if m != seat]
    g.phase = ANSWER
    # The partner who plays next answers (decision D6 in docs/RULES.md).
    g.actor = min(mates, key=lambda m: (m - seat) % rules.players)
    events.append(AskedToGoOut(seat, g.actor))


def _answer(g: State, action: Answer, events: list[Event]) -> None:
    g.asked = AskState.YES if action.yes else AskState.NO
    events.append(Answered(g.actor, bool(action.yes)))
    g.actor = g.seat
    g.phase = MELD


HANDLERS: dict[type, Callable[[State, Any, list[Event]], Refusal | None]] = {
    Draw: _draw,
    Stop: _stop,
    TakePile: _take,
    Start: _start,
    Add: _add,
    LayDown: _lay_down,
    Discard: _discard,
    Knock: _knock,
    Retract: _retract,
    Ask: _ask,
    Answer: _answer,
    TakeOnto: _take_onto,
    PickUpPile: _pick_up_pile,
    BlackThreeBook: _book_action,
}


# ====================================================================== what the handlers share
def _knee_after_draw(g: State, events: list[Event]) -> None:
    """A partner's knee waits for their next turn, after drawing (7.1)."""
    seat = g.seat
    g.knee_pending[seat] = False
    if g.packet_no[seat] == 0:
        _pick_up(g, seat, events)


def _pick_up(g: State, seat: int, events: list[Event]) -> None:
    """The next face-down packet joins the seat's hand (7.1, 7.3)."""
    packet = g.packets[seat].pop(0)
    hand = g.hands[seat]
    for k in range(NUM_KINDS):
        hand[k] += packet[k]
    size = sum(packet)
    g.hand_n[seat] += size
    g.packet_no[seat] += 1
    g.knee_pending[seat] = False
    events.append(PickedUp(seat, g.rules.packet_names[g.packet_no[seat]], size))
    if hand[RED_THREE]:
        lay_red_threes(g, seat, "packet", events)


def _forget(g: State, seat: int, kind: int, count: int) -> None:
    known = g.known[seat]
    if known[kind]:
        known[kind] = max(0, known[kind] - count)


def _snapshot(g: State) -> None:
    if g.snapshot is None:
        seat, team = g.seat, g.seat % g.derived.teams
        g.snapshot = Snapshot(
            g.hands[seat][:], g.hand_n[seat], g.nat[team][:], g.two[team][:], g.jok[team][:],
            g.closed[team][:], g.pile[:], g.known[seat][:],
        )


def _release_pile(g: State, seat: int, events: list[Event], opening: bool = False) -> None:
    """The rest of the taken pile goes into the hand, seen by everyone (4.1).  ``opening``:
    the take made the team's opening (the team is marked opened just before this runs)."""
    if g.picked:  # picked up whole (4.8): its cards are in the hand already
        _lay_picked_threes(g, seat, events)
        return
    count = _take_count(g, len(g.pile) + 1, not opening) - 1
    if count <= 0:
        return
    taken = g.pile[-count:]
    del g.pile[-count:]
    hand, known = g.hands[seat], g.known[seat]
    for k in taken:
        hand[k] += 1
        known[k] += 1
    g.hand_n[seat] += count
    events.append(PileToHand(seat, tuple(taken)))
    if g.rules.red_threes == "bonus" and hand[RED_THREE]:
        known[RED_THREE] = 0
        lay_red_threes(g, seat, "pile", events)


def _place(g: State, slot: int, n: int, w2: int, wj: int, events: list[Event]) -> Refusal | None:
    """Move cards from the turn seat's hand onto the team meld in ``slot``, then settle what
    follows: the opening, a finished canasta, the knee, an empty hand, going out."""
    d = g.derived
    seat, team = g.seat, g.seat % d.teams
    hand = g.hands[seat]
    opened = g.opened[team]
    if not opened:
        _snapshot(g)
    if slot != WILD_SLOT:
        hand[slot] -= n
        _forget(g, seat, slot, n)
    if w2:
        hand[TWO] -= w2
        _forget(g, seat, TWO, w2)
    if wj:
        hand[JOKER] -= wj
        _forget(g, seat, JOKER, wj)
    if g.pile_owed and facts.uses_picked(g, slot, n, w2, wj):
        g.pile_owed = False
    count = n + w2 + wj
    g.hand_n[seat] -= count
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    nat[slot] += n
    two[slot] += w2
    jok[slot] += wj
    events.append(_event(Melded, (seat, slot, n, w2, wj)))
    values = d.values
    if not opened:
        g.staged += (n * values[slot] if slot != WILD_SLOT else 0) + w2 * values[TWO] \
            + wj * values[JOKER]
    size = nat[slot] + two[slot] + jok[slot]
    canasta = size >= d.canasta
    if canasta:
        kind = _canasta(g, seat, team, slot, size - count < d.canasta, events)
        if kind is not None and not opened and d.opening_bonus is not None:
            g.staged += d.opening_bonus.get(kind, 0)  # 6.2: the bonus counts toward it
    return _open_and_settle(g, seat, team, opened, canasta, events)


def _book(g: State, from_pile: int, events: list[Event]) -> Refusal | None:
    """A book of black threes, a canasta's worth at once, closed as a clean canasta (5.7):
    ``from_pile`` of its cards come from the pile's top, the rest from the hand."""
    d = g.derived
    seat, team = g.seat, g.seat % d.teams
    opened = g.opened[team]
    if not opened:
        _snapshot(g)
    size = d.canasta
    n = size - from_pile
    g.hands[seat][BLACK_THREE] -= n
    g.hand_n[seat] -= n
    _forget(g, seat, BLACK_THREE, n)
    if g.pile_owed and BLACK_THREE in g.picked:
        g.pile_owed = False
    g.closed[team].append((BLACK_THREE, size, 0, 0))
    events.append(Melded(seat, BLACK_THREE, n, 0, 0))
    kind = d.canasta_kind(BLACK_THREE, 0)
    events.append(CanastaFinished(seat, BLACK_THREE, kind))
    if g.rules.canasta_pennies:
        _pennies(g, seat, events)
    if not opened and d.opening_bonus is not None:
        g.staged += d.opening_bonus.get(kind, 0)
    return _open_and_settle(g, seat, team, opened, True, events)


def _open_and_settle(g: State, seat: int, team: int, opened: bool, canasta: bool,
                     events: list[Event]) -> Refusal | None:
    """After cards reached the table: the opening when it is reached (6.1), or when the whole
    hand went down where that opens (6.4); then what the melds bring (_settle)."""
    if not opened:
        if g.staged < g.minimum:
            if g.hand_n[seat]:
                return None  # a canasta finished here counts once the opening is made (7.1)
            if not _whole_hand_opens(g, seat):
                return Refusal("6.1", "your opening is short and would leave you no cards")
        _open(g, seat, team, events)
        # A canasta finished earlier in a short opening becomes the team's first now that the
        # opening stands (it could still have been taken back, 6.3).
        canasta = canasta or bool(facts.canasta_kinds(g, team))
    return _settle(g, seat, events, canasta)


def _open(g: State, seat: int, team: int, events: list[Event]) -> None:
    """The team has made its opening: the rest of a pile taken for it comes into the hand."""
    g.opened[team] = True
    g.snapshot = None
    events.append(Opened(seat, g.staged))
    g.staged = 0
    if g.phase is PILE_OPENING:
        g.phase = MELD
        _release_pile(g, seat, events, opening=True)
        if g.knee_pending[seat]:
            _knee_after_draw(g, events)


def _whole_hand_opens(g: State, seat: int) -> bool:
    """Whether melding every card of the hand opens below the minimum here (6.4): a packet
    still to come, and no pile cards still to join the hand (a pair's take, 4.6)."""
    return (g.rules.whole_hand_opening and g.packet_no[seat] != g.derived.last_packet
            and (g.phase is not PILE_OPENING or bool(g.picked)))


def _canasta(g: State, seat: int, team: int, slot: int, finished_now: bool,
             events: list[Event]) -> str | None:
    """A meld at the canasta size: announce it when it just got there, and close it unless
    the rules let it grow (5.6, decision D18).  The kind of a canasta just finished, else
    None."""
    d = g.derived
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    kind = None
    if finished_now:
        kind = d.canasta_kind(slot, two[slot] + jok[slot])
        events.append(CanastaFinished(seat, slot, kind))
        if g.rules.canasta_pennies:
            _pennies(g, seat, events)
    if d.grows[slot] and not (d.grows_if_spare and not facts.spare_if_finished(g, team, slot)):
        return kind
    g.closed[team].append((slot, nat[slot], two[slot], jok[slot]))
    nat[slot] = two[slot] = jok[slot] = 0
    return kind


def _pennies(g: State, seat: int, events: list[Event]) -> None:
    """Cards set aside from the stock for a canasta just finished (Pennies from Heaven)."""
    for _ in range(min(g.rules.canasta_pennies, len(g.stock))):
        g.set_aside[g.stock.pop()] += 1
        events.append(PennySetAside(seat))


def _settle(g: State, seat: int, events: list[Event], canasta: bool) -> Refusal | None:
    """After cards reach the table (``canasta``: a meld is at canasta size): the team's first
    canasta brings knees; an empty hand brings the next packet, or goes out."""
    rules = g.rules
    team = seat % g.derived.teams
    if canasta and not g.first_canasta[team]:
        g.first_canasta[team] = True
        if g.derived.knee_rule:
            for mate in rules.seats_of(team):
                if g.packet_no[mate] == 0:
                    g.knee_pending[mate] = True
            if g.packet_no[seat] == 0:
                _pick_up(g, seat, events)  # the finisher picks up the knee at once (7.1)
    if g.hand_n[seat] == 0:
        if g.packet_no[seat] == g.derived.last_packet:
            if rules.last_card == "discard":
                return Refusal("8.6", "you must go out with a discard: keep a card")
            refusal = facts.go_out_refusal(g, seat)
            if refusal:
                return facts.stripping_refusal(g, seat, refusal)
            _go_out(g, seat, events)
            return None
        refusal = facts.next_packet_refusal(g, seat, g.first_canasta[team])
        if refusal:
            return refusal
        _pick_up(g, seat, events)
    return None


def _go_out(g: State, seat: int, events: list[Event]) -> None:
    g.went_out = seat
    g.ended_by = RoundEnd.WENT_OUT
    events.append(WentOut(seat))
