"""Machine instructions per engine action, counted by valgrind: a figure the machine's load does
not change, for judging an engine change on a shared machine.

    python benchmarks/count_instructions.py [--preset hand-and-foot] [--games 10]
    python benchmarks/count_instructions.py --src /path/to/other/checkout/src   # compare

It plays the same complete random games as ``handfoot bench`` (games 0 .. N-1) twice under
``valgrind --tool=callgrind``, once with no games to count the interpreter's start-up and
imports, and prints (instructions with the games - instructions without) / actions.  The hash
seed is fixed so both runs execute the same code.  Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

WORKLOAD = """
import sys
from handfoot.cli.bench import play_random_game
from handfoot.presets import preset
rules = preset(sys.argv[1])
print(sum(play_random_game(rules, seed)[0] for seed in range(int(sys.argv[2]))))
"""


def count(src: str, preset: str, games: int) -> tuple[int, int]:
    """(instructions, actions) of the workload under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=src)
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", WORKLOAD, preset, str(games)],
        env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + run.stderr[-2000:])
    return int(found.group(1)), int(run.stdout.strip() or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hand-and-foot")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--src", default=str(Path(__file__).resolve().parent.parent / "src"),
                        help="the source folder to measure (default: this checkout's)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    with_games, actions = count(args.src, args.preset, args.games)
    without, _ = count(args.src, args.preset, 0)
    per_action = (with_games - without) / max(1, actions)
    print(f"{args.preset}, {args.games} games, {actions:,} actions: "
          f"{per_action:,.0f} instructions per action ({args.src})")


if __name__ == "__main__":
    main()
