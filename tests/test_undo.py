"""The one undo stack (undo.TurnUndo): what it keeps, what it forgets, and that a take-back gives
back exactly the game before the step, as every table (terminal, web) relies on."""

from __future__ import annotations

import random
from typing import Any

import pytest

from handfoot.actions import parse_action
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.state import State
from handfoot.undo import TurnUndo, teaches
from handfoot.views import view
from scenario import game

HF = "hand-and-foot"


def picture(g: Game) -> dict[str, Any]:
    """All a player or a record could see of a game: its table (not the caches), its legal
    list, every seat's view and its history."""
    table = {name: repr(getattr(g, name)) for name in State.__slots__
             if name not in ("t", "_legal", "_legal_at", "_view_parts")}
    return {"table": table, "legal": [a.text for a in g.legal_actions()],
            "views": [view(g, s) for s in range(g.rules.players)],
            "history": list(g.history) if g.history is not None else None}


def step(undo: TurnUndo, g: Game, text: str) -> None:
    undo.step(g, parse_action(text))


def test_steps_are_kept_until_one_teaches() -> None:
    g = game(preset(HF), "K K K Q Q Q 9 | 4", stock="4 6 4 6")
    undo = TurnUndo()
    step(undo, g, "draw")  # the cards drawn are news: nothing before may be taken back
    assert not undo.can_undo and len(undo) == 0
    before = picture(g)
    step(undo, g, "meld K K K")
    step(undo, g, "meld Q Q Q")
    assert undo.can_undo and len(undo) == 2 and undo.seat == 0
    g = undo.undo()
    g = undo.undo()
    assert picture(g) == before and not undo.can_undo
    step(undo, g, "meld K K K")
    step(undo, g, "meld Q Q Q")
    step(undo, g, "discard 9")  # the turn passes: the melds stand
    assert not undo.can_undo
    with pytest.raises(IndexError):
        undo.undo()


def test_an_illegal_step_changes_nothing() -> None:
    g = game(preset(HF), "K K K 9 | 4")
    undo = TurnUndo()
    step(undo, g, "draw")
    step(undo, g, "meld K K K")
    with pytest.raises(Exception, match="4"):
        step(undo, g, "meld Q Q Q")  # no queens in hand
    assert len(undo) == 1


def test_another_seats_step_forgets_the_first_seats() -> None:
    g = game(preset(HF), "K K K 9 | 4")
    undo = TurnUndo()
    step(undo, g, "draw")
    step(undo, g, "meld K K K")
    assert undo.seat == 0 and undo.can_undo
    other = game(preset(HF), "4 | 4", first=1)
    step(undo, other, "draw")  # seat 1's step: seat 0's take-back is gone
    assert undo.seat == 1 and not undo.can_undo
    undo.clear()
    assert not undo.can_undo


# One seed in a development run, six in the full run.
@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow)
                                       for s in range(1, 6))])
def test_a_take_back_restores_the_exact_game(seed: int) -> None:
    # Random games, taking steps back now and then: every take-back gives back the game as it
    # was before the step (table, legal list, views, history), and play goes on from there.
    rng = random.Random(seed)
    g = Game.new(preset(HF), seed=seed)
    undo = TurnUndo()
    pictures: list[dict[str, Any]] = []  # beside each step the stack holds
    taken = 0
    for _ in range(600):
        if g.over:
            break
        if undo.can_undo and rng.random() < 0.3:
            g = undo.undo()
            assert picture(g) == pictures.pop()
            taken += 1
            continue
        before = picture(g)
        action = rng.choice(g.legal_actions())
        events = undo.step(g, action)
        if teaches(action, events):
            assert not undo.can_undo
            pictures.clear()
        else:
            pictures.append(before)
        assert len(undo) == len(pictures)
    assert taken
