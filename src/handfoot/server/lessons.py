"""Lessons for people who have never played: dealt positions with a goal, played with the
engine (docs/WEB.md, "Lessons"; docs/PROTOCOL.md, "Lessons").

A lesson is a position built by the engine itself: an explicit deal (small packets, as
scenario records may have: docs/RECORD-FORMAT.md) and a prelude of ordinary actions that the
engine applies, so every position is one a real game can reach.  The learner always sits in
seat 0 and it is their turn when the prelude ends.  They play real actions; the server replays
the lesson from its deal on every request (nothing is kept between requests) and answers with
seat 0's view, the engine's refusal with its clause, or whether the goal is reached.  Goals are
checked here, in Python, from the game state; the page only shows what it is told.

The words of a lesson come from two places: two or three sentences of our own, with the
numbers taken from the rules object, and the clause texts of docs/RULES.md as
``rulebook.py`` writes them for these rules, so a lesson never disagrees with the engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from handfoot.actions import (
    ActionSyntaxError,
    Answer,
    Discard,
    Draw,
    PickUpPile,
    TakeOnto,
    TakePile,
    parse_action,
)
from handfoot.cards import ACE, TWO
from handfoot.clauses import CLAUSES
from handfoot.deal import Deal
from handfoot.engine import Game
from handfoot.events import Event, GameEnded
from handfoot.facts import missing_text
from handfoot.narrate import describe, merge_melds, result_lines
from handfoot.presets import PRESET_NAMES, preset
from handfoot.rulebook import clauses as clause_sentences
from handfoot.rules import Rules
from handfoot.state import Phase, Played

from .messages import seat_view

LEARNER = 0  # the learner's seat in every lesson; seat 2 is the partner in a team game
PARTNER = 2
MAX_STEPS = 40  # actions a lesson request may carry (a lesson's solution takes under ten)
MAX_ACTION = 200  # characters of one action's text

# Cards the other seats hold and the stock holds where a lesson does not care: singles
# that start no meld with the lesson's cards.
OTHER_HAND = "9 10 J 6"
OTHER_PACKET = "9 10 J"
STOCK_FILLER = "9 10 J 4 6 9 10 J 4 6 9 10 J 4 6 9 10 J 4 6 9 10 J 4"


class LessonError(ValueError):
    """A lesson request that cannot be played: an unknown lesson or rules, or steps that do
    not replay (the page sends back only steps the server accepted)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Position:
    """A lesson's deal and prelude.  ``hand``/``knee``/``foot`` are seat 0's packets (the knee
    only where the rules have one); ``partner`` seat 2's packets in the same way; ``draw`` the
    cards seat 0 draws at the lesson's turn (after the prelude's draws); ``pile`` the pile
    before the prelude, bottom first; ``prelude`` actions the engine plays first, in order."""

    hand: str
    foot: str
    knee: str = "9 10 J"
    partner: tuple[str, str, str] = (OTHER_HAND, OTHER_PACKET, OTHER_PACKET)
    right: str = OTHER_HAND  # seat 3's hand: the player before the learner
    draw: str = ""
    pile: str = "9"
    prelude: tuple[str, ...] = ()
    first_round: int = 1
    # The cards the prelude's draws bring, in order (top of the stock first).
    prelude_draws: str = ""


def _packets(rules: Rules, hand: str, knee: str, foot: str) -> list[str]:
    return [hand, knee, foot] if len(rules.packets) == 3 else [hand, foot]


def build(rules: Rules, pos: Position) -> Game:
    """The lesson's game at the learner's first move: the deal, then the prelude.  Every
    preset seats four (rules_for takes a preset as it is), so the deal names four seats."""
    others = _packets(rules, OTHER_HAND, OTHER_PACKET, OTHER_PACKET)
    seats = [_packets(rules, pos.hand, pos.knee, pos.foot), others,
             _packets(rules, *pos.partner),
             _packets(rules, pos.right, OTHER_PACKET, OTHER_PACKET)]
    draws = sum(1 for text in pos.prelude if text == "draw")
    filler = STOCK_FILLER.split()
    given = pos.prelude_draws.split()
    ahead = given + filler[:max(0, draws * rules.draw_count - len(given))]
    stock = " ".join([*ahead, *pos.draw.split(), *filler])
    deal = Deal.from_mapping({"packets": seats, "stock": stock, "pile": pos.pile}, rules)
    # The dealer sits on seat 0's right, so seat 0 plays first (2.6).
    game = Game.new(rules, deals=[deal], first_dealer=rules.players - 1,
                    first_round=pos.first_round)
    for text in pos.prelude:
        game.apply(text)
    return game


def seat_turns(partner: Sequence[str], top: str = "6") -> tuple[str, ...]:
    """Seats 1, 2 (whose turn is written) and 3 after seat 0's prelude turn."""
    return ("draw", "discard 6", *partner, "draw", f"discard {top}")


# ====================================================================== goals
Goal = Callable[[Game, list[Played]], bool]


def _mine(steps: list[Played]) -> list[Played]:
    return [p for p in steps if p.seat == LEARNER]


def drew_and_discarded(g: Game, steps: list[Played]) -> bool:
    mine = [p.action for p in _mine(steps)]
    return (any(isinstance(a, Draw) for a in mine) and bool(mine)
            and isinstance(mine[-1], Discard) and g.seat != LEARNER)


def _team_meld_with_wild(g: Game) -> bool:
    team = g.team_of(LEARNER)
    return any((g.two[team][s] + g.jok[team][s]) and g.nat[team][s] for s in range(11))


def _kinds(g: Game) -> list[str]:
    return g.canasta_kinds(g.team_of(LEARNER))


def _went_out(g: Game) -> bool:
    return bool(g.results) and g.results[-1].went_out == LEARNER


# ====================================================================== the lessons
@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    clauses: tuple[str, ...]  # the clauses of docs/RULES.md the lesson teaches
    intro: Callable[[Rules], list[str]]  # two or three sentences, numbers from the rules
    goal: Callable[[Rules], str]
    miss: str  # why a legal line that ends the turn misses the goal
    position: Callable[[Rules], Position]
    reached: Goal
    solution: Callable[[Rules], list[str]]  # a known line that reaches the goal (for tests)
    applies: Callable[[Rules], bool] = field(default=lambda r: True)
    answer: bool = True  # what the partner answers "may I go out?"


def _minimum(r: Rules, round_no: int = 1) -> int:
    return r.opening_minimum(round_no, 0)


def _quota(r: Rules) -> str:
    return missing_text({kind: n for kind, n in r.quota if n})


def _aces_and_twos(r: Rules) -> str:
    ace, two = r.card_values[ACE], r.card_values[TWO]
    return f"aces and 2s count {ace} each" if ace == two else \
        f"aces count {ace} each and 2s {two}"


def _knee(r: Rules) -> bool:
    return len(r.packets) == 3


def _asks(r: Rules) -> bool:
    return r.permission and r.team_size > 1


def _ask_first(r: Rules) -> list[str]:
    return ["ask"] if _asks(r) else []


def _opening_lay(r: Rules) -> str:
    """A lay-down worth the round-1 minimum of every preset: three aces and three kings."""
    return "lay A A A, K K K"


# -- 1 drawing and discarding
def _draw_position(r: Rules) -> Position:
    return Position(hand="K Q 9 8 6 B3", foot="9 10 J", draw="J 4")


# -- 2 melds and wild cards
def _melds_position(r: Rules) -> Position:
    return Position(hand="A A 2 Q J 8 6", foot="9 10 J", draw="9 4")


# -- 3 canastas: the partner has opened with five kings and four queens and a 2
def _canasta_position(r: Rules) -> Position:
    partner_turn = ("draw", "lay K K K K K, Q Q Q Q 2", "discard 6")
    return Position(
        hand="K K Q 2 9 6", foot="9 10 J", draw="4 8",
        partner=("K K K K K Q Q Q Q 2 6", OTHER_PACKET, OTHER_PACKET),
        prelude=("draw", "discard 6", *seat_turns(partner_turn)),
    )


# -- 4 the opening minimum: round 2, as document 002's worked first meld
def _opening_position(r: Rules) -> Position:
    return Position(hand="K K K A A A 5 5 5 9 6", foot="9 10 J", draw="8 4", first_round=2)


# -- 5 taking the pile: the team has opened; seat 3 throws a queen; the learner holds two
def _pile_position(r: Rules) -> Position:
    partner_turn = ("draw", _opening_lay(r), "discard 6")
    return Position(
        hand="Q Q 9 8 6 4", foot="9 10 J", right="9 10 J Q",
        partner=("A A A K K K 6 4", OTHER_PACKET, OTHER_PACKET),
        prelude=("draw", "discard 6", *seat_turns(partner_turn, top="Q")),
    )


def _took_pile(g: Game, steps: list[Played]) -> bool:
    return any(isinstance(p.action, TakePile | TakeOnto | PickUpPile) for p in _mine(steps))


# -- 6 red threes
def _red_position(r: Rules) -> Position:
    """The dealt red three is laid at once (2.4) and, where the rules replace it, replaced by
    the stock's top card (the 4), so the learner's draw brings the second red three (3.3)."""
    if r.red_threes != "bonus":
        return Position(hand="K Q 9 8 6 R3", foot="9 10 J", draw="J 4")
    first = "4 " if r.red_three_replacement != "never" else ""
    return Position(hand="K Q 9 8 6 R3", foot="9 10 J", draw=f"{first}R3 J")


def _red_reached(g: Game, steps: list[Played]) -> bool:
    if g.rules.red_threes == "bonus":
        return g.red3[LEARNER] >= 2 and drew_and_discarded(g, steps)
    # Dead red threes are never laid: the learner discards one to stop it costing.
    return drew_and_discarded(g, steps) and isinstance(_mine(steps)[-1].action, Discard) \
        and _mine(steps)[-1].action.text == "discard R3"


# -- 7 black threes
def _black_position(r: Rules) -> Position:
    return Position(hand="K Q 9 8 B3 B3", foot="9 10 J", draw="J 4")


def _black_reached(g: Game, steps: list[Played]) -> bool:
    mine = _mine(steps)
    return drew_and_discarded(g, steps) and mine[-1].action.text == "discard B3"


# -- 8 the foot: the team has opened; the learner melds the whole hand and picks up the foot
def _foot_position(r: Rules) -> Position:
    partner_turn = ("draw", _opening_lay(r), "discard 6")
    if _knee(r):
        # In the knee game the learner is in the knee already (it came with the team's first
        # canasta, which the partner made) and plays it out to reach the foot.
        partner_turn = ("draw", "lay A A A A A A A, K K K", "discard 6")
        return Position(
            hand="9 6", knee="Q Q Q", foot="J J J 10 4",
            partner=("A A A A A A A K K K 6 4", OTHER_PACKET, OTHER_PACKET),
            prelude=("draw", "discard 6", *seat_turns(partner_turn)),
            prelude_draws="9 9", draw="Q 9",
        )
    return Position(
        hand="Q Q Q 9 6", foot="J J J 10 4", prelude_draws="9 9", draw="Q 9",
        partner=("A A A K K K 6 4", OTHER_PACKET, OTHER_PACKET),
        prelude=("draw", "discard 6", *seat_turns(partner_turn)),
    )


def _in_foot(g: Game, steps: list[Played]) -> bool:
    return g.packet_no[LEARNER] == len(g.rules.packets) - 1


# -- 9 the knee (knee games only)
def _knee_position(r: Rules) -> Position:
    return Position(hand="K K K K K K 9 8 6 4 4", knee="Q Q 8 8", foot="J J J 10 4",
                    draw="K 9")


def _in_knee(g: Game, steps: list[Played]) -> bool:
    return g.packet_no[LEARNER] >= 1


# -- 10 going out: the learner is in the foot; the team lacks one canasta of the quota
CANASTA_CARDS = {"7s": "7 7 7 7 7 7 7", "5s": "5 5 5 5 5 5 5", "wild": "2 2 2 2 JK JK JK"}
CLEAN_RANKS = ("K", "A", "10")
DIRTY_RANKS = ("J",)


def _out_position(r: Rules) -> Position:
    """Seat 0 opened and played into the foot on its first turn (through the knee in the knee
    game); where partners must have played from their foot (8.4) the partner did the same.
    The team has made every canasta of the quota but one dirty canasta, whose cards the
    learner holds: six queens and a 2.  The stock after seat 0's first draw is all 8s, which
    add to the team's 8s, so the lesson's draw is the same whatever pennies (5.6) take."""
    need = [kind for kind, n in r.quota for _ in range(n)]
    need.remove("dirty")
    clean, dirty = list(CLEAN_RANKS), list(DIRTY_RANKS)
    melds = []
    for kind in need:
        if kind == "clean":
            melds.append(" ".join([clean.pop(0)] * 7))
        elif kind == "dirty":
            melds.append(" ".join([dirty.pop(0)] * 5 + ["2", "2"]))
        else:
            melds.append(CANASTA_CARDS[kind])
    mine, theirs = melds[::2], melds[1::2]
    partner_out = r.partner_in_foot != "no"
    my_lay = ", ".join([*mine, "9 9 9", "8 8 8"])
    my_turn: list[str] = ["draw", f"lay {my_lay}"]
    if _knee(r):
        my_turn.append("lay 10 10 10")  # the knee, played out at once
    my_turn.append("discard 6")
    partner_lay = ", ".join([*theirs, "6 6 6", "8 8"] if partner_out else theirs)
    partner_turn = ["draw", *([f"lay {partner_lay}"] if partner_lay else []),
                    "discard 4" if partner_out else "discard 6"]
    return Position(
        hand=" ".join([*mine, "9 8 8 8"]), knee="10 10 10", foot="Q Q Q Q Q Q 2 4 6",
        partner=(" ".join([*theirs, "6 6 6" if partner_out else "6"]), "10 10 10",
                 "4 4 J J 9 10"),
        prelude_draws="9 9 " + "8 " * 14,
        prelude=(*my_turn, "draw", "discard 6", *partner_turn, "draw", "discard 6"),
    )


def _out_solution(r: Rules) -> list[str]:
    return ["draw", *_ask_first(r), "lay Q Q Q Q Q Q 2, 8 8", "discard 4"]


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "draw-discard", "Drawing and discarding", ("3.2", "3.5"),
        lambda r: [
            f"Every turn starts by drawing {r.draw_count} cards from the stock, the face-down "
            "pile in the middle.",
            "It ends by discarding one card face up onto the discard pile: that card is "
            "then offered to the next player.",
            "In between you may meld, but not this time: just draw, then discard the black "
            "three (a card nobody wants).",
        ],
        lambda r: "Draw from the stock, then discard one card.",
        "the turn must start with drawing from the stock and end with a discard",
        _draw_position, drew_and_discarded,
        lambda r: ["draw", "discard B3"],
    ),
    Lesson(
        "melds-wilds", "Melds and wild cards", ("5.1", "1.2", "5.3"),
        lambda r: [
            f"A meld is {r.meld_min} or more cards of one rank laid face up on the table; "
            "it belongs to your whole team.",
            "Every 2 and joker is wild: it stands in for a natural card, but a meld needs "
            f"{r.naturals_before_wild} natural cards before it may hold one, and never more "
            "wild cards than the rules allow.",
            f"Your team has not melded yet, so this first meld must be worth "
            f"{_minimum(r)} points: {_aces_and_twos(r)}.",
        ],
        lambda r: "Draw, then meld your two aces with a wild 2.",
        "the team has no meld with a wild card in it yet",
        _melds_position, lambda g, s: _team_meld_with_wild(g),
        lambda r: ["draw", "lay A A 2"],
    ),
    Lesson(
        "canastas", "Canastas, clean and dirty", ("5.6", "10.2", "8.2"),
        lambda r: [
            f"A meld of {r.canasta_size} cards is a canasta: the heart of the game, worth a "
            "big bonus and needed to go out.",
            "A canasta with no wild card is clean (natural) and earns "
            f"{r.canasta_bonus_of('clean'):,}; one with wild cards is dirty (mixed) and "
            f"earns {r.canasta_bonus_of('dirty'):,}.",
            "Your partner has laid five kings and four queens with a 2: add to them.",
        ],
        lambda r: "Make a clean canasta and a dirty canasta.",
        "the team still lacks a clean canasta and a dirty one",
        _canasta_position,
        lambda g, s: "clean" in _kinds(g) and "dirty" in _kinds(g),
        lambda r: ["draw", "lay K K, Q 2"],
    ),
    Lesson(
        "opening", "The opening minimum", ("6.1", "6.2", "1.1"),
        lambda r: [
            "The first melds your team makes each round, its opening, must together be "
            "worth at least the round's minimum in card points.",
            f"This is round 2: the minimum is {_minimum(r, 2)}. Kings count "
            f"{r.card_values[9]} each, aces {r.card_values[10]} and 5s {r.card_values[1]}.",
            "Lay several melds at once to reach it.",
        ],
        lambda r: f"Open your team's melds with at least {_minimum(r, 2)} points.",
        "the team has not opened yet",
        _opening_position, lambda g, s: g.opened[g.team_of(LEARNER)],
        lambda r: ["draw", "lay K K K, A A A, 5 5 5"],
    ),
    Lesson(
        "pile", "Taking the pile", ("4.1", "4.3", "4.5"),
        lambda r: [
            "Instead of drawing you may take the discard pile: you need a pair of the top "
            "card's rank in your hand, and the three are melded at once.",
            "Taking the pile takes " + ("the whole pile." if r.pile_take == 0 else
                                        f"its top {r.pile_take} cards.")
            + " Your team has opened already, so nothing else is needed.",
            "The player before you has just discarded a queen.",
        ],
        lambda r: "Take the discard pile with your pair of queens.",
        "you drew from the stock instead of taking the pile",
        _pile_position, _took_pile,
        lambda r: ["take-pile"],
    ),
    Lesson(
        "red-threes", "Red threes", ("2.4", "3.3", "10.3", "10.5"),
        lambda r: [
            ("Red threes are bonus cards: one in your hand is laid face up at once, worth "
             f"{r.red_three_bonus} points to your team"
             + (", and you get a new card for it." if r.red_three_replacement != "never"
                else ".")) if r.red_threes == "bonus" else
            "In these rules red threes are never laid: one still held at the end costs "
            f"{r.red_three_penalty} points.",
            "Threes are never melded with other cards.",
            "Draw, and see what the stock gives you." if r.red_threes == "bonus" else
            "Draw, then get rid of your red three.",
        ],
        lambda r: ("Draw, lay the red three it brings, and discard."
                   if r.red_threes == "bonus" else "Draw, then discard your red three."),
        "the red threes are not dealt with",
        _red_position, _red_reached,
        lambda r: ["draw", "discard 9"] if r.red_threes == "bonus" else ["draw", "discard R3"],
    ),
    Lesson(
        "black-threes", "Black threes", ("1.3", "4.2", "10.5"),
        lambda r: [
            "Black threes are never melded: each one still held when the round ends costs "
            f"{r.black_three_penalty} points.",
            "A black three on top of the discard pile blocks it: the next player cannot take "
            "the pile." if r.black_three_blocks else
            "In these rules a black three on top does not block the pile.",
            "So the best thing to do with one is to discard it.",
        ],
        lambda r: "Draw, then discard a black three.",
        "you kept your black threes",
        _black_position, _black_reached,
        lambda r: ["draw", "discard B3"],
    ),
    Lesson(
        "foot", "The foot", ("7.3", "8.3"),
        lambda r: [
            f"You are dealt {len(r.packets)} packets: "
            + ", ".join(f"a {n}" for n in r.packet_names[:-1]) + f" and a {r.packet_names[-1]}"
            + f". You play the {r.packet_names[0]} first"
            + (", then the knee" if _knee(r) else "") + "; the foot comes last.",
            "When you have played every card of a packet you pick up the next one: at once "
            "after a meld, on your next turn after a discard.",
            "Your partner's canasta brought your knee: draw, then meld every card you hold."
            if _knee(r) else "Your team has opened: draw, then meld every card you hold.",
        ],
        lambda r: "Meld all your cards and pick up your foot.",
        "you still have cards before your foot",
        _foot_position, _in_foot,
        lambda r: ["draw", "lay 9 9 9 9, Q Q Q Q" if _knee(r) else "lay Q Q Q Q, 9 9 9 9"],
    ),
    Lesson(
        "knee", "The knee", ("7.1", "7.2"),
        lambda r: [
            "In the knee game you hold three packets: the hand, the knee and the foot.",
            "You may not simply play the hand out: the knee comes when your team finishes its "
            "first canasta (the player who finishes it picks up the knee at once).",
            "Your team has not made a canasta yet, and you hold six kings.",
        ],
        lambda r: "Finish your team's first canasta and pick up your knee.",
        "the knee is still waiting",
        _knee_position, _in_knee,
        lambda r: ["draw", "lay K K K K K K K"],
        applies=lambda r: _knee(r) and r.knee_pickup == "team_first_canasta",
    ),
    Lesson(
        "going-out", "The going-out quota", ("8.1", "8.2", "8.3"),
        lambda r: [
            f"To go out, your team needs {_quota(r)}.",
            "You go out from your foot by melding or discarding your last card; the round "
            "then ends and is scored.",
            "Your team lacks one dirty canasta: make it, then go out"
            + (" (ask your partner first)." if _asks(r) else "."),
        ],
        lambda r: "Finish the quota and go out.",
        "you have not gone out",
        _out_position, lambda g, s: _went_out(g), _out_solution,
    ),
    Lesson(
        "asking", "Asking your partner", ("8.5", "8.4"),
        lambda r: [
            "In these rules you may not go out without asking your partner \"may I go "
            "out?\" first.",
            "A yes " + ("obliges you to go out this turn" if r.permission_yes == "binding"
                        else "lets you go out this turn") + "; a no binds you for the turn.",
            "Your team lacks only a dirty canasta, and you hold its cards.",
        ],
        lambda r: "Ask your partner, then go out.",
        "you did not go out",
        _out_position, lambda g, s: _went_out(g) and any(
            isinstance(p.action, Answer) for p in s), _out_solution,
        applies=_asks,
    ),
    Lesson(
        "scoring", "Scoring a round", ("10.1", "10.2", "10.4", "10.6"),
        lambda r: [
            "When someone goes out the round is scored: each team adds the card values of its "
            "melds and its canasta bonuses, then subtracts every card its players still hold.",
            f"Going out earns {r.going_out_bonus} more.",
            "Go out, then read the score sheet the engine writes.",
        ],
        lambda r: "Go out and see the round scored.",
        "the round is not over",
        _out_position, lambda g, s: _went_out(g), _out_solution,
    ),
)

BY_ID = {lesson.id: lesson for lesson in LESSONS}


# ====================================================================== playing a lesson
def rules_for(name: str | None) -> Rules:
    name = name or "hand-and-foot"
    if name not in PRESET_NAMES:
        raise LessonError("rules", f"unknown preset {name[:60]!r}; known: "
                          f"{', '.join(PRESET_NAMES)}")
    return preset(name)


def lesson_for(lesson_id: str, rules: Rules) -> Lesson:
    lesson = BY_ID.get(lesson_id)
    if lesson is None:
        raise LessonError("not_found", f"no lesson {lesson_id[:40]!r}")
    if not lesson.applies(rules):
        raise LessonError("not_found", f"the lesson {lesson.title!r} is not part of "
                          f"{rules.name}: these rules do not have it")
    return lesson


def listing(rules: Rules) -> list[dict[str, Any]]:
    return [{"id": x.id, "title": x.title, "goal": x.goal(rules)}
            for x in LESSONS if x.applies(rules)]


def clause_texts(rules: Rules, numbers: Sequence[str]) -> list[dict[str, Any]]:
    """Each clause's number, title and sentences as docs/RULES.md and ``handfoot rules
    explain`` give them for these rules (a sub-clause takes its parent's sentences)."""
    by_number = {n: (title, sentences) for n, title, sentences in
                 clause_sentences(rules, None)}
    out = []
    for number in numbers:
        parent = number if number in by_number else ".".join(number.split(".")[:2])
        sentences = by_number.get(parent, ("", []))[1]
        out.append({"number": number, "title": CLAUSES.get(number, ""),
                    "sentences": sentences})
    return out


def names(rules: Rules) -> list[str]:
    """What the lesson calls each seat: the learner is "You" (narrate.py), the others by where
    they sit, since a newcomer knows no seat numbers."""
    if rules.players == 4:
        return ["You", "the player on your left", "your partner", "the player on your right"]
    return ["You", *(f"player {s + 1}" for s in range(1, rules.players))]


def _learner_moves(g: Game) -> bool:
    return not g.over and g.actor == LEARNER and g.seat == LEARNER


def _others(g: Game, lesson: Lesson, events: list[Event]) -> None:
    """The partner answers "may I go out?" as the lesson says; nobody else plays."""
    while not g.over and g.phase is Phase.ANSWER and g.actor != LEARNER:
        events += g.apply(Answer(lesson.answer))


def play(lesson_id: str, rules_name: str | None, steps: Sequence[Any]) -> dict[str, Any]:
    """Replay the lesson with ``steps`` (action texts); every step but the last must be
    legal (they were accepted before); the last is the one being tried."""
    rules = rules_for(rules_name)
    lesson = lesson_for(lesson_id, rules)
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise LessonError("bad_message", f"actions: a list of at most {MAX_STEPS} action texts")
    game = build(rules, lesson.position(rules))
    start = len(game.history or [])
    accepted: list[str] = []
    refusal: dict[str, Any] | None = None
    said: list[str] = []
    for i, text in enumerate(steps):
        if not isinstance(text, str) or len(text) > MAX_ACTION:
            raise LessonError("bad_message", f"actions[{i}]: an action's text, at most "
                              f"{MAX_ACTION} characters")
        last = i == len(steps) - 1
        try:
            action = parse_action(text)
        except ActionSyntaxError as err:
            if not last:
                raise LessonError("bad_message", f"actions[{i}]: {err}") from None
            refusal = {"clause": "", "title": "", "reason": str(err), "rule": []}
            break
        if not _learner_moves(game):
            raise LessonError("bad_message", f"actions[{i}]: the lesson is over")
        why = game.refusal(action, LEARNER)
        if why is not None:
            if not last:
                raise LessonError("bad_message", f"actions[{i}]: {text!r} was refused")
            refusal = {"clause": why.clause, "title": CLAUSES.get(why.clause, ""),
                       "reason": why.reason,
                       "rule": clause_texts(rules, [why.clause])[0]["sentences"]}
            break
        events = game.apply(action, LEARNER)
        _others(game, lesson, events)
        accepted.append(action.text)
        if last:
            # The lesson's game ends with its one deal: "game over" would only puzzle.
            said = [line for e in merge_melds(events) if not isinstance(e, GameEnded)
                    and (line := describe(e, names(rules), you=LEARNER)) is not None]
    history = (game.history or [])[start:]
    reached = lesson.reached(game, history)
    if reached:
        status = "done"
    elif refusal is not None:
        status = "refused"
    elif not _learner_moves(game):
        status = "missed"
    else:
        status = "playing"
    out: dict[str, Any] = {
        "lesson": lesson.id, "status": status, "actions": accepted, "said": said,
        "view": seat_view(game, LEARNER),
        "legal": [a.text for a in game.legal_actions()] if _learner_moves(game) else [],
    }
    if refusal is not None:
        out["refusal"] = refusal
    if status == "missed":
        out["missed"] = f"That is legal, but it doesn't reach the goal: {lesson.miss}."
    if game.results:
        out["scores"] = result_lines(rules, game.results[-1], names(rules), you=LEARNER,
                                     indent="")
    return out


def describe_lesson(lesson_id: str, rules_name: str | None) -> dict[str, Any]:
    """The lesson's words and its starting position."""
    rules = rules_for(rules_name)
    lesson = lesson_for(lesson_id, rules)
    ids = [x["id"] for x in listing(rules)]
    at = ids.index(lesson.id)
    return {
        "id": lesson.id, "title": lesson.title, "rules": rules.name,
        "asks": _asks(rules), "players": rules.players, "packets": list(rules.packet_names),
        "intro": lesson.intro(rules), "goal": lesson.goal(rules),
        "clauses": clause_texts(rules, lesson.clauses),
        "next": ids[at + 1] if at + 1 < len(ids) else None,
        # A line the tests prove reaches the goal, for "Show me a way" (as action texts).
        "solution": lesson.solution(rules),
        "start": play(lesson.id, rules.name, []),
    }


# ====================================================================== HTTP
def _error(err: LessonError) -> JSONResponse:
    status = {"not_found": 404, "too_large": 413}.get(err.code, 400)
    return JSONResponse({"error": {"code": err.code, "message": err.message}},
                        status_code=status)


async def lessons_page(request: Request) -> Response:
    from .app import PAGE_HEADERS, STATIC  # the page's own headers: app.py imports us
    return HTMLResponse((STATIC / "lessons.html").read_text(encoding="utf-8"),
                        headers=PAGE_HEADERS)


async def lesson_list(request: Request) -> Response:
    """``GET /api/lessons?rules=PRESET``: the lessons these rules have, in order."""
    try:
        rules = rules_for(request.query_params.get("rules"))
    except LessonError as err:
        return _error(err)
    return JSONResponse({"rules": rules.name, "presets": list(PRESET_NAMES),
                         "knee": _knee(rules), "lessons": listing(rules)})


async def lesson_get(request: Request) -> Response:
    """``GET /api/lessons/LESSON?rules=PRESET``: the lesson's words and starting position."""
    try:
        return JSONResponse(describe_lesson(request.path_params["lesson"],
                                            request.query_params.get("rules")))
    except LessonError as err:
        return _error(err)


async def lesson_play(request: Request) -> Response:
    """``POST /api/lessons/LESSON`` with ``{"rules": PRESET, "actions": [...]}``: the
    actions replayed by the engine, the last one tried."""
    try:
        body = await request.body()
        if len(body) > 32 * 1024:
            raise LessonError("too_large", "the request is over 32 KiB")
        try:
            data = json.loads(body or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise LessonError("bad_json", f"not valid JSON: {err}") from None
        if not isinstance(data, dict):
            raise LessonError("bad_json", "expected a JSON object")
        rules = data.get("rules")
        if rules is not None and not isinstance(rules, str):
            raise LessonError("rules", "rules: a preset's name")
        return JSONResponse(play(request.path_params["lesson"], rules,
                                 data.get("actions", [])))
    except LessonError as err:
        return _error(err)


ROUTES = [
    Route("/lessons", lessons_page),
    Route("/api/lessons", lesson_list),
    Route("/api/lessons/{lesson}", lesson_get, methods=["GET"]),
    Route("/api/lessons/{lesson}", lesson_play, methods=["POST"]),
]


__all__ = ["LESSONS", "ROUTES", "Lesson", "LessonError", "Position", "build",
           "describe_lesson", "listing", "play"]
