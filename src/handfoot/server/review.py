"""A replay's review: each turn of one seat weighed by the expert, and each of its decisions
marked where the strong bot would have chosen otherwise.

**Turns, by the expert** (what lichess's analysis board is to chess).  At the first real
decision of each of the seat's turns, the expert (``levels.ExpertBot``: the shipped network
inside the search where a model fits the table, else the search with its linear evaluation)
takes the seat's view, builds the whole-turn plans it would search, and plays each of them
and **the turn actually played** (the record's actions for the rest of that turn) out in the
same sampled worlds, each followed by the same replies of the other seats; every one is valued
the same way (the network's value, or the linear fit, in points of the round's score
difference for the seat's team: ``win`` is off).  Its plan is the one it picks from those
scores; a turn *lost* the points its plan was worth more than the turn played, 0 where the
turn played is the plan chosen or scored at least as well.  ``search.SearchBot.score_turn``
does the scoring.

The worlds know, with hindsight, what the turn saw: the cards the seat drew from the stock
this turn are the stock's top in every world, and its foot (or knee) is the real one if it
reached it this turn (``views.sample_world``'s ``stock_top`` and ``packets``); everything
else the seat could not see is dealt at random.  The turn played could not be replayed
otherwise (its melds name the cards it drew), and every plan meets the same cards, so the
comparison is even.  The worlds are seeded by the turn (``TURN_WORLDS`` of them, no time
budget), so the same game gives the same review on any machine.

**Decisions, by the strong bot.**  Each decision of the seat (a position with more than one
legal action) is compared with ``levels.ranker(rules)``: the shipped network's choice (one
forward pass) where a model fits the table, else the heuristic's.  Its gap is the reviewer's
own score of the two actions (the policy's weight, in percentage points, or the heuristic's
points), a mark for the move, not points at the score sheet.

Cost: the turns take the CPU (docs/WEB.md has the figures); the decisions almost none.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from handfoot.actions import Action
from handfoot.bots.levels import ExpertBot, model_for, ranker
from handfoot.bots.plans import HEURISTIC, Plan
from handfoot.bots.search import TurnScores
from handfoot.engine import Game
from handfoot.record import Record, ReplayResult, Step
from handfoot.rules import Rules
from handfoot.views import SeatView, ViewError, sample_world, view

from .updates import words

BIGGEST = 3  # the turns listed first
TURN_WORLDS = 32  # sampled worlds a turn (a fixed count: the review is reproducible)
# The turns of a seat one review weighs at the most: a four-round game has some 45 a seat (3 s
# of CPU; the knee game 8 s), while a record file of a hundred rounds has over a thousand
# (over a minute).  The review stops at the next turn, and says where.
MOST_TURNS = 100


class Reviewer(Protocol):
    name: str

    def scored(self, view: SeatView, legal: Sequence[Action]) -> list[tuple[Action, float]]:
        """The legal actions with a score each, best first."""
        ...


def reviewer(rules: Rules) -> Reviewer:
    """The strongest bot that scores every legal action at this table (a fixed seed, or no
    state at all: a review is reproducible)."""
    return ranker(rules)


def turn_reviewer(rules: Rules, worlds: int = TURN_WORLDS) -> ExpertBot:
    """The expert with a fixed number of worlds and no time budget, valuing in points."""
    bot = ExpertBot(seed=0, ms=0, worlds=worlds)
    bot.win = False  # the linear fit's points, not a chance to win, where no model fits
    return bot


def valued_by(rules: Rules, worlds: int = TURN_WORLDS) -> str:
    """How the turns are valued, in words for the page."""
    model = model_for(rules)
    how = ("the network's value" if model is not None and model.value
           else "the search's linear evaluation (no trained model fits this table)")
    return (f"each played out in the same {worlds} sampled worlds and valued by {how}, in "
            "points of the round's score difference for the seat's team")


def _percent(judge: Reviewer) -> bool:
    """Whether the judge's scores are shares of a policy's weight (percent), not points."""
    return getattr(judge, "unit", "points") == "%"


def _why(judge: Reviewer, top: float, mine: float, played: str) -> str:
    if _percent(judge):
        return (f"the {judge.name} bot gives it {top:.0f}% of its weight against {mine:.0f}% "
                f"for {played}")
    return f"the {judge.name} bot rates it {top:,.0f} against {mine:,.0f} for {played}"


def _says(game: Game, seat: int, actions: Sequence[tuple[int, Action]],
          names: list[str]) -> str:
    """Actions in the engine's words, as the seat would have read them had they been played
    (on a copy of the game; only the seat's own lines are kept)."""
    other = game.clone()
    lines: list[str] = []
    for actor, action in actions:
        lines += words(other.apply(action, actor), names)[seat]
    return "; ".join(lines) or ", ".join(a.text for _, a in actions)


def in_words(actions: Sequence[tuple[int, Action]], seat: int, names: list[str]) -> str:
    """A turn's actions as the page lists them: "draw, meld K K K, then discard 5" (a
    partner's answer is named)."""
    texts = [a.text if actor == seat else f"{names[actor]}: {a.text}" for actor, a in actions]
    if len(texts) < 2:
        return "".join(texts)
    return ", ".join(texts[:-1]) + ", then " + texts[-1]


def plan_words(plan: Plan) -> str:
    """How a plan differs from the heuristic's own turn, in a few words."""
    if plan.network:
        return "the network's own turn (what the strong bot plays)"
    parts = []
    if plan.take is not None:
        parts.append("take the pile" if plan.take.text != "draw" else "draw from the stock")
    if plan.discard:
        parts.append(("", "the second", "the third")[min(plan.discard, 2)] + " discard it likes")
    if plan.save_wilds:
        parts.append("keep the wild cards off rank melds")
    if not plan.go_out:
        parts.append("not go out this turn")
    if plan.hold:
        parts.append("start no new rank meld")
    return ", ".join(parts) or "the heuristic's own turn"


def _seen(game: Game, seat: int, played: Sequence[tuple[int, Action]]
          ) -> tuple[list[int], list[list[int]] | None]:
    """What the turn played saw that the seat could not see before it: the stock's cards it
    took, the next first (draws, replacements, pennies), and the seat's own packets if it
    picked one up; read from the real game."""
    after = game.clone()
    taken = 0
    for actor, action in played:
        before, round_no, reshuffles = len(after.stock), after.round_no, after.reshuffles
        after.apply(action, actor)
        if after.round_no != round_no or after.reshuffles != reshuffles:
            # The round ended (a new deal) or a reshuffle made a new stock: the world's own
            # reshuffle differs, so only the cards before it are known.
            taken = len(game.stock) if after.reshuffles != reshuffles else taken
            break
        taken += max(0, before - len(after.stock))
    stock_top = list(reversed(game.stock))[:taken]
    packets = ([list(p) for p in game.packets[seat]]
               if after.packet_no[seat] != game.packet_no[seat] else None)
    return stock_top, packets


def review_turn(game: Game, seat: int, steps: Sequence[Step], judge: ExpertBot,
                names: list[str], key: str, first: int = 1) -> dict[str, Any] | None:
    """One turn of ``seat``: ``game`` at its first real decision, ``steps`` the record's
    actions from there to the turn's end (the first is the replay's step ``first``); the
    worlds are seeded by ``key``.  None when no world fits the view (a scenario)."""
    played = [(s.seat, s.action) for s in steps]
    v = view(game, seat)
    legal = game.legal_actions()
    stock_top, packets = _seen(game, seat, played)
    rng = random.Random(f"review/{key}")
    try:
        scores: TurnScores = judge.score_turn(
            v, legal, played, lambda: sample_world(v, rng, stock_top, packets))
    except ViewError:
        return None
    plan = scores.plans[scores.best]
    best = judge.play_plan(plan, game.clone(), seat)
    agrees = [a.text for _, a in best] == [a.text for _, a in played]
    top, mine = scores.means[scores.best], scores.played
    lost = 0 if agrees else max(0, round(top - mine))
    item: dict[str, Any] = {
        "step": first, "last": first + len(steps) - 1,
        "round": steps[0].round, "turn": steps[0].turn,
        "played": in_words(played, seat, names), "best": in_words(best, seat, names),
        "agrees": agrees, "lost": lost,
        "values": [round(top), round(mine)],
    }
    if not agrees:
        if plan != HEURISTIC:
            item["plan"] = plan_words(plan)
        item["says"] = _says(game, seat, best, names)
        item["why"] = (f"the expert expects {top:+,.0f} points for its plan and {mine:+,.0f} "
                       f"for the turn played ({scores.worlds} worlds)")
    if scores.refused:
        item["refused"] = scores.refused
    return item


def review(record: Record, outcome: ReplayResult, seat: int,
           judge: Reviewer | None = None, turns: ExpertBot | None = None,
           worlds: int = TURN_WORLDS, most_turns: int = MOST_TURNS) -> dict[str, Any]:
    """Every turn of ``seat`` weighed by the expert, the turns that lost most first; and
    every decision (a position with more than one legal action) with the strong bot's
    choice.  At most ``most_turns`` turns: the review stops before the next (``stopped_at``,
    its first step not reviewed)."""
    judge = judge or reviewer(record.rules)
    expert = turns or turn_reviewer(record.rules, worlds)
    names = [s.name or f"Seat {i}" for i, s in enumerate(record.seats)]
    game = record.new_game()
    steps = outcome.steps
    decisions: list[dict[str, Any]] = []
    reviewed: list[dict[str, Any]] = []
    skipped = unreviewed = 0
    done: set[tuple[int, int]] = set()
    stopped_at: int | None = None
    for i, played in enumerate(steps):
        if played.seat == seat:
            legal = game.legal_actions()
            key = (played.round, played.turn)
            if len(legal) > 1 and game.seat == seat and key not in done:
                if len(done) >= most_turns:
                    stopped_at = i + 1
                    break
                # The turn's first real decision: the expert weighs the rest of the turn.
                done.add(key)
                end = i
                while end < len(steps) and (steps[end].round, steps[end].turn) == key:
                    end += 1
                item = review_turn(game, seat, steps[i:end], expert, names,
                                   f"{seat}/{key[0]}/{key[1]}", i + 1)
                if item is None:
                    unreviewed += 1
                else:
                    reviewed.append(item)
            if len(legal) > 1:
                decision = _decision(game, seat, played, i, legal, judge, names)
                if decision is None:
                    skipped += 1
                else:
                    decisions.append(decision)
        game.apply(played.action)
    differences = [d for d in decisions if d["differs"]]
    losing = [t for t in reviewed if t["lost"] > 0]
    biggest = sorted(losing, key=lambda t: (-t["lost"], t["step"]))[:BIGGEST]
    return {
        "seat": seat,
        "reviewer": "expert",
        "compared_with": "compared with the expert",
        "valued_by": valued_by(record.rules, expert.worlds),
        "worlds": expert.worlds,
        "turns": reviewed,
        "lost": sum(t["lost"] for t in reviewed),
        "turns_lost": len(losing),
        "not_reviewed": unreviewed,
        "most_turns": most_turns,
        "stopped_at": stopped_at,
        "biggest": [t["step"] for t in biggest],
        "moves_by": judge.name,
        "moves_compared_with": f"compared with the {judge.name} bot",
        "ranked_by": (f"the {judge.name} bot's share of its policy's weight for each action, "
                      "in percent" if _percent(judge) else
                      f"the {judge.name} bot's own score of each action"),
        "decisions": decisions,
        "differences": len(differences),
        "not_compared": skipped,
    }


def _decision(game: Game, seat: int, played: Step, i: int, legal: list[Action],
              judge: Reviewer, names: list[str]) -> dict[str, Any] | None:
    """One decision with the strong bot's choice; None when it has no score for what was
    played (a compound action: a whole lay-down typed at the terminal is not among the
    engine's atomic steps)."""
    scored = judge.scored(view(game, seat), legal)
    points = {a.text: s for a, s in scored}
    mine = points.get(played.action.text)
    if mine is None:
        return None
    best, top = scored[0]
    differs = best.text != played.action.text and top > mine
    item: dict[str, Any] = {
        "step": i + 1, "round": played.round, "turn": played.turn,
        "played": played.action.text, "best": best.text, "differs": differs,
        "gap": round(top - mine, 1) if differs else 0,
    }
    if differs:
        item["says"] = _says(game, seat, [(seat, best)], names)
        item["why"] = _why(judge, top, mine, played.action.text)
    return item
