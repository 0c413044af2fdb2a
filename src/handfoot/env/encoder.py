"""Views as vectors, fast: the incremental encoder the environments use on every step.

:meth:`handfoot.bots.observation.Layout.encode` says what the vector of a view is; the
:class:`Encoder` here gives the same vector (the tests compare the two at every step of whole
games) at a fraction of the cost, by keeping each seat's vector from its last view and writing
again only the parts that changed since.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from struct import Struct
from typing import Any

import numpy as np

from ..bots.observation import (
    _KIND_INDEX,
    ASKED,
    CANASTA_KINDS,
    NUM_CANASTA_KINDS,
    PHASES,
    Layout,
    Vector,
)
from ..cards import NUM_KINDS, NUM_SLOTS
from ..derived import derived_for
from ..engine import Game
from ..views import (
    Closed,
    Meld,
    SeatInfo,
    SeatView,
    TeamInfo,
    ViewParts,
    seat_view_parts,
    view_parts,
)

_MEMO_LIMIT = 4096
_MELD = Struct("=3f")
_MELD_BYTES: dict[Meld, bytes] = {}
_ZEROS = (0,) * 8


class Encoder:
    """Views as vectors, fast: each seat's vector is kept from its last view and only the parts
    that changed since are written again.

    A view's parts are immutable, and ``handfoot.views`` hands out the same part objects while
    their part of the table is unchanged, so identity says what may have changed: a seat's
    hand, the pile, a seat's or a team's info object.  Within those, the sub-parts that the
    view shares between versions (known cards, packet sizes, melds, canastas) are compared the
    same way, and only what changed is packed into the vector's bytes; a block packed for one
    seat's vector is kept for the others.  Everything written comes from the view's parts being
    encoded, and everything kept is equal to the same part of them, so the vector equals
    :meth:`Layout.encode`'s whatever was encoded before, and the hidden-information guarantee
    carries over unchanged.

    One encoder per environment: it keeps state, so it is not shared between threads.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        k = self._packets = layout.packets
        p = layout.players
        self._seen: list[_Seen | None] = [None] * p
        self._extras = tuple(layout._extras)
        self._scale = layout.scale
        self._counts = Struct(f"={NUM_KINDS}f")
        head = layout._head_size - 2 * NUM_KINDS
        self._numbers = Struct(f"={head}f")
        self._numbers_at = 8 * NUM_KINDS
        self._numbers_stop = 4 * layout._head_size
        self._seats_at = layout._seats_at
        self._seat_size = layout._seat_size
        self._seat_middle = Struct(f"={k + 3}f")
        teams_at = self._seats_at + p * self._seat_size
        self._canastas = Struct(f"={NUM_SLOTS + 2 * NUM_CANASTA_KINDS}f")
        self._team_tail = Struct("=4f")
        # Per observer: (place in its vector, seat, where that seat's block starts) and the
        # same for the teams (in bytes).
        self._seat_order = [tuple((i, (me + i) % p, self._seats_at + i * self._seat_size)
                                  for i in range(p)) for me in range(p)]
        nt = layout.teams
        self._team_order = [tuple((i, (me % nt + i) % nt, 4 * (teams_at + i * layout._team_size))
                                  for i in range(nt)) for me in range(p)]
        self._packet_at = layout.field("seat0.packet").start
        at = layout.field("phase").start
        self._phase_at = {ph: at + i for i, ph in enumerate(PHASES)}
        self._to_act_at = layout.field("to_act").start
        self._turn_at = layout.field("turn_seat").start
        self._actor_at = layout.field("actor").start
        self._dealer_at = layout.field("dealer").start
        at = layout.field("asked").start
        self._asked_at = {a: at + i for i, a in enumerate(ASKED)}
        self._pile_top_at = layout.field("pile_top").start
        self._pile_taken_at = layout.field("pile_taken").start
        self._hot_start = 4 * layout.field("phase").start
        self._hot_stop = 4 * layout.field("pile_taken").stop
        self._hot_runs: list[dict[tuple[Any, ...], bytes]] = [{} for _ in range(p)]
        self._derived = derived_for(layout.rules)
        # Packed sub-parts by the identity of the part (kept alive in the entry, so an id is
        # not reused while its entry stands): one packing serves every seat's vector.
        self._known_memo: dict[int, tuple[Any, bytes]] = {}
        self._team_memo: dict[int, tuple[TeamInfo, int, bytes]] = {}
        self._melds_memo: dict[int, tuple[Any, bytes]] = {}
        self._canastas_memo: dict[int, tuple[Any, bytes]] = {}
        self._pile: tuple[int, ...] = ()
        self._pile_counts = [0] * NUM_KINDS
        self._pile_bytes = self._cards(self._pile_counts)

    def encode(self, v: SeatView) -> Vector:
        """The vector of seat ``v.seat``'s view (equal to ``Layout.encode(v)``)."""
        return self.encode_parts(v.seat, seat_view_parts(v))

    def encode_seat(self, game: Game, seat: int) -> Vector:
        """The vector of ``view(game, seat)``, from the view's parts alone (``view_parts``),
        without building the whole view."""
        return self.encode_parts(seat, view_parts(game, seat))

    def encode_parts(self, me: int, parts: ViewParts) -> Vector:
        """The vector of seat ``me``'s view, given as ``handfoot.views.view_parts``."""
        (hand, seats, teams, pile, totals, stock_size, round_no, turns, minimum, staged,
         set_aside, passes, took_pile, retracted, phase, turn, actor, dealer, asked,
         pile_taken) = parts
        seen = self._seen[me]
        if seen is None:
            seen = self._seen[me] = _Seen(self.layout)
        raw = seen.bytes
        if hand != seen.hand:
            seen.hand = hand
            raw[0:4 * NUM_KINDS] = self._cards(hand)
        if pile is not seen.pile:
            seen.pile = pile
            if pile is not self._pile:
                self._count_pile(pile)
            raw[4 * NUM_KINDS:8 * NUM_KINDS] = self._pile_bytes
        if self._extras:
            extras = {"set_aside": set_aside, "passes": passes}
            numbers: Iterable[float] = (len(pile), stock_size, round_no, turns, minimum, staged,
                                        *[extras[name] for name in self._extras], took_pile,
                                        retracted)
        else:
            numbers = (len(pile), stock_size, round_no, turns, minimum, staged, took_pile,
                       retracted)
        raw[self._numbers_at:self._numbers_stop] = self._numbers.pack(*numbers)
        if seats is not seen.seats:
            seen.seats = seats
            infos = seen.infos
            for i, j, at in self._seat_order[me]:
                info = seats[j]
                old = infos[i]
                if info is not old:
                    infos[i] = info
                    if (old is not None and info.known is old.known
                            and info.packets is old.packets and info.red3 == old.red3
                            and info.packet_no == old.packet_no
                            and info.knee_pending == old.knee_pending
                            and info.foot_played == old.foot_played):
                        seen.floats[at] = info.hand_n  # the usual change: only the size
                    else:
                        self._write_seat(seen, i, info, old)
        if teams is not seen.teams or totals is not seen.totals:
            seen.teams, seen.totals = teams, totals
            objs, scores = seen.team_objs, seen.team_totals
            memo = self._team_memo
            for i, j, at in self._team_order[me]:
                team, total = teams[j], totals[j]
                if team is not objs[i] or total != scores[i]:
                    objs[i], scores[i] = team, total
                    entry = memo.get(id(team))
                    if entry is None or entry[0] is not team or entry[1] != total:
                        entry = self._team_block(team, total)
                    raw[at:at + len(entry[2])] = entry[2]
        # The one-hot fields before the packets' are one run, written in one stroke from the
        # bytes kept for the facts that place its ones.
        hot = (phase, actor, turn, dealer, asked, pile[-1] if pile else -1, pile_taken)
        if hot != seen.hot:
            seen.hot = hot
            runs = self._hot_runs[me]
            run = runs.get(hot)
            if run is None:
                run = self._hot_run(me, hot, runs)
            raw[self._hot_start:self._hot_stop] = run
        return seen.body * self._scale

    # ------------------------------------------------------------------ packing
    def _cards(self, counts: tuple[int, ...] | list[int]) -> bytes:
        """Counts per kind of card, packed."""
        return self._counts.pack(*counts)

    def _hot_run(self, me: int, hot: tuple[Any, ...], runs: dict[tuple[Any, ...], bytes]) -> bytes:
        """The one-hot run of seat ``me``'s vector for ``hot`` (phase, actor, turn seat,
        dealer, asked, pile top, pile taken), relative to the observer."""
        phase, actor, turn, dealer, asked, top, taken = hot
        p = self.layout.players
        ones = [self._phase_at[phase], self._turn_at + (turn - me) % p,
                self._actor_at + (actor - me) % p, self._dealer_at + (dealer - me) % p,
                self._asked_at[asked]]
        if actor == me:
            ones.append(self._to_act_at)
        if top >= 0:
            ones.append(self._pile_top_at + top)
        if taken >= 0:
            ones.append(self._pile_taken_at + taken)
        start = self._hot_start // 4
        floats = [0.0] * ((self._hot_stop - self._hot_start) // 4)
        for at in ones:
            floats[at - start] = 1.0
        run = Struct(f"={len(floats)}f").pack(*floats)
        if len(runs) >= _MEMO_LIMIT:
            runs.clear()
        runs[hot] = run
        return run

    def _count_pile(self, pile: tuple[int, ...]) -> None:
        # The pile grows by one card at a time between takes: count on from the last pile.
        was = self._pile
        n = len(was)
        if len(pile) == n + 1 and pile[:n] == was:
            self._pile_counts[pile[n]] += 1
        else:
            counts = [0] * NUM_KINDS
            for kind in pile:
                counts[kind] += 1
            self._pile_counts = counts
        self._pile = pile
        self._pile_bytes = self._cards(self._pile_counts)

    def _write_seat(self, seen: _Seen, i: int, info: SeatInfo, old: SeatInfo | None) -> None:
        """Seat +i's block: [hand size, packets, red threes, knee, foot, known cards]."""
        at = self._seats_at + i * self._seat_size
        seen.floats[at] = info.hand_n
        packets = info.packets
        k = self._packets
        if (old is None or packets is not old.packets or info.red3 != old.red3
                or info.knee_pending != old.knee_pending
                or info.foot_played != old.foot_played):
            seen.bytes[4 * (at + 1):4 * (at + k + 4)] = self._seat_middle.pack(
                *packets, *_ZEROS[:k - len(packets)], info.red3, info.knee_pending,
                info.foot_played)
        if old is None or info.packet_no != old.packet_no:
            hot = self._packet_at + i * k + info.packet_no
            seen.floats[seen.packet_hot[i]] = 0.0
            seen.floats[hot] = 1.0
            seen.packet_hot[i] = hot
        known = info.known
        if old is None or known is not old.known:
            start = 4 * (at + k + 4)
            seen.bytes[start:start + 4 * NUM_KINDS] = self._packed(
                known, self._known_memo, self._pack_known)

    def _pack_known(self, *known: int) -> bytes:
        return self._cards(known)

    def _team_block(self, team: TeamInfo, total: int) -> tuple[TeamInfo, int, bytes]:
        """A team's block: [melds, canastas by slot, by kind, quota missing, opened, first
        canasta, minimum, score], kept for the other seats' vectors."""
        block = (self._packed(team.melds, self._melds_memo, self._pack_melds)
                 + self._packed(team.closed, self._canastas_memo, self._pack_canastas)
                 + self._team_tail.pack(team.opened, team.first_canasta, team.minimum, total))
        entry = (team, total, block)
        if len(self._team_memo) >= _MEMO_LIMIT:
            self._team_memo.clear()
        self._team_memo[id(team)] = entry
        return entry

    @staticmethod
    def _packed(part: Any, memo: dict[int, tuple[Any, bytes]], pack: Callable[..., bytes]) -> bytes:
        entry = memo.get(id(part))
        if entry is not None and entry[0] is part:
            return entry[1]
        block = pack(*part)
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[id(part)] = (part, block)
        return block

    @staticmethod
    def _pack_melds(*melds: Meld) -> bytes:
        # Few make-ups occur (naturals, 2s, jokers), so each one's bytes are kept: joining
        # twelve of them costs less than packing 36 numbers.
        try:
            return b"".join(map(_MELD_BYTES.__getitem__, melds))
        except KeyError:
            for m in melds:
                if m not in _MELD_BYTES:
                    _MELD_BYTES[m] = _MELD.pack(*m)
            return b"".join(map(_MELD_BYTES.__getitem__, melds))

    def _pack_canastas(self, *closed: Closed) -> bytes:
        """Closed canastas by slot, by kind, and what the quota still lacks by kind."""
        by_slot = [0] * NUM_SLOTS
        by_kind = [0] * NUM_CANASTA_KINDS
        for c in closed:
            by_slot[c[0]] += 1
            by_kind[_KIND_INDEX[c[4]]] += 1
        # What the quota still lacks is the engine's answer, not a rule restated here.
        short = self._derived.quota_missing([c[4] for c in closed])
        return self._canastas.pack(*by_slot, *by_kind,
                                   *[short.get(kind, 0) for kind in CANASTA_KINDS])


class _Seen:
    """One seat's vector as last encoded (unscaled, with a spare slot at the end where absent
    one-hots point) and the view parts it was written from."""

    __slots__ = ("body", "bytes", "floats", "hand", "hot", "infos", "packet_hot", "pile",
                 "seats", "team_objs", "team_totals", "teams", "totals")

    def __init__(self, layout: Layout) -> None:
        raw = np.zeros(layout.size + 1, dtype=np.float32)
        q = layout.field("quota")
        quota = dict(layout.rules.quota)
        raw[q.start:q.stop] = [quota.get(kind, 0) for kind in CANASTA_KINDS]
        self.body = raw[:layout.size]
        # Python-level writes into the vector: a float through ``floats``, packed bytes through
        # ``bytes`` (both far cheaper per call than NumPy's indexing).
        self.floats: Any = raw.data
        self.bytes = raw.data.cast("B")
        dummy = layout.size
        self.hand: tuple[int, ...] | None = None
        self.pile: tuple[int, ...] | None = None
        self.hot: tuple[Any, ...] = ()
        self.packet_hot = [dummy] * layout.players
        self.seats: tuple[SeatInfo, ...] | None = None
        self.infos: list[SeatInfo | None] = [None] * layout.players
        self.teams: tuple[TeamInfo, ...] | None = None
        self.totals: tuple[int, ...] | None = None
        self.team_objs: list[TeamInfo | None] = [None] * layout.teams
        self.team_totals = [0] * layout.teams


__all__ = ["Encoder"]
