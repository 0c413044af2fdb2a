"""Profile the benchmark's game loop (``handfoot bench``) and print where the time goes.

    python benchmarks/profile_random.py [--preset hand-and-foot] [--players 4]
                                        [--seconds 5] [--top 15] [--sort tottime]

Runs the same complete random-legal-move games as ``handfoot bench`` under cProfile.  The
profiler slows everything by a factor of two or more; read the shares, not the rates.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

from handfoot.cli.bench import measure
from handfoot.presets import PRESET_NAMES, preset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=PRESET_NAMES, default="hand-and-foot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--sort", choices=("tottime", "cumulative"), default="tottime")
    args = parser.parse_args()
    rules = preset(args.preset, args.players)
    profiler = cProfile.Profile()
    profiler.enable()
    figures = measure(rules, args.seconds, args.seed)
    profiler.disable()
    print(f"{args.preset}, {args.players} players: {figures.games} games, {figures.rounds} "
          f"rounds, {figures.actions} actions in {figures.seconds:.2f} s under the profiler "
          f"({figures.actions_per_second:,.0f} actions/s profiled)")
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue())


if __name__ == "__main__":
    main()
