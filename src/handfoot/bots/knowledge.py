"""Facts a bot reads off its view: canastas, the quota, what a card is worth keeping."""

from __future__ import annotations

import random

from ..cards import BLACK_THREE, JOKER, NUM_KINDS, NUM_SLOTS, RED_THREE, TWO, WILD_SLOT
from ..derived import Derived, derived_for
from ..legality import can_go_out
from ..views import SeatView, ViewError, sample_world


def derived(v: SeatView) -> Derived:
    return derived_for(v.rules)


def canasta_kinds(v: SeatView, team: int) -> list[str]:
    d = derived(v)
    info = v.teams[team]
    kinds = [c[4] for c in info.closed]
    for slot, (n, tw, j) in enumerate(info.melds):
        if n + tw + j >= d.canasta:
            kinds.append(d.canasta_kind(slot, tw + j))
    return kinds


def can_go_out_now(v: SeatView) -> bool:
    """Whether the seat (whose turn it is) could go out this turn were its partner to say yes:
    the engine's own answer, asked of any world that agrees with the view (the seat's hand and
    its team's melds are the same in every one)."""
    try:
        world = sample_world(v, random.Random(0))
    except ViewError:
        return False
    return can_go_out(world)


def quota_met(v: SeatView, team: int) -> bool:
    return derived(v).quota_met(canasta_kinds(v, team))


def missing(v: SeatView, team: int) -> dict[str, int]:
    """Canastas of each kind the team still lacks for the quota (the engine's assignment)."""
    return derived(v).quota_missing(canasta_kinds(v, team))


def hand_points(v: SeatView) -> int:
    values = derived(v).values
    rules = v.rules
    pts = sum(v.hand[k] * values[k] for k in range(NUM_KINDS))
    return pts + v.hand[RED_THREE] * rules.red_three_penalty \
        + v.hand[BLACK_THREE] * rules.black_three_penalty


def in_foot(v: SeatView) -> bool:
    return v.packet_no == len(v.rules.packets) - 1


def wilds(v: SeatView) -> int:
    return v.hand[TWO] + v.hand[JOKER]


def open_size(v: SeatView, team: int, slot: int) -> int:
    n, tw, j = v.teams[team].melds[slot]
    return n + tw + j


def opponents(v: SeatView) -> list[int]:
    teams = v.rules.teams
    return [s for s in range(v.rules.players) if s % teams != v.team]


def next_opponent(v: SeatView) -> int:
    players = v.rules.players
    for i in range(1, players):
        s = (v.seat + i) % players
        if s % v.rules.teams != v.team:
            return s
    return (v.seat + 1) % players


def slot_range() -> range:
    return range(NUM_SLOTS)


def is_wild_slot(slot: int) -> bool:
    return slot == WILD_SLOT
