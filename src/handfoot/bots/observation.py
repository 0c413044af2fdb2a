"""A seat's view as a fixed-length float32 vector: the one place a learned bot and the learning
environments read views.  It lives in bots/ because the policy bot plays from it and bots/ may not
import env/ (docs/ARCHITECTURE.md); it needs NumPy, so nothing imports it but those that use it.

Everything here is a function of :class:`handfoot.views.SeatView` alone, so the vector can hold
nothing the view does not (the hidden-information guarantee carries into the tensor).  The
layout depends only on the rules (players, teams, packets, and two fields that only some rule
sets can fill) and is described field by field by :meth:`Layout.fields` (docs/RL.md prints
it).  Seats and teams are listed relative to the
observer: seat 0 is the observer, seat 1 the next to play after it; team 0 is the observer's.

:meth:`Layout.encode` is the reference: plain, and what the vector of a view *is*.  The
environments use :class:`handfoot.env.encoder.Encoder`, which gives the same vectors
incrementally.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

import numpy as np
import numpy.typing as npt

from ..cards import KIND_TOKENS, NATURAL_RANKS, NUM_KINDS, NUM_SLOTS
from ..derived import derived_for
from ..rules import Rules, rank_kind_name
from ..state import AskState, Phase
from ..views import SeatInfo, SeatView, TeamInfo

# The view's Phase and AskState are string enums, in the order of their one-hot fields.
PHASES = tuple(p.value for p in Phase)
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
ASKED = tuple(a.value for a in AskState)
_ASKED_INDEX = {a: i for i, a in enumerate(ASKED)}
# Canasta kinds in a fixed order: the base kinds, then a kind per rank (only some rule sets
# give a rank's clean canasta a kind of its own, e.g. 7s and 5s).
CANASTA_KINDS = ("clean", "dirty", "wild", *(rank_kind_name(r) for r in NATURAL_RANKS))
_KIND_INDEX = {k: i for i, k in enumerate(CANASTA_KINDS)}
NUM_CANASTA_KINDS = len(CANASTA_KINDS)

# Divisors that bring each kind of number near the unit range.
CARDS = 10.0  # cards of one kind (hand, pile, known, melds)
SIZE = 20.0  # cards in a hand or packet
CANASTAS = 4.0  # canastas, red threes, quota counts
POINTS = 100.0  # opening minimums and staged opening points
SCORE = 10000.0  # game scores

Vector = npt.NDArray[np.float32]
_CACHE_LIMIT = 20000  # encoded seat and team blocks kept per rule set


@dataclass(frozen=True, slots=True)
class Field:
    """One named run of the vector."""

    name: str
    start: int
    size: int
    scale: float  # the stored value is the view's number divided by this (1 for flags)
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """Where each part of a view goes, for one rule set."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.players = p = rules.players
        self.teams = t = rules.teams
        self.packets = k = len(rules.packets)
        self._fields: list[Field] = []
        self._lows: list[float] = []
        self._highs: list[float] = []
        shoe = float(rules.shoe_size)
        kind_max = 4.0 * rules.decks
        # The counted block comes first (one list conversion), then the one-hot block.
        self._add("hand", NUM_KINDS, CARDS, kind_max, "own cards, count per kind "
                  "(4 5 6 7 8 9 10 J Q K A 2 JK R3 B3)")
        self._add("pile", NUM_KINDS, CARDS, kind_max, "the pile's cards, count per kind "
                  "(everyone saw every discard)")
        self._add("pile_size", 1, SIZE, shoe, "cards in the pile")
        self._add("stock_size", 1, shoe, shoe, "cards in the stock, over the shoe's size")
        rounds, cap = float(rules.rounds), float(rules.turn_cap)
        self._add("round", 1, rounds, rounds, "round number over the rounds in the game")
        self._add("turns", 1, cap, cap, "turns begun this round over the turn cap")
        self._add("minimum", 1, POINTS, 1e4, "opening minimum of the team whose turn it is")
        self._add("staged", 1, POINTS, 1e5, "opening points laid this turn while short of "
                  "the minimum")
        # Two numbers only some rule sets can make: fields for them only where they can.
        self._extras: list[str] = []
        if rules.canasta_pennies:
            self._add("set_aside", 1, SIZE, shoe, "cards set aside from the stock this round "
                      "(canasta pennies; only where the rules set them aside)")
            self._extras.append("set_aside")
        if rules.stock_out == "nobody_takes":
            self._add("passes", 1, float(rules.players), float(rules.players), "players in a "
                      "row who declined the pile with the stock empty (only under "
                      "stock_out = nobody_takes)")
            self._extras.append("passes")
        self._add("took_pile", 1, 1.0, 1.0, "the turn's player took the pile this turn")
        self._add("retracted", 1, 1.0, 1.0, "the turn's player took back an opening this turn")
        self._add("quota", NUM_CANASTA_KINDS, CANASTAS, 100.0, "canastas of each kind the rules "
                  "require to go out (" + " ".join(CANASTA_KINDS) + ")")
        for s in range(p):
            who = "own" if s == 0 else f"seat +{s} (the {_nth(s)} to play after the observer)"
            self._add(f"seat{s}.hand_size", 1, SIZE, shoe, f"{who}: cards in hand")
            self._add(f"seat{s}.packets", k, SIZE, shoe, f"{who}: sizes of the packets still "
                      "face down, next first (zero past the last)")
            self._add(f"seat{s}.red_threes", 1, CANASTAS, shoe, f"{who}: red threes laid")
            self._add(f"seat{s}.knee_pending", 1, 1.0, 1.0, f"{who}: picks up the knee on "
                      "the next turn")
            self._add(f"seat{s}.foot_played", 1, 1.0, 1.0, f"{who}: has played from the foot")
            self._add(f"seat{s}.known", NUM_KINDS, CARDS, kind_max, f"{who}: cards the table "
                      "saw it take from the pile and not play since, per kind")
        for team in range(t):
            who = "own team" if team == 0 else f"team +{team}"
            self._add(f"team{team}.melds", 3 * NUM_SLOTS, CARDS, kind_max * 2, f"{who}: open "
                      "melds by slot (4 ... A, wild), three numbers each: naturals, 2s, jokers")
            self._add(f"team{team}.canastas_by_slot", NUM_SLOTS, CANASTAS, 100.0,
                      f"{who}: closed canastas per slot (a book of black threes, a house "
                      "rule, counts only by kind)")
            self._add(f"team{team}.canastas_by_kind", NUM_CANASTA_KINDS, CANASTAS, 100.0,
                      f"{who}: closed canastas per kind")
            self._add(f"team{team}.quota_missing", NUM_CANASTA_KINDS, CANASTAS, 100.0,
                      f"{who}: canastas of each kind still missing from the going-out quota")
            self._add(f"team{team}.opened", 1, 1.0, 1.0, f"{who}: has made its opening")
            self._add(f"team{team}.first_canasta", 1, 1.0, 1.0, f"{who}: has closed a "
                      "canasta this round")
            self._add(f"team{team}.minimum", 1, POINTS, 1e4, f"{who}: opening minimum")
            self._add(f"team{team}.score", 1, SCORE, 1e6, f"{who}: game score before this "
                      "round", low=-1e6 / SCORE)
        self.counted = self._end
        self._add("phase", len(PHASES), 1.0, 1.0, "one-hot: " + ", ".join(PHASES))
        self._add("to_act", 1, 1.0, 1.0, "the observer must act now")
        self._add("turn_seat", p, 1.0, 1.0, "one-hot: whose turn it is, relative to the "
                  "observer")
        self._add("actor", p, 1.0, 1.0, "one-hot: who must act now (the partner while "
                  "answering), relative")
        self._add("dealer", p, 1.0, 1.0, "one-hot: the dealer, relative")
        self._add("asked", 3, 1.0, 1.0, "one-hot: \"may I go out?\" this turn: "
                  + ", ".join(ASKED))
        self._add("pile_top", NUM_KINDS, 1.0, 1.0, "one-hot: the pile's top card (all zero "
                  "when the pile is empty)")
        self._add("pile_taken", NUM_KINDS, 1.0, 1.0, "one-hot: the top card taken this turn "
                  "by an opening still short (all zero otherwise)")
        for s in range(p):
            self._add(f"seat{s}.packet", k, 1.0, 1.0, f"seat +{s}: one-hot, the packet being "
                      "played (" + ", ".join(rules.packet_names) + ")")
        self.size = self._end
        self.scale = np.array([1.0 / f.scale for f in self._fields for _ in range(f.size)],
                              dtype=np.float32)
        self.low = np.array(self._lows, dtype=np.float32)
        self.high = np.array(self._highs, dtype=np.float32)
        self._derived = derived_for(rules)
        quota = dict(rules.quota)
        self._template = np.zeros(self.size, dtype=np.float32)
        q = self.field("quota")
        self._template[q.start:q.stop] = [quota.get(kind, 0) / q.scale for kind in CANASTA_KINDS]
        self._head_scale = self.scale[:q.start]
        self._head_size = q.start
        self._seats_at = q.stop
        self._seat_size = self.field("seat1.hand_size").start - self.field("seat0.hand_size").start
        self._team_size = self.field("team1.melds").start - self.field("team0.melds").start
        self._seat_scale = self.scale[self._seats_at:self._seats_at + self._seat_size]
        teams_at = self.field("team0.melds").start
        self._team_scale = self.scale[teams_at:teams_at + self._team_size]
        self._seat_blocks: dict[SeatInfo, Vector] = {}
        self._team_blocks: dict[tuple[TeamInfo, int], Vector] = {}

    @property
    def _end(self) -> int:
        return self._fields[-1].stop if self._fields else 0

    def _add(self, name: str, size: int, scale: float, most: float, meaning: str,
             low: float = 0.0) -> None:
        self._fields.append(Field(name, self._end, size, scale, meaning))
        self._lows += [low] * size
        self._highs += [most / scale] * size

    def fields(self) -> tuple[Field, ...]:
        return tuple(self._fields)

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/RL.md prints the four-player one)."""
        rows = ["| indices | field | size | divided by | meaning |", "|---|---|---|---|---|"]
        for f in self._fields:
            span = str(f.start) if f.size == 1 else f"{f.start}-{f.stop - 1}"
            scale = "" if f.scale == 1.0 else f"{f.scale:g}"
            rows.append(f"| {span} | `{f.name}` | {f.size} | {scale} | {f.meaning} |")
        return "\n".join(rows) + "\n"

    def field(self, name: str) -> Field:
        for f in self._fields:
            if f.name == name:
                return f
        raise KeyError(name)

    # ------------------------------------------------------------------ encoding
    def encode(self, v: SeatView) -> Vector:
        """The vector of seat ``v.seat``'s view."""
        p = self.players
        me = v.seat
        pile = v.pile
        out = self._template.copy()  # the quota, a rule-set constant, is already in place
        head = [*v.hand, *map(pile.count, range(NUM_KINDS)), len(pile), v.stock_size,
                v.round_no, v.turns, v.minimum, v.staged]
        if self._extras:
            head += [getattr(v, name) for name in self._extras]
        head += (v.took_pile, v.retracted)
        h = len(head)
        out[:h] = head
        out[:h] *= self._head_scale
        # Seats and teams change a little at a time: their blocks are encoded once per
        # distinct value and copied in.
        seats = v.seats
        at = self._seats_at
        size = self._seat_size
        cache = self._seat_blocks
        for i in range(p):
            s = seats[(me + i) % p]
            block = cache.get(s)
            if block is None:
                block = cache[s] = self._seat_block(s)
            out[at:at + size] = block
            at += size
        teams = v.teams
        totals = v.totals
        nt = self.teams
        mine = me % nt
        size = self._team_size
        cache2 = self._team_blocks
        for i in range(nt):
            key = (teams[(mine + i) % nt], totals[(mine + i) % nt])
            block = cache2.get(key)
            if block is None:
                block = cache2[key] = self._team_block(*key)
            out[at:at + size] = block
            at += size
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        if len(cache2) > _CACHE_LIMIT:
            cache2.clear()
        hot = [at + _PHASE_INDEX[v.phase]]
        at += len(PHASES)
        if v.actor == me:
            hot.append(at)
        at += 1
        hot += (at + (v.turn - me) % p, at + p + (v.actor - me) % p,
                at + 2 * p + (v.dealer - me) % p)
        at += 3 * p
        hot.append(at + _ASKED_INDEX[v.asked])
        at += 3
        if pile:
            hot.append(at + pile[-1])
        at += NUM_KINDS
        if v.pile_taken >= 0:
            hot.append(at + v.pile_taken)
        at += NUM_KINDS
        k = self.packets
        for i in range(p):
            hot.append(at + i * k + seats[(me + i) % p].packet_no)
        out[hot] = 1.0
        return out

    def _seat_block(self, s: SeatInfo) -> Vector:
        sizes = list(s.packets) + [0] * (self.packets - len(s.packets))
        values = [s.hand_n, *sizes, s.red3, s.knee_pending, s.foot_played, *s.known]
        return np.array(values, dtype=np.float32) * self._seat_scale

    def _team_block(self, t: TeamInfo, total: int) -> Vector:
        by_slot = [0] * NUM_SLOTS
        by_kind = [0] * NUM_CANASTA_KINDS
        for c in t.closed:
            if c[0] < NUM_SLOTS:  # a book of black threes (5.7) counts by its kind alone
                by_slot[c[0]] += 1
            by_kind[_KIND_INDEX[c[4]]] += 1
        # What the quota still lacks is the engine's answer, not a rule restated here.
        short = self._derived.quota_missing([c[4] for c in t.closed])
        values = [*chain.from_iterable(t.melds), *by_slot, *by_kind,
                  *(short.get(kind, 0) for kind in CANASTA_KINDS),
                  t.opened, t.first_canasta, t.minimum, total]
        return np.array(values, dtype=np.float32) * self._team_scale


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
            7: "seventh"}.get(n, f"{n}th")


@lru_cache(maxsize=64)
def layout_for(rules: Rules) -> Layout:
    """The layout of a rule set, built once."""
    return Layout(rules)


def encode(v: SeatView) -> Vector:
    """Seat ``v.seat``'s view as its rule set's vector (see :class:`Layout`)."""
    return layout_for(v.rules).encode(v)


__all__ = ["ASKED", "CANASTA_KINDS", "PHASES", "Field", "Layout", "encode", "layout_for",
           "view_text"]


# ====================================================================== text (render_mode="ansi")
def view_text(v: SeatView) -> str:
    """A few plain lines of what seat ``v.seat`` sees, for ``render_mode="ansi"``."""
    from ..cards import format_counts, slot_token

    rules = v.rules
    names = rules.packet_names
    lines = [f"{rules.name} · round {v.round_no}/{v.rounds} · turn {v.turns} · seat_{v.turn} "
             f"to play · seat_{v.actor} acts ({v.phase}) · scores "
             + " ".join(f"team {t}: {s}" for t, s in enumerate(v.totals))]
    top = KIND_TOKENS[v.pile[-1]] if v.pile else "-"
    lines.append(f"stock {v.stock_size} · pile {len(v.pile)}, top {top}")
    for s, info in enumerate(v.seats):
        known = format_counts(info.known)
        lines.append(f"seat_{s} (team {rules.team_of(s)}): {info.hand_n} in "
                     f"{names[info.packet_no]}, packets waiting {list(info.packets)}"
                     + (f", red threes {info.red3}" if info.red3 else "")
                     + (f", holds {known}" if known and s != v.seat else ""))
    for t, team in enumerate(v.teams):
        melds = [f"{slot_token(slot)}:{n}+{tw + j}w" if slot < NUM_SLOTS - 1
                 else f"wild:{tw + j}" for slot, (n, tw, j) in enumerate(team.melds)
                 if n + tw + j]
        closed = [f"{slot_token(c[0])} {c[4]}" for c in team.closed]
        lines.append(f"team {t}: {'opened' if team.opened else f'needs {team.minimum}'}"
                     f" · melds {' '.join(melds) or '-'} · canastas {', '.join(closed) or '-'}")
    lines.append(f"seat_{v.seat} holds: {format_counts(v.hand) or '-'}")
    return "\n".join(lines)
