"""Levels named for people: ``beginner``, ``casual``, ``strong`` and ``expert``.

``beginner`` is the basic bot and ``casual`` the heuristic.  ``strong`` plays the trained
network shipped for the table alone (one forward pass a decision); ``expert`` puts that network
inside the search: the network's own turn (what ``strong`` would play) is the first plan, the
policy orders the heuristic's whole-turn plans after it (the search keeps the ``width`` it
prefers), and the network's value, not the linear fit, scores where each plan leads in every
sampled world, within a time budget (``ms``, default 100).  So the search changes the
network's turn only where another plan scores better in the same worlds (``margin``: points of
head start the network's turn gets, default 0).

Where no model was shipped for the table (or NumPy is missing), a player still gets a bot at
the level's strength class rather than an error in the middle of a game: ``strong`` plays as
``search`` (16 worlds a decision) and ``expert`` as the search with the linear evaluation at its
own time budget.  ``fallback_note`` says so in one line, and docs/BOTS.md lists the tables
that have models.  ``strong:path=FILE`` / ``expert:path=FILE`` name a model explicitly: that
one is never replaced, and a table it was not made for is refused as the policy bot refuses.

Where people meet the levels: ``play_now_level`` names the level a Play-now table seats (the
strongest whose decisions were measured to fit ``PLAY_NOW_MS`` at the 99th percentile on one
core, from ``DECISION_P99_MS``), and ``ranker`` the bot that ranks every legal action for a hint
and a replay's review (the network where one fits the table, else the heuristic).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action, Discard
from ..engine import Game
from ..rules import Rules
from ..state import Phase
from ..views import SeatView, view
from . import network
from .base import BotError
from .evaluate import going_out_points
from .evaluate import value as linear_value
from .heuristic import HeuristicBot
from .plans import HEURISTIC, Plan, act, candidates, draws, play_turn
from .policy import PolicyBot
from .search import SearchBot, TurnScores

# One line each, weakest first: what a person picks from (``--bots``, the terminal game, the
# web table's setup).
LEVELS: dict[str, str] = {
    "beginner": "plays the obvious move; easy to beat (the basic bot)",
    "casual": "a sound club player's rules of thumb, instantly (the heuristic bot)",
    "strong": "a network trained by self-play, instantly (search where no model fits the table)",
    "expert": "the network inside a look-ahead search, about 0.1 s a move",
}
# The bot each level was called before (``basic``, ``heuristic`` keep working as names).
OLD_NAMES = {"beginner": "basic", "casual": "heuristic"}


def model_for(rules: Rules) -> Any | None:
    """The shipped network for this table, or None (no model fits it, or NumPy is missing)."""
    from .policy import _cached, _installed

    if not _installed("numpy"):
        return None
    import json

    # Models trained by self-play (handfoot train: they record ``value_scale``, the unit of
    # their value network) come first; else any model shipped for the table.
    fits = []
    for path in network.shipped():
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        try:
            network.check_table(meta, rules, path.stem)
        except network.ModelError:
            continue
        fits.append((0 if "value_scale" in meta else 1, path))
    if not fits:
        return None
    path = min(fits)[1]
    return _cached(str(path), lambda: network.load_npz(path))


def fallback_note(level: str, rules: Rules) -> str | None:
    """One line when ``level`` cannot play its network at this table, else None."""
    name = level.partition(":")[0]
    if name not in ("strong", "expert") or "path=" in level or model_for(rules) is not None:
        return None
    plays = "search (16 worlds a move)" if name == "strong" else \
        "the search with its linear evaluation"
    return (f"{name}: no trained model for {rules.name} with {rules.players} players "
            f"(models: {', '.join(shipped_tables()) or 'none'}); it plays as {plays}")


def shipped_tables() -> list[str]:
    """The tables the shipped models play, as ``NAME/PLAYERSp``."""
    import json

    out = []
    for path in network.shipped():
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        out += [f"{t.get('name')}/{t.get('players')}p" for t in meta.get("tables", [])]
    return sorted(set(out))


class StrongBot:
    """The network alone (``policy``), or ``search`` where no model fits the table."""

    name = "strong"

    def __init__(self, seed: int = 0, path: str | None = None, worlds: int = 16) -> None:
        self.seed = seed
        self.path = path
        self.worlds = int(worlds)  # the fallback search's worlds a decision
        self._bot: Any = PolicyBot(seed, path) if path else None

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if self._bot is None:
            if self.path:
                self._bot = PolicyBot(self.seed, self.path)
            else:
                model = model_for(view.rules)
                self._bot = (_Network(model) if model is not None
                             else SearchBot(self.seed, worlds=self.worlds))
        action: Action = self._bot.choose(view, legal)
        return action

    def __getstate__(self) -> dict[str, Any]:
        # The web table's process pool pickles a bot with every decision: the network stays
        # behind (a process loads it once) and the policy, which keeps no state, is rebuilt.
        state = dict(self.__dict__)
        if not isinstance(state["_bot"], SearchBot):
            state["_bot"] = None
        return state


class _Network:
    """The network's most likely legal action (the ``policy`` bot's choice, for a model
    already loaded)."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        from ..actions import ACTION_INDEX, ATOMIC_ACTIONS
        from .observation import encode

        index_of = ACTION_INDEX.__getitem__

        indices = [i for i in (index_of(a) for a in legal) if i < self.model.actions]
        if not indices:
            return legal[0]
        chosen = int(self.model.choose(encode(view), indices))
        return ATOMIC_ACTIONS[chosen] if chosen in indices else legal[0]


class NetworkRanker:
    """Every legal action ranked by the shipped network (``strong``'s policy): its first is
    what ``strong`` plays.  ``scored`` gives each action's share of the policy's weight among
    the legal ones (a softmax of their logits), in percent; an action the model does not know
    gets none and keeps the engine's order after the others.  It keeps no state, so a hint or a
    review depends only on the position."""

    name = "strong"
    unit = "%"  # what ``scored`` gives: shares of the policy's weight, in percent

    def __init__(self, model: Any) -> None:
        self.model = model

    def scored(self, view: SeatView, legal: Sequence[Action]) -> list[tuple[Action, float]]:
        import numpy as np

        from ..actions import ACTION_INDEX
        from .observation import encode

        index = [ACTION_INDEX[a] for a in legal]
        known = [i for i, k in enumerate(index) if k < self.model.actions]
        unknown = set(range(len(legal))) - set(known)
        shares = [0.0] * len(legal)
        if known:
            rows = np.asarray([index[i] for i in known], dtype=np.intp)
            logits = self.model.out_w[rows] @ self.model.features(encode(view)) + \
                self.model.out_b[rows]
            weights = np.exp(logits - logits.max())
            weights = weights / weights.sum() * 100.0
            for i, w in zip(known, weights.tolist(), strict=True):
                shares[i] = float(w)
        order = sorted(range(len(legal)),
                       key=lambda i: (i in unknown, -shares[i], i))
        return [(legal[i], shares[i]) for i in order]

    def rank(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The legal actions, best first."""
        return [a for a, _ in self.scored(view, legal)]


def ranker(rules: Rules) -> NetworkRanker | HeuristicBot:
    """The strongest bot that ranks every legal action at this table: the network (``strong``)
    where a shipped model fits it, else the heuristic (``casual``).  Hints and the replay's
    review ask it; a fixed seed, so both are reproducible."""
    model = model_for(rules)
    return NetworkRanker(model) if model is not None else HeuristicBot(seed=0)


# ------------------------------------------------------------------------------ Play now
# A Play-now table seats the strongest level whose decisions take at most PLAY_NOW_MS at the
# 99th percentile on one core (issue 28).  The figures: each level's decision time at the 99th
# percentile, in CPU milliseconds of one process pinned to one core with NumPy on one thread, a
# time budget counted in the same CPU time (what an idle core gives), over the decisions with
# a choice of single rounds, the level in one team's seats and casual in the others; where a
# level was measured on more than one seed, the largest:
#
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/4 \
#       hand-knee-foot/4 hand-and-foot/6 hand-and-foot/2 \
#       --levels casual strong expert:ms=30 expert:ms=50 expert --rounds 6
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/4 \
#       hand-knee-foot/4 hand-and-foot/6 --levels expert:ms=50 expert:ms=75 --rounds 8 --seed 100
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/4 \
#       hand-knee-foot/4 hand-and-foot/6 --levels expert:ms=75 --rounds 8 --seed 200
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot-classic/4 \
#       hand-and-foot-13/4 pennies-from-heaven/4 triple-play/4 hand-knee-foot-club/4 \
#       --levels casual strong --rounds 6
#
# The expert's figures were measured again once the search checked its time between options
# (a world the budget runs out in is dropped), the largest p99 of two runs (3 rounds each,
# seeds 400 and 300), with the two- and six-player models:
#
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/4 \
#       hand-knee-foot/4 pennies-from-heaven/4 triple-play/4 hand-knee-foot-club/4 \
#       hand-and-foot-classic/4 hand-and-foot-13/4 --levels expert:ms=50 expert:ms=75 expert \
#       --rounds 3 --seed 400
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/2 \
#       hand-knee-foot/2 triple-play/2 hand-knee-foot-club/2 hand-knee-foot/6 hand-and-foot/6 \
#       --levels strong expert:ms=50 expert:ms=75 expert --rounds 3 --seed 400
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/4 \
#       hand-knee-foot/4 pennies-from-heaven/4 triple-play/4 hand-knee-foot-club/4 \
#       hand-and-foot-classic/4 hand-and-foot-13/4 hand-and-foot/2 hand-knee-foot/2 \
#       triple-play/2 hand-knee-foot-club/2 hand-knee-foot/6 hand-and-foot/6 \
#       --levels expert:ms=50 expert:ms=75 expert --rounds 3 --seed 300
#
# and, for the models of a later session (every preset at two and six players; the knee
# presets' six-player network retrained), one run beside other work on the other core:
#
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot-13/2 \
#       pennies-from-heaven/2 hand-and-foot-classic/6 hand-and-foot-13/6 \
#       pennies-from-heaven/6 triple-play/6 hand-knee-foot-club/6 hand-knee-foot/6 \
#       --levels strong expert:ms=50 expert:ms=75 expert --rounds 3 --seed 400
#
# and, for the four-player hand-and-foot network of a later session (both tables it plays), one
# run beside two arenas on the two cores (classic's expert:ms=50 figure is a few worlds that ran
# long, the longest decision 230 ms of 261; Play now seats ms=75 there):
#
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot/4 \
#       hand-and-foot-classic/4 --levels strong expert:ms=50 expert:ms=75 expert --rounds 3 \
#       --seed 400
#
# and, for the two-player hand-and-foot-classic network of a later session, one run beside two
# arenas on the two cores:
#
#   PYTHONPATH=src python benchmarks/level_timing.py --tables hand-and-foot-classic/2 \
#       --levels casual strong expert:ms=50 expert:ms=75 expert --rounds 3 --seed 400
#
# (docs/BOTS.md, "Which level plays where", has the whole table and the machine's load).  Run
# them again, and write the figures here, when a bot or a shipped model changes.  A network
# level is picked only where a model fits the table (its one line promises the network); a
# table not listed (another preset or player count, or house rules) gets casual: nothing
# slower was measured there.
PLAY_NOW_MS = 100.0
DECISION_P99_MS: dict[str, dict[str, float]] = {
    "hand-and-foot/4p": {"casual": 0.10, "strong": 0.12, "expert:ms=50": 51.0,
                         "expert:ms=75": 76.2, "expert": 101.2},
    "hand-knee-foot/4p": {"casual": 0.21, "strong": 0.37, "expert:ms=50": 62.6,
                          "expert:ms=75": 82.5, "expert": 105.4},
    "hand-and-foot/6p": {"casual": 0.17, "strong": 0.31, "expert:ms=50": 52.6,
                         "expert:ms=75": 77.3, "expert": 103.2},
    "hand-and-foot/2p": {"casual": 0.07, "strong": 0.22, "expert:ms=50": 51.7,
                         "expert:ms=75": 76.5, "expert": 100.9},
    "hand-and-foot-classic/4p": {"casual": 0.14, "strong": 0.10, "expert:ms=50": 122.0,
                                 "expert:ms=75": 76.6, "expert": 103.4},
    "hand-and-foot-13/4p": {"casual": 0.15, "strong": 0.14, "expert:ms=50": 65.0,
                            "expert:ms=75": 107.6, "expert": 110.3},
    "pennies-from-heaven/4p": {"casual": 0.10, "strong": 0.21, "expert:ms=50": 55.3,
                               "expert:ms=75": 78.9, "expert": 107.1},
    "triple-play/4p": {"casual": 0.19, "strong": 0.26, "expert:ms=50": 56.1,
                       "expert:ms=75": 82.2, "expert": 104.4},
    "hand-knee-foot-club/4p": {"casual": 0.14, "strong": 0.14, "expert:ms=50": 56.5,
                               "expert:ms=75": 78.2, "expert": 109.2},
    "hand-knee-foot/2p": {"strong": 0.14, "expert:ms=50": 51.8, "expert:ms=75": 76.5,
                          "expert": 102.3},
    "triple-play/2p": {"strong": 0.17, "expert:ms=50": 51.6, "expert:ms=75": 76.0,
                       "expert": 101.2},
    "hand-knee-foot-club/2p": {"strong": 0.17, "expert:ms=50": 51.2, "expert:ms=75": 76.5,
                               "expert": 101.5},
    "hand-knee-foot/6p": {"strong": 0.23, "expert:ms=50": 57.4, "expert:ms=75": 83.9,
                          "expert": 117.3},
    "triple-play/6p": {"strong": 0.37, "expert:ms=50": 53.4, "expert:ms=75": 122.7,
                       "expert": 113.5},
    "hand-knee-foot-club/6p": {"strong": 0.22, "expert:ms=50": 57.6, "expert:ms=75": 89.2,
                               "expert": 112.1},
    "hand-and-foot-classic/6p": {"strong": 0.13, "expert:ms=50": 60.0, "expert:ms=75": 86.5,
                                 "expert": 104.7},
    "hand-and-foot-13/6p": {"strong": 0.20, "expert:ms=50": 64.5, "expert:ms=75": 95.1,
                            "expert": 113.7},
    "pennies-from-heaven/6p": {"strong": 0.22, "expert:ms=50": 55.4, "expert:ms=75": 81.1,
                               "expert": 104.1},
    "hand-and-foot-13/2p": {"strong": 0.23, "expert:ms=50": 52.1, "expert:ms=75": 76.8,
                            "expert": 102.2},
    "pennies-from-heaven/2p": {"strong": 0.39, "expert:ms=50": 51.8, "expert:ms=75": 77.0,
                               "expert": 101.6},
    "hand-and-foot-classic/2p": {"casual": 0.11, "strong": 0.24, "expert:ms=50": 52.0,
                                 "expert:ms=75": 77.8, "expert": 102.5},
}


def table_kind(rules: Rules) -> str | None:
    """``NAME/Np`` when the table is the preset ``NAME`` for N players in every setting but
    its name and length (``rounds``, ``turn_cap``: "hand-knee-foot + house rules" with one
    round is still the knee game), else None (other house rules, a rules file)."""
    from ..presets import PRESET_NAMES, preset
    from ..rules import RulesError

    here = rules.to_mapping()
    names = [rules.name] if rules.name in PRESET_NAMES else list(PRESET_NAMES)
    for name in names:
        try:
            base = preset(name, rules.players).to_mapping()
        except RulesError:
            continue
        if all(base.get(k) == here.get(k) for k in set(base) | set(here)
               if k not in network.TOLERATED):
            return f"{name}/{rules.players}p"
    return None


def _strength(level: str) -> tuple[int, float]:
    """For ordering levels strongest first: the level's place in ``LEVELS``, then its time
    budget (``expert`` at 100 ms above ``expert:ms=50``)."""
    name, _, options = level.partition(":")
    ms = 100.0 if name == "expert" else 0.0
    for item in filter(None, options.split(",")):
        key, _, value = item.partition("=")
        if key == "ms":
            ms = float(value)
    return list(LEVELS).index(name), ms


def play_now_level(rules: Rules, players: int | None = None) -> str:
    """The level a Play-now table seats: the strongest measured at this table whose decision
    time fits ``PLAY_NOW_MS`` at the 99th percentile (``DECISION_P99_MS``), a network level
    only where a shipped model fits the table; ``casual`` where nothing was measured."""
    if players is not None and players != rules.players:
        # The same preset for that many players (a preset adjusts more than the count), or,
        # for rules that are no preset, the rules with that count: not measured.
        from ..presets import preset
        from ..rules import RulesError

        kind = table_kind(rules)
        try:
            rules = (preset(kind.partition("/")[0], players) if kind
                     else rules.replace(players=players))
        except RulesError:
            return "casual"  # no such table
    kind = table_kind(rules)
    figures = DECISION_P99_MS.get(kind or "", {})
    has_model = model_for(rules) is not None
    fitting = [level for level, p99 in figures.items() if p99 <= PLAY_NOW_MS
               and (has_model or level.partition(":")[0] not in ("strong", "expert"))]
    return max(fitting, key=_strength, default="casual")


NETWORK_PLAN = Plan(network=True)
NETWORK_TURN_CHOICES = 24  # the network's choices in a sampled world's turn, at most


class ExpertBot(SearchBot):
    """The search with the network: the network's own turn is a plan, its policy orders the
    heuristic's plans, its value scores the leaves."""

    name = "expert"

    def __init__(self, seed: int = 0, ms: float = 100.0, worlds: int = 16, width: int = -1,
                 path: str | None = None, settle: int = 32, spread: float = 100.0,
                 margin: float = 0.0, net_replies: int = 0, netplans: int = 0,
                 reply: int = -1) -> None:
        super().__init__(seed, ms=ms, worlds=worlds, width=width, settle=settle, spread=spread,
                         margin=margin, reply=reply)
        self.rng = random.Random(f"expert/{seed}")
        self.path = path
        # 1: the other seats' turns in a sampled world are the network's, not the heuristic's.
        self.net_replies = bool(net_replies)
        # Bits: 1 the network's turn drawing the other way, 2 with its second discard.
        self.netplans = int(netplans)
        self.net: Any = None
        self._ready = False
        self._scale = 1.0
        self._out_bonus = 0.0
        self._encode: Callable[[SeatView], Any] | None = None

    def _prepare(self, rules: Rules) -> None:
        self._ready = True
        if self.path:
            self.net = network.load_npz(self.path)
            try:
                network.check_table(self.net.meta, rules, self.path)
            except network.ModelError as err:
                raise BotError(str(err).replace("'policy'", "'expert'")) from None
        else:
            self.net = model_for(rules)
        if self.net is None:
            return
        if not self.net.value:
            self.net = None  # a model without its value network: the linear fit
            return
        from .observation import encode

        self._encode = encode
        self._scale = float(self.net.meta.get("value_scale", 1.0))
        # A network trained with a reward for going out (handfoot train --out-bonus) values
        # positions with that reward in: a finished round is scored in the same unit.
        self._out_bonus = float(self.net.meta.get("out_bonus", 0.0))

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not self._ready:
            self._prepare(view.rules)
        if self.net is not None and len(legal) > 1 and view.turn == view.seat \
                and view.actor == view.seat:
            key = (view.round_no, view.turns, view.seat)
            if self._plan is None or self._plan[0] != key:
                self._plan = (key, self._choose_plan(view, legal))
            if self._plan[1].network:
                return self._network_choice(view, legal, self._plan[1])
        return super().choose(view, legal)

    def _network_choice(self, v: SeatView, legal: Sequence[Action],
                        plan: Plan = NETWORK_PLAN) -> Action:
        """What ``strong`` plays here (the network's most likely legal action), but for the
        choices ``plan`` changes: its draw, and which of the network's discards it throws."""
        if plan.take is not None and v.phase is Phase.DRAW and plan.take in legal:
            return plan.take
        choice = _Network(self.net).choose(v, legal)
        if plan.discard and isinstance(choice, Discard):
            discards = NetworkRanker(self.net).rank(v, [a for a in legal
                                                        if isinstance(a, Discard)])
            return discards[min(plan.discard, len(discards) - 1)]
        return choice

    def play_plan(self, plan: Plan, g: Game, seat: int) -> list[tuple[int, Action]]:
        if not self._ready:
            self._prepare(g.rules)
        if not plan.network or self.net is None:
            return super().play_plan(plan, g, seat)
        return self._network_turn(g, seat, plan)

    def _reply_turn(self, world: Game) -> None:
        if not self.net_replies or self.net is None:
            super()._reply_turn(world)
            return
        self._network_turn(world, world.seat)

    def _network_turn(self, g: Game, seat: int,
                      plan: Plan = NETWORK_PLAN) -> list[tuple[int, Action]]:
        """``seat``'s turn in ``g`` as the network plays it (with ``plan``'s changes); a partner
        asked "may I go out?" answers as the heuristic would, as in every plan."""
        round_no, turns = g.round_no, g.turns
        played: list[tuple[int, Action]] = []
        choices = 0
        while not g.over and g.round_no == round_no and g.turns == turns and g.seat == seat:
            if choices >= NETWORK_TURN_CHOICES:
                # A world's time bounds the decision's: a turn this long ends as the
                # heuristic would end it.
                played += play_turn(self.policy, HEURISTIC, g, seat, self.spread)
                break
            legal = g.legal_actions()
            actor = g.actor
            if len(legal) == 1:
                a = legal[0]
            elif actor == seat:
                a = self._network_choice(view(g, seat), legal, plan)
                choices += 1
            else:
                a = self.policy.rank(view(g, actor), legal)[0]
            g.apply(a)
            played.append((actor, a))
        return played

    def __getstate__(self) -> dict[str, Any]:
        # Pickled with every decision at the web table: the network is loaded again (once per
        # process) rather than sent; the plan being followed travels.
        state = dict(self.__dict__)
        state.update(net=None, _ready=False, _encode=None)
        return state

    def _plans(self, v: SeatView, legal: Sequence[Action]) -> list[Plan]:
        if not self._ready:
            self._prepare(v.rules)
        if self.net is None or self._encode is None:
            return super()._plans(v, legal)
        from ..actions import ACTION_INDEX

        index_of = ACTION_INDEX.__getitem__

        plans = candidates(self.policy, v, legal, self.spread, self.variants)
        if len(plans) > 1:
            # The policy orders the plans by the logit of the move each begins with (ties keep
            # the heuristic's order, its own plan first); the search keeps the first ``width``.
            logits = self.net.logits(self._encode(v))
            first = [index_of(act(self.policy, p, v, legal, self.spread)) for p in plans]
            known = self.net.actions
            order = sorted(range(len(plans)), key=lambda i: (
                -(float(logits[first[i]]) if first[i] < known else -1e9), i))
            plans = [plans[i] for i in order]
        # The network's own turn comes first: the plan ``strong`` would play, which the
        # other plans must beat in the sampled worlds (by ``margin`` points); then the
        # network's turn with one choice changed (``netplans``), then the heuristic's.
        own = [NETWORK_PLAN, *self._network_variants(v, legal)]
        return [*own, *plans[: max(1, self.width - len(own))]]

    def _network_variants(self, v: SeatView, legal: Sequence[Action]) -> list[Plan]:
        """The network's turn with one of its real choices made the other way: the draw it
        would not make (bit 1 of ``netplans``), its second discard (bit 2)."""
        variants: list[Plan] = []
        takes = draws(legal)
        if self.netplans & 1 and v.phase is Phase.DRAW and len(takes) > 1:
            first = self._network_choice(v, legal)
            variants += [Plan(network=True, take=a) for a in takes if a != first]
        if self.netplans & 2:
            variants.append(Plan(network=True, discard=1))
        return variants

    def score_turn(self, v: SeatView, legal: Sequence[Action],
                   played: Sequence[tuple[int, Action]],
                   world_for: Callable[[], Game] | None = None) -> TurnScores:
        if not self._ready:
            self._prepare(v.rules)
        return super().score_turn(v, legal, played, world_for)

    def _leaf(self, g: Game, v: SeatView) -> float:
        """Where a plan led, from the seat's team: the real score of a finished round, else
        the network's value of the seat's view of the sampled world (points)."""
        if self.net is None or self._encode is None:
            return super()._leaf(g, v)
        if len(g.results) >= v.round_no:
            return linear_value(g, v.team, v.round_no) + going_out_points(
                g.results[v.round_no - 1], v.team, self._out_bonus)
        return float(self.net.values(self._encode(view(g, v.seat)))) * self._scale

    def _leaf_win(self) -> bool:
        return self.net is None and self.win
