"""The replay review's turns, weighed by the expert (server/review.py,
``SearchBot.score_turn``): a turn played as the expert's plan loses nothing, a bad turn loses
points, and the same game gives the same review."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from handfoot.actions import Action, Discard
from handfoot.bots import make_bot
from handfoot.bots.base import play
from handfoot.cards import TWO
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.record import Record, Step, replay
from handfoot.server.review import review, review_turn, turn_reviewer
from handfoot.state import Phase
from handfoot.views import sample_world, view

WORLDS = 8
NAMES = ["Ann", "Bob", "Cy", "Di"]


def opening_position() -> Game:
    """Seat 0's fifth turn of a casual game (seed 6), just after its forced draw: its team
    has not opened, it holds a 2, and the heuristic opens with three melds."""
    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=6)
    bots = [make_bot("casual", seed=s) for s in range(4)]
    while not (game.seat == 0 and game.actor == 0 and game.turns == 4
               and game.phase is not Phase.DRAW):
        game.apply(bots[game.actor].choose(view(game, game.actor), game.legal_actions()))
    assert game.hands[0][TWO] and not game.opened[0]
    return game


def steps(game: Game, actions: Sequence[tuple[int, Action]]) -> list[Step]:
    return [Step(game.round_no, i, game.turns, actor, action, [])
            for i, (actor, action) in enumerate(actions)]


def test_the_turn_the_expert_plans_loses_nothing() -> None:
    game = opening_position()
    judge = turn_reviewer(game.rules, WORLDS)
    # Played as each plan the expert searches would play it: where the plan played is the
    # one the expert picks, the turn agrees, loses 0, and was valued in the very same worlds
    # (the same value to the point).
    picked = []
    for plan in judge._plans(view(game, 0), game.legal_actions()):
        actions = judge.play_plan(plan, game.clone(), 0)
        item = review_turn(game, 0, steps(game, actions), judge, NAMES, "test")
        assert item is not None
        if item["agrees"]:
            picked.append(plan)
            assert item["lost"] == 0 and item["values"][0] == item["values"][1]
            assert item["best"] == item["played"] and "why" not in item
        else:
            assert item["values"][0] >= item["values"][1] or item["lost"] == 0
    assert len(picked) == 1


def test_a_bad_turn_loses_points() -> None:
    """Throwing a wild card away instead of opening with three melds."""
    game = opening_position()
    judge = turn_reviewer(game.rules, WORLDS)
    bad = [(0, Discard(TWO))]
    item = review_turn(game, 0, steps(game, bad), judge, NAMES, "test", first=40)
    assert item is not None and not item["agrees"]
    assert item["played"] == "discard 2" and item["step"] == item["last"] == 40
    assert item["lost"] > 50, item  # the network: some 90 points at 8 worlds, 200 at 32
    # The expert's pick: the heuristic's opening or the network's own turn, said as such.
    assert item["best"] != item["played"]
    assert (item["best"].startswith("meld") and "then discard" in item["best"]) or \
        item["plan"] == "the network's own turn (what the strong bot plays)", item
    assert item["why"].startswith("the expert expects") and "8 worlds" in item["why"]
    assert item["says"] and "\n" not in item["says"]


def finished_game() -> tuple[Record, object]:
    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=4, history=True)
    play(game, [make_bot("beginner" if s == 0 else "casual", seed=s) for s in range(4)])
    record = Record.from_game(game, NAMES)
    return record, replay(record)


def test_the_review_is_reproducible_and_lists_the_turns_that_lost_most() -> None:
    record, outcome = finished_game()
    first = review(record, outcome, 0, worlds=WORLDS)
    again = review(record, replay(record), 0, worlds=WORLDS)
    assert first == again
    assert first["reviewer"] == "expert" and first["compared_with"] == "compared with the expert"
    assert first["worlds"] == WORLDS and "network's value" in first["valued_by"]
    turns = {t["step"]: t for t in first["turns"]}
    assert turns and first["not_reviewed"] == 0
    losing = sorted((t for t in turns.values() if t["lost"] > 0), key=lambda t: -t["lost"])
    assert first["turns_lost"] == len(losing) and first["lost"] == sum(t["lost"] for t in losing)
    assert [turns[s]["lost"] for s in first["biggest"]] == [t["lost"] for t in losing[:3]]
    for t in turns.values():
        assert t["step"] <= t["last"] and t["lost"] >= 0
        assert t["lost"] == 0 or (not t["agrees"] and t["values"][0] > t["values"][1])
        assert t.get("refused", 0) == 0  # the worlds hold what the turn drew
    # The single moves keep the strong bot's marks.
    assert first["moves_by"] == "strong" and first["decisions"]


@pytest.mark.parametrize("seed", [1, 2])
def test_worlds_with_hindsight_hold_the_cards_fixed(seed: int) -> None:
    import random

    game = opening_position()
    v = view(game, 0)
    top = list(reversed(game.stock))[:3]
    packets = [list(p) for p in game.packets[0]]
    rng = random.Random(seed)
    for _ in range(5):
        world = sample_world(v, rng, top, packets)
        assert list(reversed(world.stock))[:3] == top and world.packets[0] == packets
        assert len(world.stock) == len(game.stock)
        assert sorted(map(sum, world.hands)) == sorted(map(sum, game.hands))
    # Without hindsight the same generator deals as it always did.
    assert sample_world(v, random.Random(seed)).stock == \
        sample_world(v, random.Random(seed), (), None).stock
