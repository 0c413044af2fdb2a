"""Determinized search over the turn's real choices, guided and played out by the heuristic.

Only the choices that decide a round are searched: the draw (stock or pile), the discard,
asking "may I go out?" and answering it.  Laying cards down is left to the heuristic: it is
almost never wrong and a short look-ahead cannot see why it would be.

For each decision the bot deals hidden worlds that agree with its view
(``views.sample_world``).  Every candidate (the heuristic's best few) is tried in the same
worlds (common random numbers, so the comparison sees the choice, not the deal), the heuristic
plays every seat on until this seat's next turn begins (or the round ends), and the position is
valued by ``evaluate.value``: a fitted prediction of the final round score difference.  The
heuristic's own choice keeps a head start (``margin`` points): search overrules it only on
evidence, which keeps the noise of a few worlds from throwing away good plays.  Discards are
candidates only when the heuristic rates them within ``spread`` of its favourite: measured,
letting a one-turn look-ahead overrule clear preferences (keep the wild cards, do not feed a
known pair) lost games, while breaking near-ties does not.

Budget: ``worlds=N`` worlds per decision (the same seed gives the same play), or ``ms=N``
milliseconds per decision (then how many worlds fit depends on the machine and its load, so
play is not reproducible).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..actions import Action, Add, Answer, Ask, Discard, Draw, Knock, Retract, Start, Stop, TakePile
from ..engine import Game
from ..state import DRAW
from ..views import SeatView, sample_world, view
from .evaluate import value
from .heuristic import HeuristicBot, _Context

_ASK = Ask()
_SEARCHED = (Draw, Stop, TakePile, Discard, Ask, Answer, Knock, Retract)


def _searched(a: Action) -> bool:
    return isinstance(a, _SEARCHED)


class SearchBot:
    name = "search"

    def __init__(self, seed: int = 0, ms: float = 0.0, worlds: int = 16, width: int = 4,
                 horizon: int = 1, margin: float = 40.0, spread: float = 100.0) -> None:
        self.rng = random.Random(f"search/{seed}")
        self.ms = float(ms)
        self.worlds = int(worlds)
        self.width = int(width)
        self.horizon = int(horizon)
        self.margin = float(margin)
        self.spread = float(spread)
        self.policy = HeuristicBot(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        ctx = _Context(view)
        scored = sorted(((self.policy.score(ctx, a), i, a) for i, a in enumerate(legal)),
                        key=lambda s: (-s[0], s[1]))
        ranked = [a for _, _, a in scored]
        top = scored[0][0]
        close = {a for sc, _, a in scored if not isinstance(a, Discard) or top - sc <= self.spread}
        if isinstance(ranked[0], Start | Add):
            return ranked[0]
        candidates = [a for a in ranked if _searched(a) and a in close][: self.width]
        if _ASK in legal and _ASK not in candidates:
            candidates.append(_ASK)
        if len(candidates) <= 1:
            return ranked[0]
        return candidates[self._search(view, candidates)]

    def _search(self, v: SeatView, candidates: list[Action]) -> int:
        """The index of the candidate with the best mean value (the first gets ``margin``)."""
        sums = [0.0] * len(candidates)
        deadline = time.perf_counter() + self.ms / 1000 if self.ms > 0 else None
        team = v.team
        worlds = 0
        while True:
            world = sample_world(v, self.rng)
            for i, action in enumerate(candidates):
                trial = world.clone()
                trial.apply(action)
                self._roll(trial, v.seat, v.round_no)
                sums[i] += value(trial, team, v.round_no)
            worlds += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif worlds >= self.worlds:
                break
        means = [s / worlds for s in sums]
        means[0] += self.margin
        return max(range(len(candidates)), key=lambda i: (means[i], -i))

    def _roll(self, g: Game, seat: int, round_no: int) -> None:
        """Heuristic play until ``seat``'s turn comes round ``horizon`` times, or the round ends."""
        turns_left = self.horizon
        was_mine = g.seat == seat
        policy = self.policy
        while not g.over and g.round_no == round_no:
            mine = g.seat == seat and g.phase == DRAW
            if mine and not was_mine:
                turns_left -= 1
                if turns_left <= 0:
                    return
            was_mine = g.seat == seat
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else policy.rank(view(g, g.actor), legal)[0])
