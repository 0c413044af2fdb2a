"""How much of the difference between the search bot's plans its evaluation can see.

    python benchmarks/plan_outcomes.py [--rules hand-knee-foot] [--deals 360] [--jobs 2]

The search compares plans by the evaluation a round of turns later (``evaluate.value``), so
what matters is not how well the evaluation predicts a round's final score (its R^2 over whole
rounds, benchmarks/fit_evaluation.py) but how well it predicts which plan ends better. At the
first real choice of every sixth turn of heuristic rounds (deals 0, 1, ...), the first eight
plans the long budget searches (with pairs of changes) are each played, as the search plays it,
in three sampled worlds, the same worlds for every plan; the evaluation's features are read
after the replies, and the round is then played to its end by the heuristic in every seat, in
that world, for the real final score. Within a world, the plans differ only by what they did,
so the differences of their final scores are what the evaluation should predict.

Printed: the share of the final scores' variance that lies between plans in the same world;
the share of those differences the position after the replies decides at all (the covariance of
two futures of each position, the stock shuffled again for the second: no evaluation of the
position can predict more); and the share (R^2 on the deals not used for fitting, every fifth)
that the current weights predict and that least-squares refits on the same data predict: the
fourteen features, the fourteen plus seven more (cards that fit the team's open melds, canastas,
cards in hand in the foot, the fewest cards any seat has left, black threes held, opened,
triples held), and those twenty-one with weights that change with the stage of the round
(features times how far the stock has run down, and its square). Needs numpy (installed with
the ``test`` extras).
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool

import numpy as np

from handfoot.bots import HeuristicBot, SearchBot
from handfoot.bots.base import play
from handfoot.bots.evaluate import features, progress, weights_for
from handfoot.bots.plans import PAIRS, VARIANTS, candidates
from handfoot.cards import BLACK_THREE, NATURAL_RANKS, NUM_SLOTS
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset
from handfoot.views import sample_world, view

WORLDS = 3  # per position, the same for every plan
EVERY = 6  # a position every sixth turn
PLANS = 8  # at most so many plans


def more_features(g: Game, team: int) -> list[float]:
    """Seven candidate features the evaluation does not use."""
    rules, t = g.rules, g.t
    seats = rules.seats_of(team)
    size = [g.nat[team][s] + g.two[team][s] + g.jok[team][s] for s in range(NUM_SLOTS)]
    open_ranks = [r for r in NATURAL_RANKS if size[r]]
    return [
        float(sum(g.hands[s][r] for s in seats for r in open_ranks)),
        float(len(g.closed[team]) + sum(1 for n in size if n >= t.canasta)),
        float(sum(g.hand_n[s] for s in seats if g.packet_no[s] == t.last_packet)),
        float(min(g.hand_n[s] + sum(sum(p) for p in g.packets[s]) for s in seats)),
        float(sum(g.hands[s][BLACK_THREE] for s in seats)),
        1.0 if g.opened[team] else 0.0,
        float(sum(1 for s in seats for r in NATURAL_RANKS if g.hands[s][r] >= 3)),
    ]


def deal_rows(task: tuple[str, int]) -> list[list[float]]:
    """Rows of one deal: group (position, world), the final score difference in each of the two
    futures, the stage, then the feature differences (the fourteen, then the seven), all from
    the searching team's side."""
    name, deal = task
    rules = preset(name)
    g = Game.new(rules, seed=deal)
    bots = [HeuristicBot(seed=s) for s in range(rules.players)]
    rng = random.Random(f"plan-outcomes/{deal}")
    rows: list[list[float]] = []
    taken, group = -1, 0
    while not g.over and g.round_no == 1:
        legal = g.legal_actions()
        if (g.turns != taken and g.actor == g.seat and len(legal) > 1
                and (g.turns + deal) % EVERY == 0):
            taken = g.turns
            v = view(g, g.seat)
            bot = SearchBot(seed=deal)
            plans = candidates(bot.policy, v, legal, bot.spread, VARIANTS | PAIRS)[:PLANS]
            trial = bot._plan_trial(v)  # the search's own way of playing a plan out
            for _ in range(WORLDS if len(plans) > 1 else 0):
                world = sample_world(v, rng)
                group += 1
                for plan in plans:
                    h = world.clone()
                    trial(h, plan)
                    if h.over or h.round_no != 1:
                        continue  # the round ended: valued at its score, nothing to predict
                    x = [a - b for a, b in zip(
                        features(h, v.team) + more_features(h, v.team),
                        features(h, 1 - v.team) + more_features(h, 1 - v.team), strict=True)]
                    stage = progress(h)
                    other = h.clone()
                    rng.shuffle(other.stock)  # another future from the same position
                    ys = [_finish(h, v.team), _finish(other, v.team)]
                    rows.append([deal * 10_000 + group, *ys, stage, *x])
        g.apply(bots[g.actor].choose(view(g, g.actor), legal))
    return rows


def _finish(g: Game, team: int) -> float:
    """The team's final round score difference once the heuristic plays the round out."""
    play(g, [HeuristicBot(seed=1000 + s) for s in range(g.rules.players)], until_round_end=True)
    teams = g.results[0]["teams"]
    return float(teams[team]["total"] - teams[1 - team]["total"])


def within(a: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each row minus its group's mean: what differs between plans in the same world."""
    _, idx = np.unique(groups, return_inverse=True)
    sums = np.zeros((idx.max() + 1, a.shape[1]))
    np.add.at(sums, idx, a)
    return a - (sums / np.bincount(idx)[:, None])[idx]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=PRESET_NAMES, default="hand-knee-foot")
    parser.add_argument("--deals", type=int, default=360)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with Pool(args.jobs) as pool:
        parts = pool.map(deal_rows, [(args.rules, d) for d in range(args.deals)], chunksize=4)
    data = np.array([r for part in parts for r in part])
    groups, y, again, stage = data[:, 0], data[:, 1:2], data[:, 2:3], data[:, 3:4]
    base, more = data[:, 4:18], data[:, 18:25]
    yd = within(y, groups)[:, 0]
    test = (groups // 10_000) % 5 == 0
    # Two futures of the same position agree only in what the position decides: their
    # covariance is the part of the differences any evaluation of the position could predict.
    knowable = float((yd * within(again, groups)[:, 0]).mean() / (yd**2).mean())
    print(f"{args.rules}: {len(y)} plans played out, {len(np.unique(groups))} worlds, "
          f"{args.deals} deals")
    print(f"  share of the final score's variance between plans in the same world: "
          f"{(yd ** 2).mean() / y.var():.1%}")

    def explained(p: np.ndarray) -> float:
        return float(1 - ((yd[test] - p[test]) ** 2).mean() / (yd[test] ** 2).mean())

    current = within(base @ np.array(weights_for(preset(args.rules)))[:, None], groups)[:, 0]
    print(f"  of those differences, the position after the replies decides {knowable:.1%} "
          "(two futures: the stock shuffled again)")
    print(f"  of those differences, the current weights predict {explained(current):.1%}")
    both = np.hstack([base, more])
    for label, x in (("the fourteen features, refitted", base),
                     ("with seven more", both),
                     ("and weights that change with the stage",
                      np.hstack([both, both * stage, both * stage ** 2]))):
        xd = within(x, groups)
        w, *_ = np.linalg.lstsq(xd[~test], yd[~test], rcond=None)
        print(f"  {label}: {explained(xd @ w):.1%}")


if __name__ == "__main__":
    main()
