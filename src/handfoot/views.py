"""What one seat may see, and hidden worlds sampled to agree with it.

``view(game, seat)`` is the only thing bots, interfaces and network clients receive: the seat's
own hand, everything on the table, and what the whole table watched happen (cards a player was
seen taking from the pile and has not played since: ``known``).  It never holds another seat's
hand, any packet's contents, the stock's order, the seed or the deals.

``sample_world(view, rng)`` deals the cards the seat cannot see uniformly at random into the
places it cannot see (other hands beyond their known cards, every unopened packet, the stock),
giving a full :class:`~handfoot.engine.Game` for search bots (determinization).

Two public facts a sampled world does not reproduce: a rejected upcard buried in the stock
(everyone saw it, but the stock is dealt at random), and future explicit deals of a scenario.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    JOKER,
    NUM_KINDS,
    NUM_SLOTS,
    RED_THREE,
    TWO,
    WILD_SLOT,
    format_cards,
    format_counts,
    kinds_of,
    parse_cards,
    parse_kind,
    parse_slot,
    shoe_counts,
    slot_token,
)
from .deal import seeded_deal
from .engine import Game
from .errors import HandfootError
from .rules import Rules
from .scoring import RoundResult
from .state import AskState, Phase, RoundEnd, Snapshot
from .tables import tables_for

Meld = tuple[int, int, int]  # naturals, 2s, jokers
Closed = tuple[int, int, int, int, str]  # slot, naturals, 2s, jokers, canasta kind


class ViewError(HandfootError):
    """A view whose counts cannot come from one shoe (no world agrees with it)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What the table knows about one seat."""

    hand_n: int
    packet_no: int  # 0 = hand ... len(rules.packets) - 1 = foot
    packets: tuple[int, ...]  # sizes of the unopened packets, next first
    red3: int  # red threes laid
    knee_pending: bool
    foot_played: bool
    known: tuple[int, ...]  # counts per kind: seen taken from the pile, not played since


@dataclass(frozen=True, slots=True)
class TeamInfo:
    melds: tuple[Meld, ...]  # by slot (0..11); (0, 0, 0) where the team has no open meld
    closed: tuple[Closed, ...]
    opened: bool
    first_canasta: bool
    minimum: int  # the team's opening minimum this round


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything seat ``seat`` may know.  Equal views mean indistinguishable positions."""

    rules: Rules
    seat: int
    round_no: int
    rounds: int  # how many rounds this game plays
    dealer: int
    turn: int  # whose turn it is
    actor: int  # who must act now
    phase: Phase
    turns: int  # turns begun this round
    hand: tuple[int, ...]  # the seat's own cards, counts per kind
    seats: tuple[SeatInfo, ...]
    teams: tuple[TeamInfo, ...]
    pile: tuple[int, ...]  # bottom first: everyone saw every discard
    stock_size: int
    set_aside: int  # cards set aside from the stock this round (canasta pennies)
    passes: int  # players in a row who declined the pile with the stock empty
    totals: tuple[int, ...]
    # Finished rounds as the engine reports them; left out of the hash (their tallies hold
    # dicts).
    results: tuple[RoundResult, ...] = field(hash=False)
    took_pile: bool
    retracted: bool
    asked: AskState
    staged: int  # opening points laid this turn while short of the minimum
    pile_taken: int  # the pile's top card, taken this turn by an opening still short; else -1
    minimum: int  # the turn seat's opening minimum
    ended_by: RoundEnd | None
    went_out: int

    @property
    def packet_no(self) -> int:
        return self.seats[self.seat].packet_no

    @property
    def packets(self) -> tuple[int, ...]:
        return self.seats[self.seat].packets

    @property
    def pile_top(self) -> int:
        return self.pile[-1] if self.pile else -1

    @property
    def team(self) -> int:
        return self.seat % self.rules.teams

    def to_mapping(self) -> dict[str, Any]:
        """JSON-friendly form (cards as tokens); :meth:`from_mapping` reads it back."""
        return {
            "rules": self.rules.to_mapping(),
            "seat": self.seat,
            "round": self.round_no,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "turn": self.turn,
            "actor": self.actor,
            "phase": str(self.phase),
            "turns": self.turns,
            "hand": format_counts(self.hand),
            "seats": [
                {
                    "hand_size": s.hand_n,
                    "packet": s.packet_no,
                    "packet_sizes": list(s.packets),
                    "red_threes": s.red3,
                    "knee_pending": s.knee_pending,
                    "foot_played": s.foot_played,
                    "known": format_counts(s.known),
                }
                for s in self.seats
            ],
            "teams": [
                {
                    "melds": {slot_token(slot): list(m) for slot, m in enumerate(t.melds)
                              if any(m)},
                    "canastas": [[slot_token(c[0]), c[1], c[2], c[3], c[4]] for c in t.closed],
                    "opened": t.opened,
                    "first_canasta": t.first_canasta,
                    "minimum": t.minimum,
                }
                for t in self.teams
            ],
            "pile": format_cards(self.pile),
            "pile_top": format_cards([self.pile_top]) if self.pile else "",
            "stock_size": self.stock_size,
            "set_aside": self.set_aside,
            "passes": self.passes,
            "totals": list(self.totals),
            "results": [r.to_mapping() for r in self.results],
            "took_pile": self.took_pile,
            "retracted": self.retracted,
            "asked": str(self.asked),
            "staged": self.staged,
            "pile_taken": format_cards([self.pile_taken]) if self.pile_taken >= 0 else "",
            "minimum": self.minimum,
            "ended_by": str(self.ended_by) if self.ended_by is not None else None,
            "went_out": self.went_out,
        }

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> SeatView:
        def counts(text: str) -> tuple[int, ...]:
            out = [0] * NUM_KINDS
            for k in parse_cards(text):
                out[k] += 1
            return tuple(out)

        teams = []
        for t in data["teams"]:
            melds = [(0, 0, 0)] * NUM_SLOTS
            for token, m in t["melds"].items():
                melds[parse_slot(token)] = (m[0], m[1], m[2])
            teams.append(TeamInfo(
                tuple(melds),
                tuple((parse_slot(c[0]), c[1], c[2], c[3], c[4]) for c in t["canastas"]),
                t["opened"], t["first_canasta"], t["minimum"],
            ))
        return cls(
            rules=Rules.from_mapping(data["rules"]),
            seat=data["seat"],
            round_no=data["round"],
            rounds=data["rounds"],
            dealer=data["dealer"],
            turn=data["turn"],
            actor=data["actor"],
            phase=Phase(data["phase"]),
            turns=data["turns"],
            hand=counts(data["hand"]),
            seats=tuple(
                SeatInfo(s["hand_size"], s["packet"], tuple(s["packet_sizes"]), s["red_threes"],
                         s["knee_pending"], s["foot_played"], counts(s["known"]))
                for s in data["seats"]
            ),
            teams=tuple(teams),
            pile=tuple(parse_cards(data["pile"])),
            stock_size=data["stock_size"],
            set_aside=data["set_aside"],
            passes=data["passes"],
            totals=tuple(data["totals"]),
            results=tuple(RoundResult.from_mapping(r) for r in data["results"]),
            took_pile=data["took_pile"],
            retracted=data["retracted"],
            asked=AskState(data["asked"]),
            staged=data["staged"],
            pile_taken=parse_kind(data["pile_taken"]) if data["pile_taken"] else -1,
            minimum=data["minimum"],
            ended_by=RoundEnd(data["ended_by"]) if data["ended_by"] else None,
            went_out=data["went_out"],
        )


def view(game: Game, seat: int) -> SeatView:
    """What ``seat`` may know of ``game``."""
    rules = game.rules
    t = game.t
    seats = tuple(
        SeatInfo(
            hand_n=game.hand_n[s],
            packet_no=game.packet_no[s],
            packets=tuple(sum(p) for p in game.packets[s]),
            red3=game.red3[s],
            knee_pending=game.knee_pending[s],
            foot_played=game.foot_played[s],
            known=tuple(game.known[s]),
        )
        for s in range(rules.players)
    )
    teams = tuple(
        TeamInfo(
            melds=tuple(zip(game.nat[team], game.two[team], game.jok[team], strict=True)),
            closed=tuple((s, n, tw, j, t.canasta_kind(s, tw + j))
                         for s, n, tw, j in game.closed[team]),
            opened=game.opened[team],
            first_canasta=game.first_canasta[team],
            minimum=rules.opening_minimum(game.round_no, game.totals[team]),
        )
        for team in range(rules.teams)
    )
    snap = game.snapshot
    pile_taken = snap.pile[-1] if snap is not None and game.took_pile else -1
    return SeatView(
        rules=rules,
        seat=seat,
        round_no=game.round_no,
        rounds=_rounds(game),
        dealer=game.dealer,
        turn=game.seat,
        actor=game.actor,
        phase=game.phase,
        turns=game.turns,
        hand=tuple(game.hands[seat]),
        seats=seats,
        teams=teams,
        pile=tuple(game.pile),
        stock_size=len(game.stock),
        set_aside=sum(game.set_aside),
        passes=game.passes,
        totals=tuple(game.totals),
        results=tuple(game.results),
        took_pile=game.took_pile,
        retracted=game.retracted,
        asked=game.asked,
        staged=game.staged,
        pile_taken=pile_taken,
        minimum=game.minimum,
        ended_by=game.ended_by,
        went_out=game.went_out,
    )


def _rounds(game: Game) -> int:
    # A scenario without a seed ends after its last explicit deal (engine._start_round).
    if game.seed is None and game.deals is not None:
        return min(game.rules.rounds, len(game.deals))
    return game.rules.rounds


# ====================================================================== sampling
def unseen_counts(v: SeatView) -> list[int]:
    """Counts per kind of the cards the seat cannot place: the shoe minus everything seen."""
    left = shoe_counts(v.rules.decks)
    seen = list(v.hand)
    for k in v.pile:
        seen[k] += 1
    for team in v.teams:
        for slot, (n, tw, j) in enumerate(team.melds):
            _add_meld(seen, slot, n, tw, j)
        for slot, n, tw, j, _kind in team.closed:
            _add_meld(seen, slot, n, tw, j)
    for s, info in enumerate(v.seats):
        seen[RED_THREE] += info.red3
        if s != v.seat:
            for k in range(NUM_KINDS):
                seen[k] += info.known[k]
    for k in range(NUM_KINDS):
        left[k] -= seen[k]
        if left[k] < 0:
            raise ViewError(f"the view shows more of card {format_cards([k])} than the shoe holds")
    return left


def _add_meld(counts: list[int], slot: int, n: int, tw: int, j: int) -> None:
    if slot != WILD_SLOT:
        counts[slot] += n
    counts[TWO] += tw
    counts[JOKER] += j


def sample_world(v: SeatView, rng: random.Random) -> Game:
    """A full game that agrees with the view, the unseen cards dealt uniformly at random.

    Red threes under ``red_threes = "bonus"`` are laid as soon as they reach a hand, so they
    are dealt only into packets and the stock.  Unseen cards beyond the unseen places (a
    scenario dealt from part of the shoe) are out of play, chosen at random like the rest.
    The world gets a seed drawn from ``rng`` so it can be played past the end of the round.
    """
    rules = v.rules
    cards = unseen_counts(v)
    hidden = []  # per seat, how many of its hand cards nobody else has seen
    for s, info in enumerate(v.seats):
        n = 0 if s == v.seat else info.hand_n - sum(info.known)
        if n < 0:
            raise ViewError(f"seat {s} is known to hold more cards than it has")
        hidden.append(n)
    in_hands = sum(hidden)
    elsewhere = sum(sum(info.packets) for info in v.seats) + v.stock_size + v.set_aside
    out_of_play = sum(cards) - in_hands - elsewhere
    if out_of_play < 0:
        raise ViewError(f"{sum(cards)} unseen cards for {in_hands + elsewhere} unseen places")
    elsewhere += out_of_play
    reds = 0
    if rules.red_threes == "bonus":
        reds, cards[RED_THREE] = cards[RED_THREE], 0
        if reds > elsewhere:
            raise ViewError("more unseen red threes than places outside the hands")
    deck = kinds_of(cards)
    rng.shuffle(deck)
    # The hands take the first cards; the red threes go among the rest at random places,
    # which keeps the arrangement of the rest uniform.
    for _ in range(reds):
        deck.insert(in_hands + rng.randrange(len(deck) - in_hands + 1), RED_THREE)
    pos = 0
    hands = []
    for s, info in enumerate(v.seats):
        hand = list(v.hand) if s == v.seat else list(info.known)
        for k in deck[pos:pos + hidden[s]]:
            hand[k] += 1
        pos += hidden[s]
        hands.append(hand)
    packets = []
    for info in v.seats:
        seat_packets = []
        for size in info.packets:
            packet = [0] * NUM_KINDS
            for k in deck[pos:pos + size]:
                packet[k] += 1
            pos += size
            seat_packets.append(packet)
        packets.append(seat_packets)
    # The cards set aside as pennies are unseen too; they lie out of play, and so do the
    # cards a partial deal never dealt.
    end = len(deck) - out_of_play
    stock = deck[pos:end - v.set_aside]
    pennies = [0] * NUM_KINDS
    for k in deck[end - v.set_aside:end]:
        pennies[k] += 1
    return _build(v, rng.getrandbits(62), hands, packets, stock, pennies)


def _build(v: SeatView, seed: int, hands: list[list[int]], packets: list[list[list[int]]],
           stock: list[int], pennies: list[int]) -> Game:
    rules = v.rules
    g = Game.__new__(Game)
    g.rules = rules
    g.t = tables_for(rules)
    g.seed = seed
    g.deals = None
    if v.rounds < rules.rounds:
        # The game stops after round ``v.rounds``: explicit deals up to there and no seed.
        g.seed = None
        g.deals = [
            seeded_deal(rules, seed, r, (v.dealer + r - v.round_no) % rules.players)
            for r in range(1, v.rounds + 1)
        ]
    g.first_round = v.round_no - len(v.results)
    g.first_dealer = (v.dealer - len(v.results)) % rules.players
    g.round_deals = []
    g.history = None
    g.version = 0
    g._legal = []
    g._legal_at = -1
    g.turn_over = False
    g.passes = v.passes
    g.set_aside = pennies
    g.round_no = v.round_no
    g.dealer = v.dealer
    g.totals = list(v.totals)
    g.results = list(v.results)
    g.stock = stock
    g.pile = list(v.pile)
    g.hands = hands
    g.hand_n = [s.hand_n for s in v.seats]
    g.packets = packets
    g.packet_no = [s.packet_no for s in v.seats]
    g.foot_played = [s.foot_played for s in v.seats]
    g.red3 = [s.red3 for s in v.seats]
    g.known = [list(s.known) for s in v.seats]
    g.nat = [[m[0] for m in t.melds] for t in v.teams]
    g.two = [[m[1] for m in t.melds] for t in v.teams]
    g.jok = [[m[2] for m in t.melds] for t in v.teams]
    g.closed = [[(c[0], c[1], c[2], c[3]) for c in t.closed] for t in v.teams]
    g.opened = [t.opened for t in v.teams]
    g.first_canasta = [t.first_canasta for t in v.teams]
    g.knee_pending = [s.knee_pending for s in v.seats]
    g.phase = v.phase
    g.seat = v.turn
    g.actor = v.actor
    g.turns = v.turns
    g.took_pile = v.took_pile
    g.retracted = v.retracted
    g.asked = v.asked
    g.staged = v.staged
    g.ended_by = v.ended_by
    g.went_out = v.went_out
    g.minimum = v.minimum
    g.snapshot = _opening_snapshot(g, v)
    return g


def _opening_snapshot(g: Game, v: SeatView) -> Snapshot | None:
    """What a retract would restore, rebuilt from the table.

    The engine keeps a snapshot while the turn seat's team is making its opening and is still
    short.  An unopened team had no melds and no known cards before this turn, so its melds
    on the table are exactly what the turn seat laid this turn: the hand before the opening is
    the hand now plus those cards, less the pile's top card when the pile was taken.
    """
    team = g.seat % g.rules.teams
    nat, two, jok, closed = g.nat[team], g.two[team], g.jok[team], g.closed[team]
    on_table = any(nat) or any(two) or any(jok) or bool(closed)
    if g.opened[team] or not (g.took_pile or on_table):
        return None
    hand = g.hands[g.seat][:]
    for slot in range(NUM_SLOTS):
        _add_meld(hand, slot, nat[slot], two[slot], jok[slot])
    for slot, n, tw, j in closed:
        _add_meld(hand, slot, n, tw, j)
    pile = g.pile[:]
    if g.took_pile:
        if v.pile_taken < 0:
            raise ViewError("the view took the pile for its opening but names no top card")
        hand[v.pile_taken] -= 1
        pile.append(v.pile_taken)
    return Snapshot(hand, sum(hand), [0] * NUM_SLOTS, [0] * NUM_SLOTS, [0] * NUM_SLOTS, [],
                    pile, g.known[g.seat][:])
