"""The search bot plays legally, repeats itself under a world budget and keeps its time budget."""

from __future__ import annotations

import math
import subprocess
import sys
import types
from pathlib import Path

import pytest

from handfoot.actions import Add, Discard, Start, TakePile
from handfoot.bots import HeuristicBot, SearchBot, make_bot
from handfoot.bots.base import play
from handfoot.bots.evaluate import (
    FEATURES,
    WEIGHTS_KNEE,
    WEIGHTS_TWO,
    features,
    progress,
    sigma_for,
    value,
    win_chance,
)
from handfoot.bots.plans import HEURISTIC, Plan, act, candidates, play_turn
from handfoot.bots.search import _leader, settled
from handfoot.cards import JOKER, TWO, WILD_SLOT
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.views import SeatView, view


def searched_positions(name: str, seed: int, count: int) -> list[Game]:
    """Positions from heuristic play where the search bot really searches (a draw or discard
    with more than one candidate)."""
    rules = preset(name)
    g = Game.new(rules, seed=seed)
    bots = [HeuristicBot(seed=s) for s in range(rules.players)]
    found = []
    while not g.over and g.round_no == 1 and len(found) < count:
        legal = g.legal_actions()
        if sum(isinstance(a, Discard) for a in legal) >= 2 or \
                any(isinstance(a, TakePile) for a in legal):
            found.append(g.clone())
        g.apply(bots[g.actor].choose(view(g, g.actor), legal))
    assert len(found) == count
    return found


@pytest.mark.parametrize("name", ["hand-and-foot", "hand-knee-foot"])
def test_search_returns_a_legal_action(name: str) -> None:
    bot = SearchBot(seed=1, worlds=3)
    for g in searched_positions(name, 7, 6):
        legal = g.legal_actions()
        assert bot.choose(view(g, g.actor), legal) in legal


def test_search_is_deterministic_with_a_world_budget() -> None:
    positions = searched_positions("hand-and-foot", 11, 8)
    first = [SearchBot(seed=5, worlds=4).choose(view(g, g.actor), g.legal_actions())
             for g in positions]
    again = [SearchBot(seed=5, worlds=4).choose(view(g, g.actor), g.legal_actions())
             for g in positions]
    assert first == again


def test_search_keeps_a_small_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is checked between options and after each world: a clock that has run past
    the deadline by the first check ends the search within its first world, whatever the
    machine's load (a test timing the real clock failed on a busy machine)."""
    now = [0.0]
    reads = []

    def clock() -> float:
        reads.append(now[0])
        return now[0]

    monkeypatch.setattr("handfoot.bots.search.time", types.SimpleNamespace(perf_counter=clock))
    bot = SearchBot(seed=2, ms=20)
    worlds = []
    real_world = bot._world

    def counted(v: SeatView) -> Game:
        worlds.append(1)
        now[0] += 0.021  # each world takes past the whole budget
        return real_world(v)

    monkeypatch.setattr(bot, "_world", counted)
    for g in searched_positions("hand-knee-foot", 3, 5):
        searches, before = len(reads), len(worlds)
        action = bot.choose(view(g, g.actor), g.legal_actions())
        assert action in g.legal_actions()
        # Each search read the clock twice (its deadline, its one check) for its one world.
        assert len(worlds) - before == (len(reads) - searches) // 2
    assert worlds  # the positions were searched


def _timed_scores(monkeypatch: pytest.MonkeyPatch, ms: float, options: int,
                  each: float) -> list[list[float]]:
    """``SearchBot._scores`` with a clock that only trials move, ``each`` seconds a trial
    (option ``i`` is worth ``i``, so the last is the best wherever it was valued)."""
    now = [0.0]
    monkeypatch.setattr("handfoot.bots.search.time",
                        types.SimpleNamespace(perf_counter=lambda: now[0]))
    g = Game.new(preset("hand-and-foot"), seed=1)

    def trial(world: Game, option: int) -> float:
        now[0] += each
        return float(option)

    bot = SearchBot(seed=1, ms=ms, settle=0)
    return bot._scores(view(g, 0), list(range(options)), trial, lambda: g)


def test_a_world_the_budget_runs_out_in_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option is valued in the same worlds: a world cut short by the deadline counts
    for none of them, and the decision overruns its budget by one option's play at most."""
    # 30 ms, three options of 6 ms: the first world ends at 18 ms, the second is cut at 30.
    scores = _timed_scores(monkeypatch, ms=30, options=3, each=0.006)
    assert scores == [[0.0], [1.0], [2.0]]


def test_no_world_within_the_budget_plays_the_first_option(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A world longer than the whole budget is not finished: the search's prior, the first
    option (the heuristic's plan, or the expert's network turn), is played."""
    scores = _timed_scores(monkeypatch, ms=10, options=3, each=0.008)
    assert scores == [[], [], []]
    assert _leader(scores, 0.0)[0] == 0


def test_search_parses_its_options() -> None:
    bot = make_bot("search:ms=50,width=3", seed=4)
    assert isinstance(bot, SearchBot)
    assert bot.ms == 50.0 and bot.width == 3


@pytest.mark.parametrize("name", ["hand-and-foot",
                                  pytest.param("hand-knee-foot", marks=pytest.mark.slow)])
def test_search_plays_a_full_round(name: str) -> None:
    rules = preset(name)
    g = Game.new(rules, seed=21)
    bots = [SearchBot(seed=s, worlds=2) if s % 2 == 0 else HeuristicBot(seed=s)
            for s in range(rules.players)]
    play(g, bots, until_round_end=True)
    assert len(g.results) == 1
    assert g.results[0].ended_by in ("went_out", "stock_out", "turn_cap")


def test_a_finished_round_is_valued_at_its_score() -> None:
    rules = preset("hand-and-foot")
    g = Game.new(rules, seed=8)
    play(g, [HeuristicBot(seed=s) for s in range(rules.players)], until_round_end=True)
    teams = g.results[0].teams
    assert value(g, 0, 1) == teams[0].total - teams[1].total
    assert value(g, 1, 1) == -value(g, 0, 1)


def test_the_evaluation_is_antisymmetric_mid_round() -> None:
    rules = preset("hand-knee-foot")
    g = Game.new(rules, seed=9)
    for _ in range(40):
        g.apply(g.legal_actions()[0])
    assert len(features(g, 0)) == len(FEATURES) == len(WEIGHTS_TWO) == len(WEIGHTS_KNEE)
    assert value(g, 0, 1) == pytest.approx(-value(g, 1, 1))


@pytest.mark.parametrize("name", ["hand-and-foot", "hand-knee-foot"])
def test_the_heuristic_plan_plays_as_the_heuristic(name: str) -> None:
    policy = HeuristicBot(seed=0)
    for g in searched_positions(name, 13, 6):
        v = view(g, g.actor)
        legal = g.legal_actions()
        plans = candidates(policy, v, legal, 100.0)
        assert plans[0] == HEURISTIC and len(set(plans)) == len(plans)
        assert act(policy, HEURISTIC, v, legal, 100.0) == policy.choose(v, legal)


def test_a_plan_is_played_to_the_end_of_the_turn() -> None:
    g = searched_positions("hand-and-foot", 17, 1)[0]
    seat, turns = g.seat, g.turns
    play_turn(HeuristicBot(seed=0), Plan(save_wilds=True), g, seat, 100.0)
    assert g.over or g.results or (g.turns == turns + 1 and g.seat != seat)


def test_saving_wild_cards_keeps_them_off_rank_melds() -> None:
    plan = Plan(save_wilds=True)
    policy = HeuristicBot(seed=0)
    for g in searched_positions("hand-knee-foot", 19, 6):
        v = view(g, g.actor)
        a = act(policy, plan, v, g.legal_actions(), 100.0)
        assert not (isinstance(a, Add) and a.slot != WILD_SLOT and a.kind in (TWO, JOKER))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_search_looks_ahead_to_its_seats_next_turn_by_default(players: int) -> None:
    rules = preset("hand-and-foot", players)
    g = Game.new(rules, seed=23)
    v = view(g, g.actor)
    assert SearchBot(seed=0)._replies(v) == players - 1
    assert SearchBot(seed=0, reply=1)._replies(v) == 1


def test_the_replies_bring_a_plan_back_to_the_seats_next_turn() -> None:
    g = searched_positions("hand-and-foot", 29, 1)[0]
    seat, turns = g.seat, g.turns
    bot = SearchBot(seed=0)
    play_turn(bot.policy, HEURISTIC, g, seat, 100.0)
    bot._reply(g, bot._replies(view(g, seat)))
    assert g.over or g.results or (g.seat == seat and g.turns == turns + g.rules.players)


def test_the_third_discard_is_a_plan_when_asked_for() -> None:
    policy = HeuristicBot(seed=0)
    g = searched_positions("hand-and-foot", 31, 1)[0]
    v = view(g, g.actor)
    assert Plan(discard=2) in candidates(policy, v, g.legal_actions(), 100.0, 16)
    assert Plan(discard=2) not in candidates(policy, v, g.legal_actions(), 100.0, 15)


def test_a_lead_counts_for_more_as_the_stock_runs_down() -> None:
    """The outcome's spread around the evaluation narrows as the round goes on (fitted), so the
    same predicted lead is a surer win late than at the deal."""
    for name in ("hand-and-foot", "hand-knee-foot"):
        rules = preset(name)
        assert sigma_for(rules, 1.0) < sigma_for(rules, 0.5) < sigma_for(rules, 0.0)
    rules = preset("hand-knee-foot")
    g = Game.new(rules, seed=37)
    bots = [HeuristicBot(seed=s) for s in range(rules.players)]
    while g.turns < 30:
        g.apply(bots[g.actor].choose(view(g, g.actor), g.legal_actions()))
    late = progress(g)
    assert 0 < late < 1
    lead = value(g, 0, 1)
    chance = 0.5 * (1 + math.erf(lead / (sigma_for(rules, late) * math.sqrt(2))))
    assert win_chance(g, 0, 1) == pytest.approx(chance)
    assert abs(chance - 0.5) > abs(0.5 * (1 + math.erf(lead / (sigma_for(rules) * math.sqrt(2))))
                                   - 0.5)


def test_holding_back_starts_no_new_rank_meld() -> None:
    plan = Plan(hold=True)
    policy = HeuristicBot(seed=0)
    seen = 0
    for g in searched_positions("hand-knee-foot", 41, 12):
        v = view(g, g.actor)
        if not v.teams[v.team].opened:
            continue
        seen += 1
        assert plan in candidates(policy, v, g.legal_actions(), 100.0, 32)
        while g.actor == v.seat and g.seat == v.seat and not g.results:
            legal = g.legal_actions()
            a = act(policy, plan, view(g, g.actor), legal, 100.0)
            assert not (isinstance(a, Start) and a.slot != WILD_SLOT)
            g.apply(a)
            if isinstance(a, Discard):
                break
    assert seen


def test_holding_back_is_a_plan_only_where_rank_canastas_pay() -> None:
    policy = HeuristicBot(seed=0)
    for g in searched_positions("hand-and-foot", 43, 12):
        v = view(g, g.actor)
        assert Plan(hold=True) not in candidates(policy, v, g.legal_actions(), 100.0)


def test_a_clear_lead_is_settled_and_a_close_one_is_not() -> None:
    worlds = 64
    noise = [((i * 37) % 11 - 5) / 100 for i in range(worlds)]
    leader = [0.6 + e for e in noise]
    assert settled([leader, [0.4 + e for e in noise]])  # ahead in every world
    close = [0.59 + e + (0.1 if i % 2 else -0.1) for i, e in enumerate(noise)]
    assert not settled([leader, close])
    # An option that plays exactly as the leader in every world is the same plan in effect.
    assert settled([leader, list(leader), [0.1] * worlds])
    # The heuristic's head start (the first option's margin) counts: it narrows the other's lead.
    rival = [[0.55] * worlds, [0.58 + e for e in noise]]
    assert settled(rival)
    assert not settled(rival, head_start=0.025)


def test_a_long_budget_stops_when_the_choice_is_settled() -> None:
    class Counting(SearchBot):
        worlds_seen = 0

        def _world(self, v: SeatView) -> Game:
            self.worlds_seen += 1
            return super()._world(v)

    g = searched_positions("hand-and-foot", 11, 1)[0]
    bot = Counting(seed=3, ms=60_000)
    bot.choose(view(g, g.actor), g.legal_actions())
    # A minute's budget holds thousands of worlds; the settled choice stops at a checkpoint.
    assert 64 <= bot.worlds_seen < 1000 and bot.worlds_seen % 16 == 0


def test_pairs_of_changes_are_plans_when_asked_for() -> None:
    policy = HeuristicBot(seed=0)
    seen = 0
    for g in searched_positions("hand-knee-foot", 41, 12):
        v, legal = view(g, g.actor), g.legal_actions()
        singles = candidates(policy, v, legal, 100.0, 47)
        both = candidates(policy, v, legal, 100.0, 47 | 64)
        assert both[: len(singles)] == singles
        for plan in both[len(singles):]:
            seen += 1
            changed = [plan.take is not None, plan.discard > 0, plan.save_wilds,
                       not plan.go_out, plan.hold]
            assert sum(changed) == 2  # two changes, never two draws or two discards
        assert len(set(both)) == len(both)
    assert seen


def test_a_long_time_budget_searches_more_plans() -> None:
    short, long = SearchBot(ms=50), SearchBot(ms=1000)
    assert (short.variants, short.width) == (47, 6)
    assert long.variants & 64 and long.width > short.width
    # Options given explicitly are kept whatever the budget.
    assert SearchBot(ms=1000, variants=15, width=4).variants == 15
    assert SearchBot(ms=1000, variants=15, width=4).width == 4


def test_the_budget_agreement_benchmark_runs() -> None:
    """benchmarks/search_agreement.py (docs/BOTS.md) keeps working with the search it measures."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "search_agreement.py"
    out = subprocess.run(
        [sys.executable, str(script), "--rules", "hand-and-foot", "--positions", "3",
         "--short", "2", "--long", "3", "--judge", "2"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    assert "hand-and-foot: 3 positions" in out
    assert "short against long (3 worlds, pairs of changes): choices differ in" in out
    assert "the short choice against the heuristic's own plan" in out


@pytest.mark.slow
def test_the_plan_outcomes_benchmark_runs() -> None:
    """benchmarks/plan_outcomes.py (docs/BOTS.md) keeps working with the evaluation it measures."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "plan_outcomes.py"
    out = subprocess.run(
        [sys.executable, str(script), "--rules", "hand-and-foot", "--deals", "3", "--futures", "4",
         "--jobs", "1"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    assert "hand-and-foot: 3 deals" in out
    assert "between plans in the same world:" in out
    assert "the position after the replies decides" in out
    assert "the current weights see" in out
    assert "and weights that change with the stage, fitted to the mean of the futures:" in out
    assert "against the evaluation's choice" in out
    assert "played out 2 times in each world (6 rounds a plan):" in out
