"""A rule-of-thumb player that plans for the team.

It scores every legal action and plays the best: meld naturals at once (they count for the team
and stop counting against it), keep wild cards for the canastas the quota still needs, leave
clean melds clean while the team needs clean canastas, open only when the hand can reach the
minimum, take the pile when it pays, throw black threes to block, never feed the next opponent a
card it is known to pair, and ask or allow going out when the table favours it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import (
    Action,
    Add,
    Answer,
    Ask,
    BlackThreeBook,
    Discard,
    Draw,
    Knock,
    PickUpPile,
    Retract,
    Start,
    Stop,
    TakeOnto,
    TakePile,
)
from ..cards import BLACK_THREE, JOKER, NATURAL_RANKS, RED_THREE, TWO, WILD_SLOT
from ..state import Phase
from ..views import SeatView
from .knowledge import (
    can_go_out_now,
    derived,
    hand_points,
    in_foot,
    missing,
    next_opponent,
    opponents,
)

_NEVER = -10_000.0


class _Context:
    """What every action's score needs, computed once per decision."""

    __slots__ = ("derived", "hand", "melds", "need", "opened", "potential", "quota_met",
                 "rank_kinds", "size", "values", "v")

    def __init__(self, v: SeatView) -> None:
        self.v = v
        self.derived = derived(v)
        self.values = self.derived.values
        self.hand = v.hand
        team = v.teams[v.team]
        self.melds = team.melds
        self.opened = team.opened
        self.need = missing(v, v.team)
        self.quota_met = not self.need
        self.size = self.derived.canasta
        self.rank_kinds = v.rules.rank_kinds
        self.potential = _opening_potential(v) if not team.opened else 0


def _opening_potential(v: SeatView, extra: int = -1) -> int:
    """Roughly the most points the hand can lay down now (naturals in threes, pairs with a wild,
    wild cards together), to judge whether an opening can reach the minimum; with ``extra``,
    as if one more card of that kind were held (the pile's top card, taken)."""
    values = derived(v).values
    hand = v.hand
    if extra >= 0:
        hand = (*hand[:extra], hand[extra] + 1, *hand[extra + 1:])
    rules = v.rules
    points = 0
    spare_wilds = sorted([values[TWO]] * hand[TWO] + [values[JOKER]] * hand[JOKER])
    pairs = []
    for r in NATURAL_RANKS:
        if hand[r] >= 3:
            points += hand[r] * values[r]
        elif hand[r] == 2 and r not in rules.no_wild_ranks and rules.max_wilds:
            pairs.append(r)
    for r in sorted(pairs, key=lambda r: -values[r]):
        if not spare_wilds:
            break
        points += 2 * values[r] + spare_wilds.pop(0)
    if rules.wild_melds and len(spare_wilds) >= 3:
        points += sum(spare_wilds)
    if v.pile_taken >= 0:
        points += values[v.pile_taken]
    return points + v.staged


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"heuristic/{seed}")

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.rank(view, legal)[0]

    def rank(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The legal actions, best first."""
        return [a for a, _ in self.scored(view, legal)]

    def scored(self, view: SeatView, legal: Sequence[Action]) -> list[tuple[Action, float]]:
        """The legal actions with the bot's score of each, best first (ties in the list's
        order): the web page's review reads how far apart two choices are from this."""
        ctx = _Context(view)
        scored = [(self.score(ctx, a), i, a) for i, a in enumerate(legal)]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [(a, points) for points, _, a in scored]

    # ------------------------------------------------------------------ scoring
    def score(self, ctx: _Context, a: Action) -> float:
        v = ctx.v
        if isinstance(a, Answer):
            return self._answer(ctx) if a.yes else 0.0
        if isinstance(a, Draw | Stop):
            return 0.0
        if isinstance(a, TakePile):
            return self._take(ctx, a)
        if isinstance(a, TakeOnto | PickUpPile):
            return self._take_other(ctx, a)
        if isinstance(a, BlackThreeBook):
            return 400.0  # seven cards out of the hand at once, and a clean canasta
        if isinstance(a, Start):
            return self._start(ctx, a)
        if isinstance(a, Add):
            return self._add(ctx, a)
        if isinstance(a, Discard):
            if _last_card(v):
                return 10_000.0  # the engine lists this discard only when it goes out
            return -self._keep(ctx, a.kind)
        if isinstance(a, Ask):
            # Ask only to go out now: a yes may oblige it (8.5.3), and asking for nothing
            # tells the table what the hand holds.
            if ctx.quota_met and sum(ctx.hand) <= 4 and can_go_out_now(v):
                return 5_000.0
            return _NEVER
        if isinstance(a, Retract):
            return -900.0
        if isinstance(a, Knock):
            return -1.0
        return _NEVER

    def _answer(self, ctx: _Context) -> float:
        """Positive means "yes": going out pays the bonus and stops the opponents, but every card
        this seat still holds (and its unopened packets) then counts against the team."""
        v = ctx.v
        held = hand_points(v) + 8 * sum(v.packets)
        bonus = v.rules.going_out_bonus
        # The opponents could go out soon: end the round now.
        danger = any(not missing(v, s % v.rules.teams) for s in opponents(v))
        return 1.0 if held <= 2 * bonus + 100 or danger else -1.0

    def _take(self, ctx: _Context, a: TakePile) -> float:
        v = ctx.v
        cards = len(v.pile) if v.rules.pile_take == 0 else min(len(v.pile), v.rules.pile_take)
        score = 60.0 + 15 * cards
        if in_foot(v) and ctx.quota_met:
            score -= 40 * cards  # more cards only delay going out
        # The take's pair (or natural and wild) is in the hand already: count the top card
        # once, with the hand, not the pair again.
        if not ctx.opened and _opening_potential(v, v.pile_top) < v.minimum:
            score = -50.0  # the opening would fall short and have to be taken back
        if a.wild >= 0:
            score -= 40
        return score

    def _take_other(self, ctx: _Context, a: TakeOnto | PickUpPile) -> float:
        """The house rules' other ways to take the pile (4.7, 4.8): worth what the cards are,
        as a pair's take is; the top card alone onto a meld keeps the pair in hand."""
        score = self._take(ctx, TakePile())
        if isinstance(a, TakeOnto):
            return score + 10
        if not ctx.opened:
            # Picking up before the opening: every card counts toward it, and a short one is
            # taken back; worth it when the hand nearly opens already.
            return score if ctx.potential + 30 >= ctx.v.minimum else -50.0
        return score - 5

    def _meld_points(self, ctx: _Context, slot: int, n: int, tw: int, j: int) -> int:
        values = ctx.values
        nat = n * values[slot] if slot != WILD_SLOT else 0
        return nat + tw * values[TWO] + j * values[JOKER]

    def _opening_score(self, ctx: _Context, points: int) -> float:
        v = ctx.v
        if v.staged or v.phase is Phase.PILE_OPENING or ctx.potential >= v.minimum:
            return 200.0 + points
        return _NEVER

    def _clean_wanted(self, ctx: _Context, slot: int) -> bool:
        """Whether this rank's meld is one the team should keep clean: a rank canasta the quota
        needs, or one of the largest clean melds, as many as clean canastas are still needed."""
        need = ctx.need
        kind = ctx.rank_kinds.get(slot)
        if kind and need.get(kind, 0):
            return True
        wanted = need.get("clean", 0)
        if not wanted:
            return False
        clean = sorted(
            (s for s in range(WILD_SLOT)
             if ctx.melds[s][0] and not ctx.melds[s][1] + ctx.melds[s][2]
             and s not in ctx.rank_kinds),
            key=lambda s: -ctx.melds[s][0],
        )
        if not clean:
            return ctx.hand[slot] >= 3
        return slot in clean[:wanted]

    def _start(self, ctx: _Context, a: Start) -> float:
        slot, n, tw, j = a.slot, a.naturals, a.twos, a.jokers
        if not ctx.opened:
            return self._opening_score(ctx, self._meld_points(ctx, slot, n, tw, j))
        if slot == WILD_SLOT:
            if ctx.need.get("wild", 0):
                return 320.0 - 10 * j
            wild_bonus = ctx.v.rules.canasta_bonus_of("wild")
            held = ctx.hand[TWO] + ctx.hand[JOKER]
            return 150.0 if wild_bonus >= 1000 and held >= 5 else -200.0
        score = 300.0 + 5 * ctx.values[slot]
        if slot in ctx.rank_kinds:
            score += 80
        if tw or j:
            # A pair with a wild card sheds three cards at once: the surest way into the foot.
            score = 345.0 - 30 * j  # spend a 2 before a joker
            if self._clean_wanted(ctx, slot) and ctx.hand[slot] >= 3:
                score = -100.0
            if ctx.need.get("wild", 0) and ctx.hand[TWO] + ctx.hand[JOKER] <= 4:
                score -= 400  # the wild canasta needs these
        return score

    def _add(self, ctx: _Context, a: Add) -> float:
        slot, kind = a.slot, a.kind
        n, tw, j = ctx.melds[slot]
        size = n + tw + j
        completes = size + 1 == ctx.size
        if not ctx.opened:
            return self._opening_score(ctx, ctx.values[kind])
        if slot == WILD_SLOT:
            if ctx.need.get("wild", 0) or ctx.v.rules.canasta_bonus_of("wild") >= 1000:
                return 330.0 + 20 * size + (300 if completes else 0)
            return 100.0
        if kind not in (TWO, JOKER):
            return 320.0 + 20 * size + (300 if completes else 0)
        # A wild card on a rank meld.
        if tw + j == 0 and self._clean_wanted(ctx, slot):
            return -300.0  # keep this meld clean
        if ctx.need.get("wild", 0) and ctx.hand[TWO] + ctx.hand[JOKER] <= 3 \
                and not (completes and ctx.need.get("dirty", 0)):
            return -150.0
        score = 120.0 + 20 * size - (30 if kind == JOKER else 0)
        if completes and (ctx.need.get("dirty", 0) or not ctx.need):
            score += 300
        return score

    def _keep(self, ctx: _Context, kind: int) -> float:
        """How much the seat wants to keep a card rather than discard it (0 to about 1,000)."""
        v = ctx.v
        hand = ctx.hand
        if kind == BLACK_THREE:
            # Where black threes make a book from the foot (5.7), a few are worth keeping.
            if v.rules.black_three_book and hand[BLACK_THREE] >= 3:
                return 300.0
            return 0.0
        if kind == RED_THREE:
            return 5.0
        if kind in (TWO, JOKER):
            return 900.0 + ctx.values[kind]
        keep = 40.0 + (0, 60, 200, 260)[min(hand[kind], 3)] + ctx.values[kind] / 2
        if sum(ctx.melds[kind]):
            keep += 150
        special = ctx.rank_kinds.get(kind)
        if special and ctx.need.get(special, 0):
            keep += 200
        # Feeding the pile: the next opponent is known to hold a pair of this rank, or its team
        # builds this rank.
        nxt = next_opponent(v)
        danger = 0.0
        if v.seats[nxt].known[kind] >= 2:
            danger += 400
        if sum(v.teams[nxt % v.rules.teams].melds[kind]):
            danger += 20
        keep += danger * (1 + len(v.pile) / 8)
        return keep


def _last_card(v: SeatView) -> bool:
    return sum(v.hand) == 1 and in_foot(v)

