"""Self-play training: imitation of a teacher bot, then PPO against a league of snapshots.

1. **Imitation** (behaviour cloning): the teacher (``search:worlds=4`` by default) plays
   ``bc_rounds`` rounds in every seat; the actor learns its choices (cross-entropy over the
   legal actions), the view value and the critic its teams' margins.  The teacher's rounds are
   played in jobs of ``IMITATION_JOB_ROUNDS``, each kept in ``DIR/imitation/`` as it ends, so
   a run stopped while the teacher plays (a slow teacher: the expert) resumes where it was.
   With ``init`` the imitation follows the warm start only when ``distill`` is set: the
   network then learns what the search with it plays (``expert`` by default; one step of
   expert iteration, docs/RL.md).
2. **Self-play PPO**: each iteration the workers play ``rounds`` single rounds with the current
   weights (the learner team samples from its policy; the other team is the current policy,
   a past snapshot from the league, or the ``bot``), and PPO (clipped ratio, entropy bonus)
   updates the actor on advantages from the critic, which also reads every hidden card
   (``rollout.privileged``; training only).  Every ``snapshot_every`` iterations the weights
   join the league (the last ``league_size`` kept).  The reward is the team's round-score
   margin; each seat's decisions of a round are one episode (no discount, GAE lambda 0.95).

Workers are processes on this machine (``backend="process"``, ``workers`` of them), or Ray
actors on a cluster (``backend="ray"``; ``ray_address``, or a local cluster).  Workers only
run NumPy; torch runs in the learner, on ``threads`` threads.

Every iteration the run writes ``DIR/checkpoint.pt`` (weights, optimizer, league, curve, the
random state and the settings), ``DIR/curve.csv`` and the exported model ``DIR/model.npz`` with
its ``DIR/model.json``; ``resume(DIR)`` carries on from the checkpoint.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..bots.observation import layout_for
from ..env.indexed import NUM_ACTIONS
from . import model as model_mod
from .rollout import Task, family, privileged_size, run_task, value_scale

IMITATION_JOB_ROUNDS = 8  # the teacher's rounds a job: the unit kept on disk as it ends

CURVE_FIELDS = ["iteration", "phase", "seconds", "samples", "decisions", "eval_margin",
                "eval_win", "eval_went_out", "policy_loss", "value_loss", "entropy"]


@dataclass
class Settings:
    rules: str = "hand-and-foot"  # a preset, or presets with commas: one network for them all
    players: int = 4
    init: str | None = None  # start from this run folder or model file (no imitation)
    distill: bool = False  # with init: imitate the teacher after the warm start too
    out: str = "runs/train"
    seed: int = 0
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    teacher: str = "search:worlds=4"
    bc_rounds: int = 40
    bc_epochs: int = 8
    iterations: int = 100
    minutes: float = 0.0  # stop after this long (0: no limit); resume carries on
    rounds: int = 8  # rounds per iteration (shared among the workers)
    workers: int = 2
    backend: str = "process"  # or "ray"
    ray_address: str | None = None
    threads: int = 1
    lr: float = 3e-4
    epochs: int = 4
    minibatch: int = 512
    clip: float = 0.2
    entropy: float = 0.01
    lam: float = 0.95
    self_play: float = 0.5
    league_share: float = 0.3
    bot: str = "heuristic"
    out_bonus: float = 0.0  # reward points for the team that goes out (training only)
    snapshot_every: int = 5
    league_size: int = 8
    eval_every: int = 5
    eval_deals: int = 16


class Pool:
    """Rollout workers: local processes, or Ray actors."""

    def __init__(self, settings: Settings) -> None:
        self.backend = settings.backend
        self.workers = max(1, settings.workers)
        self._pool: Any = None
        self._actors: list[Any] = []
        if self.backend == "ray":
            import ray

            if not ray.is_initialized():
                if settings.ray_address:
                    ray.init(address=settings.ray_address)
                else:
                    ray.init(num_cpus=self.workers, include_dashboard=False)
            actor = ray.remote(num_cpus=1)(_RayWorker)
            self._actors = [actor.remote() for _ in range(self.workers)]
        elif self.workers > 1:
            self._pool = multiprocessing.get_context("spawn").Pool(self.workers)

    def map(self, jobs: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        if self.backend == "ray":
            import ray

            refs = [self._actors[i % len(self._actors)].run.remote(kind, payload)
                    for i, (kind, payload) in enumerate(jobs)]
            return list(ray.get(refs))
        if self._pool is not None:
            return list(self._pool.starmap(run_task, jobs))
        return [run_task(kind, payload) for kind, payload in jobs]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
        self._actors = []


class _RayWorker:
    """A self-play actor on a Ray cluster (NumPy only)."""

    def run(self, kind: str, payload: Any) -> dict[str, Any]:
        return run_task(kind, payload)


def _merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ["obs", "priv", "masks", "actions", "logps", "rewards", "dones", "margins",
            "went_out"]
    out: dict[str, Any] = {}
    for k in keys:
        arrays = [p[k] for p in parts if len(p[k])]
        out[k] = np.concatenate(arrays) if arrays else parts[0][k]
    out["decisions"] = sum(int(p["decisions"]) for p in parts)
    return out


def _returns(rewards: np.ndarray, dones: np.ndarray, values: np.ndarray,
             lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE (no discount) over samples stored episode after episode; an episode ends at a
    ``done`` (``group`` puts a seat's decisions of a round together)."""
    adv = np.zeros_like(values)
    last = 0.0
    for i in range(len(values) - 1, -1, -1):
        nxt = 0.0 if dones[i] else values[i + 1] if i + 1 < len(values) else 0.0
        if dones[i]:
            last = 0.0
        delta = rewards[i] + nxt - values[i]
        last = delta + lam * last
        adv[i] = last
    return adv, adv + values


class Trainer:
    def __init__(self, settings: Settings, log: Callable[[str], None] = print) -> None:
        self.s = settings
        self.log = log
        torch.set_num_threads(max(1, settings.threads))
        self.tables = family(settings.rules, settings.players)
        self.rules = self.tables[0]
        self.scale = value_scale(self.rules)
        self.obs_size = layout_for(self.rules).size
        self.net = model_mod.Net(self.obs_size, privileged_size(self.rules), NUM_ACTIONS,
                                 settings.hidden)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=settings.lr)
        self.iteration = 0
        self.phase = "start"
        self.league: list[dict[str, Any]] = []
        self.rng = random.Random(settings.seed)
        torch.manual_seed(settings.seed)
        self.elapsed = 0.0
        self.out = Path(settings.out)
        self.curve: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ checkpoints
    def save(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        state = {"settings": asdict(self.s), "net": self.net.state_dict(),
                 "opt": self.opt.state_dict(), "iteration": self.iteration,
                 "phase": self.phase, "league": self.league, "rng": self.rng.getstate(),
                 "torch_rng": torch.get_rng_state(), "elapsed": self.elapsed,
                 "curve": self.curve}
        tmp = self.out / "checkpoint.pt.tmp"
        torch.save(state, tmp)
        tmp.replace(self.out / "checkpoint.pt")
        with open(self.out / "curve.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=CURVE_FIELDS)
            writer.writeheader()
            writer.writerows(self.curve)
        self.export(self.out / "model")

    @classmethod
    def resume(cls, folder: str | Path, log: Callable[[str], None] = print,
               **changes: Any) -> Trainer:
        state = torch.load(Path(folder) / "checkpoint.pt", weights_only=False)
        settings = Settings(**{**state["settings"], **changes, "out": str(folder)})
        trainer = cls(settings, log)
        trainer.net.load_state_dict(state["net"])
        trainer.opt.load_state_dict(state["opt"])
        trainer.iteration = state["iteration"]
        trainer.phase = state["phase"]
        trainer.league = state["league"]
        trainer.rng.setstate(state["rng"])
        torch.set_rng_state(state["torch_rng"])
        trainer.elapsed = state["elapsed"]
        trainer.curve = state["curve"]
        return trainer

    def export(self, path: str | Path) -> Path:
        s = self.s
        imitation = f"imitation of {s.teacher} ({s.bc_rounds} rounds)"
        start = (f"started from {s.init}" + (f", then {imitation}" if s.distill else "")
                 if s.init else imitation)
        trained = (f"handfoot train --rules {s.rules} --players {s.players} --seed {s.seed}: "
                   f"{start}, then {self.iteration} self-play PPO iterations of {s.rounds} "
                   f"rounds ({self.elapsed / 60:.1f} min; the other team the current "
                   f"policy {s.self_play:.0%}, a snapshot {s.league_share:.0%}, {s.bot} the "
                   f"rest; widths {','.join(map(str, s.hidden))}, lr {s.lr:g}"
                   + (f"; {s.out_bonus:g} points of reward for going out" if s.out_bonus
                      else "") + ")")
        name = f"{s.rules.replace(',', '+')}-{s.players}p"
        return model_mod.export(self.net, self.tables, path, name=name,
                                trained=trained, scale=self.scale,
                                extra={"iterations": self.iteration,
                                       **({"out_bonus": s.out_bonus} if s.out_bonus else {})})

    # ------------------------------------------------------------------ training
    def weights(self) -> dict[str, Any]:
        return model_mod.actor_weights(self.net)

    def _seeds(self, n: int) -> Iterator[int]:
        for _ in range(n):
            yield self.rng.randrange(2**31)

    def _shares(self, total: int) -> list[int]:
        w = max(1, self.s.workers)
        return [n for n in (total // w + (i < total % w) for i in range(w)) if n]

    def warm_start(self) -> None:
        """Start from another run's network (``init``: a run folder with its checkpoint, or an
        exported model file), in place of imitation: a table of the same family, or one whose
        view adds a field (or seats), learns from where that network stands."""
        source = Path(str(self.s.init))
        try:
            old, weights = _start_from(source)
        except (OSError, ValueError, KeyError, TypeError, RuntimeError) as err:
            raise model_mod.InitError(f"--init: cannot read {source}: {err}") from None
        # Another player count is a start like any other: the seats both tables have keep
        # their weights (seat-relative fields share names), the added seats start from zero.
        zero = model_mod.warm_start(self.net, weights, old, self.rules)
        self.league.append(self.weights())
        self.log(f"started from {source} ({old.name}, {old.players} players)"
                 + (f"; new view fields from zero: {', '.join(zero)}" if zero else ""))

    def _imitation_parts(self, pool: Pool) -> list[dict[str, Any]]:
        """The teacher's rounds, job by job (``IMITATION_JOB_ROUNDS`` each, job ``j`` seeded
        by the run's seed and ``j`` alone, so the data do not depend on the workers); each
        job's samples are kept in ``DIR/imitation/part-J.npz`` as it ends and read back on a
        resume."""
        s = self.s
        folder = self.out / "imitation"
        folder.mkdir(parents=True, exist_ok=True)
        count = math.ceil(s.bc_rounds / IMITATION_JOB_ROUNDS)
        rounds = [min(IMITATION_JOB_ROUNDS, s.bc_rounds - j * IMITATION_JOB_ROUNDS)
                  for j in range(count)]
        def path(j: int) -> Path:
            return folder / f"part-{j:04d}.npz"

        parts = {j: _load_part(path(j)) for j in range(count) if path(j).is_file()}
        missing = [j for j in range(count) if j not in parts]
        if parts:
            self.log(f"imitation: {len(parts)} of {count} jobs of {s.teacher} kept from "
                     f"before")
        for i in range(0, len(missing), max(1, s.workers)):
            batch = missing[i:i + max(1, s.workers)]
            jobs = [("imitate", (s.rules, s.players, s.teacher, imitation_seed(s.seed, j),
                                 rounds[j])) for j in batch]
            for j, part in zip(batch, pool.map(jobs), strict=True):
                _save_part(path(j), part)
                parts[j] = part
            self.log(f"imitation: {len(parts)} of {count} jobs of {s.teacher} played")
        return [parts[j] for j in range(count)]

    def imitate(self, pool: Pool) -> None:
        s = self.s
        if s.bc_rounds <= 0:
            return
        start = time.perf_counter()
        parts = self._imitation_parts(pool)
        data = _merge(parts)
        obs = torch.as_tensor(data["obs"])
        priv = torch.as_tensor(data["priv"])
        masks = torch.as_tensor(data["masks"])
        actions = torch.as_tensor(data["actions"])
        o = group(parts)
        _, ret_o = _returns(data["rewards"][o], data["dones"][o],
                            np.zeros(len(o), np.float32), 1.0)
        returns = np.empty_like(ret_o)
        returns[o] = ret_o
        ret = torch.as_tensor(returns)
        n = len(actions)
        losses = []
        for _ in range(s.bc_epochs):
            perm = torch.randperm(n)
            for i in range(0, n, s.minibatch):
                idx = perm[i:i + s.minibatch]
                logits = self.net.logits(obs[idx], masks[idx])
                ce = nn_ce(logits, actions[idx])
                vloss = ((self.net.view_value(obs[idx]) - ret[idx]) ** 2).mean() + \
                    ((self.net.critic_value(obs[idx], priv[idx]) - ret[idx]) ** 2).mean()
                loss = ce + 0.5 * vloss
                self.opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.opt.step()
                losses.append((float(ce.item()), float(vloss.item())))
        with torch.no_grad():
            agree = (self.net.logits(obs, masks).argmax(-1) == actions).float().mean()
        self.elapsed += time.perf_counter() - start
        self.log(f"imitation: {n} decisions of {s.teacher}, cross-entropy "
                 f"{losses[-1][0]:.3f}, agreement {float(agree):.1%}")
        self.phase = "ppo"
        self.league.append(self.weights())
        self._evaluate(pool, "imitation", n, data["decisions"], losses[-1][0],
                       losses[-1][1], 0.0)

    def _evaluate(self, pool: Pool, phase: str, samples: int, decisions: int, ploss: float,
                  vloss: float, ent: float) -> None:
        s = self.s
        row: dict[str, Any] = {"iteration": self.iteration, "phase": phase,
                               "seconds": round(self.elapsed, 1), "samples": samples,
                               "decisions": decisions, "policy_loss": round(ploss, 4),
                               "value_loss": round(vloss, 4), "entropy": round(ent, 4),
                               "eval_margin": "", "eval_win": "", "eval_went_out": ""}
        if s.eval_deals > 0 and (phase == "imitation" or self.iteration % s.eval_every == 0):
            teams = self.rules.teams
            current = self.weights()
            per = self._shares(s.eval_deals)
            jobs = [("run", Task(s.rules, s.players, seed=1000 + i, rounds=n * teams,
                                 current=current, bot=s.bot, greedy=True, collect=False))
                    for i, n in enumerate(per)]
            data = _merge(pool.map(jobs))
            margins = data["margins"]
            row["eval_margin"] = round(float(margins.mean()), 1)
            row["eval_win"] = round(float((margins > 0).mean() + 0.5 * (margins == 0).mean()),
                                    4)
            row["eval_went_out"] = round(float(data["went_out"].mean()), 4)
            self.log(f"iteration {self.iteration}: against {s.bot} over "
                     f"{len(margins)} rounds: {row['eval_margin']:+} points a round, "
                     f"{row['eval_win']:.1%} won")
        self.curve.append(row)

    def step(self, pool: Pool) -> None:
        s = self.s
        start = time.perf_counter()
        current = self.weights()
        league = self.league[-s.league_size:]
        jobs = [("run", Task(s.rules, s.players, seed=seed, rounds=n, current=current,
                             league=league, self_play=s.self_play,
                             league_share=s.league_share, bot=s.bot,
                             out_bonus=s.out_bonus))
                for seed, n in zip(self._seeds(s.workers), self._shares(s.rounds),
                                   strict=False)]
        parts = pool.map(jobs)
        ploss, vloss, ent, n = self._update(parts)
        self.iteration += 1
        if self.iteration % s.snapshot_every == 0:
            self.league.append(current)
            self.league = self.league[-s.league_size:]
        self.elapsed += time.perf_counter() - start
        self._evaluate(pool, "ppo", n, sum(int(p["decisions"]) for p in parts), ploss, vloss,
                       ent)

    def _update(self, parts: list[dict[str, Any]]) -> tuple[float, float, float, int]:
        s = self.s
        data = _merge(parts)
        n = len(data["actions"])
        if n == 0:
            return 0.0, 0.0, 0.0, 0
        obs = torch.as_tensor(data["obs"])
        priv = torch.as_tensor(data["priv"])
        masks = torch.as_tensor(data["masks"])
        actions = torch.as_tensor(data["actions"])
        old_logp = torch.as_tensor(data["logps"])
        with torch.no_grad():
            values = self.net.critic_value(obs, priv).numpy()
        # Episodes are a seat's decisions in one round: put them together, then GAE.
        o = group(parts)
        adv_o, ret_o = _returns(data["rewards"][o], data["dones"][o], values[o], s.lam)
        adv = np.empty_like(adv_o)
        ret = np.empty_like(ret_o)
        adv[o] = adv_o
        ret[o] = ret_o
        adv_t = torch.as_tensor(adv)
        adv_t = (adv_t - adv_t.mean()) / (adv_t.std() + 1e-8)
        ret_t = torch.as_tensor(ret)
        stats = []
        for _ in range(s.epochs):
            perm = torch.randperm(n)
            for i in range(0, n, s.minibatch):
                idx = perm[i:i + s.minibatch]
                logits = self.net.logits(obs[idx], masks[idx])
                logp_all = torch.log_softmax(logits, -1)
                logp = logp_all.gather(1, actions[idx, None]).squeeze(1)
                ratio = torch.exp(logp - old_logp[idx])
                a = adv_t[idx]
                pg = -torch.min(ratio * a, ratio.clamp(1 - s.clip, 1 + s.clip) * a).mean()
                probs = logp_all.exp()
                entropy = -(torch.where(masks[idx], probs * logp_all,
                                        torch.zeros_like(probs))).sum(-1).mean()
                vl = ((self.net.critic_value(obs[idx], priv[idx]) - ret_t[idx]) ** 2).mean()
                vv = ((self.net.view_value(obs[idx]) - ret_t[idx]) ** 2).mean()
                loss = pg - s.entropy * entropy + 0.5 * (vl + vv)
                self.opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.opt.step()
                stats.append((float(pg.item()), float(vl.item()), float(entropy.item())))
        last = stats[-1]
        return last[0], last[1], last[2], n

    def train(self) -> Path:
        s = self.s
        pool = Pool(s)
        began = time.perf_counter()
        try:
            if self.phase == "start" and s.init:
                self.warm_start()
                self.phase = "imitate" if s.distill else "ppo"
                self.save()
            if self.phase in ("start", "imitate"):
                if self.phase == "start":
                    # A checkpoint before the teacher plays: --resume finds the jobs kept.
                    self.save()
                self.imitate(pool)
                self.phase = "ppo"
                self.save()
            while self.iteration < s.iterations:
                if s.minutes and time.perf_counter() - began >= s.minutes * 60:
                    self.log(f"stopping after {s.minutes:g} minutes at iteration "
                             f"{self.iteration}: handfoot train --resume {self.out}")
                    break
                self.step(pool)
                self.save()
        finally:
            pool.close()
        self.save()
        (self.out / "settings.json").write_text(json.dumps(asdict(s), indent=1) + "\n",
                                                encoding="utf-8")
        return self.out / "model.npz"


def _start_from(source: Path) -> tuple[Any, dict[str, Any]]:
    """The table a network to start from was trained for (its first), and its parameters
    under torch's names: from a run folder's checkpoint, or from an exported model file."""
    if (source / "checkpoint.pt").is_file():
        state = torch.load(source / "checkpoint.pt", weights_only=False)
        given = state["settings"]
        return family(given["rules"], given["players"])[0], dict(state["net"])
    from ..record import rules_as_played
    from ..rules import Rules

    path = source if source.suffix == ".npz" else source.with_suffix(".npz")
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    table = rules_as_played(dict(meta["tables"][0]), meta.get("rules_version", 3))
    with np.load(path, allow_pickle=False) as data:
        weights = model_mod.exported_state({k: data[k] for k in data.files})
    return Rules.from_mapping(table), weights


def imitation_seed(seed: int, job: int) -> int:
    """The seed of the teacher's ``job``-th job in a run of ``seed``."""
    return random.Random(f"imitate/{seed}/{job}").randrange(2**31)


def _save_part(path: Path, part: dict[str, Any]) -> None:
    # Written whole, then moved into place: a run stopped mid-write leaves no half of a job.
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **part)
    tmp.replace(path)


def _load_part(path: Path) -> dict[str, Any]:
    with np.load(path, allow_pickle=False) as data:
        part = {k: data[k] for k in data.files}
    part["decisions"] = int(part["decisions"])
    return part


def group(parts: list[dict[str, Any]]) -> np.ndarray:
    """An order of the merged samples in which each episode (a seat's decisions in one round,
    ``episode`` in a worker's part) is contiguous and in play order."""
    order: list[np.ndarray] = []
    offset = 0
    for p in parts:
        ep = p.get("episode")
        n = len(p["actions"])
        if ep is None or not len(ep):
            order.append(np.arange(offset, offset + n))
        else:
            order.append(offset + np.argsort(ep, kind="stable"))
        offset += n
    return np.concatenate(order) if order else np.zeros(0, np.int64)


def nn_ce(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cross_entropy(logits, target)
