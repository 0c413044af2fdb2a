"""OpenSpiel's C++ gin rummy driven from Python and handfoot's engine, side by side in one run.

    python benchmarks/openspiel_side_by_side.py                  # 5 rounds of 5 s per engine
    python benchmarks/openspiel_side_by_side.py --rounds 7 --seconds 10 --json
    python benchmarks/openspiel_side_by_side.py --handfoot-only  # no OpenSpiel: a dry run

Both engines play whole games of random legal actions, and the figure is applied actions per
second on one core:

- OpenSpiel (``gin_rummy``): at a chance node an outcome drawn by its probability, elsewhere an
  action drawn uniformly from ``legal_actions()``; every applied action counts, chance and
  player actions alike.
- handfoot: ``handfoot bench``'s loop (``play_random_game`` in src/handfoot/cli/bench.py, the
  function itself is called), under hand-and-foot with 4 players by default.

OpenSpiel is not a default dependency of handfoot.  On first use the script makes a virtual
environment of its own with the Python that runs the script (by default
``~/.cache/handfoot-bench/openspiel-venv``; ``$XDG_CACHE_HOME`` is respected, ``--venv`` picks
another place) and installs the ``open_spiel`` package there with pip.  Each engine runs in a
worker process of the same Python version (the run stops if they differ): handfoot's with this
interpreter, OpenSpiel's with that environment's.  Both workers run the same timing loop, warm
up first, then take turns: in each round each engine plays for ``--seconds`` (whole games, so a
little longer), the one that goes first alternating from round to round, so that a change in
the machine's load falls on both alike.  The report gives each engine's min, median and max
over the rounds, the ratio of the medians and the machine's load average before and after,
each rate both per wall-clock second and per second of CPU time the worker got (on a busy
machine the second is the steadier figure; on an idle one the two agree).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

OPENSPIEL_VERSION = "2.0.2"
READY = "handfoot-bench-ready"  # marker file in the venv: the version that installed cleanly
ENGINES = ("openspiel", "handfoot")
RATES = ("actions_per_second", "actions_per_cpu_second")  # per wall-clock second, per CPU second
LABELS = {"openspiel": "OpenSpiel", "handfoot": "handfoot"}


class BenchError(Exception):
    """Something the user can fix: printed as one line."""


# ====================================================================== the workers
def timed(play: Callable[[], int], seconds: float) -> dict[str, float]:
    """Whole games until ``seconds`` have passed (at least one): the same loop for both.

    Besides the wall-clock time, the CPU time the worker itself got: on a shared machine the
    other work takes turns on the cores, which slows the wall-clock rate but not, or far less,
    the rate per CPU second."""
    actions = games = 0
    cpu = time.process_time()
    start = time.perf_counter()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        actions += play()
        games += 1
        elapsed = time.perf_counter() - start
    return {"actions": actions, "games": games, "seconds": elapsed,
            "cpu_seconds": time.process_time() - cpu}


def openspiel_player(seed: int) -> tuple[Callable[[], int], dict[str, str]]:
    import importlib.metadata

    import pyspiel  # only in the OpenSpiel worker's own environment

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices

    def play() -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(outcomes, weights)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
            actions += 1
        return actions

    return play, {"engine": f"open_spiel {importlib.metadata.version('open_spiel')}",
                  "game": "gin_rummy (2 players)"}


def handfoot_player(seed: int, preset_name: str,
                    players: int) -> tuple[Callable[[], int], dict[str, str]]:
    from handfoot import __version__
    from handfoot.cli.bench import play_random_game
    from handfoot.presets import preset

    rules = preset(preset_name, players)
    next_seed = seed

    def play() -> int:
        nonlocal next_seed
        actions, _rounds = play_random_game(rules, next_seed)
        next_seed += 1  # as handfoot bench: game n has seed n
        return actions

    return play, {"engine": f"handfoot {__version__}{_commit()}",
                  "game": f"{preset_name} ({players} players)"}


def worker(engine: str, seed: int, preset_name: str, players: int) -> None:
    """Answers one JSON line per command read from stdin: a number of seconds to play."""
    if engine == "openspiel":
        play, about = openspiel_player(seed)
    else:
        play, about = handfoot_player(seed, preset_name, players)
    about["python"] = f"{platform.python_implementation()} {platform.python_version()}"
    about["executable"] = sys.executable
    print(json.dumps(about), flush=True)
    for line in sys.stdin:
        print(json.dumps(timed(play, float(line))), flush=True)


def _commit() -> str:
    here = Path(__file__).resolve().parent
    try:
        sha = subprocess.run(["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--", "../src"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return f" at {sha}{' with local changes' if dirty else ''}"


class Worker:
    """A worker process and the pipe to it."""

    def __init__(self, engine: str, python: str, args: argparse.Namespace) -> None:
        self.engine = engine
        self.proc = subprocess.Popen(
            [python, __file__, "--worker", engine, "--seed", str(args.seed),
             "--preset", args.preset, "--players", str(args.players)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.about: dict[str, str] = self._read()

    def play(self, seconds: float) -> dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{seconds}\n")
        self.proc.stdin.flush()
        return self._read()

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise BenchError(f"the {self.engine} worker stopped (its error is above)")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ====================================================================== OpenSpiel's venv
def default_venv() -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "handfoot-bench" / "openspiel-venv"


def openspiel_python(venv: Path, version: str) -> str:
    """The venv's Python, with open_spiel ``version`` installed (made on first use)."""
    python = venv / "bin" / "python"
    marker = venv / READY
    if python.exists() and marker.exists() and marker.read_text().strip() == version:
        return str(python)
    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    if not python.exists():
        say(f"setting up OpenSpiel's own environment in {venv} (first use only)")
        venv.parent.mkdir(parents=True, exist_ok=True)
        _run([sys.executable, "-m", "venv", str(venv)], "making the virtual environment")
    say(f"installing open_spiel=={version} into {venv}")
    _run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
          f"open_spiel=={version}"], f"pip install open_spiel=={version}")
    _run([str(python), "-c", "import pyspiel; pyspiel.load_game('gin_rummy')"],
         "loading OpenSpiel's gin_rummy")
    marker.write_text(version + "\n")
    return str(python)


def _run(cmd: list[str], what: str) -> None:
    if subprocess.run(cmd, check=False).returncode != 0:
        raise BenchError(f"{what} failed (see above): {' '.join(cmd)}")


# ====================================================================== the run
def spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def machine() -> dict[str, Any]:
    from handfoot.cli.bench import machine as bench_machine

    return bench_machine()


def run(args: argparse.Namespace) -> dict[str, Any]:
    engines = ["handfoot"] if args.handfoot_only else list(ENGINES)
    pythons = {"handfoot": sys.executable}
    if "openspiel" in engines:
        pythons["openspiel"] = openspiel_python(args.venv, args.openspiel_version)
    load_before = os.getloadavg()
    workers = {}
    try:
        for engine in engines:
            workers[engine] = Worker(engine, pythons[engine], args)
        versions = {w.about["python"] for w in workers.values()}
        if len(versions) > 1:
            raise BenchError(f"the workers run different Pythons ({', '.join(sorted(versions))})"
                             f": remove {args.venv} and run again")
        for engine in engines:  # warm-up: imports done, caches filled, first games discarded
            workers[engine].play(args.warmup)
        rounds = []
        for r in range(args.rounds):
            order = engines if r % 2 == 0 else engines[::-1]
            results = {engine: workers[engine].play(args.seconds) for engine in order}
            for res in results.values():
                res["actions_per_second"] = res["actions"] / res["seconds"]
                res["actions_per_cpu_second"] = res["actions"] / max(res["cpu_seconds"], 1e-9)
            rounds.append({"first": order[0], **results})
            if not args.json:
                print(_round_line(r + 1, rounds[-1], engines), file=sys.stderr, flush=True)
    finally:
        for w in workers.values():
            w.close()
    load_after = os.getloadavg()
    report: dict[str, Any] = {
        "machine": machine(),
        "load_average": {"before": [round(x, 2) for x in load_before],
                         "after": [round(x, 2) for x in load_after]},
        "settings": {"rounds": args.rounds, "seconds": args.seconds, "warmup": args.warmup,
                     "seed": args.seed, "preset": args.preset, "players": args.players},
        "engines": {},
        "rounds": rounds,
    }
    for engine in engines:
        report["engines"][engine] = {
            **workers[engine].about,
            **{rate: {k: round(v, 1) for k, v in spread([rd[engine][rate]
                                                         for rd in rounds]).items()}
               for rate in RATES},
            "games": sum(rd[engine]["games"] for rd in rounds),
            "actions": sum(rd[engine]["actions"] for rd in rounds),
            "seconds": round(sum(rd[engine]["seconds"] for rd in rounds), 3),
            "cpu_seconds": round(sum(rd[engine]["cpu_seconds"] for rd in rounds), 3),
        }
    if len(engines) == 2:
        report["ratio"] = {}
        for rate in RATES:
            med = {e: report["engines"][e][rate]["median"] for e in engines}
            paired = [rd["handfoot"][rate] / rd["openspiel"][rate] for rd in rounds]
            report["ratio"][rate] = {
                "handfoot_over_openspiel_medians": round(med["handfoot"] / med["openspiel"], 3),
                "per_round": {k: round(v, 3) for k, v in spread(paired).items()},
            }
    for rd in rounds:
        for engine in engines:
            rd[engine] = {k: round(v, 3) if isinstance(v, float) else v
                          for k, v in rd[engine].items()}
    return report


def _round_line(n: int, rd: dict[str, Any], engines: list[str]) -> str:
    rates = "  ".join(f"{LABELS[e]} {rd[e]['actions_per_second']:>9,.0f}/s "
                      f"({rd[e]['actions_per_cpu_second']:,.0f}/CPU s)" for e in engines)
    return f"round {n} ({rd['first']} first): {rates}"


def format_text(report: dict[str, Any]) -> str:
    m, s = report["machine"], report["settings"]
    lines = [
        f"machine: {m['processor']}, {m['cpu_count']} cpus, {m['platform']}",
        f"load average (1, 5, 15 min): before {_load(report, 'before')}, "
        f"after {_load(report, 'after')}",
        f"{s['rounds']} rounds of about {s['seconds']:g} s per engine, alternating, after "
        f"{s['warmup']:g} s of warm-up each; whole games of random legal actions, one core each",
    ]
    for rate, unit in zip(RATES, ("actions per second (wall clock)",
                                  "actions per second of the worker's CPU time"),
                          strict=True):
        lines += ["", f"{unit:<44} {'min':>9} {'median':>9} {'max':>9}"]
        for engine, e in report["engines"].items():
            aps = e[rate]
            name = f"  {LABELS[engine]}: {e['game']}"
            lines.append(f"{name:<44} {aps['min']:>9,.0f} {aps['median']:>9,.0f} "
                         f"{aps['max']:>9,.0f}")
        if "ratio" in report:
            r = report["ratio"][rate]
            pr = r["per_round"]
            lines.append(f"  handfoot / OpenSpiel: {r['handfoot_over_openspiel_medians']:.2f} "
                         f"(ratio of the medians; per round: min {pr['min']:.2f}, median "
                         f"{pr['median']:.2f}, max {pr['max']:.2f})")
    lines.append("")
    for engine, e in report["engines"].items():
        lines.append(f"{LABELS[engine]}: {e['engine']}, {e['python']}, {e['games']} games, "
                     f"{e['actions']:,} actions in {e['seconds']:.1f} s, "
                     f"{e['cpu_seconds']:.1f} s of CPU")
    return "\n".join(lines) + "\n"


def _load(report: dict[str, Any], when: str) -> str:
    return " ".join(f"{x:.2f}" for x in report["load_average"][when])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per engine (default: 5)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds per engine per round (default: 5)")
    parser.add_argument("--warmup", type=float, default=2.0,
                        help="seconds of warm-up per engine, not counted (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--preset", default="hand-and-foot",
                        help="handfoot's preset (default: hand-and-foot)")
    parser.add_argument("--players", type=int, default=4,
                        help="handfoot's players (default: 4)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--handfoot-only", action="store_true",
                        help="measure handfoot alone, without OpenSpiel (a dry run)")
    parser.add_argument("--venv", type=Path, default=default_venv(),
                        help="OpenSpiel's virtual environment (default: %(default)s)")
    parser.add_argument("--openspiel-version", default=OPENSPIEL_VERSION,
                        help="the open_spiel release to install (default: %(default)s)")
    parser.add_argument("--worker", choices=ENGINES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.seed, args.preset, args.players)
        return 0
    if args.rounds < 1 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--rounds must be at least 1, --seconds above 0, --warmup not negative")
    try:
        report = run(args)
    except BenchError as err:
        print(f"openspiel_side_by_side: error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2) if args.json else format_text(report), end="\n"
          if args.json else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
