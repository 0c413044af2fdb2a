"""The hint is a whole step the engine accepts as it stands (issue 25): before the opening the
whole lay-down that reaches the minimum, or a step that is not a meld; never a single meld
that a lay-down of its own would have refused under 6.1, so following a hint never loops."""

from __future__ import annotations

import random

import pytest

from handfoot.actions import Add, LayDown, Start, parse_action
from handfoot.bots.base import ask
from handfoot.bots.heuristic import HeuristicBot
from handfoot.bots.hint import hint, hint_words, hinter
from handfoot.bots.levels import NetworkRanker
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.state import Phase


def _positions(rules_name: str, wanted: int, seed: int,
               players: int | None = None) -> tuple[list[Game], list[Game]]:
    """Seeded positions where a seat is to meld, ``wanted`` with its team not yet opened and
    ``wanted`` opened, taken from games the heuristic bot plays."""
    rules = preset(rules_name, players)
    rng = random.Random(seed)
    bots = [HeuristicBot(seed=s) for s in range(rules.players)]
    before: list[Game] = []
    after: list[Game] = []
    game_seed = seed
    while len(before) < wanted or len(after) < wanted:
        g = Game.new(rules, seed=game_seed, history=False)
        game_seed += 1
        while not g.over and g.round_no <= 2:
            if g.phase in (Phase.MELD, Phase.PILE_OPENING) and rng.random() < 0.7:
                into = after if g.opened[g.team_of(g.actor)] else before
                if len(into) < wanted:
                    into.append(g.clone())
            if len(before) >= wanted and len(after) >= wanted:
                break
            g.apply(ask(bots[g.actor], g))
    return before, after


def _check(games: list[Game]) -> int:
    """Every hint is accepted; returns how many were lay-downs."""
    lays = 0
    for g in games:
        seat = g.actor
        best = hint(g, seat)
        assert best is not None
        assert g.refusal(best, seat) is None, (best.text, g)
        # The page and the terminal send the hint's text as it stands.
        assert g.refusal(parse_action(best.text), seat) is None
        if not g.opened[g.team_of(seat)]:
            # Before the opening a meld step never stands alone.
            assert not isinstance(best, (Start, Add)), best.text
        lays += isinstance(best, LayDown)
        g.apply(best, seat)
    return lays


def test_hints_are_accepted_before_and_after_the_opening() -> None:
    # hand-and-foot with four players has a shipped model: the hints are the strong bot's.
    assert isinstance(hinter(preset("hand-and-foot"))[0], NetworkRanker)
    before, after = _positions("hand-and-foot", 200, seed=1)
    # Some hints before the opening are whole openings, not only draws and discards.
    assert _check(before) > 0
    _check(after)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ["hand-and-foot-13", "hand-knee-foot", "triple-play",
                                        "hand-knee-foot-club", "pennies-from-heaven"])
def test_hints_are_accepted_under_every_preset(rules_name: str) -> None:
    before, after = _positions(rules_name, 500, seed=7)
    _check(before)
    _check(after)


@pytest.mark.parametrize(("rules_name", "players", "by"), [
    ("hand-knee-foot", 4, "strong"), ("hand-and-foot", 6, "strong"),
    ("hand-and-foot", 2, "strong"), ("hand-and-foot", 3, "heuristic")])
def test_hints_come_from_the_strongest_bot_the_table_allows(rules_name: str, players: int,
                                                          by: str) -> None:
    """The network where a model fits the table (the knee game; hand-and-foot for six and for
    two), the heuristic where none does (three players); accepted either way, and the words
    name the bot."""
    rules = preset(rules_name, players)
    assert hinter(rules)[1] == by
    before, after = _positions(rules_name, 60, seed=11, players=players)
    _check(before)
    _check(after)
    g = after[0]
    best, text = hint_words(g, g.actor)
    assert best is not None and text == f"the {by} bot would {best.text}"
    assert hint_words(g, (g.actor + 1) % players) == (None, "nothing to do: it is not your move")


def test_nothing_to_hint_when_it_is_not_the_seats_move() -> None:
    g = Game.new(preset("hand-and-foot"), seed=3)
    assert hint(g, (g.actor + 1) % g.rules.players) is None
