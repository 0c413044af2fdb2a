"""Bots under random combinations of the house rules, against the presets they are built on.

    python benchmarks/house_rules_sim.py                      # 60 combinations x 10 games
    python benchmarks/house_rules_sim.py --combos 200 --games 5 --bot basic --json out.json

Each combination is a preset for 2 to 6 players with each house rule of docs/RULES.md (D24 to
D31: jokers, cards drawn, a reshuffled stock, a final lap, more ways to take the pile, books of
black threes, ...) switched on or left alone at random; its turn cap and rounds are the
preset's own.  The same bot plays every seat (``handfoot simulate``'s games, seeded), first
under the combination and then under its plain preset for the same player count, and the
report gives how rounds ended under each: the turn cap is a guard, so the share of rounds it
ends is the figure to watch.  One process; the run is long on a shared machine, so prefer
``nice``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from handfoot.presets import PRESET_NAMES, house_rules, preset
from handfoot.rules import Rules
from handfoot.sim.simulate import Variant, run_simulation

# Each house rule, with the values it takes when switched on.
HOUSE_VALUES: dict[str, list[Any]] = {
    "jokers": [0, 4],
    "draw_count": [1, 3],
    "stock_out": ["reshuffle"],
    "max_reshuffles": [2],
    "final_lap": ["meld_out", "always"],
    "opening_counts_bonuses": [True],
    "whole_hand_opening": [True],
    "pile_onto_meld": [True],
    "pile_any_card": [True],
    "pile_pair": ["meldable"],
    "pile_take": [2, 3, 4, 5, 6, 8, 9, "whole"],
    "foot_replaces_draw": [True],
    "black_three_book": [True],
    "black_three_blocks": [False],
    "max_wilds": ["unlimited"],
    "partner_in_foot": ["in_foot"],
}


def random_combination(rng: random.Random) -> tuple[str, int, dict[str, Any]]:
    name = rng.choice(PRESET_NAMES)
    players = rng.choice([2, 3, 4, 5, 6])
    changes = {k: rng.choice(v) for k, v in HOUSE_VALUES.items() if rng.random() < 0.5}
    if not changes.get("black_three_blocks", True) and not (
            changes.get("black_three_book") or changes.get("pile_any_card")):
        changes["black_three_book"] = True
    if changes.get("pile_any_card") and preset(name).pile_before_opening == "hand_only":
        changes["pile_before_opening"] = "top_card_counts"
    return name, players, changes


def endings(rules: Rules, bot: str, games: int, seed: int, rounds: int | None) -> Counter[str]:
    if rounds is not None:
        rules = rules.replace(rounds=rounds, opening_minimums=list(rules.opening_minimums))
    result = run_simulation([Variant(rules.name, rules)], bot, games, seed=seed, jobs=1,
                            progress=False, keep_rounds=False)
    summary = result["variants"][0]["summary"]
    n = summary["rounds"]
    out: Counter[str] = Counter(rounds=n, turn_cap=summary["turn_cap_rounds"])
    out["went_out"] = round(summary["going_out_rate"] * n)
    out["stock_out"] = round(summary["stock_out_rate"] * n)
    out["turns"] = round(summary["mean_turns"] * n)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--combos", type=int, default=60)
    parser.add_argument("--games", type=int, default=10, help="games per combination")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds per game (default: the rules')")
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    house: Counter[str] = Counter()
    plain: Counter[str] = Counter()
    capped: list[dict[str, Any]] = []
    cpu = time.process_time()
    for i in range(args.combos):
        name, players, changes = random_combination(rng)
        rules = house_rules(name, changes, players)
        got = endings(rules, args.bot, args.games, args.seed + i, args.rounds)
        base = endings(preset(name, players), args.bot, args.games, args.seed + i, args.rounds)
        house += got
        plain += base
        if got["turn_cap"]:
            capped.append({"preset": name, "players": players, "changes": changes,
                           "turn_cap_rounds": got["turn_cap"], "rounds": got["rounds"]})
        print(f"{i + 1:>4}/{args.combos} {name} x{players}: {len(changes)} house rules, "
              f"{got['turn_cap']} of {got['rounds']} rounds capped (preset: "
              f"{base['turn_cap']})", file=sys.stderr)

    def rates(c: Counter[str]) -> dict[str, Any]:
        n = max(1, c["rounds"])
        return {"rounds": c["rounds"], "went_out": round(c["went_out"] / n, 4),
                "stock_out": round(c["stock_out"] / n, 4),
                "turn_cap": round(c["turn_cap"] / n, 4), "turn_cap_rounds": c["turn_cap"],
                "mean_turns": round(c["turns"] / n, 1)}

    report = {"bot": args.bot, "combos": args.combos, "games": args.games,
              "house_rules": rates(house), "presets": rates(plain), "capped": capped,
              "cpu_seconds": round(time.process_time() - cpu, 1)}
    for label, key in (("house rules", "house_rules"), ("presets", "presets")):
        r = report[key]
        print(f"{label:<12} {r['rounds']:>6} rounds: went out {r['went_out']:.1%}, stock out "
              f"{r['stock_out']:.1%}, turn cap {r['turn_cap_rounds']} ({r['turn_cap']:.2%}), "
              f"{r['mean_turns']} turns a round")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
