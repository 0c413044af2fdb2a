"""``handfoot demo``: one complete round between bots (heuristic by default), with its log and
score.  The bots see only their views and choose among the engine's legal actions."""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

from handfoot.actions import Action
from handfoot.bots import Bot, make_bot
from handfoot.cards import (
    format_cards,
    format_counts,
)
from handfoot.engine import Game
from handfoot.events import Event, RoundEnded, TurnBegan
from handfoot.narrate import describe, merge_melds, result_lines
from handfoot.rules import Rules
from handfoot.views import view

from .common import add_rules_options, rules_from_args


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("demo", help="watch bots play one round, with its log and score")
    add_rules_options(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the players "
                        "(default: 1)")
    parser.add_argument("--bots", default="heuristic", help="the players: random, basic, "
                        "heuristic or search (default: heuristic)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print every action and the hands, not one line per turn")
    parser.set_defaults(run=run)


class Step(NamedTuple):
    """One action of the round: who took it, what happened, and the turn seat's cards after."""

    actor: int
    action: Action
    events: list[Event]
    status: str


def play_round(game: Game, bots: list[Bot]) -> list[Step]:
    """Play until the first round ends; every action with the events it caused."""
    log: list[Step] = []
    while not game.results:
        action = bots[game.actor].choose(view(game, game.actor), game.legal_actions())
        actor, seat = game.actor, game.seat
        events = game.apply(action)
        # The events after round_end belong to the next deal; the demo stops at the first.
        for i, event in enumerate(events):
            if isinstance(event, RoundEnded):
                events = events[: i + 1]
                break
        log.append(Step(actor, action, events, _status(game, seat)))
    return log


# ---------------------------------------------------------------------- the log
def _status(game: Game, seat: int) -> str:
    if game.results:  # the round is over; the table is the next deal's
        return ""
    packet = game.rules.packet_names[game.packet_no[seat]]
    return f"[{game.hand_n[seat]} in {packet}]"


def format_log(rules: Rules, log: list[Step], first_turn: TurnBegan,
               verbose: bool) -> list[str]:
    """Compact: one line per turn.  Verbose: every action, then what it caused."""
    lines: list[str] = []
    pending: list[Event] = []  # the compact line's events, merged when the turn ends
    turn_seat = -1
    turn_head = ""
    status = ""

    def words(event: Event) -> str | None:
        return describe(event, subject=event.seat != turn_seat)

    def flush() -> None:
        if turn_head and not verbose:
            texts = [t for t in map(words, merge_melds(pending)) if t]
            lines.append(f"{turn_head}: {', '.join(texts)}  {status}".rstrip())

    def open_turn(event: TurnBegan) -> None:
        nonlocal turn_seat, turn_head
        flush()
        pending.clear()
        turn_seat = event.seat
        team = rules.team_of(turn_seat)
        turn_head = f"turn {event.turn:>3}  seat {turn_seat} (team {team})"
        if verbose:
            lines.append(turn_head)

    open_turn(first_turn)
    for step in log:
        if verbose:
            lines.append(f"    seat {step.actor}> {step.action.text}")
        # A turn's last action also opens the next turn, so its status belongs to the old one.
        status = step.status
        for event in merge_melds(step.events):
            if isinstance(event, TurnBegan):
                open_turn(event)
            elif verbose:
                text = words(event)
                if text:
                    lines.append(f"        {text}")
            else:
                pending.append(event)
    flush()
    return lines


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    game = Game.new(rules, seed=args.seed)
    bots = [make_bot(args.bots, seed=args.seed * 10 + seat) for seat in range(rules.players)]
    print(f"{rules.name}: {rules.players} players, {rules.teams} teams "
          f"(team = seat mod {rules.teams}), seed {args.seed}")
    print(f"round 1: seat {game.dealer} deals; opening minimum {game.minimum}; "
          f"upcard {format_cards(game.pile[-1:]) or '-'}")
    if args.verbose:
        for seat in range(rules.players):
            print(f"    seat {seat} {rules.packet_names[0]}: {format_counts(game.hands[seat])}")
    first_turn = TurnBegan(game.seat, game.turns)
    log = play_round(game, bots)
    for line in format_log(rules, log, first_turn, args.verbose):
        print(line)
    print_score(game)
    return 0


def print_score(game: Game) -> None:
    print()
    for line in result_lines(game.rules, game.results[0]):
        print(line)
