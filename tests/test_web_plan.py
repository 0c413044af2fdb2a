"""The browser tests' planning (tests/web_helpers.py) without a browser: what the heuristic bot
would do, turned into moves the page can make.  Fast, so the fast suite keeps it honest."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from handfoot.bots.heuristic import HeuristicBot
from handfoot.presets import house_rules
from handfoot.state import Phase
from handfoot.views import view
from scenario import game, play
from web_helpers import next_unit, plan_game

SMALL = house_rules("hand-and-foot", {"packets": [6, 6]})


def test_6_3_a_short_pile_opening_is_taken_back_at_once_as_the_page_does() -> None:
    # Three jacks and a jack on top look like 50 to the bot, but the take lays J J J (30) and
    # one jack is left to add (40, short of 50).  The engine lets the bot add it step by step
    # and then take it all back (6.3); the page sends only lay-downs, each checked as a whole
    # against the minimum (6.1), so a person takes the opening back at once.
    g = game(SMALL, "J J J 4 4 A | 5 6 7 8 9 Q", pile="6 J")
    play(g, ["take-pile"])
    assert g.phase is Phase.PILE_OPENING and g.staged == 30
    bot = HeuristicBot(seed=7)
    assert bot.choose(view(g, 0), g.legal_actions()).text == "add J: J"
    assert g.refusal("lay J") == ("6.1", "this opening counts 40 points; round 1 needs 50")
    steps = plan_game(g, 0, bot)
    assert steps == ["retract", "draw"] and next_unit(steps) == ["retract"]
    assert g.refusal("retract") is None


def test_6_1_a_whole_opening_is_one_lay_down() -> None:
    # Where the pile opening can be made, its melds stay in the plan and go down together.
    g = game(SMALL, "J J J 4 4 4 | 5 6 7 8 9 Q", pile="6 J")
    play(g, ["take-pile"])
    unit = next_unit(plan_game(g, 0, HeuristicBot(seed=7)))
    assert unit and all(s.startswith(("meld ", "add ")) for s in unit)
    play(g, ["lay " + ", ".join(s.split(" ", 1)[1] for s in unit)])
    assert g.opened[0]
