"""A position evaluation for search: the expected final round score difference of a team.

Scoring the table "as if the round ended now" misjudges a round still in play: cards in hand
are material for melds early on and a debt only late, a meld of six is worth most of a canasta,
and a pair of 7s in the knee game is worth far more than its points.  ``value`` is a linear
function of features of both teams (``features``), with weights fitted by least squares to the
final round score difference of ``heuristic`` self-play positions (hand-and-foot and
hand-knee-foot, both teams' views; benchmarks/fit_evaluation.py redoes the fit).  A finished
round is worth its real score.

The features read a whole ``Game`` (a sampled world inside search), never a view, so they may
use cards the seat cannot see only when search dealt them itself.
"""

from __future__ import annotations

import math

from ..cards import JOKER, NATURAL_RANKS, NUM_KINDS, NUM_SLOTS, TWO, WILD_SLOT
from ..derived import Derived
from ..engine import Game
from ..rules import Rules
from ..scoring import RoundResult

FEATURES = (
    "table",  # melded card points, finished canasta bonuses, red three bonuses
    "held",  # points held in hands and unopened packets (threes at their penalty), negated
    "held_late",  # the same times how far the stock has run down
    "missing",  # canastas the quota still lacks
    "missing_late",
    "near",  # bonus of the canasta each open meld would become, times (size / canasta)^2
    "pairs",  # ranks held two or more times in a hand, weighted by their canasta bonus / 500
    "wilds",  # wild cards in hands
    "hand_cards",  # cards in the packets being played
    "packet_cards",  # cards in unopened packets
    "in_foot",  # seats playing their foot
    "ready",  # quota met and a seat in its foot: going out is near
    "pile",  # cards in the pile, for the team whose turn it is (it may take them next)
    "pile_pair",  # the same when that seat holds a pair of the top card
)

# Fitted weights in the order of FEATURES, on the start of every turn (the end of the turn before,
# where whole-turn plans are valued): games of two packets (fitted on 2,000 hand-and-foot rounds,
# R^2 0.41) and of three or more (1,500 hand-knee-foot rounds, R^2 0.32).
# Some signs read oddly one by one (points held early are material, a missing canasta early is
# offset by "missing_late"); the features are correlated and only the sum is meant to predict.
WEIGHTS_TWO = (0.97, -0.341, 1.105, 378.019, -784.441, 1.131, 94.879, 125.596, 0.99, -0.13, 0.012,
               -54.761, 1.987, 3.983)
WEIGHTS_KNEE = (0.816, -0.071, 1.32, 695.538, -1186.306, 0.918, 70.707, 109.232, 53.68, 87.715,
                622.859, 72.781, 4.221, 34.336)


def weights_for(rules: Rules) -> tuple[float, ...]:
    return WEIGHTS_TWO if len(rules.packets) <= 2 else WEIGHTS_KNEE


def _missing(d: Derived, rules: Rules, kinds: list[str]) -> int:
    """How many canastas the quota still lacks (the most specific need filled first)."""
    have: dict[str, int] = {}
    for k in kinds:
        have[k] = have.get(k, 0) + 1
    quota = dict(d.quota)
    out = 0
    spare_clean = 0
    for kind, want in quota.items():
        if kind not in ("clean", "dirty", "wild"):
            got = have.get(kind, 0)
            out += max(0, want - got)
    for kind, got in have.items():
        if kind not in ("clean", "dirty", "wild"):
            spare_clean += max(0, got - quota.get(kind, 0))
    clean = have.get("clean", 0) + (spare_clean if rules.special_fills_clean else 0)
    out += max(0, quota.get("clean", 0) - clean)
    dirty = have.get("dirty", 0)
    if rules.clean_fills_dirty:
        dirty += max(0, clean - quota.get("clean", 0))
    out += max(0, quota.get("dirty", 0) - dirty)
    out += max(0, quota.get("wild", 0) - have.get("wild", 0))
    return out


def progress(g: Game) -> float:
    """How far the stock has run down this round: 0 at the deal, 1 when it is empty."""
    rules = g.rules
    start = rules.shoe_size - rules.players * sum(rules.packets)
    return 1.0 - len(g.stock) / max(1, start)


def features(g: Game, team: int) -> list[float]:
    rules = g.rules
    d = g.derived
    values = d.values
    bonus = dict(rules.canasta_bonus)
    size = d.canasta
    late = progress(g)
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    kinds = [d.canasta_kind(s, tw + j) for s, _n, tw, j in g.closed[team]]
    melded = 0
    near = 0.0
    for s, n, tw, j in g.closed[team]:
        melded += (n * values[s] if s != WILD_SLOT else 0) + tw * values[TWO] + j * values[JOKER]
    for s in range(NUM_SLOTS):
        n, tw, j = nat[s], two[s], jok[s]
        if not n + tw + j:
            continue
        melded += (n * values[s] if s != WILD_SLOT else 0) + tw * values[TWO] + j * values[JOKER]
        kind = d.canasta_kind(s, tw + j)
        if n + tw + j >= size:
            kinds.append(kind)
        else:
            near += bonus.get(kind, 0) * ((n + tw + j) / size) ** 2
    seats = rules.seats_of(team)
    laid = sum(g.red3[s] for s in seats)
    table = melded + sum(bonus.get(k, 0) for k in kinds)
    if laid and (kinds or not rules.red_three_bonus_needs_canasta):
        table += laid * rules.red_three_bonus
        if rules.red_three_set_size and laid >= rules.red_three_set_size:
            table += rules.red_three_set_bonus
    held = 0
    pairs = 0.0
    wilds = 0
    hand_cards = 0
    packet_cards = 0
    in_foot = 0
    rank_bonus = [bonus.get(d.rank_kind[r] or "clean", 0) / 500 for r in NATURAL_RANKS]
    threes = (rules.red_three_penalty, rules.black_three_penalty)
    for s in seats:
        hand = g.hands[s]
        hand_cards += g.hand_n[s]
        wilds += hand[TWO] + hand[JOKER]
        for r in NATURAL_RANKS:
            if hand[r] >= 2:
                pairs += rank_bonus[r]
        if g.packet_no[s] == d.last_packet:
            in_foot += 1
        for counts in (hand, *g.packets[s]):
            held += sum(counts[k] * values[k] for k in range(NUM_KINDS))
            held += counts[13] * threes[0] + counts[14] * threes[1]
        packet_cards += sum(sum(p) for p in g.packets[s])
    missing = _missing(d, rules, kinds)
    ready = 1.0 if not missing and in_foot else 0.0
    pile = 0.0
    pile_pair = 0.0
    if g.seat % rules.teams == team and g.pile:
        pile = float(len(g.pile))
        top = g.pile[-1]
        if top in NATURAL_RANKS and g.hands[g.seat][top] >= 2:
            pile_pair = pile
    return [float(table), -float(held), -held * late, float(missing), missing * late, near,
            pairs, float(wilds), float(hand_cards), float(packet_cards), float(in_foot), ready,
            pile, pile_pair]


def value(g: Game, team: int, round_no: int, weights: tuple[float, ...] | None = None) -> float:
    """The team's expected round score minus the best other team's, for round ``round_no``."""
    if len(g.results) >= round_no:
        totals = [float(score) for score in g.results[round_no - 1].scores]
        return totals[team] - max(x for tm, x in enumerate(totals) if tm != team)
    if weights is None:
        weights = weights_for(g.rules)
    mine = features(g, team)
    best = None
    for other in range(g.rules.teams):
        if other == team:
            continue
        theirs = features(g, other)
        diff = sum(w * (a - b) for w, a, b in zip(weights, mine, theirs, strict=True))
        best = diff if best is None else min(best, diff)
    return best if best is not None else 0.0


def going_out_points(result: RoundResult, team: int, bonus: float) -> float:
    """A reward for going out (``handfoot train --out-bonus``): ``bonus`` for the team whose
    seat went out, as much less for the others, nothing when the round ended otherwise."""
    if not bonus or result.went_out < 0:
        return 0.0
    return bonus if result.went_out % len(result.teams) == team else -bonus


# The spread of the final round score difference around ``value``'s prediction (residual standard
# deviation of the fit), at the deal and when the stock runs out (it narrows as the round goes
# on, linearly in between): games of two packets, and of three or more.
SIGMA_TWO = (1520.0, 420.0)
SIGMA_KNEE = (5040.0, 2230.0)


def sigma_for(rules: Rules, late: float = 0.0) -> float:
    start, end = SIGMA_TWO if len(rules.packets) <= 2 else SIGMA_KNEE
    return start + (end - start) * late


def win_chance(g: Game, team: int, round_no: int) -> float:
    """The chance that the team wins round ``round_no`` (ties count half), reading ``value`` as
    the mean of a normal spread: a small lead in a finished round beats a larger predicted lead
    in one still in play, which is what deciding when to go out needs."""
    diff = value(g, team, round_no)
    if len(g.results) >= round_no:
        return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    sigma = sigma_for(g.rules, progress(g))
    return 0.5 * (1.0 + math.erf(diff / (sigma * math.sqrt(2.0))))
