"""Determinized search over whole-turn plans, valued by the fitted evaluation a round later.

At its turn's first real choice the bot builds a few plans (``plans.candidates``): the
heuristic's own turn, and turns that change one of its real choices (``variants``, a bit set: 1
take the pile or draw the other way, 2 throw its second discard, 4 keep the wild cards off rank
melds, 8 do not go out this turn, 16 throw its third discard, 32 start no new rank meld (in
games with rank canastas), 64 every pair of those changes; default 47, and 111 with a time
budget of at least ``WIDE_MS``, where ``width``, the most plans searched, goes from 6 to 16).
Each plan is played to the end of the turn in the same sampled worlds (``views.sample_world``;
common random numbers, so the comparison sees the plan, not the deal); then the other seats
play their turns as the heuristic would until the seat's own next turn (``reply``, default
players - 1), so the plan meets its consequences: the pile it fed, the canasta it left to be
finished, the round it let the opponents end. The position is valued by ``evaluate.value``, a
fitted prediction of the final round score difference, turned into a chance to win the round
(``evaluate.win_chance``, whose spread narrows as the stock runs down; ``win=0`` maximises the
expected difference instead). ``margin`` (points, default 0) gives the heuristic's plan a head
start. The chosen plan is then followed for the rest of the turn. Answering "may I go out?" is
searched the same way: the asking partner's turn is played out after each answer, then the
replies (``answer_reply=0`` stops at the asker's turn).

Budget: ``worlds=N`` worlds per decision (the same seed gives the same play), or ``ms=N``
milliseconds per decision (then how many worlds fit depends on the machine and its load, so
play is not reproducible). A time budget is a limit, not a quota: from ``settle`` worlds on
(default 64, checked every 16) the search stops as soon as the choice is settled, the leader
ahead of every other option by three standard errors of their paired difference or playing
exactly as it does; a clear choice then costs a fraction of a long budget, and a close one gets
all of it. ``settle=0`` always spends the whole budget. The time is checked between options
too: a world the budget runs out in is dropped, so a decision overruns its budget by at most
one option's play in one world; when not even the first world finished, the first option (the
heuristic's plan, or the expert's network turn) is played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..actions import Action, Answer
from ..engine import Game
from ..views import SeatView, ViewError, sample_world
from .evaluate import sigma_for, value, win_chance
from .heuristic import HeuristicBot
from .plans import HEURISTIC, PAIRS, VARIANTS, Plan, act, candidates, play_turn

T = TypeVar("T")

WIDE_MS = 250.0  # from this time budget on, the default plans include pairs of changes


class SearchBot:
    name = "search"

    def __init__(self, seed: int = 0, ms: float = 0.0, worlds: int = 16, width: int = -1,
                 margin: float = 0.0, spread: float = 100.0, variants: int = -1,
                 win: int = 1, reply: int = -1,
                 answer_reply: int = 1, settle: int = 64) -> None:
        self.rng = random.Random(f"search/{seed}")
        self.ms = float(ms)
        self.worlds = int(worlds)
        # A long time budget also searches pairs of changes: more plans need more worlds.
        wide = self.ms >= WIDE_MS
        self.width = int(width) if width >= 0 else 16 if wide else 6
        self.margin = float(margin)
        self.spread = float(spread)
        self.variants = (int(variants) if variants >= 0
                         else VARIANTS | PAIRS if wide else VARIANTS)
        self.win = bool(win)
        self.reply = int(reply)
        self.answer_reply = bool(answer_reply)
        self.settle = int(settle)
        self.policy = HeuristicBot(seed)
        self._plan: tuple[tuple[int, int, int], Plan] | None = None

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        key = (view.round_no, view.turns, view.seat)
        if view.turn == view.seat and view.actor == view.seat:
            # The turn's first real choice (often after a forced draw) picks the plan.
            if self._plan is None or self._plan[0] != key:
                self._plan = (key, self._choose_plan(view, legal))
            return act(self.policy, self._plan[1], view, legal, self.spread)
        answers: list[Action] = [a for a in legal if isinstance(a, Answer)]
        if len(answers) == 2:
            return self._choose_answer(view, answers)
        return self.policy.rank(view, legal)[0]

    def _plans(self, v: SeatView, legal: Sequence[Action]) -> list[Plan]:
        """The plans searched at the turn's first real choice, the heuristic's own first."""
        return candidates(self.policy, v, legal, self.spread, self.variants)[: self.width]

    def _choose_plan(self, v: SeatView, legal: Sequence[Action]) -> Plan:
        plans = self._plans(v, legal)
        if len(plans) == 1:
            return plans[0]
        try:
            return plans[self._search(v, plans, self._plan_trial(v))]
        except ViewError:
            # No world fits the view (a scenario dealt from part of a shoe): the heuristic's
            # own plan, which needs none.
            return plans[0]

    def _plan_trial(self, v: SeatView) -> Callable[[Game, Plan], None]:
        """Playing a plan in a world: the seat's turn under the plan, then the replies."""
        seat = v.seat
        replies = self._replies(v)

        def trial(world: Game, plan: Plan) -> None:
            self.play_plan(plan, world, seat)
            self._reply(world, replies)

        return trial

    def play_plan(self, plan: Plan, g: Game, seat: int) -> list[tuple[int, Action]]:
        """Play ``seat``'s turn in ``g`` to its end under ``plan``; the actions played."""
        return play_turn(self.policy, plan, g, seat, self.spread)

    def _choose_answer(self, v: SeatView, answers: list[Action]) -> Action:
        first = self.policy.rank(v, answers)[0]
        ordered = [first] + [a for a in answers if a != first]
        asker, policy, spread = v.turn, self.policy, self.spread
        replies = self._replies(v) if self.answer_reply else 0

        def trial(world: Game, answer: Action) -> None:
            world.apply(answer)
            play_turn(policy, HEURISTIC, world, asker, spread)
            self._reply(world, replies)

        try:
            return ordered[self._search(v, ordered, trial)]
        except ViewError:
            return ordered[0]  # no world fits the view: the heuristic's answer

    def _world(self, v: SeatView) -> Game:
        """One world consistent with what the seat sees."""
        return sample_world(v, self.rng)

    def _replies(self, v: SeatView) -> int:
        """How many turns the other seats play after a plan: by default until the seat's own
        next turn."""
        return v.rules.players - 1 if self.reply < 0 else self.reply

    def _reply(self, world: Game, turns: int) -> None:
        """The seats after the plan's turn play ``turns`` turns (``_reply_turn`` each)."""
        round_no = world.round_no
        for _ in range(turns):
            if world.over or world.round_no != round_no:
                return
            self._reply_turn(world)

    def _reply_turn(self, world: Game) -> None:
        """The turn seat's turn in a sampled world after the plan: as the heuristic would."""
        play_turn(self.policy, HEURISTIC, world, world.seat, self.spread)

    def _leaf(self, g: Game, v: SeatView) -> float:
        """Where an option led in a world, for the seat's team (higher is better)."""
        return (win_chance if self.win else value)(g, v.team, v.round_no)

    def _leaf_win(self) -> bool:
        """Whether ``_leaf`` is a chance to win (the margin is then scaled to one)."""
        return self.win

    def _head_start(self, v: SeatView) -> float:
        # The margin is in points; as a win chance, the slope of the normal at an even round.
        return self.margin * (0.4 / sigma_for(v.rules) if self._leaf_win() else 1.0)

    def _search(self, v: SeatView, options: list[T], trial: Callable[[Game, T], None]) -> int:
        """The index of the option with the best mean value (the first gets ``margin``)."""
        return _leader(self._scores(v, options, trial), self._head_start(v))[0]

    def _scores(self, v: SeatView, options: list[T],
                trial: Callable[[Game, T], float | None],
                world_for: Callable[[], Game] | None = None) -> list[list[float]]:
        """Every option's value in each world sampled (the same worlds for all), within the
        budget; ``world_for`` samples them instead of ``_world``.  A trial may give the value
        itself (it knows it already), else ``_leaf`` values where it led."""
        scores: list[list[float]] = [[] for _ in options]
        deadline = time.perf_counter() + self.ms / 1000 if self.ms > 0 else None
        head_start = self._head_start(v)
        worlds = 0
        while True:
            world = self._world(v) if world_for is None else world_for()
            for i, option in enumerate(options):
                if deadline is not None and i and time.perf_counter() >= deadline:
                    # Out of time inside a world: it is dropped (every option must be valued
                    # in the same worlds), so one long world costs a decision at most one
                    # option's play past its budget, not the whole world's.
                    return [s[:worlds] for s in scores]
                g = world.clone()
                known = trial(g, option)
                scores[i].append(self._leaf(g, v) if known is None else known)
            worlds += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
                if (self.settle and worlds >= self.settle and worlds % 16 == 0
                        and settled(scores, head_start)):
                    break
            elif worlds >= self.worlds:
                break
        return scores

    def score_turn(self, v: SeatView, legal: Sequence[Action],
                   played: Sequence[tuple[int, Action]],
                   world_for: Callable[[], Game] | None = None) -> TurnScores:
        """A turn already played, scored against this bot's plans for it: at the turn's first
        real choice (``v``, ``legal``), every plan the bot would search and ``played`` (the
        turn's actions from there, as (actor, action) pairs) are played out in the same
        worlds, each followed by the same replies and valued by ``_leaf``; the bot's plan is
        the one it would pick from those scores.  A recorded action the world refuses (it
        dealt other cards: ``world_for`` should hold the cards the turn saw) ends the turn as
        the heuristic would play it, and is counted.  Worlds as the budget says (``worlds``
        with ``ms=0``: the same seed gives the same scores)."""
        plans = self._plans(v, legal)
        replies = self._replies(v)
        seat, policy, spread = v.seat, self.policy, self.spread
        refused = [0]
        # Options that play the very same turn in a world lead to the same place: valued once
        # per world (plans often coincide, and a good turn played is one of them).
        seen: dict[tuple[str, ...], float] = {}

        def sample() -> Game:
            seen.clear()
            return self._world(v) if world_for is None else world_for()

        def follow(world: Game, actions: Sequence[tuple[int, Action]]) -> None:
            for actor, action in actions:
                if world.over or not world.can(action, actor):
                    refused[0] += 1
                    play_turn(policy, HEURISTIC, world, seat, spread)
                    return
                world.apply(action, actor)

        def trial(world: Game, option: Plan | Sequence[tuple[int, Action]]) -> float:
            if isinstance(option, Plan):
                turn = self.play_plan(option, world, seat)
            else:
                refusals = refused[0]
                follow(world, option)
                turn = list(option) if refused[0] == refusals else [(-1, option[0][1])]
            key = tuple(f"{actor} {action.text}" for actor, action in turn)
            if key not in seen:
                self._reply(world, replies)
                seen[key] = self._leaf(world, v)
            return seen[key]

        options: list[Plan | Sequence[tuple[int, Action]]] = [*plans, played]
        scores = self._scores(v, options, trial, sample)
        best = _leader(scores[:-1], self._head_start(v))[0]
        n = len(scores[-1])
        return TurnScores(plans, best, [sum(s) / max(n, 1) for s in scores], n, refused[0])


@dataclass(frozen=True, slots=True)
class TurnScores:
    """``SearchBot.score_turn``'s answer: the plans, the one the bot picks, the mean value of
    each plan and of the played turn over ``worlds`` worlds (``refused`` times a world refused
    a recorded action)."""

    plans: list[Plan]
    best: int
    means: list[float]  # each plan's, then the played turn's
    worlds: int
    refused: int

    @property
    def played(self) -> float:
        return self.means[-1]


def _leader(scores: Sequence[Sequence[float]], head_start: float) -> tuple[int, list[float]]:
    """The option with the best mean (the first gets ``head_start``; ties go to the earlier
    option), and every option's mean."""
    n = len(scores[0])
    if not n:
        # No world finished within the budget: the first option, the search's prior.
        return 0, [head_start if i == 0 else 0.0 for i in range(len(scores))]
    means = [sum(s) / n + (head_start if i == 0 else 0.0) for i, s in enumerate(scores)]
    return max(range(len(scores)), key=lambda i: (means[i], -i)), means


def settled(scores: Sequence[Sequence[float]], head_start: float = 0.0, z: float = 3.0) -> bool:
    """Whether more worlds would hardly change the choice: the leader beats every other option
    by ``z`` standard errors of their paired differences (the same worlds), or plays exactly as
    it does in every world so far (the same plan in effect)."""
    n = len(scores[0])
    lead, means = _leader(scores, head_start)
    for j, other in enumerate(scores):
        if j == lead:
            continue
        diffs = [a - b for a, b in zip(scores[lead], other, strict=True)]
        if not any(diffs):
            continue
        raw = sum(diffs) / n
        var = sum((d - raw) ** 2 for d in diffs) / (n - 1)
        mean = means[lead] - means[j]
        if mean <= 0 or mean * mean * n <= z * z * var:
            return False
    return True
