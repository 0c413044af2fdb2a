"""Speed of the learning environments beside the raw engine's (docs/PERFORMANCE.md).

Four loops, each playing whole games with uniformly random legal actions on one core:

- engine: ``game.apply(choice(game.legal_actions()))``, as ``handfoot bench`` counts;
- aec: PettingZoo's loop over ``raw_env`` (``last()`` encodes the acting seat's view and its
  mask; a random action among the mask's ones, found with ``mask.nonzero()``, which costs a
  third of ``np.flatnonzero``'s Python wrapper);
- aec-wrapped: the same over ``handfoot.env.env()`` (PettingZoo's order-enforcing wrappers);
- gym: the single-agent wrapper against ``random`` bots; its steps are the learner's decisions,
  and its engine actions (the bots' too) are counted beside them.

The loops take turns in short slices so that a machine shared with other work slows them alike;
the ratio env/engine is the figure to read.

A second table says where an AEC step's time goes, in CPU time per step (``process_time``,
less disturbed by other work than the wall clock): the engine's loop, then the same loop also
building the acting seat's view, then also encoding it, then also building the mask, and the
AEC loop itself.  Each figure is the best of three passes over the same games.

Two more rungs bound what any encoder could reach in this loop: the AEC loop with an
observation that costs nothing beyond the view's parts (as if the encoding were free: the
acting seat's hand written into a kept vector and the vector copied, beside the real mask),
and the same without the view's parts (the hand and the copy alone: the least an observation
can cost).  They are not environments (their vectors lack the table); they are ceilings.

    python benchmarks/env_speed.py --seconds 20 [--rules hand-knee-foot] [--players 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from handfoot.cli.bench import machine
from handfoot.engine import Game
from handfoot.env import HandfootEnv, env, layout_for, raw_env
from handfoot.env.indexed import legal_indices, make_rules, mask_of
from handfoot.rules import Rules
from handfoot.views import view

Loop = Callable[[int], tuple[int, int]]  # seed -> (steps, engine actions)


def engine_loop(rules: Rules) -> Loop:
    def play(seed: int) -> tuple[int, int]:
        game = Game.new(rules, seed=seed)
        choice = random.Random(seed).choice
        n = 0
        while not game.over:
            game.apply(choice(game.legal_actions()))
            n += 1
        return n, n
    return play


def aec_loop(rules: Rules, wrapped: bool) -> Loop:
    return pettingzoo_loop(env(rules=rules) if wrapped else raw_env(rules=rules))


def pettingzoo_loop(e: Any) -> Loop:
    """PettingZoo's loop over environment ``e``: a random action among the mask's ones."""

    def play(seed: int) -> tuple[int, int]:
        e.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n, n
    return play


class _Bound(raw_env):  # type: ignore[misc]
    """``raw_env`` with an observation that costs the least it can: the real mask, and a kept
    vector into which only the acting seat's hand is written, then copied.  With ``parts``,
    the view's parts are built first as the real observation builds them (and not read):
    the cost of an AEC step if the encoding cost nothing."""

    def __init__(self, rules: Rules, parts: bool) -> None:
        super().__init__(rules=rules)
        from struct import Struct

        from handfoot.cards import NUM_KINDS
        from handfoot.views import view_parts

        self._parts = view_parts if parts else None
        self._vector = np.zeros(self.layout.size, dtype=np.float32)
        self._bytes = self._vector.data.cast("B")
        self._hand = Struct(f"={NUM_KINDS}f")
        self._hand_stop = 4 * NUM_KINDS

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        game = self.game
        # The hand the observation writes: the view's (its parts built) or, with no view,
        # the game's own list, which only this bound may read.
        hand = self._parts(game, seat)[0] if self._parts is not None else game.hands[seat]
        self._bytes[:self._hand_stop] = self._hand.pack(*hand)
        return {"observation": self._vector.copy(),
                "action_mask": mask_of(self.legal_indices())}


def bound_loop(rules: Rules, parts: bool) -> Loop:
    """The AEC loop over :class:`_Bound`: a ceiling, not an environment."""
    return pettingzoo_loop(_Bound(rules, parts))


def gym_loop(rules: Rules) -> Loop:
    e = HandfootEnv(rules, opponents="random")

    def play(seed: int) -> tuple[int, int]:
        _obs, info = e.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _obs, _r, terminated, truncated, info = e.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
            n += 1
        return n, e.engine_actions
    return play


def measure(loops: dict[str, Loop], seconds: float, slice_s: float = 0.5) -> dict[str, Any]:
    totals = {name: [0, 0, 0.0, 0] for name in loops}  # steps, actions, seconds, games
    seed = 0  # every loop plays the games of seeds 0, 1, 2, ... in order
    deadline = time.perf_counter() + seconds * len(loops)
    while time.perf_counter() < deadline or any(t[3] == 0 for t in totals.values()):
        for name, loop in loops.items():
            t = totals[name]
            start = time.perf_counter()
            while time.perf_counter() - start < slice_s:
                steps, actions = loop(seed + t[3])
                t[0] += steps
                t[1] += actions
                t[3] += 1
            t[2] += time.perf_counter() - start
    out = {}
    for name, (steps, actions, secs, games) in totals.items():
        out[name] = {"games": games, "steps": steps, "seconds": round(secs, 2),
                     "steps_per_second": round(steps / secs),
                     "engine_actions_per_second": round(actions / secs)}
    base = out["engine"]["steps_per_second"]
    for name in out:
        out[name]["share_of_engine"] = round(out[name]["steps_per_second"] / base, 3)
    return out


def ladder_loop(rules: Rules, level: int) -> Loop:
    """The engine's loop doing more of an AEC step's work: 1 the view (the parts of it the
    environment reads), 2 its vector, 3 the mask."""
    # The view as the AEC environment takes it (its parts, then their vector), or, in a
    # checkout from before that, the whole view and its vector (for comparisons).
    try:
        from handfoot.env.encoder import Encoder
        from handfoot.views import view_parts

        fast = Encoder(layout_for(rules))

        def see(game: Game, seat: int) -> Any:
            return view_parts(game, seat)

        def encode(seat: int, seen: Any) -> Any:
            return fast.encode_parts(seat, seen)
    except ImportError:
        try:
            from handfoot.env.encode import Encoder as OldEncoder  # type: ignore[attr-defined]

            encoder: Any = OldEncoder(layout_for(rules))
        except ImportError:  # before the incremental encoder
            encoder = layout_for(rules)

        def see(game: Game, seat: int) -> Any:
            return view(game, seat)

        def encode(seat: int, seen: Any) -> Any:
            return encoder.encode(seen)

    def play(seed: int) -> tuple[int, int]:
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not game.over:
            if level >= 3:
                mask_of(legal_indices(game))
            legal = game.legal_actions()
            if level >= 1:
                seen = see(game, game.actor)
                if level >= 2:
                    encode(game.actor, seen)
            game.apply(legal[rng.randrange(len(legal))])
            n += 1
        return n, n
    return play


def breakdown(rules: Rules, games: int) -> dict[str, float]:
    """CPU microseconds per step of each rung, best of three passes over ``games`` games."""
    rungs = {"engine": ladder_loop(rules, 0), "+ view": ladder_loop(rules, 1),
             "+ encode": ladder_loop(rules, 2), "+ mask": ladder_loop(rules, 3),
             "aec": aec_loop(rules, False),
             "aec, free vector": bound_loop(rules, True),
             "aec, no view": bound_loop(rules, False)}
    best = dict.fromkeys(rungs, float("inf"))
    for _ in range(3):
        for name, loop in rungs.items():
            start = time.process_time()
            steps = sum(loop(seed)[0] for seed in range(games))
            best[name] = min(best[name], (time.process_time() - start) / steps * 1e6)
    return {name: round(us, 2) for name, us in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="hand-and-foot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0, help="per loop")
    parser.add_argument("--games", type=int, default=6,
                        help="games per pass of the CPU-time breakdown")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = make_rules(args.rules, args.players)
    loops = {"engine": engine_loop(rules), "aec": aec_loop(rules, False),
             "aec-wrapped": aec_loop(rules, True), "gym": gym_loop(rules)}
    figures = measure(loops, args.seconds)
    cpu = breakdown(rules, args.games)
    if args.json:
        print(json.dumps({"machine": machine(), "rules": args.rules, "players": args.players,
                          "loops": figures, "cpu_us_per_step": cpu}, indent=2))
        return
    info = machine()
    print(f"machine: {info['processor']}, {info['cpu_count']} cpus; {info['python']}")
    print(f"{args.rules}, {args.players} players, uniformly random legal actions, one core")
    print(f"{'loop':<12} {'steps/s':>9} {'of engine':>9} {'actions/s':>10} {'games':>6}")
    for name, f in figures.items():
        print(f"{name:<12} {f['steps_per_second']:>9,} {f['share_of_engine']:>9.0%} "
              f"{f['engine_actions_per_second']:>10,} {f['games']:>6}")
    print()
    print(f"CPU time per step (best of 3 passes over {args.games} games)")
    base = cpu["engine"]
    previous = 0.0
    for name, us in cpu.items():
        added = "" if not name.startswith("+") else f"(+{us - previous:.1f})"
        print(f"{name:<16} {us:>7.1f} us {added:>8} {base / us:>6.0%} of the engine's speed")
        previous = us
    print("(the last two are ceilings: an AEC step whose encoding costs nothing, and one whose"
          " view and encoding cost nothing)")


if __name__ == "__main__":
    main()
