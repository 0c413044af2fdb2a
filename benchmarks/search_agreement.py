"""How much a longer search budget changes the search bot's choices, and what the changes are
worth by the search's own measure.

    python benchmarks/search_agreement.py [--rules hand-knee-foot] [--positions 60]
                                          [--short 13] [--long 128] [--judge 256]

Positions are the first real choice of every tenth turn of heuristic rounds (over deals 0, 1, ...),
where the search bot picks its plan. At each, the plan is chosen three times: with ``--short``
worlds and the short-budget plans (13 fit in 50 ms in the knee game, 28 under hand-and-foot), again
with other worlds, and with ``--long`` worlds and the long-budget plans (what fits in 1 s). When
the long and short choices differ, both plans are played in ``--judge`` fresh worlds, the same for
both, and the difference of their mean win chance (``evaluate.win_chance`` after the replies) is
the short choice's regret. For scale, the short choice is also judged against the heuristic's own
plan in the same worlds at every position: what the 50 ms search gains by the same measure, which
at the table is worth about ten points of win rate against the heuristic. The figures use worlds,
not milliseconds, so they repeat exactly.
"""

from __future__ import annotations

import argparse
import statistics

from handfoot.bots import HeuristicBot, SearchBot
from handfoot.bots.evaluate import win_chance
from handfoot.bots.plans import HEURISTIC, PAIRS, VARIANTS, Plan
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset
from handfoot.views import SeatView, sample_world, view


def positions(name: str, count: int) -> list[Game]:
    """The turn's first real choice (after a forced draw, as the search bot meets it) at every
    tenth turn of heuristic rounds (the first round of deals 0, 1, ...) from the fourth on, until
    ``count``; each deal starts at another turn, so that every stage of a round shows and no one
    deal fills the sample."""
    rules = preset(name)
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        g = Game.new(rules, seed=seed)
        bots = [HeuristicBot(seed=s) for s in range(rules.players)]
        taken = -1  # the turn whose position is in ``found``
        while not g.over and g.round_no == 1 and len(found) < count:
            legal = g.legal_actions()
            if (g.turns != taken and g.actor == g.seat and len(legal) > 1 and g.turns > 3
                    and (g.turns + seed) % 10 == 0):
                found.append(g.clone())
                taken = g.turns
            g.apply(bots[g.actor].choose(view(g, g.actor), legal))
        seed += 1
    return found


def judge(bot: SearchBot, v: SeatView, plans: list[Plan], worlds: int) -> list[float]:
    """Each plan's mean win chance over the same ``worlds`` sampled worlds."""
    totals = [0.0] * len(plans)
    trial = bot._plan_trial(v)  # the search's own way of playing a plan out
    for _ in range(worlds):
        world = sample_world(v, bot.rng)
        for i, plan in enumerate(plans):
            g = world.clone()
            trial(g, plan)
            totals[i] += win_chance(g, v.team, v.round_no)
    return [t / worlds for t in totals]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=PRESET_NAMES, default="hand-knee-foot")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--short", type=int, default=13)
    parser.add_argument("--long", type=int, default=128)
    parser.add_argument("--judge", type=int, default=256)
    args = parser.parse_args()
    short_differs = long_differs = 0
    regrets: list[float] = []
    gains: list[float] = []  # the short choice over the heuristic's plan, at every position
    for i, g in enumerate(positions(args.rules, args.positions)):
        v = view(g, g.seat)
        legal = g.legal_actions()
        short = SearchBot(seed=i, worlds=args.short, variants=VARIANTS, width=6)
        again = SearchBot(seed=i + 10_000, worlds=args.short, variants=VARIANTS, width=6)
        long = SearchBot(seed=i + 20_000, worlds=args.long, variants=VARIANTS | PAIRS, width=16)
        a, b, c = (bot._choose_plan(v, legal) for bot in (short, again, long))
        short_differs += a != b
        judged = judge(SearchBot(seed=i + 30_000), v, [c, a, HEURISTIC], args.judge)
        gains.append(judged[1] - judged[2])
        if a != c:
            long_differs += 1
            regrets.append(judged[0] - judged[1])
    n = args.positions
    print(f"{args.rules}: {n} positions")
    print(f"  short budget twice ({args.short} worlds, other worlds): choices differ in "
          f"{short_differs} ({short_differs / n:.0%})")
    print(f"  short against long ({args.long} worlds, pairs of changes): choices differ in "
          f"{long_differs} ({long_differs / n:.0%})")
    if regrets:
        print(f"  where they differ, the long choice's win chance is higher by "
              f"{statistics.mean(regrets):+.2%} on average (judged in {args.judge} fresh worlds; "
              f"per position over all: {sum(regrets) / n:+.2%})")
    print(f"  for scale, the short choice against the heuristic's own plan: "
          f"{statistics.mean(gains):+.2%} per position (same worlds)")


if __name__ == "__main__":
    main()
