"""The levels named for people: every level plays every preset at 2, 4 and 6 players.

The fast test plays the first turns of each table (the level in every seat of one team, the
casual bot in the others); the slow one plays whole rounds."""

from __future__ import annotations

import pytest

from handfoot.bots import BOTS, LEVELS, describe, make_bot
from handfoot.bots.base import ask
from handfoot.bots.levels import ExpertBot, StrongBot, fallback_note, shipped_tables
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset

FAST_LEVELS = ("beginner", "casual", "strong:worlds=2", "expert:ms=2,worlds=2,settle=0")


def play_some(level: str, rules_name: str, players: int, actions: int | None) -> Game:
    rules = preset(rules_name, players).replace(rounds=1)
    game = Game.new(rules, seed=players)
    bots = [make_bot(level if s % rules.teams == 0 else "casual", seed=s) for s in
            range(players)]
    n = 0
    while not game.over and (actions is None or n < actions):
        legal = game.legal_actions()
        action = ask(bots[game.actor], game)
        assert action in legal
        game.apply(action)
        n += 1
    return game


def test_levels_come_first_with_one_line_each_and_old_names_still_work() -> None:
    assert list(BOTS)[:4] == list(LEVELS) == ["beginner", "casual", "strong", "expert"]
    assert all("\n" not in describe(b) for b in LEVELS)
    assert make_bot("basic").name == make_bot("beginner").name == "basic"
    assert make_bot("heuristic").name == make_bot("casual").name == "heuristic"
    assert isinstance(make_bot("strong"), StrongBot)
    assert isinstance(make_bot("expert:ms=50"), ExpertBot)


def test_a_table_without_a_model_is_said_in_one_line() -> None:
    assert "hand-and-foot/4p" in shipped_tables()
    assert fallback_note("strong", preset("hand-and-foot", 4)) is None
    note = fallback_note("expert", preset("pennies-from-heaven", 5))
    assert note is not None and "no trained model" in note and "\n" not in note


def test_each_table_has_one_self_play_model_at_most() -> None:
    """A network trained for several tables records them all; no table is claimed by two
    self-play models, so which network plays there never rests on a file's name."""
    import json

    from handfoot.bots import network

    claimed: dict[str, str] = {}
    for path in network.shipped():
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if "value_scale" not in meta:
            continue  # the example MaskablePPO model: the policy bot's, ranked after these
        for t in meta["tables"]:
            key = f"{t['name']}/{t['players']}p"
            assert key not in claimed, f"{key}: {claimed[key]} and {path.name}"
            claimed[key] = path.name


# Every level and preset at two players in a development run; four and six in the full run.
@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow),
                                     pytest.param(6, marks=pytest.mark.slow)])
@pytest.mark.parametrize("level", FAST_LEVELS)
def test_every_level_starts_every_preset(level: str, players: int) -> None:
    for name in PRESET_NAMES:
        play_some(level, name, players, actions=4 * players)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("level", ["beginner", "casual", "strong", "expert:ms=10"])
def test_every_level_plays_a_whole_round(level: str, name: str, players: int) -> None:
    game = play_some(level, name, players, actions=None)
    assert game.over and len(game.results) == 1


def test_the_expert_weighs_the_networks_own_turn_first() -> None:
    """Where a model fits, the expert's first plan is the turn the network plays (what
    ``strong`` would play), followed as the network plays it: in a world and at the table."""
    from handfoot.bots.levels import NETWORK_PLAN
    from handfoot.views import view

    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=11)
    casual = make_bot("casual")
    while game.actor != 0 or len(game.legal_actions()) == 1:
        game.apply(ask(casual, game))
    expert = make_bot("expert:ms=0,worlds=2")
    strong = make_bot("strong")
    assert isinstance(expert, ExpertBot)
    v = view(game, 0)
    expert._prepare(rules)
    plans = expert._plans(v, game.legal_actions())
    assert plans[0] == NETWORK_PLAN and all(not p.network for p in plans[1:])
    world = game.clone()
    turn = expert.play_plan(NETWORK_PLAN, world, 0)
    replay = game.clone()
    for actor, action in turn:
        if actor == 0 and len(replay.legal_actions()) > 1:
            assert action == ask(strong, replay)
        replay.apply(action, actor)
    assert (turn and world.seat != 0) or world.over
    # At the table, a turn whose plan is the network's plays the network's moves.
    expert._plan = ((v.round_no, v.turns, 0), NETWORK_PLAN)
    assert ask(expert, game) == ask(strong, game)


def test_the_expert_with_net_replies_plays_the_other_seats_as_the_network() -> None:
    """``net_replies=1``: after the plan, the other seats' turns in a sampled world are the
    ones ``strong`` would play (a partner asked "may I go out?" answers as the heuristic);
    without it they are the heuristic's."""
    from handfoot.bots.levels import NETWORK_PLAN
    from handfoot.bots.plans import HEURISTIC, play_turn

    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=11)
    casual, strong = make_bot("casual"), make_bot("strong")
    while game.actor != 0 or len(game.legal_actions()) == 1:
        game.apply(ask(casual, game))
    for flag in (1, 0):
        expert = make_bot(f"expert:ms=0,worlds=2,net_replies={flag}")
        assert isinstance(expert, ExpertBot)
        expert._prepare(rules)
        world = game.clone(history=True)
        expert.play_plan(NETWORK_PLAN, world, 0)
        replies = world.clone(history=True)
        expert._reply(replies, 3)
        by_hand = world.clone(history=True)
        for _ in range(3):
            seat, turns = by_hand.seat, by_hand.turns
            if not flag:
                play_turn(expert.policy, HEURISTIC, by_hand, seat, expert.spread)
                continue
            while not by_hand.over and by_hand.turns == turns and by_hand.seat == seat:
                legal = by_hand.legal_actions()
                bot = strong if by_hand.actor == seat else expert.policy
                by_hand.apply(legal[0] if len(legal) == 1 else ask(bot, by_hand))
        assert replies.history == by_hand.history and len(replies.history) > \
            len(world.history)


def test_the_expert_with_netplans_weighs_the_networks_turn_with_one_choice_changed() -> None:
    """``netplans=3``: after the network's own turn come the same turn drawing the other way
    and the same turn throwing the network's second discard, each played as the network
    plays everything else; the plans stay within ``width``."""
    from handfoot.actions import Discard
    from handfoot.bots.levels import NETWORK_PLAN, NetworkRanker
    from handfoot.bots.plans import Plan
    from handfoot.state import Phase
    from handfoot.views import view

    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=1)
    casual, strong = make_bot("casual"), make_bot("strong")
    # A turn of seat 0 that may take the pile (its 9th): the draw is a real choice.
    while game.actor != 0 or game.phase is not Phase.DRAW or len(game.legal_actions()) == 1:
        assert not game.over
        game.apply(ask(casual, game))
    expert = make_bot("expert:ms=0,worlds=2,netplans=3")
    assert isinstance(expert, ExpertBot)
    expert._prepare(rules)
    legal = game.legal_actions()
    v = view(game, 0)
    plans = expert._plans(v, legal)
    own = ask(strong, game)
    others = [a for a in legal if a != own]
    assert plans[:len(others) + 2] == [NETWORK_PLAN, *(Plan(network=True, take=a)
                                                     for a in others),
                                       Plan(network=True, discard=1)]
    assert len(plans) == expert.width and not any(p.network for p in plans[len(others) + 2:])
    # Drawing the other way: the first move changes, the rest is the network's.
    world = game.clone(history=True)
    turn = expert.play_plan(plans[1], world, 0)
    assert turn[0] == (0, others[0])
    # The second discard: the network's moves, but the discard it ranks second.
    world = game.clone(history=True)
    turn = expert.play_plan(Plan(network=True, discard=1), world, 0)
    replay = game.clone()
    changed = 0
    for actor, action in turn:
        if actor == 0 and len(replay.legal_actions()) > 1:
            mine = ask(strong, replay)
            if isinstance(mine, Discard):
                discards = NetworkRanker(expert.net).rank(view(replay, 0), [
                    a for a in replay.legal_actions() if isinstance(a, Discard)])
                assert discards[0] == mine and action == discards[1]
                changed += 1
            else:
                assert action == mine
        replay.apply(action, actor)
    assert changed == 1
    # At the table, a turn whose plan draws the other way does so, then plays on as strong.
    expert._plan = ((v.round_no, v.turns, 0), plans[1])
    assert ask(expert, game) == others[0]


def test_the_expert_with_reply_0_values_a_plan_where_its_turn_ends() -> None:
    """``reply`` as the search's: 0 values a plan in a world as the turn ends, without the
    other seats' replies; by default they reply until the seat's own next turn."""
    from handfoot.views import view

    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=11)
    casual = make_bot("casual")
    while game.actor != 0 or len(game.legal_actions()) == 1:
        game.apply(ask(casual, game))
    for spec, next_seat in (("expert:ms=0,worlds=1,reply=0", 1), ("expert:ms=0,worlds=1", 0)):
        expert = make_bot(spec)
        assert isinstance(expert, ExpertBot)
        expert._prepare(rules)
        v = view(game, 0)
        world = game.clone()
        expert._plan_trial(v)(world, expert._plans(v, game.legal_actions())[0])
        assert world.over or world.seat == next_seat


def test_strong_and_expert_travel_without_their_network() -> None:
    import pickle

    rules = preset("hand-and-foot", 4).replace(rounds=1)
    game = Game.new(rules, seed=1)
    bots = [make_bot("strong"), make_bot("expert:ms=0,worlds=1,width=2")]
    for bot in bots:
        while game.actor != 0:
            game.apply(ask(make_bot("casual"), game))
        game.apply(ask(bot, game))
        size = len(pickle.dumps(bot))
        assert size < 50_000, size
        copy = pickle.loads(pickle.dumps(bot))
        assert ask(copy, game) in game.legal_actions()


# ====================================================================== where people meet them
def test_play_now_seats_the_strongest_level_measured_to_fit() -> None:
    from handfoot.bots.levels import (
        DECISION_P99_MS,
        PLAY_NOW_MS,
        model_for,
        play_now_level,
        table_kind,
    )

    for kind, figures in DECISION_P99_MS.items():
        name, _, players = kind.partition("/")
        rules = preset(name, int(players[:-1]))
        assert table_kind(rules) == kind
        level = play_now_level(rules)
        make_bot(level)  # a level a table may seat
        assert level == "casual" or figures[level] <= PLAY_NOW_MS
        # A network level only where a model fits the table.
        if model_for(rules) is None:
            assert level == "casual"
        # Nothing measured to fit is stronger than the pick.
        fitting = [lv for lv, ms in figures.items() if ms <= PLAY_NOW_MS]
        if model_for(rules) is not None:
            assert all(list(LEVELS).index(lv.partition(":")[0])
                       <= list(LEVELS).index(level.partition(":")[0]) for lv in fitting)
    # The game's length is not the table's kind; house rules and unmeasured tables are.
    rules = preset("hand-and-foot")
    assert play_now_level(rules.replace(rounds=1)) == play_now_level(rules)
    assert play_now_level(rules, 6) == play_now_level(preset("hand-and-foot", 6))
    assert table_kind(rules.replace(pile_take="whole")) is None
    assert play_now_level(rules.replace(pile_take="whole")) == "casual"
    assert play_now_level(preset("hand-and-foot-classic", 2)) == "expert:ms=75"
    assert play_now_level(preset("hand-and-foot", 3)) == "casual"  # no model
    assert play_now_level(preset("hand-knee-foot", 6)) == "expert:ms=75"
    # Where 75 ms of search measured over 100 ms at the 99th percentile, 50 ms is seated.
    assert play_now_level(preset("hand-and-foot-13")) == "expert:ms=50"
    assert play_now_level(preset("triple-play", 6)) == "expert:ms=50"


def test_the_network_ranks_what_strong_plays_first() -> None:
    from handfoot.bots.levels import NetworkRanker, model_for, ranker
    from handfoot.views import view

    rules = preset("hand-and-foot").replace(rounds=1)
    judge = ranker(rules)
    assert isinstance(judge, NetworkRanker) and judge.name == "strong"
    assert ranker(preset("hand-and-foot", 3)).name == "heuristic"  # no model for three
    game = Game.new(rules, seed=5)
    bots = [make_bot("casual", seed=s) for s in range(rules.players)]
    strong = make_bot("strong")
    checked = 0
    while not game.over and checked < 150:
        legal = game.legal_actions()
        if len(legal) > 1:
            scored = judge.scored(view(game, game.actor), legal)
            assert sorted(a.text for a, _ in scored) == sorted(a.text for a in legal)
            shares = [s for _, s in scored]
            assert shares == sorted(shares, reverse=True)
            assert abs(sum(shares) - 100.0) < 1e-3
            assert scored[0][0] == strong.choose(view(game, game.actor), legal)
            checked += 1
        game.apply(ask(bots[game.actor], game))
    assert checked > 100 and model_for(rules) is not None
