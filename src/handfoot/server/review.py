"""A replay's review: at each decision of one seat, what the strongest bot would have done from
that seat's view, where it differs from what was played, and the engine's words for it.

The reviewer sees exactly what a bot at the table sees (``view(game, seat)`` and the legal
list); it never reads another hand.  It is the heuristic bot today; a stronger level plugs in
through ``REVIEWER`` as long as it scores the legal actions (``Reviewer``).

"Biggest difference" is the reviewer's own score of the two actions: how far what was played
falls below its choice, in the reviewer's points.  It costs nothing beyond the choice itself (a
whole four-round game reviews in well under a second), and it ranks the decisions the way the
reviewer would argue them; it is not a measure of points lost at the score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from handfoot.actions import Action
from handfoot.bots.heuristic import HeuristicBot
from handfoot.engine import Game
from handfoot.record import Record, ReplayResult
from handfoot.views import SeatView, view

from .updates import words

BIGGEST = 3  # the differences listed first


class Reviewer(Protocol):
    name: str

    def scored(self, view: SeatView, legal: Sequence[Action]) -> list[tuple[Action, float]]:
        """The legal actions with a score each, best first."""
        ...


def reviewer() -> Reviewer:
    """The strongest bot that scores its choices (a fixed seed: a review is reproducible)."""
    return HeuristicBot(seed=0)


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
    judge = judge or reviewer()
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
                        item["why"] = (f"the {judge.name} bot rates it {top:,.0f} against "
                                       f"{mine:,.0f} for {played.action.text}")
                    decisions.append(item)
        game.apply(played.action)
    differences = [d for d in decisions if d["differs"]]
    biggest = sorted(differences, key=lambda d: (-d["gap"], d["step"]))[:BIGGEST]
    return {
        "seat": seat,
        "reviewer": judge.name,
        "ranked_by": f"the {judge.name} bot's own score of each action",
        "decisions": decisions,
        "differences": len(differences),
        "not_compared": skipped,
        "biggest": [d["step"] for d in biggest],
    }
