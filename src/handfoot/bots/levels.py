"""Levels named for people: ``beginner``, ``casual``, ``strong`` and ``expert``.

``beginner`` is the basic bot and ``casual`` the heuristic.  ``strong`` plays the trained
network shipped for the table alone (one forward pass a decision); ``expert`` puts that network
inside the search: the policy orders the whole-turn plans (the search keeps the ``width`` it
prefers), and the network's value, not the linear fit, scores where each plan leads in every
sampled world, within a time budget (``ms``, default 100).

Where no model was shipped for the table (or NumPy is missing), a player still gets a bot at
the level's strength class rather than an error in the middle of a game: ``strong`` plays as
``search`` (16 worlds a decision) and ``expert`` as the search with the linear evaluation at its
own time budget.  ``fallback_note`` says so in one line, and docs/BOTS.md lists the tables
that have models.  ``strong:path=FILE`` / ``expert:path=FILE`` name a model explicitly: that
one is never replaced, and a table it was not made for is refused as the policy bot refuses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action
from ..engine import Game
from ..rules import Rules
from ..views import SeatView, view
from . import network
from .base import BotError
from .evaluate import value as linear_value
from .plans import Plan, act, candidates
from .policy import PolicyBot
from .search import SearchBot

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


class ExpertBot(SearchBot):
    """The search with the network: its policy orders the plans, its value scores the leaves."""

    name = "expert"

    def __init__(self, seed: int = 0, ms: float = 100.0, worlds: int = 16, width: int = -1,
                 path: str | None = None, settle: int = 32, spread: float = 100.0) -> None:
        super().__init__(seed, ms=ms, worlds=worlds, width=width, settle=settle, spread=spread)
        self.rng = random.Random(f"expert/{seed}")
        self.path = path
        self.net: Any = None
        self._ready = False
        self._scale = 1.0
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

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not self._ready:
            self._prepare(view.rules)
        return super().choose(view, legal)

    def __getstate__(self) -> dict[str, Any]:
        # Pickled with every decision at the web table: the network is loaded again (once per
        # process) rather than sent; the plan being followed travels.
        state = dict(self.__dict__)
        state.update(net=None, _ready=False, _encode=None)
        return state

    def _choose_plan(self, v: SeatView, legal: Sequence[Action]) -> Plan:
        if self.net is None or self._encode is None:
            return super()._choose_plan(v, legal)
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
        plans = plans[: self.width]
        if len(plans) == 1:
            return plans[0]
        from ..views import ViewError

        try:
            return plans[self._search(v, plans, self._plan_trial(v))]
        except ViewError:
            return plans[0]

    def _leaf(self, g: Game, v: SeatView) -> float:
        """Where a plan led, from the seat's team: the real score of a finished round, else
        the network's value of the seat's view of the sampled world (points)."""
        if self.net is None or self._encode is None:
            return super()._leaf(g, v)
        if len(g.results) >= v.round_no:
            return linear_value(g, v.team, v.round_no)
        return float(self.net.values(self._encode(view(g, v.seat)))) * self._scale

    def _leaf_win(self) -> bool:
        return self.net is None and self.win
