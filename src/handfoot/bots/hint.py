"""Hints for people: what the heuristic bot would do in their place (the terminal game's ``h``
and the web table's ``hint``)."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..views import SeatView
from .heuristic import HeuristicBot


def hint(view: SeatView, legal: Sequence[Action]) -> Action:
    """The heuristic bot's first choice among ``legal`` (the engine's list for the seat)."""
    # A fresh bot each time: a hint depends only on the position, never on earlier hints.
    return HeuristicBot(seed=0).rank(view, legal)[0]
