"""How much of the difference between the search bot's plans its evaluation can see, and
whether playing the round out would tell the plans apart better.

    python benchmarks/plan_outcomes.py [--rules hand-knee-foot] [--deals 60] [--futures 16]
                                       [--jobs 2]

The search compares plans by the evaluation a round of turns later (``evaluate.value``), so
what matters is not how well the evaluation predicts a round's final score (its R^2 over whole
rounds, benchmarks/fit_evaluation.py) but how well it predicts which plan ends better. At the
first real choice of every sixth turn of heuristic rounds (deals 0, 1, ...), the first eight
plans the long budget searches (with pairs of changes) are each played, as the search plays it,
in three sampled worlds, the same worlds for every plan; the evaluation's features are read
after the replies, and the round is then played to its end by the heuristic in every seat,
``--futures`` times: once as the world was dealt, then with the stock shuffled again (the same
shuffles for every plan of a world, so the plans meet the same luck).

Printed, over the plans whose round goes on after the replies: the share of the final scores'
variance that lies between plans in the same world; the share of those differences the position
after the replies decides at all (the covariance of two futures of the same position: no
evaluation of the position can predict more); and how much of that decided part (its squared
correlation with the prediction) the current weights see, and least-squares refits fitted to
the mean of the futures see on the deals not used for fitting (every fifth): the fourteen
features, the fourteen plus seven more (cards that fit the team's open melds, canastas, cards
in hand in the foot, the fewest cards any seat has left, black threes held, opened, triples
held), and those twenty-one with weights that change with the stage of the round (features
times how far the stock has run down, and its square).

With four futures or more, the plans are also chosen as a search with the same three worlds
would choose them, by the evaluation (the mean win chance after the replies, as the bot does) and
by playing out (the share of won rounds over the first half of the futures), and each choice is
judged by the share of rounds its plan wins in the other half: what the long budget could gain
by spending its time on played-out rounds. Needs numpy (installed with the ``test`` extras).
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict
from multiprocessing import Pool

import numpy as np

from handfoot.bots import HeuristicBot, SearchBot
from handfoot.bots.base import play
from handfoot.bots.evaluate import FEATURES, features, progress, value, win_chance
from handfoot.bots.plans import PAIRS, VARIANTS, candidates
from handfoot.cards import BLACK_THREE, NATURAL_RANKS, NUM_SLOTS
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset
from handfoot.views import sample_world, view

WORLDS = 3  # per position, the same for every plan
EVERY = 6  # a position every sixth turn
PLANS = 8  # at most so many plans
HEAD = 8  # columns before the features: deal, world, position, plan, stage, ended, value, win
MORE = 7  # candidate features after the fourteen


def more_features(g: Game, team: int) -> list[float]:
    """Seven candidate features the evaluation does not use."""
    rules, d = g.rules, g.derived
    seats = rules.seats_of(team)
    size = [g.nat[team][s] + g.two[team][s] + g.jok[team][s] for s in range(NUM_SLOTS)]
    open_ranks = [r for r in NATURAL_RANKS if size[r]]
    return [
        float(sum(g.hands[s][r] for s in seats for r in open_ranks)),
        float(len(g.closed[team]) + sum(1 for n in size if n >= d.canasta)),
        float(sum(g.hand_n[s] for s in seats if g.packet_no[s] == d.last_packet)),
        float(min(g.hand_n[s] + sum(sum(p) for p in g.packets[s]) for s in seats)),
        float(sum(g.hands[s][BLACK_THREE] for s in seats)),
        1.0 if g.opened[team] else 0.0,
        float(sum(1 for s in seats for r in NATURAL_RANKS if g.hands[s][r] >= 3)),
    ]


def deal_rows(task: tuple[str, int, int]) -> list[list[float]]:
    """Rows of one deal, one per plan and world: the deal, the world, the position (its turn),
    the plan's place among the candidates, the stage, whether the round ended within the plan
    and its replies, the evaluation's value and win chance after the replies, the feature
    differences (the fourteen, then the seven), then the final score difference in each future,
    all from the searching team's side."""
    name, deal, futures = task
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
            team = v.team
            bot = SearchBot(seed=deal)
            plans = candidates(bot.policy, v, legal, bot.spread, VARIANTS | PAIRS)[:PLANS]
            trial = bot._plan_trial(v)  # the search's own way of playing a plan out
            for _ in range(WORLDS if len(plans) > 1 else 0):
                world = sample_world(v, rng)
                group += 1
                for i, plan in enumerate(plans):
                    h = world.clone()
                    trial(h, plan)
                    ended = h.over or h.round_no != 1
                    if ended:  # its score is known: every future is the same
                        x = [0.0] * (len(FEATURES) + MORE)
                        ys = [_finish(h, team)] * futures
                    else:
                        x = [a - b for a, b in zip(
                            features(h, team) + more_features(h, team),
                            features(h, 1 - team) + more_features(h, 1 - team), strict=True)]
                        ys = [_finish(_shuffled(h, f"plan-outcomes/{deal}/{group}/{k}" if k
                                                else None), team) for k in range(futures)]
                    rows.append([deal, group, g.turns, i, progress(h), float(ended),
                                 value(h, team, 1), win_chance(h, team, 1), *x, *ys])
        g.apply(bots[g.actor].choose(view(g, g.actor), legal))
    return rows


def _shuffled(g: Game, seed: str | None) -> Game:
    """A copy of ``g``, its stock shuffled again by ``seed`` (None: as the world was dealt)."""
    future = g.clone()
    if seed is not None:
        random.Random(seed).shuffle(future.stock)
    return future


def _finish(g: Game, team: int) -> float:
    """The team's final score difference in the first round, once the heuristic plays it out."""
    if not g.results:
        play(g, [HeuristicBot(seed=1000 + s) for s in range(g.rules.players)],
             until_round_end=True)
    scores = g.results[0].scores
    return float(scores[team] - scores[1 - team])


def within(a: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each row minus its group's mean: what differs between plans in the same world."""
    _, idx = np.unique(groups, return_inverse=True)
    sums = np.zeros((idx.max() + 1, a.shape[1]))
    np.add.at(sums, idx, a)
    return a - (sums / np.bincount(idx)[:, None])[idx]


def predictions(data: np.ndarray, futures: int) -> None:
    """What the evaluation and its refits see of the plans' differences."""
    data = data[data[:, 5] == 0]  # a round that ended is valued at its score
    groups = data[:, 0] * 10_000 + data[:, 1]
    stage = data[:, 4:5]
    n = len(FEATURES)
    base, more = data[:, HEAD:HEAD + n], data[:, HEAD + n:HEAD + n + MORE]
    ys = within(data[:, -futures:], groups)
    mean = ys.mean(axis=1)
    test = data[:, 0] % 5 == 0
    y = data[:, -futures]
    print(f"  {len(y)} plans whose round goes on after the replies, "
          f"{len(np.unique(groups))} worlds, {futures} futures each")
    print(f"  share of the final score's variance between plans in the same world: "
          f"{(ys[:, 0] ** 2).mean() / y.var():.1%}")

    def decided(rows: np.ndarray) -> float:
        """The futures of a position agree only in what the position decides: the mean
        covariance of pairs of futures is the part any evaluation of it could predict."""
        total = ys[rows].sum(axis=1)
        pairs = ((total**2 - (ys[rows] ** 2).sum(axis=1)) / 2).mean()
        return float(pairs / (futures * (futures - 1) / 2))

    every = np.ones(len(y), dtype=bool)
    print(f"  of those differences, the position after the replies decides "
          f"{decided(every) / float((ys ** 2).mean()):.1%}")

    def seen(p: np.ndarray, rows: np.ndarray) -> str:
        # The squared correlation of the prediction with the decided part (the futures' noise
        # is independent of the position, so it drops out of the covariance).
        cov = float((p[rows] * mean[rows]).mean())
        var = float((p[rows] ** 2).mean())
        bound = decided(rows)
        if not var or bound <= 0:
            return "n/a (too few deals)"
        return f"{math.copysign(cov * cov / (var * bound), cov):.0%}"

    current = within(data[:, 6:7], groups)[:, 0]
    print(f"  of what the position decides, the current weights see {seen(current, every)} "
          f"(every deal), {seen(current, test)} (every fifth)")
    both = np.hstack([base, more])
    for label, x in (("the fourteen features, refitted", base),
                     ("with seven more", both),
                     ("and weights that change with the stage",
                      np.hstack([both, both * stage, both * stage ** 2]))):
        xd = within(x, groups)
        w, *_ = np.linalg.lstsq(xd[~test], mean[~test], rcond=None)
        print(f"  {label}, fitted to the mean of the futures: {seen(xd @ w, test)} "
              "(every fifth deal, not fitted)")


def choices(data: np.ndarray, futures: int) -> None:
    """Plans chosen by the evaluation and by played-out rounds, judged by other futures."""
    half = futures // 2
    scores = data[:, -futures:]
    wins = (scores > 0) + 0.5 * (scores == 0)
    rows: dict[tuple[int, int], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r, (deal, turn, plan) in enumerate(data[:, [0, 2, 3]].astype(int)):
        rows[deal, turn][plan].append(r)
    gains: dict[str, list[float]] = defaultdict(list)
    for plans in rows.values():
        if len(plans) < 2 or any(len(r) != WORLDS for r in plans.values()):
            continue
        idx = np.array([plans[p] for p in sorted(plans)])  # plans x worlds
        judged = wins[idx][:, :, half:].mean(axis=(1, 2))
        chance = data[idx, 7].mean(axis=1)
        played = wins[idx][:, :, :half].mean(axis=(1, 2))
        ref = judged[np.argmax(chance)]
        for label, pick in (
                ("the heuristic's own plan", 0),
                (f"played out once in each world ({WORLDS} rounds a plan)",
                 int(np.argmax(wins[idx][:, :, 0].mean(axis=1)))),
                (f"played out {half} times in each world ({half * WORLDS} rounds a plan)",
                 int(np.argmax(played))),
                ("the evaluation and those rounds, half each", int(np.argmax(chance + played))),
                ("the best plan by the judging futures (a bound, flattered by their luck)",
                 int(np.argmax(judged)))):
            gains[label].append(float(judged[pick] - ref))
    n = len(gains["the heuristic's own plan"])
    print(f"  {n} positions: each choice's share of won rounds in the other {futures - half} "
          "futures, against the evaluation's choice [95%]")
    for label, g in gains.items():
        m, s = float(np.mean(g)), float(np.std(g)) * 1.96 / math.sqrt(max(1, n))
        print(f"    {label}: {m:+.2%} [{m - s:+.2%}, {m + s:+.2%}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=PRESET_NAMES, default="hand-knee-foot")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--futures", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.futures < 2:
        parser.error("--futures must be at least 2 (two futures bound what is predictable)")
    with Pool(args.jobs) as pool:
        parts = pool.map(deal_rows, [(args.rules, d, args.futures) for d in range(args.deals)],
                         chunksize=2)
    data = np.array([r for part in parts for r in part])
    print(f"{args.rules}: {args.deals} deals")
    predictions(data, args.futures)
    if args.futures >= 4:
        choices(data, args.futures)


if __name__ == "__main__":
    main()
