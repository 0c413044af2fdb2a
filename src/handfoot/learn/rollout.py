"""Self-play games that produce training samples: NumPy only, so rollout workers (processes or
Ray actors) never import torch.

A worker gets a task (the table or tables, the current weights, the league's snapshots, how
many rounds) and plays single rounds (at a table drawn from the tables, where there are
several).  In each round one team is the learner (the current policy, sampling from its masked
softmax); the others are the current policy too (self-play), a past snapshot, or a bot
(``opponents``).  Every decision of a seat played by the current policy becomes a sample: the
seat's view encoding (what the actor sees), the critic's extra input built from the full game
(``privileged``, training only), the legal actions, the action and its log probability.  The
reward is the team's round-score margin (its score minus the best other team's) over
``scale``, paid at the seat's last decision of the round; ``out_bonus`` points more for the
team whose seat went out (and as many less for the others), where a run asks for it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots import make_bot
from ..bots.base import ask
from ..bots.evaluate import going_out_points
from ..bots.observation import layout_for
from ..cards import NUM_KINDS
from ..engine import Game
from ..env.encoder import Encoder
from ..env.indexed import NUM_ACTIONS, apply_index, index_of, legal_indices
from ..presets import preset
from ..rules import Rules

Weights = dict[str, npt.NDArray[np.float32]]


def table_rules(name: str, players: int) -> Rules:
    """The rules a model is trained (and labelled) for: the preset at that player count."""
    return preset(name, players)


def family(names: str, players: int) -> list[Rules]:
    """The tables one model is trained for: presets named with commas (``hand-and-foot,
    hand-and-foot-classic``) at one player count.  One network reads them all, so their views
    must be vectors of the same fields and their rewards of the same unit; the rules the
    vector holds (quota, opening minimums, packet sizes) and the legal actions tell them
    apart."""
    listed = [n.strip() for n in names.split(",") if n.strip()]
    if not listed or len(set(listed)) != len(listed):
        raise ValueError(f"tables {names!r}: name each preset once, separated by commas")
    tables = [table_rules(n, players) for n in listed]
    first = tables[0]
    fields = field_shape(first)
    for t in tables[1:]:
        if field_shape(t) != fields:
            raise ValueError(f"{t.name} and {first.name} cannot share a network: their views "
                             "are vectors of different fields (train them apart, or warm-start "
                             "one from the other with --init)")
        if value_scale(t) != value_scale(first):
            raise ValueError(f"{t.name} and {first.name} cannot share a network: their round "
                             "scores run to different sizes (two packets against the knee)")
    return tables


def field_shape(rules: Rules) -> list[tuple[str, int, int]]:
    """Where each named field of a view's vector lies at this table."""
    return [(f.name, f.start, f.size) for f in layout_for(rules).fields()]


def table_of_round(tables: Sequence[Rules], task_seed: int, r: int, greedy: bool,
                   rng: random.Random) -> Rules:
    """The table a round is played at: every table in turn for an evaluation's duplicate
    deals (the same deals at each), else drawn at random."""
    if len(tables) == 1:
        return tables[0]
    if greedy:
        return tables[(task_seed + r // tables[0].teams) % len(tables)]
    return tables[rng.randrange(len(tables))]


def value_scale(rules: Rules) -> float:
    """Points per unit of reward: round margins run to thousands, more in the knee game."""
    return 1000.0 if len(rules.packets) <= 2 else 3000.0


def privileged_size(rules: Rules) -> int:
    return (2 * rules.players + 1) * NUM_KINDS + NUM_KINDS


def privileged(game: Game, seat: int) -> npt.NDArray[np.float32]:
    """The critic's extra input: what the seat cannot see (training only).  Every other seat's
    hand and every seat's face-down packets (summed per kind), counted from the seat onward, the
    stock per kind, and the stock's top card."""
    players = game.rules.players
    out = np.zeros(privileged_size(game.rules), dtype=np.float32)
    k = NUM_KINDS
    for r in range(players):
        s = (seat + r) % players
        if r:
            out[(r - 1) * k:r * k] = game.hands[s]
        base = (players - 1 + r) * k
        for packet in game.packets[s]:
            out[base:base + k] += packet
    base = (2 * players - 1) * k
    for card in game.stock:
        out[base + card] += 1
    if game.stock:
        out[base + k + game.stock[-1]] = 10.0
    out /= 10.0
    return out


def forward(weights: Mapping[str, Any], obs: Any, prefix: str = "pi") -> Any:
    """The last hidden layer of the actor (``pi``) or the view value network (``vf``)."""
    h = obs
    i = 0
    while f"{prefix}.{i}.weight" in weights:
        h = np.tanh(h @ weights[f"{prefix}.{i}.weight"].T + weights[f"{prefix}.{i}.bias"])
        i += 1
    return h


def legal_logits(weights: Mapping[str, Any], obs: Any, legal: Sequence[int]) -> Any:
    h = forward(weights, obs)
    rows = np.asarray(legal, dtype=np.intp)
    return weights["action.weight"][rows] @ h + weights["action.bias"][rows]


@dataclass
class Task:
    """One worker's share of an iteration."""

    rules_name: str
    players: int
    seed: int
    rounds: int
    current: Weights
    league: list[Weights] = field(default_factory=list)
    # Chances that the other team is the current policy, a league snapshot, or the bot.
    self_play: float = 0.5
    league_share: float = 0.3
    bot: str = "heuristic"
    greedy: bool = False  # evaluation: the current policy plays its most likely action
    collect: bool = True
    # Points added to the reward of the team that went out (taken from the others'): a
    # training signal only; the margins reported stay the real ones.
    out_bonus: float = 0.0


@dataclass
class Batch:
    obs: list[npt.NDArray[np.float32]] = field(default_factory=list)
    priv: list[npt.NDArray[np.float32]] = field(default_factory=list)
    masks: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    logps: list[float] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    dones: list[bool] = field(default_factory=list)
    episode: list[int] = field(default_factory=list)  # round * players + seat
    # Per round: the learner team's margin in points, and how the round ended.
    margins: list[float] = field(default_factory=list)
    went_out: list[bool] = field(default_factory=list)
    decisions: int = 0

    def arrays(self) -> dict[str, Any]:
        n = len(self.actions)
        return {
            "obs": np.stack(self.obs) if n else np.zeros((0, 0), np.float32),
            "priv": np.stack(self.priv) if n else np.zeros((0, 0), np.float32),
            "masks": np.stack(self.masks) if n else np.zeros((0, NUM_ACTIONS), np.bool_),
            "actions": np.asarray(self.actions, dtype=np.int64),
            "logps": np.asarray(self.logps, dtype=np.float32),
            "rewards": np.asarray(self.rewards, dtype=np.float32),
            "dones": np.asarray(self.dones, dtype=np.bool_),
            "episode": np.asarray(self.episode, dtype=np.int64),
            "margins": np.asarray(self.margins, dtype=np.float32),
            "went_out": np.asarray(self.went_out, dtype=np.bool_),
            "decisions": self.decisions,
        }


def margin(game: Game, team: int) -> float:
    scores = [float(s) for s in game.results[-1].scores]
    return scores[team] - max(x for t, x in enumerate(scores) if t != team)


def shaped(game: Game, team: int, out_bonus: float) -> float:
    """The team's margin with ``out_bonus`` points for going out: more for the team whose
    seat went out, less for the others, so the reward stays zero-sum between two teams."""
    return margin(game, team) + going_out_points(game.results[-1], team, out_bonus)


def run(task: Task) -> dict[str, Any]:
    """Play ``task.rounds`` single rounds; the samples of the current policy's seats, and the
    learner team's margins."""
    tables = [t.replace(rounds=1) for t in family(task.rules_name, task.players)]
    scale = value_scale(tables[0])
    rng = random.Random(task.seed)
    np_rng = np.random.default_rng(task.seed)
    batch = Batch()
    for r in range(task.rounds):
        rules = table_of_round(tables, task.seed, r, task.greedy, rng)
        layout = layout_for(rules)
        # Evaluation plays each deal once from every team's seats (duplicate deals).
        deal = task.seed * 7919 + r // rules.teams if task.greedy else rng.randrange(2**31)
        game = Game.new(rules, seed=deal)
        encoder = Encoder(layout)
        learner = r % rules.teams  # the learner sits at every team's seats in turn
        pick = rng.random()
        other: Any = "current"
        if task.greedy or pick >= task.self_play:
            if not task.greedy and task.league and pick < task.self_play + task.league_share:
                other = task.league[rng.randrange(len(task.league))]
            else:
                other = "bot"
        # Per seat: who plays it, and the indices of its samples this round.
        players: list[Any] = []
        for s in range(rules.players):
            who = "current" if s % rules.teams == learner else other
            players.append(make_bot(task.bot, seed=deal + s) if who == "bot" else who)
        own: dict[int, list[int]] = {s: [] for s in range(rules.players)}
        while not game.over:
            seat = game.actor
            who = players[seat]
            if not isinstance(who, (str, dict)):
                game.apply(ask(who, game))
                continue
            legal = legal_indices(game)
            if len(legal) == 1:
                apply_index(game, legal[0], legal)
                continue
            weights: Any = task.current if who == "current" else who
            obs = encoder.encode_seat(game, seat)
            logits = legal_logits(weights, obs, legal)
            if task.greedy and who == "current":
                choice = int(np.argmax(logits))
            else:
                z = logits - logits.max()
                p = np.exp(z)
                p /= p.sum()
                choice = int(np_rng.choice(len(legal), p=p))
            action = legal[choice]
            batch.decisions += 1
            if who == "current" and task.collect:
                z = logits - logits.max()
                logp = float(z[choice] - np.log(np.exp(z).sum()))
                mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
                mask[legal] = True
                own[seat].append(len(batch.actions))
                batch.obs.append(obs)
                batch.priv.append(privileged(game, seat))
                batch.masks.append(mask)
                batch.actions.append(action)
                batch.logps.append(logp)
                batch.rewards.append(0.0)
                batch.dones.append(False)
                batch.episode.append(r * rules.players + seat)
            apply_index(game, action, legal)
        result = game.results[-1]
        batch.margins.append(margin(game, learner))
        batch.went_out.append(str(result.ended_by) == "went_out")
        for seat, idx in own.items():
            if idx:
                batch.rewards[idx[-1]] = shaped(game, seat % rules.teams, task.out_bonus) / scale
                batch.dones[idx[-1]] = True
    return batch.arrays()


def imitate(rules_name: str, players: int, teacher: str, seed: int,
            rounds: int) -> dict[str, Any]:
    """Rounds the teacher bot plays in every seat: each decision with a choice becomes a sample
    (view encoding, critic input, legal mask, the teacher's action), and each seat's last one
    carries its team's margin, so the critics learn too (behaviour cloning)."""
    tables = [t.replace(rounds=1) for t in family(rules_name, players)]
    scale = value_scale(tables[0])
    rng = random.Random(seed)
    batch = Batch()
    for r in range(rounds):
        rules = table_of_round(tables, seed, r, False, rng)
        layout = layout_for(rules)
        game = Game.new(rules, seed=rng.randrange(2**31))
        encoder = Encoder(layout)
        bots = [make_bot(teacher, seed=rng.randrange(2**31)) for _ in range(rules.players)]
        own: dict[int, list[int]] = {s: [] for s in range(rules.players)}
        while not game.over:
            seat = game.actor
            legal = legal_indices(game)
            action = index_of(ask(bots[seat], game))
            if len(legal) > 1:
                mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
                mask[legal] = True
                own[seat].append(len(batch.actions))
                batch.obs.append(encoder.encode_seat(game, seat))
                batch.priv.append(privileged(game, seat))
                batch.masks.append(mask)
                batch.actions.append(action)
                batch.logps.append(0.0)
                batch.rewards.append(0.0)
                batch.dones.append(False)
                batch.episode.append(r * rules.players + seat)
            batch.decisions += 1
            apply_index(game, action, legal)
        batch.margins.append(margin(game, 0))
        batch.went_out.append(str(game.results[-1].ended_by) == "went_out")
        for seat, idx in own.items():
            if idx:
                batch.rewards[idx[-1]] = margin(game, seat % rules.teams) / scale
                batch.dones[idx[-1]] = True
    return batch.arrays()


def run_task(kind: str, payload: Any) -> dict[str, Any]:
    """The entry point of a worker process or Ray actor."""
    if kind == "imitate":
        return imitate(*payload)
    result: dict[str, Any] = run(payload)
    return result
