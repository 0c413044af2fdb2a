"""Decision time of the levels on one core: p50, p99 and the longest decision.

Plays single rounds with the level in one team's seats and ``casual`` in the others, timing
every decision of the level with more than one legal action.  The process is pinned to one
core (where the system allows it).

    PYTHONPATH=src python benchmarks/level_timing.py --levels strong expert --rounds 10
"""

from __future__ import annotations

import argparse
import os
import time

from handfoot.bots import make_bot
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.views import view


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--levels", nargs="+", default=["strong", "expert"])
    parser.add_argument("--rules", default="hand-and-foot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rules = preset(args.rules, args.players).replace(rounds=1)
    for level in args.levels:
        times: list[float] = []
        for r in range(args.rounds):
            game = Game.new(rules, seed=args.seed + r)
            bots = [make_bot(level if s % rules.teams == r % rules.teams else "casual",
                             seed=s) for s in range(rules.players)]
            while not game.over:
                seat = game.actor
                legal = game.legal_actions()
                mine = bots[seat].name != "heuristic"
                start = time.perf_counter()
                action = bots[seat].choose(view(game, seat), legal)
                took = time.perf_counter() - start
                if mine and len(legal) > 1:
                    times.append(took)
                game.apply(action)
        times.sort()
        n = len(times)

        def q(p: float, times: list[float] = times, n: int = n) -> float:
            return times[min(n - 1, int(p * n))] * 1000

        print(f"{level:24s} {args.rules} {args.players}p: {n} decisions over {args.rounds} "
              f"rounds: p50 {q(0.5):.2f} ms, p99 {q(0.99):.2f} ms, max {times[-1] * 1000:.2f} ms",
              flush=True)


if __name__ == "__main__":
    main()
