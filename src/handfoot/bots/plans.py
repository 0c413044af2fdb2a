"""Whole-turn plans: the heuristic's turn with its few real choices made differently.

A plan fixes what the heuristic would otherwise decide alone during one turn: stock or pile,
which of its favourite discards to throw, whether wild cards go onto rank melds, whether to start
new rank melds, and whether to go out (or ask) this turn.  Everything else (which melds to lay)
stays the heuristic's, so a plan is a small policy the search bot can play out in a sampled
world and then follow for real.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action, Add, Ask, Discard, Draw, PickUpPile, Start, TakeOnto, TakePile
from ..cards import JOKER, TWO, WILD_SLOT
from ..engine import Game
from ..state import Phase
from ..views import SeatView, view
from .heuristic import HeuristicBot, _Context

_NEVER = -10_000.0


@dataclass(frozen=True, slots=True)
class Plan:
    take: Action | None = None  # the draw-phase action; None leaves it to the heuristic
    discard: int = 0  # which of the heuristic's discards, best first
    save_wilds: bool = False  # no wild card onto (or into) a rank meld this turn
    go_out: bool = True  # False: never ask nor go out this turn
    hold: bool = False  # start no new rank meld this turn (once the team has opened)
    # The network's own turn (``expert`` only): every choice of the turn is the network's, so
    # the search weighs what ``strong`` would play against the heuristic's variations.
    network: bool = False


HEURISTIC = Plan()
VARIANTS = 47  # the plans searched by default (bits of ``candidates``' ``variants``)
PAIRS = 64  # the bit for every pair of changes


def act(policy: HeuristicBot, plan: Plan, v: SeatView, legal: Sequence[Action],
        spread: float) -> Action:
    """The plan's action for the turn seat in ``v``."""
    if len(legal) == 1:
        return legal[0]
    if v.phase is Phase.DRAW and plan.take is not None and plan.take in legal:
        return plan.take
    ctx = _Context(v)
    foot = v.packet_no == len(v.rules.packets) - 1
    cards = sum(v.hand)
    scored: list[tuple[float, int, Action]] = []
    for i, a in enumerate(legal):
        sc = policy.score(ctx, a)
        if plan.save_wilds and ((isinstance(a, Add) and a.slot != WILD_SLOT
                                 and a.kind in (TWO, JOKER))
                                or (isinstance(a, Start) and a.slot != WILD_SLOT
                                    and a.twos + a.jokers > 0)):
            sc = min(sc, -50.0)
        if plan.hold and ctx.opened and isinstance(a, Start) and a.slot != WILD_SLOT:
            sc = _NEVER + 2
        if not plan.go_out and foot:
            # Keep two cards after melding (one to throw, one to hold): no way out this turn.
            if isinstance(a, Ask) or (isinstance(a, Discard) and cards <= 1):
                sc = _NEVER
            elif isinstance(a, Start | Add) and cards - (3 if isinstance(a, Start) else 1) < 2:
                sc = _NEVER + 1
        scored.append((sc, i, a))
    scored.sort(key=lambda s: (-s[0], s[1]))
    best = scored[0]
    if isinstance(best[2], Discard) and plan.discard:
        discards = [s for s in scored if isinstance(s[2], Discard) and best[0] - s[0] <= spread]
        return discards[min(plan.discard, len(discards) - 1)][2]
    return best[2]


def draws(legal: Sequence[Action]) -> list[Action]:
    """The legal ways to draw (the stock, the pile, the pile onto a meld): more than one makes
    the draw a real choice."""
    return [a for a in legal if isinstance(a, TakePile | TakeOnto | PickUpPile | Draw)]


def candidates(policy: HeuristicBot, v: SeatView, legal: Sequence[Action],
               spread: float, variants: int = VARIANTS) -> list[Plan]:
    """The heuristic's own plan first, then plans that change one of its choices.  ``variants``
    says which (bits): 1 the other way to draw (stock or pile), 2 the second discard, 4 wild
    cards kept off rank melds, 8 not going out this turn, 16 the third discard, 32 no new rank
    meld started (once the team has opened, and only in games with rank canastas such as 7s:
    pairs and triples stay in hand to take the pile), 64 every pair of those changes that
    change different choices (the pile taken and pairs held back, say)."""
    ctx = _Context(v)
    plans = [HEURISTIC]
    takes = draws(legal)
    if len(takes) > 1 and variants & 1:
        first = max(takes, key=lambda a: policy.score(ctx, a))
        for a in takes:
            if a != first:
                plans.append(Plan(take=a))
    if variants & 2:
        plans.append(Plan(discard=1))
    if variants & 16:
        plans.append(Plan(discard=2))
    hand = v.hand
    if hand[TWO] + hand[JOKER] and variants & 4:
        plans.append(Plan(save_wilds=True))
    # Going out is near when the seat plays its foot: compare going out now with waiting.
    if v.packet_no == len(v.rules.packets) - 1 and sum(hand) <= 8 and variants & 8:
        plans.append(Plan(go_out=False))
    # Holding pairs back for the pile measured better in the knee game, where canastas of 7s
    # and 5s pay thousands, and worse under hand-and-foot, which has none (docs/BOTS.md).
    if variants & 32 and v.rules.rank_kinds and v.teams[v.team].opened:
        plans.append(Plan(hold=True))
    if variants & PAIRS:
        singles = plans[1:]
        plans += [both for i, a in enumerate(singles) for b in singles[i + 1:]
                  if (both := _combined(a, b)) is not None]
    return plans


def _combined(a: Plan, b: Plan) -> Plan | None:
    """The plan making both changes, or None when they change the same choice (two draws, two
    discards)."""
    if (a.take is not None and b.take is not None) or (a.discard and b.discard):
        return None
    return Plan(take=a.take if a.take is not None else b.take, discard=a.discard or b.discard,
                save_wilds=a.save_wilds or b.save_wilds, go_out=a.go_out and b.go_out,
                hold=a.hold or b.hold)


def play_turn(policy: HeuristicBot, plan: Plan, g: Game, seat: int,
              spread: float) -> list[tuple[int, Action]]:
    """Play ``seat``'s turn in ``g`` to its end under ``plan`` (partners answer by heuristic);
    the actions played, with their actors."""
    round_no = g.round_no
    turns = g.turns
    played: list[tuple[int, Action]] = []
    while not g.over and g.round_no == round_no and g.turns == turns:
        if g.seat != seat:
            break
        legal = g.legal_actions()
        actor = g.actor
        if actor == seat:
            a = act(policy, plan, view(g, seat), legal, spread)
        else:
            a = legal[0] if len(legal) == 1 else policy.rank(view(g, actor), legal)[0]
        g.apply(a)
        played.append((actor, a))
        if g.phase is Phase.DRAW and g.seat == seat and g.turns != turns:
            break
    return played
