"""Train a Hand and Foot agent with sb3-contrib's MaskablePPO on the CPU, then let the arena
measure it.

The learner plays both seats of team 0 (each decision from the acting seat's own view) in the
Gymnasium wrapper (handfoot.env.HandfootEnv); handfoot bots hold the other seats: ``random``
first, then ``basic``.  Every ``--eval-every`` steps the deterministic policy plays a fixed set
of games against each of the two bots, and the mean score difference per game goes to a CSV
file; ``--plot`` draws it.  The model is saved as a zip that ``handfoot arena`` seats:

    pip install torch==2.13.0 && pip install -e ".[train]"   # CPU torch first
    nice -n 10 python examples/train_maskable_ppo.py --out examples/policy-hand-and-foot.zip \
        --plot docs/rl-learning-curve.png
    handfoot arena --bots policy:path=examples/policy-hand-and-foot.zip random --deals 100

docs/RL.md reports a run (its time, curve and arena results).
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

from handfoot.bots import network
from handfoot.env import HandfootEnv
from handfoot.env.indexed import make_rules


def make_env(rules: str, players: int, opponents: str, seed: int) -> Any:
    def build() -> Monitor:
        env = HandfootEnv(rules, players=players, opponents=opponents)
        env.reset(seed=seed)
        return Monitor(env)
    return build


def vec_env(args: argparse.Namespace, opponents: str, seed: int) -> VecNormalize:
    envs = DummyVecEnv([make_env(args.rules, args.players, opponents, seed + i * 1000003)
                        for i in range(args.envs)])
    # Rewards only: round scores swing by thousands of points between rule sets and opponents.
    return VecNormalize(envs, norm_obs=False, norm_reward=True, gamma=args.gamma)


def evaluate(model: MaskablePPO, rules: str, players: int, opponents: str, games: int,
             seed: int) -> tuple[float, float]:
    """Mean score difference per game (points) and the share of games won, on fixed seeds."""
    env = HandfootEnv(rules, players=players, opponents=opponents, reward_scale=1.0)
    diffs = []
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        total = 0.0
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        diffs.append(total)
    return float(np.mean(diffs)), float(np.mean([d > 0 for d in diffs]))


class Curve(BaseCallback):
    """Evaluates every ``every`` steps and appends rows to the CSV file."""

    def __init__(self, args: argparse.Namespace, writer: Any, handle: Any, start: float,
                 phase: str, offset: int) -> None:
        super().__init__()
        self.args = args
        self.writer = writer
        self.handle = handle
        self.start = start
        self.phase = phase
        self.offset = offset
        self.next_eval = args.eval_every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.next_eval += self.args.eval_every
            self.record()
        return True

    def record(self) -> None:
        steps = self.offset + self.num_timesteps
        row: dict[str, Any] = {"steps": steps, "phase": self.phase,
                               "minutes": round((time.time() - self.start) / 60, 2)}
        buffer = self.model.ep_info_buffer
        row["train_return"] = (round(float(np.mean([e["r"] for e in buffer])), 3)
                               if buffer else "")
        for opp in ("random", "basic"):
            diff, wins = evaluate(self.model, self.args.rules, self.args.players, opp,
                                  self.args.eval_games, 10_000_000)
            row[f"vs_{opp}"] = round(diff, 1)
            row[f"wins_vs_{opp}"] = round(wins, 3)
        self.writer.writerow(row)
        self.handle.flush()
        print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)


def plot(csv_path: Path, png: Path, rules: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader(csv_path.open()))
    steps = [int(r["steps"]) / 1e6 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for opp, colour in (("random", "tab:blue"), ("basic", "tab:red")):
        ax.plot(steps, [float(r[f"vs_{opp}"]) for r in rows], marker="o", color=colour,
                label=f"against {opp} (mean score difference per game)")
    first = [int(r["steps"]) / 1e6 for r in rows if r["phase"] == "random"]
    if len(first) < len(rows):
        ax.axvline(first[-1], color="grey", linestyle=":", label="training switches to basic")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xlabel("training steps (millions of learner decisions)")
    ax.set_ylabel("points per game (learner's team minus the bots')")
    ax.set_title(f"MaskablePPO on {rules}: the deterministic policy on fixed deals")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="hand-and-foot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps-random", type=int, default=400_000,
                        help="learner decisions against random bots")
    parser.add_argument("--steps-basic", type=int, default=600_000,
                        help="then learner decisions against basic bots")
    parser.add_argument("--envs", type=int, default=8, help="games played side by side")
    parser.add_argument("--gamma", type=float, default=0.997)
    parser.add_argument("--eval-every", type=int, default=100_000)
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("policy-hand-and-foot.zip"))
    parser.add_argument("--csv", type=Path, default=None,
                        help="the learning curve's rows (default: beside --out)")
    parser.add_argument("--plot", type=Path, default=None, help="draw the curve to this PNG")
    parser.add_argument("--plot-only", action="store_true",
                        help="draw --plot from an existing --csv file, without training")
    args = parser.parse_args()
    if args.plot_only:
        if not (args.csv and args.plot):
            parser.error("--plot-only needs --csv and --plot")
        plot(args.csv, args.plot, args.rules)
        return
    torch.set_num_threads(1)
    csv_path = args.csv or args.out.with_suffix(".csv")
    start = time.time()
    fields = ["steps", "phase", "minutes", "train_return", "vs_random", "wins_vs_random",
              "vs_basic", "wins_vs_basic"]
    with csv_path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        model = MaskablePPO(
            "MlpPolicy", vec_env(args, "random", args.seed), n_steps=512, batch_size=1024,
            n_epochs=4, gamma=args.gamma, gae_lambda=0.95, ent_coef=0.01, learning_rate=3e-4,
            policy_kwargs={"net_arch": [128, 128]}, seed=args.seed, device="cpu", verbose=0,
        )
        curve = Curve(args, writer, handle, start, "random", 0)
        curve.model = model
        curve.record()
        model.learn(args.steps_random, callback=curve)
        if args.steps_basic:
            model.set_env(vec_env(args, "basic", args.seed + 1))
            curve = Curve(args, writer, handle, start, "basic", model.num_timesteps)
            model.learn(args.steps_basic, callback=curve, reset_num_timesteps=True)
            curve.record()
    model.save(args.out)
    # The model records the table it was trained for; the policy bot refuses any other.
    table = make_rules(args.rules, args.players)
    trained = (f"train_maskable_ppo.py seed {args.seed}: {args.steps_random} decisions "
               f"against random, {args.steps_basic} against basic")
    network.stamp_zip(args.out, network.sb3_metadata(model, [table], args.out.stem, trained))
    minutes = (time.time() - start) / 60
    print(f"saved {args.out} after {minutes:.1f} minutes; curve in {csv_path}")
    if args.plot:
        plot(csv_path, args.plot, args.rules)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
