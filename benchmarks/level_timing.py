"""Decision time of the levels on one core: p50, p99 and the longest decision.

Plays single rounds with the level in one team's seats and ``casual`` in the others, timing
every decision of the level with more than one legal action, after one untimed decision per
bot (the model loads then): wall time, and the process's CPU time (what one core spends,
whatever else the machine runs; a time budget is wall time, so under load the search does
less in it).  The process is pinned to one core (where the system allows it).

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
        cpu: list[float] = []
        for r in range(args.rounds):
            game = Game.new(rules, seed=args.seed + r)
            mine = {s for s in range(rules.players) if s % rules.teams == r % rules.teams}
            bots = [make_bot(level if s in mine else "casual", seed=s)
                    for s in range(rules.players)]
            warm: set[int] = set()
            while not game.over:
                seat = game.actor
                legal = game.legal_actions()
                start, start_cpu = time.perf_counter(), time.process_time()
                action = bots[seat].choose(view(game, seat), legal)
                took, took_cpu = time.perf_counter() - start, time.process_time() - start_cpu
                if seat in mine and len(legal) > 1:
                    if seat in warm:
                        times.append(took)
                        cpu.append(took_cpu)
                    warm.add(seat)
                game.apply(action)

        def q(values: list[float], p: float) -> float:
            ordered = sorted(values)
            return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000

        print(f"{level:24s} {args.rules} {args.players}p: {len(times)} decisions over "
              f"{args.rounds} rounds: wall p50 {q(times, 0.5):.2f} ms, p99 "
              f"{q(times, 0.99):.2f} ms, max {max(times) * 1000:.2f} ms; CPU p50 "
              f"{q(cpu, 0.5):.2f} ms, p99 {q(cpu, 0.99):.2f} ms", flush=True)


if __name__ == "__main__":
    main()
