"""``handfoot replay FILE``: play a game record or scenario through the engine and check it.

Exit status: 0 when every action is legal and every recorded result and total is reproduced,
1 when an action is illegal or a figure differs, 2 when the file cannot be read as a record.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from handfoot.cards import format_cards
from handfoot.events import (
    CanastaFinished,
    Event,
    Opened,
    Passed,
    PennySetAside,
    PickedUp,
    PileTaken,
    RedThreesLaid,
    Retracted,
    RoundDealt,
    RoundEnded,
    StockEmptied,
    WentOut,
)
from handfoot.narrate import describe, result_lines
from handfoot.record import (
    Record,
    ReplayResult,
    Step,
    problems,
    record_to_mapping,
    replay,
)
from handfoot.rules import Rules
from handfoot.scoring import RoundResult

from .common import read_record


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a game record or scenario and check it",
        description="Replay a game record or scenario (docs/RECORD-FORMAT.md) through the "
        "engine: every action must be legal for the seat that took it, and every recorded "
        "result and total must come out the same. Exit 0 if so, 1 if not, 2 if the file "
        "cannot be read.",
    )
    parser.add_argument("file", metavar="FILE", help="a record or scenario (.json)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: rounds with results, totals, ok, error")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="print only the verdict (and what went wrong)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    outcome = replay(record)
    if args.json:
        print(json.dumps(as_json(args.file, outcome), indent=1, ensure_ascii=False))
    else:
        if not args.quiet:
            print_replay(args.file, record, outcome)
        print_verdict(args.file, outcome)
    return 0 if outcome.ok else 1


# ---------------------------------------------------------------------- words
# Events worth a line in a replay; draws, melds and discards show in the action itself.
_NOTABLE = (CanastaFinished, Opened, PickedUp, PileTaken, RedThreesLaid, WentOut, Retracted,
            StockEmptied, RoundEnded, RoundDealt, Passed, PennySetAside)


def _notable(event: Event, actor: int) -> str | None:
    if not isinstance(event, _NOTABLE):
        return None
    return describe(event, subject=event.seat != actor)


def print_replay(path: str, record: Record, outcome: ReplayResult) -> None:
    rules = record.rules
    source = f"seed {record.seed}" if record.seed is not None else "explicit deals"
    print(f"{path}: {rules.name}, {rules.players} players, {rules.teams} teams "
          f"(team = seat mod {rules.teams}), {source}")
    if record.description:
        print(f"  {record.description}")
    names = {s: seat.name for s, seat in enumerate(record.seats) if seat.name}
    current = -1
    for step in outcome.steps:
        if step.round != current:
            current = step.round
            dealer = (record.first_dealer + step.round - record.first_round) % rules.players
            minimum = (str(rules.opening_minimum(step.round, 0))
                       if rules.opening_by == "round" else "by team score")
            print(f"\nround {step.round}: seat {dealer} deals; opening minimum {minimum}")
            if step.round == record.first_round:
                print(_first_table(record))
        print(_step_line(step, rules, names))
    for result in outcome.results:
        print_result(rules, result, [seat.name for seat in record.seats])
    if outcome.results:
        totals = ", ".join(f"team {t} {points:,}" for t, points in enumerate(outcome.totals))
        print(f"\ntotals: {totals}{'  (game over)' if outcome.game.over else ''}")


def _first_table(record: Record) -> str:
    """The first deal's red threes and upcard; later deals show as events of the action that
    ended the round before."""
    game = record.new_game()
    laid = [f"seat {s} lays {n} red three{'s' * (n != 1)}" for s, n in enumerate(game.red3) if n]
    upcard = f"upcard {format_cards(game.pile[-1:])}" if game.pile else "no upcard"
    return "  " + "; ".join([*laid, upcard])


def _step_line(step: Step, rules: Rules, names: dict[int, str]) -> str:
    who = f"seat {step.seat}" + (f" {names[step.seat]}" if step.seat in names else "")
    head = f"  turn {step.turn:>3}  {who:<14} {step.action.text}"
    notes = [text for text in (_notable(e, step.seat) for e in step.events) if text]
    return head + (f"  -> {'; '.join(notes)}" if notes else "")


def print_result(rules: Rules, result: RoundResult, names: list[str]) -> None:
    print()
    for line in result_lines(rules, result, [name or f"seat {s}" for s, name in
                                             enumerate(names)]):
        print(line)


def print_verdict(path: str, outcome: ReplayResult) -> None:
    if outcome.ok:
        done = len(outcome.steps)
        scored = len(outcome.results)
        print(f"{path}: replay matches the record ({done} action{'s' * (done != 1)}, "
              f"{scored} round{'s' * (scored != 1)} scored)")
        return
    for line in problems(outcome):
        print(f"{path}: {line}")


def as_json(path: str, outcome: ReplayResult) -> dict[str, Any]:
    illegal = outcome.illegal
    replayed = record_to_mapping(outcome.record)
    return {
        "file": path,
        "ok": outcome.ok,
        "rounds": [{"round": row["round"], "actions": len(row["actions"]),
                    "result": row.get("result")} for row in replayed["rounds"]],
        "totals": list(outcome.totals),
        "ended": outcome.game.over,
        "error": None if illegal is None else {
            "round": illegal.round, "index": illegal.index, "seat": illegal.seat,
            "action": illegal.text, "clause": illegal.clause, "reason": illegal.reason,
            "message": illegal.message(),
        },
        "mismatches": [{"round": m.round, "field": m.field, "recorded": m.recorded,
                        "replayed": m.replayed} for m in outcome.mismatches],
    }
