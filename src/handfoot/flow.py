"""The flow of a game between actions: dealing a round, passing the turn, ending a round.

After every applied action ``settle`` looks at what the action's handler left behind (a turn
that is over, a round that has ended) and moves the game on: the next turn with the stock-out
and turn-cap rules (9.1, 9.2), or the round's score, the next deal, the end of the game.
"""

from __future__ import annotations

from . import legality
from .actions import TAKES
from .cards import NUM_KINDS, NUM_SLOTS
from .deal import Deal, seeded_deal
from .events import (
    Event,
    GameEnded,
    Passed,
    RoundDealt,
    RoundEnded,
    TurnBegan,
    UpcardRejected,
    UpcardTurned,
)
from .scoring import score_round
from .state import AskState, Phase, RoundEnd, State
from .transitions import lay_red_threes


def settle(g: State, events: list[Event]) -> None:
    """Move the game on after an action: end the round, or begin the next turn."""
    if g.ended_by is not None:
        end_round(g, events)
    elif g.turn_over:
        if g.rules.stock_out == "end_of_turn" and not g.stock:
            g.ended_by = RoundEnd.STOCK_OUT
            end_round(g, events)
        else:
            next_turn(g, events)


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
    g.turns = 0
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
    g.phase = Phase.GAME_OVER
    g.turn_over = False
    events.append(GameEnded(-1, tuple(g.totals)))


# ====================================================================== turns
def next_turn(g: State, events: list[Event]) -> None:
    """Pass the turn left and open it, ending the round where the rules say (9.1, 9.2)."""
    rules = g.rules
    players = rules.players
    while True:
        if g.passes >= players and not g.stock:
            # Every player in a row declined or could not take the pile (9.1, D22).
            g.ended_by = RoundEnd.STOCK_OUT
            end_round(g, events)
            return
        g.seat = (g.seat + 1) % players
        g.actor = g.seat
        g.phase = Phase.DRAW
        g.turn_over = False
        g.took_pile = False
        g.retracted = False
        g.asked = AskState.NOT_ASKED
        g.staged = 0
        g.snapshot = None
        minimums = g.t.round_minimums
        g.minimum = (minimums[g.round_no] if minimums is not None else
                     rules.opening_minimum(g.round_no, g.totals[g.seat % g.t.teams]))
        if g.turns >= rules.turn_cap:
            g.ended_by = RoundEnd.TURN_CAP
            end_round(g, events)
            return
        if g.stock or _pile_may_be_taken(g):
            break
        if rules.stock_out != "nobody_takes":
            g.ended_by = RoundEnd.STOCK_OUT
            end_round(g, events)
            return
        # Every player is asked in turn; one who cannot take the pile passes (9.1).
        events.append(Passed(g.seat, False))
        g.passes += 1
    g.turns += 1
    events.append(TurnBegan(g.seat, g.turns))


def _pile_may_be_taken(g: State) -> bool:
    """With the stock empty: whether play goes on because the player to move may take the
    pile (only where the rules let play go on without a stock)."""
    if g.rules.stock_out not in ("pile_only", "nobody_takes"):
        return False
    return any(legality.take_refusal(g, take) is None for take in TAKES)
