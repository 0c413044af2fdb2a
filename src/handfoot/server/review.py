"""A replay's review: at each decision of one seat, what the strongest bot would have done from
that seat's view, where it differs from what was played, and the engine's words for it.

The reviewer sees exactly what a bot at the table sees (``view(game, seat)`` and the legal
list); it never reads another hand.  It is ``levels.ranker(rules)``, the strongest bot that
scores every legal action at the game's table: the shipped network (the ``strong`` level: one
forward pass a decision) where a model fits the table, else the heuristic (``casual``).  The
review names it ("compared with the strong bot").  ``expert`` is not used: its search costs up to
its whole budget at each searched decision (2.8 s of CPU for one seat's whole four-round game at
``ms=100``, 1.7 s at ``ms=50``, against 0.02 s for the network; docs/BOTS.md), and it values
whole-turn plans, not each legal action, so it has no score for what was played.

"Biggest difference" is the reviewer's own score of the two actions: how far what was played
falls below its choice.  For the heuristic that is its points; for the network, each legal
action's share of the policy's weight among the legal actions (a softmax of its logits), in
percent, so the gap is in percentage points.  It costs nothing beyond the choice itself (a whole
four-round game reviews in well under a second), and it ranks the decisions the way the reviewer
would argue them; it is not a measure of points lost at the score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from handfoot.actions import Action
from handfoot.bots.levels import ranker
from handfoot.engine import Game
from handfoot.record import Record, ReplayResult
from handfoot.rules import Rules
from handfoot.views import SeatView, view

from .updates import words

BIGGEST = 3  # the differences listed first


class Reviewer(Protocol):
    name: str

    def scored(self, view: SeatView, legal: Sequence[Action]) -> list[tuple[Action, float]]:
        """The legal actions with a score each, best first."""
        ...


def reviewer(rules: Rules) -> Reviewer:
    """The strongest bot that scores every legal action at this table (a fixed seed, or no
    state at all: a review is reproducible)."""
    return ranker(rules)


def _percent(judge: Reviewer) -> bool:
    """Whether the judge's scores are shares of a policy's weight (percent), not points."""
    return getattr(judge, "unit", "points") == "%"


def _why(judge: Reviewer, top: float, mine: float, played: str) -> str:
    if _percent(judge):
        return (f"the {judge.name} bot gives it {top:.0f}% of its weight against {mine:.0f}% "
                f"for {played}")
    return f"the {judge.name} bot rates it {top:,.0f} against {mine:,.0f} for {played}"


def _says(game: Game, seat: int, action: Action, names: list[str]) -> str:
    """The alternative in the engine's words, as the seat would have read it had it played it
    (played on a copy of the game; only the seat's own lines are kept)."""
    other = game.clone()
    events = other.apply(action, seat)
    lines = words(events, names)[seat]
    return "; ".join(lines) or action.text


def review(record: Record, outcome: ReplayResult, seat: int,
           judge: Reviewer | None = None) -> dict[str, Any]:
    """Every decision of ``seat`` (a position with more than one legal action) with the
    reviewer's choice; the differences; the biggest ones first."""
    judge = judge or reviewer(record.rules)
    names = [s.name or f"Seat {i}" for i, s in enumerate(record.seats)]
    game = record.new_game()
    decisions: list[dict[str, Any]] = []
    skipped = 0
    for i, played in enumerate(outcome.steps):
        if played.seat == seat:
            legal = game.legal_actions()
            if len(legal) > 1:
                scored = judge.scored(view(game, seat), legal)
                points = {a.text: s for a, s in scored}
                mine = points.get(played.action.text)
                if mine is None:
                    # A compound action (a whole lay-down typed at the terminal) is not among
                    # the engine's atomic steps; the reviewer has no score for it.
                    skipped += 1
                else:
                    best, top = scored[0]
                    differs = best.text != played.action.text and top > mine
                    item: dict[str, Any] = {
                        "step": i + 1, "round": played.round, "turn": played.turn,
                        "played": played.action.text, "best": best.text, "differs": differs,
                        "gap": round(top - mine, 1) if differs else 0,
                    }
                    if differs:
                        item["says"] = _says(game, seat, best, names)
                        item["why"] = _why(judge, top, mine, played.action.text)
                    decisions.append(item)
        game.apply(played.action)
    differences = [d for d in decisions if d["differs"]]
    biggest = sorted(differences, key=lambda d: (-d["gap"], d["step"]))[:BIGGEST]
    return {
        "seat": seat,
        "reviewer": judge.name,
        "compared_with": f"compared with the {judge.name} bot",
        "ranked_by": (f"the {judge.name} bot's share of its policy's weight for each action, "
                      "in percent" if _percent(judge) else
                      f"the {judge.name} bot's own score of each action"),
        "decisions": decisions,
        "differences": len(differences),
        "not_compared": skipped,
        "biggest": [d["step"] for d in biggest],
    }
