"""The flow of a game between actions: dealing a round, passing the turn, ending a round.

After every applied action ``settle`` looks at what the action's handler left behind (a turn
that is over, a round that has ended) and moves the game on: the next turn with the stock-out
and turn-cap rules (9.1, 9.2), the pile reshuffled into a new stock (9.3), a final lap after
going out (8.7), or the round's score, the next deal, the end of the game.
"""

from __future__ import annotations

from collections import Counter

from . import legality
from .cards import NUM_KINDS, NUM_SLOTS
from .deal import Deal, DealError, reshuffled, seeded_deal
from .events import (
    Event,
    FinalLap,
    GameEnded,
    Passed,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    SkippedDraw,
    TurnBegan,
    UpcardRejected,
    UpcardTurned,
)
from .scoring import score_round
from .state import AskState, Phase, RoundEnd, State
from .transitions import lay_red_threes

# Enum members as module constants: a class attribute of an enum is a slow look-up, and the
# turn's code runs for every turn of every game.
_DRAW, _MELD, _GAME_OVER = Phase.DRAW, Phase.MELD, Phase.GAME_OVER
_NOT_ASKED = AskState.NOT_ASKED
_WENT_OUT, _STOCK_OUT, _TURN_CAP = RoundEnd.WENT_OUT, RoundEnd.STOCK_OUT, RoundEnd.TURN_CAP
# A turn's first event, built as transitions builds the commonest ones (tuple.__new__).
_event = tuple.__new__


def settle(g: State, events: list[Event]) -> None:
    """Move the game on after an action: end the round, or begin the next turn."""
    if g.ended_by is not None:
        if g.ended_by is _WENT_OUT and _final_lap(g):
            # The round goes on until the turn comes back to the one who went out (8.7).
            g.ended_by = None
            g.turn_over = True
            g.turn_limit = 0  # next_turn watches for the lap's end
            events.append(FinalLap(g.went_out))
            next_turn(g, events)
            return
        end_round(g, events)
    elif g.turn_over:
        if g.rules.stock_out == "end_of_turn" and not g.stock:
            g.ended_by = _STOCK_OUT
            end_round(g, events)
        else:
            next_turn(g, events)


def _final_lap(g: State) -> bool:
    """Whether the going out just made begins a final lap (8.7).  A discard has ended the
    turn as well (``turn_over``); a meld of the last card has not."""
    mode = g.rules.final_lap
    return mode == "always" or (mode == "meld_out" and not g.turn_over)


# ====================================================================== rounds
def start_round(g: State, events: list[Event]) -> None:
    """Deal the next round (from the explicit deals, else from the seed) and begin its first
    turn.  A scenario without a seed ends after its last explicit deal."""
    rules = g.rules
    g.round_no += 1
    g.dealer = (g.dealer + 1) % rules.players
    played = len(g.results)
    deal: Deal
    if g.deals is not None and played < len(g.deals):
        deal = g.deals[played]
    elif g.seed is not None:
        deal = seeded_deal(rules, g.seed, g.round_no, g.dealer)
    else:
        g.round_no -= 1
        g.dealer = (g.dealer - 1) % rules.players
        _game_over(g, events)
        return
    g.round_deals.append(deal)
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
    g.set_aside = [0] * NUM_KINDS
    g.picked = ()
    g.pile_owed = False
    g.foot_turns = 0
    g.reshuffles = 0
    g.round_restocks.append(())
    # A scenario without a seed reshuffles from its deal, which no player knows whole (9.3).
    g.shuffle_key = ("" if rules.stock_out != "reshuffle" else str(g.seed)
                     if g.seed is not None else "deal:" + repr(deal))
    g.turns = 0
    g.turn_limit = rules.turn_cap
    g.passes = 0
    g.ended_by = None
    g.went_out = -1
    g.snapshot = None
    events.append(RoundDealt(g.dealer, g.round_no))
    # Red threes in the dealt hands go down first, from the dealer's left (rule 2.4).
    for i in range(1, n + 1):
        lay_red_threes(g, (g.dealer + i) % n, "deal", events)
    if deal.pile is None and rules.upcard:
        _turn_upcard(g, events)
    g.seat = g.dealer
    next_turn(g, events)


def _counts(kinds: tuple[int, ...]) -> list[int]:
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def _turn_upcard(g: State, events: list[Event]) -> None:
    """Turn the stock's top card to start the pile, rejecting kinds the rules reject (2.5)."""
    rejects = g.rules.upcard_rejects
    bury = g.rules.upcard_rejected == "bury"
    for _ in range(len(g.stock)):
        card = g.stock.pop()
        if card not in rejects:
            g.pile.append(card)
            events.append(UpcardTurned(-1, card))
            return
        events.append(UpcardRejected(-1, card, bury))
        if bury:
            g.stock.insert(len(g.stock) // 2, card)
        else:
            g.pile.append(card)
        if not g.stock:
            return


def end_round(g: State, events: list[Event]) -> None:
    """Score the round that has ended, then deal the next or end the game."""
    assert g.ended_by is not None
    if g.went_out >= 0:
        g.ended_by = _WENT_OUT  # the stock or the cap cut a final lap short (8.7)
    result = score_round(g)
    g.results.append(result)
    scores = result.scores
    for team, points in enumerate(scores):
        g.totals[team] += points
    events.append(RoundEnded(g.went_out, g.ended_by, scores))
    if g.round_no >= g.rules.rounds:
        _game_over(g, events)
        return
    start_round(g, events)


def _game_over(g: State, events: list[Event]) -> None:
    g.phase = _GAME_OVER
    g.turn_over = False
    events.append(GameEnded(-1, tuple(g.totals)))


# ====================================================================== turns
def next_turn(g: State, events: list[Event]) -> None:
    """Pass the turn left and open it, ending the round where the rules say (8.7, 9.1, 9.2)."""
    rules = g.rules
    players = rules.players
    while True:
        if g.passes >= players and not g.stock:
            # Every player in a row declined or could not take the pile (9.1, D22).
            g.ended_by = _STOCK_OUT
            end_round(g, events)
            return
        g.seat = (g.seat + 1) % players
        g.actor = g.seat
        g.phase = _DRAW
        g.turn_over = False
        g.took_pile = False
        g.retracted = False
        g.asked = _NOT_ASKED
        g.staged = 0
        g.snapshot = None
        minimums = g.derived.round_minimums
        g.minimum = (minimums[g.round_no] if minimums is not None else
                     rules.opening_minimum(g.round_no, g.totals[g.seat % g.derived.teams]))
        if g.turns >= g.turn_limit:
            # The turn cap, and the house rules' cases (the limit is 0 while one is pending).
            if g.seat == g.went_out:  # the final lap has come round (8.7)
                g.ended_by = _WENT_OUT
                end_round(g, events)
                return
            if g.turns >= rules.turn_cap:
                g.ended_by = _TURN_CAP
                end_round(g, events)
                return
            _watched(g, events)
        if g.stock:
            break
        if (rules.stock_out == "reshuffle" and len(g.pile) >= 2
                and g.reshuffles < rules.max_reshuffles):
            _reshuffle(g, events)
            break
        # A turn whose draw a packet replaces needs no stock (7.3).
        if g.phase is _MELD or _pile_may_be_taken(g):
            break
        if rules.stock_out != "nobody_takes":
            g.ended_by = _STOCK_OUT
            end_round(g, events)
            return
        # Every player is asked in turn; one who cannot take the pile passes (9.1).
        events.append(Passed(g.seat, False))
        g.passes += 1
    g.turns += 1
    events.append(_event(TurnBegan, (g.seat, g.turns)))


def _watched(g: State, events: list[Event]) -> None:
    """At the start of a turn where the turn limit is down: forget last turn's picked-up pile
    (4.8), begin the turn in the packet a discard brought without drawing (7.3), and put the
    limit back to the turn cap once nothing more is pending."""
    if g.picked:
        g.picked = ()
        g.pile_owed = False
    seat = g.seat
    if g.foot_turns >> seat & 1:
        g.foot_turns &= ~(1 << seat)
        g.phase = _MELD
        g.passes = 0
        events.append(SkippedDraw(seat))
    if g.went_out < 0 and not g.foot_turns:
        g.turn_limit = g.rules.turn_cap


def _pile_may_be_taken(g: State) -> bool:
    """With the stock empty: whether play goes on because the player to move may take the
    pile (only where the rules let play go on without a stock)."""
    if g.rules.stock_out not in ("pile_only", "nobody_takes"):
        return False
    return any(legality.refusal(g, take) is None for take in g.derived.takes)


def _reshuffle(g: State, events: list[Event]) -> None:
    """The pile but its top card becomes a new stock (9.3): the order a record gives for this
    reshuffle, else one drawn from the game's seed (or, without one, its deal), the round
    and how many reshuffles came before."""
    cards = g.pile[:-1]
    played = len(g.results)
    given = g.restocks
    if given is not None and played < len(given) and g.reshuffles < len(given[played]):
        order = given[played][g.reshuffles]
        if Counter(order) != Counter(cards):
            raise DealError(f"round {g.round_no}: reshuffle {g.reshuffles + 1} does not hold "
                            "the cards of the pile")
    else:
        order = reshuffled(cards, g.shuffle_key, g.round_no, g.reshuffles)
    g.stock = list(reversed(order))
    del g.pile[:-1]
    g.reshuffles += 1
    if g.round_restocks:
        g.round_restocks[-1] = (*g.round_restocks[-1], order)
    events.append(Reshuffled(-1, len(order)))
