"""Decision time of the levels on one core: p50, p99 and the longest decision, per table.

Plays single rounds with the level in one team's seats and ``casual`` in the others, timing
every decision of the level with more than one legal action, after one untimed decision per
bot (the model loads then): the process's CPU time (what one core spends, whatever else the
machine runs) and wall time.  The process is pinned to one core (where the system allows it)
and NumPy's thread pools are held to one thread.

A time budget (``expert:ms=N``, ``search:ms=N``) is wall time, so on a loaded machine the
search gets only part of a core within it and its CPU time reads low.  ``--budget-clock cpu``
(the default) makes the search's deadline count the process's CPU time instead, so a budget
buys what it would on an idle core and the CPU figures are what an idle core would see;
``--budget-clock wall`` keeps the bot as it plays at a table.

``--what hint`` times ``bots.hint.hint`` (the hint a person asks for) at the seats' positions
with a choice, and ``--what review`` times the replay review of a whole game
(``server.review``: each turn weighed by the expert in ``--worlds`` worlds) per seat.

    PYTHONPATH=src python benchmarks/level_timing.py --levels strong expert --rounds 10
    PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/4 \\
        hand-knee-foot/4 hand-and-foot/6 hand-and-foot/2 \\
        --levels casual strong expert:ms=30 expert:ms=50 expert --rounds 4
    PYTHONPATH=src python benchmarks/level_timing.py --what hint --tables hand-and-foot/4 \\
        hand-and-foot/2 --rounds 4
    PYTHONPATH=src python benchmarks/level_timing.py --what review --worlds 8 16 32
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402
from collections.abc import Callable  # noqa: E402

from handfoot.bots import make_bot  # noqa: E402
from handfoot.engine import Game  # noqa: E402
from handfoot.presets import preset  # noqa: E402
from handfoot.rules import Rules  # noqa: E402
from handfoot.views import view  # noqa: E402


def q(values: list[float], p: float) -> float:
    """The ``p`` quantile in milliseconds (the value at rank ``p * n``)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else 0.0


def table_rules(spec: str, rounds: int | None = 1) -> Rules:
    name, _, players = spec.partition("/")
    rules = preset(name, int(players) if players else None)
    return rules.replace(rounds=rounds) if rounds else rules


def decisions(level: str, rules: Rules, rounds: int, seed: int
              ) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of ``level``'s decisions with a choice."""
    cpu: list[float] = []
    wall: list[float] = []
    for r in range(rounds):
        game = Game.new(rules, seed=seed + r)
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
                    wall.append(took)
                    cpu.append(took_cpu)
                warm.add(seat)
            game.apply(action)
    return cpu, wall


def hints(rules: Rules, rounds: int, seed: int) -> tuple[list[float], list[float], str]:
    """CPU and wall seconds of the hint at every position of casual self-play where the seat
    to act has a choice, and the bot the hint names."""
    from handfoot.bots.hint import hint, hinter

    cpu: list[float] = []
    wall: list[float] = []
    hint(Game.new(rules, seed=seed), Game.new(rules, seed=seed).actor)  # loads the model
    for r in range(rounds):
        game = Game.new(rules, seed=seed + r)
        bots = [make_bot("casual", seed=s) for s in range(rules.players)]
        while not game.over:
            seat = game.actor
            legal = game.legal_actions()
            if len(legal) > 1:
                start, start_cpu = time.perf_counter(), time.process_time()
                hint(game, seat)
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            game.apply(bots[seat].choose(view(game, seat), legal))
    return cpu, wall, hinter(rules)[1]


def reviews(rules: Rules, games: int, seed: int, worlds: int) -> list[tuple[float, float, int]]:
    """CPU and wall seconds of ``server.review`` (each turn weighed by the expert in
    ``worlds`` worlds, each decision marked by the strong bot) of one seat's whole game, and
    its turns reviewed, for every seat of ``games`` casual games."""
    from handfoot.bots.base import play
    from handfoot.record import Record, replay
    from handfoot.server.review import review

    out = []
    for n in range(games):
        game = Game.new(rules, seed=seed + n, history=True)
        play(game, [make_bot("casual", seed=s) for s in range(rules.players)])
        record = Record.from_game(game, [f"Seat {s}" for s in range(rules.players)])
        outcome = replay(record)
        for seat in range(rules.players):
            start, start_cpu = time.perf_counter(), time.process_time()
            count = len(review(record, outcome, seat, worlds=worlds)["turns"])
            out.append((time.process_time() - start_cpu, time.perf_counter() - start, count))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--what", choices=("decisions", "hint", "review"), default="decisions")
    parser.add_argument("--levels", nargs="+", default=["strong", "expert"])
    parser.add_argument("--tables", nargs="+", default=None,
                        help="NAME/PLAYERS, e.g. hand-and-foot/4 hand-knee-foot/4")
    parser.add_argument("--rules", default="hand-and-foot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--games", type=int, default=1, help="whole games, for --what review")
    parser.add_argument("--worlds", type=int, nargs="+", default=[16],
                        help="the review's worlds a turn, for --what review")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget-clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if args.budget_clock == "cpu":
        from handfoot.bots import search

        clock: Callable[[], float] = time.process_time
        search.time = types.SimpleNamespace(perf_counter=clock)  # type: ignore[assignment]
    tables = args.tables or [f"{args.rules}/{args.players}"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.2f} on {os.cpu_count()} cores; budget clock "
          f"{args.budget_clock}", flush=True)
    if args.what == "hint":
        print("| table | hint from | positions | CPU p50 | CPU p99 | CPU max | wall p99 |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for spec in tables:
            cpu, wall, by = hints(table_rules(spec), args.rounds, args.seed)
            print(f"| {spec} | {by} | {len(cpu)} | {q(cpu, .5):.2f} ms | {q(cpu, .99):.2f} ms "
                  f"| {max(cpu) * 1000:.2f} ms | {q(wall, .99):.2f} ms |", flush=True)
        return
    if args.what == "review":
        print("| table | worlds a turn | seat-games | turns a seat | CPU a seat (mean, max) "
              "| wall a seat (max) |")
        print("|---|---:|---:|---:|---:|---:|")
        for spec in tables:
            rules = table_rules(spec, rounds=None)
            for worlds in args.worlds:
                runs = reviews(rules, args.games, args.seed, worlds)
                n = len(runs)
                print(f"| {spec} | {worlds} | {n} | {sum(r[2] for r in runs) / n:.0f} | "
                      f"{sum(r[0] for r in runs) / n:.2f} s, {max(r[0] for r in runs):.2f} s "
                      f"| {max(r[1] for r in runs):.2f} s |", flush=True)
        return
    print("| table | level | decisions | CPU p50 | CPU p99 | CPU max | wall p50 | wall p99 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for spec in tables:
        rules = table_rules(spec)
        for level in args.levels:
            cpu, wall = decisions(level, rules, args.rounds, args.seed)
            print(f"| {spec} | {level} | {len(cpu)} | {q(cpu, .5):.2f} ms | "
                  f"{q(cpu, .99):.2f} ms | {max(cpu) * 1000:.2f} ms | {q(wall, .5):.2f} ms | "
                  f"{q(wall, .99):.2f} ms |", flush=True)


if __name__ == "__main__":
    main()
