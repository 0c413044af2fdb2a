"""``handfoot demo``: one complete round between simple players, with its log and score.

The players choose only among ``Game.legal_actions()``; they never judge legality.  Purely
random players almost never go out, so these lean greedy: meld whenever a meld is legal (cards
without wilds first, which is how clean canastas get made), take the pile when they may, ask
and answer "yes", and otherwise discard: a black three first, else a kind they hold fewest of,
keeping wild cards (ties at random).  Discarding at random, they went out in about one round in
four across the six presets; discarding like this, in about two in three.
"""

from __future__ import annotations

import argparse
import random
from typing import Any, NamedTuple

from handfoot.actions import Action, Add, Answer, Ask, Discard, LayDown, Start, TakePile
from handfoot.cards import (
    BLACK_THREE,
    KIND_TOKENS,
    TWO,
    WILD_KINDS,
    WILD_SLOT,
    format_cards,
    format_counts,
    slot_token,
)
from handfoot.engine import Event, Game
from handfoot.rules import Rules

from .common import add_rules_options, rules_from_args


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("demo", help="play one random round and print it")
    add_rules_options(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the players "
                        "(default: 1)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print every action and the hands, not one line per turn")
    parser.set_defaults(run=run)


# ---------------------------------------------------------------------- the players
def _uses_wild(action: Action) -> bool:
    if isinstance(action, Start):
        return action.twos + action.jokers > 0 and action.slot != WILD_SLOT
    if isinstance(action, Add):
        return action.kind >= TWO and action.slot != WILD_SLOT
    return False


def choose(game: Game, rng: random.Random) -> Action:
    """A little greedy, entirely within the legal actions."""
    legal = game.legal_actions()
    melds = [a for a in legal if isinstance(a, Start | Add | LayDown)]
    if melds:
        natural = [a for a in melds if not _uses_wild(a)]
        return rng.choice(natural or melds)
    for wanted in (Answer(True), Ask()):
        if wanted in legal:
            return wanted
    takes = [a for a in legal if isinstance(a, TakePile)]
    if takes:
        return rng.choice(takes)
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        hand = game.hands[game.seat]

        def worth(kind: int) -> int:
            return -1 if kind == BLACK_THREE else hand[kind] + (100 if kind in WILD_KINDS else 0)

        least = min(worth(a.kind) for a in discards)
        return rng.choice([a for a in discards if worth(a.kind) == least])
    return rng.choice(legal)


class Step(NamedTuple):
    """One action of the round: who took it, what happened, and the turn seat's cards after."""

    actor: int
    action: Action
    events: list[Event]
    status: str


def play_round(game: Game, rng: random.Random) -> list[Step]:
    """Play until the first round ends; every action with the events it caused."""
    log: list[Step] = []
    while not game.results:
        action = choose(game, rng)
        actor, seat = game.actor, game.seat
        events = game.apply(action)
        # The events after round_end belong to the next deal; the demo stops at the first.
        for i, event in enumerate(events):
            if event.name == "round_end":
                events = events[: i + 1]
                break
        log.append(Step(actor, action, events, _status(game, seat)))
    return log


# ---------------------------------------------------------------------- the log
def _meld_text(slot: int, n: int, w2: int, wj: int) -> str:
    cards = [KIND_TOKENS[slot]] * n if slot != WILD_SLOT else []
    return " ".join(cards + ["2"] * w2 + ["JK"] * wj)


def describe(event: Event, rules: Rules) -> str | None:
    """Words for one event, or None for events the per-turn line shows otherwise."""
    d = event.detail
    name = event.name
    if name == "draw":
        return f"draws {d[0]}"
    if name == "red_three":
        return f"lays {d[0]} red three{'s' if d[0] != 1 else ''}"
    if name == "replace":
        return f"replaces with {d[0]}"
    if name == "take_pile":
        return f"takes the pile ({d[1]} cards, {KIND_TOKENS[int(str(d[0]))]} on top)"
    if name == "pile_to_hand":
        return f"{len(d)} pile cards to hand"
    if name == "meld":
        slot = int(str(d[0]))
        return f"melds {slot_token(slot)}: {_meld_text(slot, *(int(str(x)) for x in d[1:]))}"
    if name == "canasta":
        return f"CANASTA of {slot_token(int(str(d[0])))} ({d[1]})"
    if name == "opening":
        return f"opens with {d[0]} points"
    if name == "pick_up":
        return f"picks up the {d[0]} ({d[1]} cards)"
    if name == "discard":
        return f"discards {KIND_TOKENS[int(str(d[0]))]}"
    if name == "knock":
        return "knocks"
    if name == "retract":
        return "takes back a short opening"
    if name == "ask":
        return f"asks seat {d[0]} \"may I go out?\""
    if name == "answer":
        return f"seat {event.seat} answers {'yes' if d[0] else 'no'}"
    if name == "stock_empty":
        return "the stock is empty"
    if name == "went_out":
        return "GOES OUT"
    if name == "round_end":
        return None
    if name == "upcard":
        return f"upcard {KIND_TOKENS[int(str(d[0]))]}"
    if name == "upcard_rejected":
        return f"upcard {KIND_TOKENS[int(str(d[0]))]} rejected"
    return None


def _merge_melds(events: list[Event]) -> list[Event]:
    """One meld event per slot per action, as a person would say it (an addition of a card
    at a time reads badly)."""
    out: list[Event] = []
    for e in events:
        if (e.name == "meld" and out and out[-1].name == "meld"
                and out[-1].detail[0] == e.detail[0] and out[-1].seat == e.seat):
            prev = out[-1].detail
            merged = (prev[0], *(int(str(a)) + int(str(b)) for a, b in zip(prev[1:], e.detail[1:],
                                                                             strict=True)))
            out[-1] = Event("meld", e.seat, merged)
        else:
            out.append(e)
    return out


def _status(game: Game, seat: int) -> str:
    if game.results:  # the round is over; the table is the next deal's
        return ""
    packet = game.rules.packet_names[game.packet_no[seat]]
    return f"[{game.hand_n[seat]} in {packet}]"


def format_log(rules: Rules, log: list[Step], first_turn: Event, verbose: bool) -> list[str]:
    """Compact: one line per turn.  Verbose: every action, then what it caused."""
    lines: list[str] = []
    pending: list[Event] = []  # the compact line's events, merged when the turn ends
    turn_seat = -1
    turn_head = ""
    status = ""

    def words(event: Event) -> str | None:
        text = describe(event, rules)
        if text and event.seat not in (turn_seat, -1) and event.name != "answer":
            text = f"seat {event.seat} {text}"
        return text

    def flush() -> None:
        if turn_head and not verbose:
            texts = [t for t in map(words, _merge_melds(pending)) if t]
            lines.append(f"{turn_head}: {', '.join(texts)}  {status}".rstrip())

    def open_turn(event: Event) -> None:
        nonlocal turn_seat, turn_head
        flush()
        pending.clear()
        turn_seat = event.seat
        team = rules.team_of(turn_seat)
        turn_head = f"turn {event.detail[0]:>3}  seat {turn_seat} (team {team})"
        if verbose:
            lines.append(turn_head)

    open_turn(first_turn)
    for step in log:
        if verbose:
            lines.append(f"    seat {step.actor}> {step.action.text}")
        # A turn's last action also opens the next turn, so its status belongs to the old one.
        status = step.status
        for event in _merge_melds(step.events):
            if event.name == "turn":
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
    rng = random.Random(args.seed)
    print(f"{rules.name}: {rules.players} players, {rules.teams} teams "
          f"(team = seat mod {rules.teams}), seed {args.seed}")
    print(f"round 1: seat {game.dealer} deals; opening minimum {game.minimum}; "
          f"upcard {format_cards(game.pile[-1:]) or '-'}")
    if args.verbose:
        for seat in range(rules.players):
            print(f"    seat {seat} {rules.packet_names[0]}: {format_counts(game.hands[seat])}")
    first_turn = Event("turn", game.seat, (game.turns,))
    log = play_round(game, rng)
    for line in format_log(rules, log, first_turn, args.verbose):
        print(line)
    print_score(game)
    return 0


def print_score(game: Game) -> None:
    result = game.results[0]
    rules = game.rules
    how = str(result["ended_by"]).replace("_", " ")
    went_out = int(str(result["went_out"]))
    who = f" (seat {went_out}, team {rules.team_of(went_out)})" if went_out >= 0 else ""
    print()
    print(f"round 1 ended: {how}{who} after {result['turns']} turns")
    teams: list[dict[str, Any]] = result["teams"]
    for team, row in enumerate(teams):
        seats = ", ".join(str(s) for s in rules.seats_of(team))
        print(f"team {team} (seats {seats})")
        for label, points in row["lines"]:
            print(f"    {label:<28} {points:>7}")
        print(f"    {'total':<28} {row['total']:>7}")
