"""Machine instructions per step of the learning environment's loops, counted by valgrind: the
figures of ``env_speed.py``'s CPU-time table without the machine's load in them.

    python benchmarks/count_env_instructions.py [--rules hand-and-foot] [--players 4] [--games 2]
    python benchmarks/count_env_instructions.py --src /path/to/other/checkout/src   # compare

Each loop of ``env_speed.py`` (the engine's, the engine's with the view, with its vector, with
the mask, the AEC environment's, the Gymnasium wrapper's, and the two ceilings: the AEC loop
with an encoding that costs nothing, and with neither view nor encoding) plays games 0 .. N-1 under
``valgrind --tool=callgrind``, and once with no games to count the interpreter's start-up; the
difference over the steps is the figure.  The hash seed is fixed so the runs execute the same
code.  Needs valgrind (Debian's package).  Run in parallel, one process per loop.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOOPS = ("engine", "+ view", "+ encode", "+ mask", "aec", "gym", "free vector", "no view")

WORKLOAD = """
import sys
sys.path.insert(0, sys.argv[1])
from env_speed import aec_loop, bound_loop, gym_loop, ladder_loop
from handfoot.env.indexed import make_rules
rules = make_rules(sys.argv[2], int(sys.argv[3]))
name, games = sys.argv[4], int(sys.argv[5])
rungs = {"engine": 0, "+ view": 1, "+ encode": 2, "+ mask": 3}
if name in rungs:
    loop = ladder_loop(rules, rungs[name])
elif name == "aec":
    loop = aec_loop(rules, False)
elif name in ("free vector", "no view"):
    loop = bound_loop(rules, name == "free vector")
else:
    loop = gym_loop(rules)
print(sum(loop(seed)[0] for seed in range(games)))
"""


def count(src: str, rules: str, players: int, loop: str, games: int) -> tuple[int, int]:
    """(instructions, steps) of one loop under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=src, OPENBLAS_NUM_THREADS="1")
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", WORKLOAD, str(HERE), rules, str(players), loop, str(games)],
        env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + run.stderr[-2000:])
    return int(found.group(1)), int(run.stdout.strip() or 0)


def per_step(src: str, rules: str, players: int, loop: str, games: int) -> float:
    with_games, steps = count(src, rules, players, loop, games)
    without, _ = count(src, rules, players, loop, 0)
    return (with_games - without) / max(1, steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="hand-and-foot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--loops", nargs="+", default=list(LOOPS), choices=LOOPS)
    parser.add_argument("--jobs", type=int, default=2, help="valgrind processes at a time")
    parser.add_argument("--src", default=str(HERE.parent / "src"),
                        help="the source folder to measure (default: this checkout's)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    with ThreadPoolExecutor(args.jobs) as pool:
        figures = dict(zip(args.loops, pool.map(
            lambda loop: per_step(args.src, args.rules, args.players, loop, args.games),
            args.loops), strict=True))
    print(f"{args.rules}, {args.players} players, games 0-{args.games - 1} ({args.src})")
    base = figures.get("engine")
    for loop, n in figures.items():
        share = f"{base / n:6.0%} of the engine's speed" if base else ""
        print(f"{loop:<12} {n:>10,.0f} instructions per step  {share}")


if __name__ == "__main__":
    main()
