"""How actions change the state: dealing a round, the turn, melds, pick-ups, going out.

These functions assume the action was checked (legality.py); they return a ``Refusal`` only for
outcomes a trial on a copy must reject (emptying a hand that may not be emptied).
"""

from __future__ import annotations

from . import legality
from .actions import (
    TAKES,
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
    JOKER,
    NUM_KINDS,
    NUM_SLOTS,
    RED_THREE,
    TWO,
    WILD_SLOT,
)
from .deal import seeded_deal
from .events import Event, Refusal
from .scoring import score_round
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


# ====================================================================== round set-up
def start_round(g: State, events: list[Event]) -> None:
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


def _turn_upcard(g: State, events: list[Event]) -> None:
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


def _lay_red_threes(g: State, seat: int, source: str, events: list[Event]) -> None:
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
def _next_turn(g: State, events: list[Event]) -> None:
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
        end_round(g, TURN_CAP, events)
        return
    if not g.stock:
        mode = rules.stock_out
        if mode != "pile_only" or not any(legality.refusal(g, a) is None for a in TAKES):
            end_round(g, STOCK_OUT, events)
            return
    g.turns += 1
    events.append(Event("turn", g.seat, (g.turns,)))


def _end_turn(g: State, events: list[Event]) -> None:
    if g.rules.stock_out == "end_of_turn" and not g.stock:
        end_round(g, STOCK_OUT, events)
        return
    _next_turn(g, events)


def end_round(g: State, how: str, events: list[Event]) -> None:
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
    start_round(g, events)


# ====================================================================== applying
def apply_action(g: State, action: Action, events: list[Event]) -> None:
    seat = g.seat
    if g.packet_no[seat] == g.t.last_packet and g.phase != ANSWER:
        g.foot_played[seat] = True
    refusal = apply_step(g, action, events)
    assert refusal is None, refusal


def apply_step(g: State, action: Action, events: list[Event]) -> Refusal | None:
    """Change the state.  Returns a refusal only for outcomes a trial must reject."""
    seat = g.seat
    rules = g.rules
    if isinstance(action, Draw):
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
    if isinstance(action, Stop):
        end_round(g, STOCK_OUT, events)
        return None
    if isinstance(action, TakePile):
        return _apply_take(g, action, events)
    if isinstance(action, Start | Add):
        if isinstance(action, Start):
            n, w2, wj = action.naturals, action.twos, action.jokers
        else:
            k = action.kind
            n, w2, wj = int(k < TWO), int(k == TWO), int(k == JOKER)
        return _place(g, action.slot, n, w2, wj, events)
    if isinstance(action, LayDown):
        for step in legality.laydown_steps(g, action):
            assert not isinstance(step, tuple)
            refusal = apply_step(g, step, events)
            if refusal:
                return refusal
        return None
    if isinstance(action, Discard):
        k = action.kind
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
    if isinstance(action, Knock):
        events.append(Event("knock", seat))
        _end_turn(g, events)
        return None
    if isinstance(action, Retract):
        _retract(g, events)
        return None
    if isinstance(action, Ask):
        g.phase = ANSWER
        mates = [m for m in rules.seats_of(seat % g.t.teams) if m != seat]
        # The partner who plays next answers (decision D6 in docs/RULES.md).
        g.actor = min(mates, key=lambda m: (m - seat) % rules.players)
        events.append(Event("ask", seat, (g.actor,)))
        return None
    if isinstance(action, Answer):
        g.asked = YES if action.yes else NO
        events.append(Event("answer", g.actor, (bool(action.yes),)))
        g.actor = seat
        g.phase = MELD
        return None
    raise AssertionError(action)


def _after_draw(g: State, events: list[Event]) -> None:
    """A partner's knee waits for their next turn, after drawing (7.1)."""
    seat = g.seat
    if g.knee_pending[seat]:
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
    events.append(Event("pick_up", seat, (g.rules.packet_names[g.packet_no[seat]], size)))
    _lay_red_threes(g, seat, "packet", events)


def _forget(g: State, seat: int, kind: int, count: int) -> None:
    known = g.known[seat]
    if known[kind]:
        known[kind] = max(0, known[kind] - count)


def _snapshot(g: State) -> None:
    if g.snapshot is None:
        seat, team = g.seat, g.seat % g.t.teams
        g.snapshot = Snapshot(
            g.hands[seat][:], g.hand_n[seat], g.nat[team][:], g.two[team][:], g.jok[team][:],
            g.closed[team][:], g.pile[:], g.known[seat][:],
        )


def _retract(g: State, events: list[Event]) -> None:
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


def _apply_take(g: State, action: TakePile, events: list[Event]) -> Refusal | None:
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


def _release_pile(g: State, seat: int, events: list[Event], opening: bool = False) -> None:
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


def _place(g: State, slot: int, n: int, w2: int, wj: int, events: list[Event]) -> Refusal | None:
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


def _settle(g: State, seat: int, events: list[Event]) -> Refusal | None:
    """After cards reach the table: the team's first canasta brings knees; an empty hand
    brings the next packet, or goes out."""
    rules = g.rules
    team = seat % g.t.teams
    if not g.first_canasta[team] and legality.has_canasta(g, team):
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
            refusal = legality.go_out_refusal(g, seat)
            if refusal:
                return ("7.5", "that would empty your foot: " + refusal[1])
            _go_out(g, seat, events)
            return None
        refusal = legality.next_packet_refusal(g, seat, g.first_canasta[team])
        if refusal:
            return refusal
        _pick_up(g, seat, events)
    return None


def _go_out(g: State, seat: int, events: list[Event]) -> None:
    g.went_out = seat
    events.append(Event("went_out", seat))
    end_round(g, WENT_OUT, events)
