"""A kept game as text, as CSV (a row per team per round) and as JSON (everything)."""

from __future__ import annotations

import csv
import io
from typing import Any

from .entry import PENALTY_COUNTS, canasta_kinds_asked, melded_points, packet_keys, penalty_points
from .game import KeptGame, summary


def points(n: int) -> str:
    return f"{n:,}"


def sheet_text(game: KeptGame) -> str:
    """The score sheet: each round's lines per team, running totals, what comes next."""
    data = summary(game)
    out = [f"Game {game.id}: {game.name} - {' vs '.join(game.seating.teams)}",
           f"Rules: {game.rules.name} ({game.rules.source})"]
    width = 34
    for rnd in data["rounds"]:
        out.append("")
        out.append(f"Round {rnd['round']}")
        for row in rnd["teams"]:
            went = f" ({row['went_out']} went out)" if row["went_out"] else ""
            out.append(f"  {row['team']}{went}")
            for line in row["lines"]:
                out.append(f"    {line['label']:<{width}}{points(line['points']):>9}   "
                           f"rule {line['clause']}")
            for note in row["penalty_notes"]:
                out.append(f"      ({note})")
            out.append(f"    {'round score':<{width}}{points(row['total']):>9}")
            out.append(f"    {'running total':<{width}}{points(row['running_total']):>9}")
    out.append("")
    totals = "; ".join(f"{t} {points(s)}" for t, s in
                       zip(game.seating.teams, data["totals"], strict=True))
    if not data["rounds"]:
        out.append("No rounds entered yet.")
    else:
        out.append(f"Totals after round {max(game.rounds)}: {totals}")
    if data["over"]:
        out.append(f"Game over. Winner{'s' if len(data['winners']) > 1 else ''}: "
                   f"{' and '.join(data['winners'])}")
    else:
        mins = ", ".join(f"{t} {m}" for t, m in
                         zip(game.seating.teams, data["next_minimums"], strict=True))
        out.append(f"Round {data['next_round']} of {game.rules.rounds}: initial minimum "
                   f"{mins}")
    return "\n".join(out) + "\n"


def csv_text(game: KeptGame) -> str:
    rules = game.rules
    kinds = canasta_kinds_asked(rules)
    packets = packet_keys(rules)
    header = ["game", "round", "team", *(f"canastas {k}" for k in kinds), "canastas other",
              "red_threes_laid", "melded_points", "went_out",
              *(f"left {p}" for p in packets), "red_threes_held", "black_threes_held",
              *PENALTY_COUNTS, "penalty_points", "round_score", "running_total"]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    data = summary(game)
    for rnd in data["rounds"]:
        for row in rnd["teams"]:
            e = row["entry"]
            other = sum(n for k, n in e["canastas"].items() if k not in kinds)
            writer.writerow([
                game.name, rnd["round"], row["team"],
                *(e["canastas"].get(k, 0) for k in kinds), other,
                e["red_threes_laid"], melded_points(rules, e), row["went_out"] or "",
                *(sum(p[k] for p in e["players"]) for k in packets),
                sum(p["red_threes_held"] for p in e["players"]),
                sum(p["black_threes_held"] for p in e["players"]),
                *(e[k] for k in PENALTY_COUNTS), penalty_points(rules, e),
                row["total"], row["running_total"],
            ])
    return buf.getvalue()


def game_json(game: KeptGame, history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    data = summary(game)
    data["rules_mapping"] = game.rules.to_mapping()
    if history is not None:
        data["history"] = history
    return data
