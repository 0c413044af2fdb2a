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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .cards import (
    BLACK_THREE,
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
from .derived import derived_for
from .engine import Game
from .errors import HandfootError
from .rules import Rules
from .scoring import RoundResult
from .state import AskState, Phase, RoundEnd, Snapshot

T = TypeVar("T")
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
    skips_draw: bool = False  # a discard brought its packet: it replaces the next draw (7.3)


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
    # The cards the turn seat picked up from the pile this turn (4.8), bottom first, and
    # whether its next meld must still use one of them.
    picked_up: tuple[int, ...] = ()
    pile_owed: bool = False

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
        """JSON-friendly form (cards as tokens); :meth:`from_mapping` reads it back.  Facts
        only some house rules have are there only under those rules."""
        rules = self.rules
        out = {
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
                } | ({"skips_draw": s.skips_draw} if rules.foot_replaces_draw else {})
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
        if rules.pile_any_card:
            out["picked_up"] = format_cards(self.picked_up)
            out["pile_owed"] = self.pile_owed
        return out

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
                tuple((_canasta_slot(c[0]), c[1], c[2], c[3], c[4]) for c in t["canastas"]),
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
                         s["knee_pending"], s["foot_played"], counts(s["known"]),
                         s.get("skips_draw", False))
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
            picked_up=tuple(parse_cards(data.get("picked_up", ""))),
            pile_owed=data.get("pile_owed", False),
        )


def _canasta_slot(token: str) -> int:
    """A closed canasta's slot from its token: a meld slot, or B3 for a book of black threes
    (5.7), which is kept under the black three's kind."""
    return BLACK_THREE if token.strip().upper() == "B3" else parse_slot(token)


def view(game: Game, seat: int) -> SeatView:
    """What ``seat`` may know of ``game``."""
    parts = _parts(game)
    # The fields in SeatView's order (a call by keyword costs more than the rest of the view).
    return _make_view(
        game.rules,  # rules
        seat,  # seat
        game.round_no,  # round_no
        _rounds(game),  # rounds
        game.dealer,  # dealer
        game.seat,  # turn
        game.actor,  # actor
        game.phase,  # phase
        game.turns,  # turns
        tuple(game.hands[seat]),  # hand
        parts.seats,  # seats
        parts.teams,  # teams
        parts.pile,  # pile
        len(game.stock),  # stock_size
        sum(game.set_aside),  # set_aside
        game.passes,  # passes
        parts.totals,  # totals
        parts.results,  # results
        game.took_pile,  # took_pile
        game.retracted,  # retracted
        game.asked,  # asked
        game.staged,  # staged
        _pile_taken(game),  # pile_taken
        game.minimum,  # minimum
        game.ended_by,  # ended_by
        game.went_out,  # went_out
        game.picked,  # picked_up
        game.pile_owed,  # pile_owed
    )


# What an encoder reads of a view, in this order (see ``view_parts``).
ViewParts = tuple[
    tuple[int, ...],  # hand
    tuple[SeatInfo, ...],  # seats
    tuple[TeamInfo, ...],  # teams
    tuple[int, ...],  # pile
    tuple[int, ...],  # totals
    int, int, int, int, int, int, int,  # stock_size round_no turns minimum staged set_aside passes
    bool, bool,  # took_pile retracted
    Phase, int, int, int, AskState, int,  # phase turn actor dealer asked pile_taken
]


def view_parts(game: Game, seat: int) -> ViewParts:
    """The fields of ``view(game, seat)`` that a learning environment's encoder reads, as one
    tuple (in ``ViewParts``'s order), without building the view around them.

    Each value is the very object the view would hold (the seat, team and pile parts are the
    shared ones, unchanged objects while their part of the table is unchanged), so whatever is
    computed from these is computed from the seat's view and holds nothing it does not.  An
    environment encodes a view on every step, and building the whole view (28 fields, most of
    which the encoder never reads) cost as much as the encoding.
    """
    parts = _parts(game)
    return (tuple(game.hands[seat]), parts.seats, parts.teams, parts.pile, parts.totals,
            len(game.stock), game.round_no, game.turns, game.minimum, game.staged,
            sum(game.set_aside), game.passes, game.took_pile, game.retracted,
            game.phase, game.seat, game.actor, game.dealer, game.asked, _pile_taken(game))


def seat_view_parts(v: SeatView) -> ViewParts:
    """``view_parts`` of a view already built."""
    return (v.hand, v.seats, v.teams, v.pile, v.totals, v.stock_size, v.round_no, v.turns,
            v.minimum, v.staged, v.set_aside, v.passes, v.took_pile, v.retracted, v.phase,
            v.turn, v.actor, v.dealer, v.asked, v.pile_taken)


def _parts(game: Game) -> _Parts:
    parts: _Parts | None = game._view_parts
    if parts is None:
        parts = game._view_parts = _Parts()
    parts.refresh(game)
    return parts


def _pile_taken(game: Game) -> int:
    """The pile's top card taken this turn by an opening still short, else -1."""
    snap = game.snapshot
    return snap.pile[-1] if snap is not None and game.took_pile and not game.picked else -1


def _maker(cls: type[T]) -> Callable[..., T]:
    """A constructor for the frozen slotted dataclass ``cls`` that takes its fields in order.

    A frozen dataclass's ``__init__`` stores each field with ``object.__setattr__``, which made
    building a view cost several engine steps.  This one fills a plain object with the same
    slots (ordinary attribute stores) and then gives it the class, which Python allows between
    classes of one layout; the result is an ordinary, frozen instance of ``cls``.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    blank = type(f"_{cls.__name__}Parts", (), {"__slots__": vars(cls)["__slots__"]})
    source = (f"def make({', '.join(names)}):\n    o = blank()\n"
              + "".join(f"    o.{n} = {n}\n" for n in names)
              + "    o.__class__ = cls\n    return o\n")
    namespace: dict[str, Any] = {"blank": blank, "cls": cls}
    exec(source, namespace)  # the way dataclasses writes __init__
    make: Callable[..., T] = namespace["make"]
    return make


_make_view = _maker(SeatView)
_make_seat = _maker(SeatInfo)
_make_team = _maker(TeamInfo)


class _Parts:
    """The pieces of one game's views already built, shared by later views while their part of
    the table is unchanged (a view is rebuilt on every step of a learning environment, and most
    of the table does not change in a step).

    Each piece is kept beside a copy of the state it was built from and reused only while the
    state still equals that copy, compared by value: any change, by the engine or by a test
    writing into the state, is seen, and the version number is not trusted for it.  The pieces
    are immutable, so sharing them between views and seats is safe; an encoder may take a
    piece that is the same object as before for an unchanged one.  The copies hold hidden
    cards (the packets) but stay inside the game: only the pieces reach a view.
    """

    __slots__ = ("hand_n", "known", "pile", "pile_src", "rare", "results", "results_src",
                 "seats", "teams", "teams_src", "totals", "totals_src")

    def __init__(self) -> None:
        self.rare: tuple[Any, ...] = ()
        self.hand_n: list[int] = []
        self.known: list[list[int]] = []
        self.seats: tuple[SeatInfo, ...] = ()
        self.teams_src: tuple[Any, ...] = ()
        self.teams: tuple[TeamInfo, ...] = ()
        self.pile_src: list[int] | None = None
        self.pile: tuple[int, ...] = ()
        self.totals_src: list[int] | None = None
        self.totals: tuple[int, ...] = ()
        self.results_src: list[RoundResult] | None = None
        self.results: tuple[RoundResult, ...] = ()

    def refresh(self, g: Game) -> None:
        """Bring every piece up to date with the game's state."""
        # What changes on most steps is one hand's size (and now and then its known cards);
        # the rest of a seat's public facts changes a few times a round.
        if (g.packet_no, g.packets, g.red3, g.knee_pending, g.foot_played,
                g.foot_turns) != self.rare:
            self._all_seats(g)
        elif g.hand_n != self.hand_n or g.known != self.known:
            self._changed_seats(g)
        if (g.nat, g.two, g.jok, g.closed, g.opened, g.first_canasta, g.round_no,
                g.totals) != self.teams_src:
            self._changed_teams(g)
        if g.pile != self.pile_src:
            self.pile_src = g.pile[:]
            self.pile = tuple(g.pile)
        if g.totals != self.totals_src:
            self.totals_src = g.totals[:]
            self.totals = tuple(g.totals)
        if g.results != self.results_src:
            self.results_src = g.results[:]
            self.results = tuple(g.results)

    def _all_seats(self, g: Game) -> None:
        self.rare = (g.packet_no[:], [[p[:] for p in ps] for ps in g.packets], g.red3[:],
                     g.knee_pending[:], g.foot_played[:], g.foot_turns)
        self.hand_n = g.hand_n[:]
        self.known = [k[:] for k in g.known]
        self.seats = tuple(
            _make_seat(
                g.hand_n[s],  # hand_n
                g.packet_no[s],  # packet_no
                tuple(sum(p) for p in g.packets[s]),  # packets
                g.red3[s],  # red3
                g.knee_pending[s],  # knee_pending
                g.foot_played[s],  # foot_played
                tuple(g.known[s]),  # known
                bool(g.foot_turns >> s & 1),  # skips_draw
            )
            for s in range(len(g.hand_n))
        )

    def _changed_seats(self, g: Game) -> None:
        """New infos for the seats whose hand size or known cards changed, sharing the rest."""
        hand_n, known = g.hand_n, g.known
        was_n, was_known = self.hand_n, self.known
        seats = list(self.seats)
        s = g.seat  # nearly always the one that changed
        while True:
            if hand_n[s] != was_n[s] or known[s] != was_known[s]:
                info = seats[s]
                same_known = known[s] == was_known[s]
                if not same_known:
                    was_known[s] = known[s][:]
                was_n[s] = hand_n[s]
                seats[s] = _make_seat(hand_n[s], info.packet_no, info.packets, info.red3,
                                      info.knee_pending, info.foot_played,
                                      info.known if same_known else tuple(known[s]),
                                      info.skips_draw)
                if hand_n == was_n and known == was_known:
                    break
            s = (s + 1) % len(seats)
        self.seats = tuple(seats)

    def _changed_teams(self, g: Game) -> None:
        """New infos for the teams whose melds, canastas or flags changed (every team when the
        round or the scores changed, for their opening minimums)."""
        rules = g.rules
        n = rules.teams
        was = self.teams_src
        fresh = not (was and was[6] == g.round_no and was[7] == g.totals)
        if fresh:
            was = self.teams_src = ([None] * n, [None] * n, [None] * n, [None] * n,
                                    g.opened[:], g.first_canasta[:], g.round_no, g.totals[:])
            teams = []
        else:
            teams = list(self.teams)
        nats, twos, joks, closeds = was[0], was[1], was[2], was[3]
        canasta_kind = g.derived.canasta_kind
        for team in range(n):
            nat, two, jok, closed = g.nat[team], g.two[team], g.jok[team], g.closed[team]
            if not fresh:
                old = teams[team]
                if (nat == nats[team] and two == twos[team] and jok == joks[team]
                        and closed == closeds[team] and g.opened[team] == old.opened
                        and g.first_canasta[team] == old.first_canasta):
                    continue
                same_closed = closed == closeds[team]
                same_melds = nat == nats[team] and two == twos[team] and jok == joks[team]
            else:
                same_closed = same_melds = False
            if not same_melds:
                nats[team], twos[team], joks[team] = nat[:], two[:], jok[:]
            if not same_closed:
                closeds[team] = closed[:]
            info = _make_team(
                # melds: the same object while unchanged, so an encoder may skip them
                old.melds if same_melds else tuple(zip(nat, two, jok, strict=True)),
                old.closed if same_closed else tuple(  # closed
                    (s, n, tw, j, canasta_kind(s, tw + j)) for s, n, tw, j in closed),
                g.opened[team],  # opened
                g.first_canasta[team],  # first_canasta
                # minimum: the same as before while the round and the scores are
                rules.opening_minimum(g.round_no, g.totals[team]) if fresh else old.minimum,
            )
            if fresh:
                teams.append(info)
            else:
                teams[team] = info
        was[4][:] = g.opened
        was[5][:] = g.first_canasta
        self.teams = tuple(teams)


def _rounds(game: Game) -> int:
    # A scenario without a seed ends after its last explicit deal (engine._start_round).
    if game.seed is None and game.deals is not None:
        return min(game.rules.rounds, len(game.deals))
    return game.rules.rounds


# ====================================================================== sampling
def unseen_counts(v: SeatView) -> list[int]:
    """Counts per kind of the cards the seat cannot place: the shoe minus everything seen."""
    left = shoe_counts(v.rules.decks, v.rules.jokers)
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


def sample_world(v: SeatView, rng: random.Random, stock_top: Sequence[int] = (),
                 packets: Sequence[Sequence[int]] | None = None) -> Game:
    """A full game that agrees with the view, the unseen cards dealt uniformly at random.

    Red threes under ``red_threes = "bonus"`` are laid as soon as they reach a hand, so they
    are dealt only into packets and the stock.  Unseen cards beyond the unseen places (a
    scenario dealt from part of the shoe) are out of play, chosen at random like the rest.
    The world gets a seed drawn from ``rng`` so it can be played past the end of the round.

    Hindsight, for a review of a game that is over: ``stock_top`` (kinds, the next drawn
    first) are the stock's top cards and ``packets`` (counts per kind) the seat's own packets
    still to come, in every world; the rest is dealt at random as always.  They must be among
    the cards the seat cannot see.
    """
    rules = v.rules
    cards = unseen_counts(v)
    fixed = list(stock_top)
    for packet in packets or ():
        fixed += kinds_of(list(packet))
    for k in fixed:
        cards[k] -= 1
        if cards[k] < 0:
            raise ViewError(f"card {format_cards([k])} is fixed more often than it is unseen")
    if len(stock_top) > v.stock_size:
        raise ViewError(f"{len(stock_top)} cards fixed on a stock of {v.stock_size}")
    hidden = []  # per seat, how many of its hand cards nobody else has seen
    for s, info in enumerate(v.seats):
        n = 0 if s == v.seat else info.hand_n - sum(info.known)
        if n < 0:
            raise ViewError(f"seat {s} is known to hold more cards than it has")
        hidden.append(n)
    in_hands = sum(hidden)
    elsewhere = sum(sum(info.packets) for s, info in enumerate(v.seats)
                    if packets is None or s != v.seat) + v.stock_size - len(stock_top) \
        + v.set_aside
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
    dealt = []
    for s, info in enumerate(v.seats):
        seat_packets = []
        if packets is not None and s == v.seat:
            if [sum(p) for p in packets] != list(info.packets):
                raise ViewError("the fixed packets are not the seat's packets")
            dealt.append([list(p) for p in packets])
            continue
        for size in info.packets:
            packet = [0] * NUM_KINDS
            for k in deck[pos:pos + size]:
                packet[k] += 1
            pos += size
            seat_packets.append(packet)
        dealt.append(seat_packets)
    # The cards set aside as pennies are unseen too; they lie out of play, and so do the
    # cards a partial deal never dealt.
    end = len(deck) - out_of_play
    stock = deck[pos:end - v.set_aside] + list(reversed(stock_top))
    pennies = [0] * NUM_KINDS
    for k in deck[end - v.set_aside:end]:
        pennies[k] += 1
    return _build(v, rng.getrandbits(62), hands, dealt, stock, pennies)


def _build(v: SeatView, seed: int, hands: list[list[int]], packets: list[list[list[int]]],
           stock: list[int], pennies: list[int]) -> Game:
    rules = v.rules
    g = Game.__new__(Game)
    g.rules = rules
    g.derived = derived_for(rules)
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
    g.restocks = None
    g.round_restocks = []
    g.reshuffles = 0
    g.shuffle_key = f"world/{seed}"  # the world's reshuffles are its own, unseen (9.3)
    g.picked = v.picked_up
    g.pile_owed = v.pile_owed
    g.foot_turns = sum(1 << s for s, info in enumerate(v.seats) if info.skips_draw)
    g.history = None
    g.version = 0
    g._view_parts = None
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
    g.turn_limit = 0  # next_turn sees to what the house rules left pending
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
    if v.picked_up:
        # Picked up whole (4.8): the cards went into the hand, and the pile gets them back.
        for k in v.picked_up:
            hand[k] -= 1
        pile += v.picked_up
    elif g.took_pile:
        if v.pile_taken < 0:
            raise ViewError("the view took the pile for its opening but names no top card")
        hand[v.pile_taken] -= 1
        pile.append(v.pile_taken)
    # An unopened team knew no pile cards before this turn's take.
    known = [0] * NUM_KINDS if v.picked_up else g.known[g.seat][:]
    return Snapshot(hand, sum(hand), [0] * NUM_SLOTS, [0] * NUM_SLOTS, [0] * NUM_SLOTS, [],
                    pile, known)
