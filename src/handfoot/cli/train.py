"""``handfoot train``: self-play training of a network for one table (handfoot.learn).

Imitation of the search bot, then self-play PPO against a league of past versions; the result is
a NumPy model (``DIR/model.npz`` and ``DIR/model.json``) that ``strong:path=``, ``expert:path=``
and ``policy:path=`` seat.  Needs the ``train`` extra (PyTorch); ``--backend ray`` the ``ray``
extra.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from handfoot.presets import PRESET_NAMES

from .common import UserError

# The search with the network (``expert``), worlds rather than a time budget so that the same
# seed gives the same data on any machine.
DISTILL_TEACHER = "expert:ms=0,worlds=32"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a network for a table by imitation and self-play (the train extra)",
        description="Imitation of a teacher bot, then self-play PPO against a league of past "
        "versions, with a critic that sees every hand during training only. Writes DIR/"
        "model.npz and model.json (seat it as strong:path=DIR/model.npz), a checkpoint every "
        "iteration, and DIR/curve.csv. docs/RL.md describes it.",
    )
    parser.add_argument("--rules", default="hand-and-foot", metavar="PRESET[,PRESET...]",
                        help="the preset to train for, or presets with commas for one network "
                        "that plays them all (their views must have the same fields; default: "
                        "hand-and-foot)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N",
                        help="players, 2 to 6 (default: 4)")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="the run's folder (default: runs/RULES-Np-seedS)")
    parser.add_argument("--resume", metavar="DIR", default=None,
                        help="carry on the run in DIR from its checkpoint (its settings, "
                        "with --iterations, --minutes, --workers and --backend as given)")
    parser.add_argument("--init", metavar="DIR|FILE", default=None,
                        help="start from another run's folder or a model file, in place of "
                        "imitation (a table of the same family, one whose view adds a "
                        "field, or the same game for another number of players)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=100,
                        help="PPO iterations in all (default: 100)")
    parser.add_argument("--minutes", type=float, default=0.0,
                        help="stop after this many minutes; --resume carries on (default: no "
                        "limit)")
    parser.add_argument("--rounds", type=int, default=8,
                        help="self-play rounds per iteration (default: 8)")
    parser.add_argument("--teacher", default=None,
                        help="the bot imitated first (default: search:worlds=4; with "
                        "--distill, the expert with the --init network: "
                        f"{DISTILL_TEACHER},path=MODEL)")
    parser.add_argument("--distill", action="store_true",
                        help="with --init: after the warm start, imitate the teacher too "
                        "(--bc-rounds of its play), so the network learns what the search "
                        "with it plays; then self-play as usual")
    parser.add_argument("--bc-rounds", type=int, default=None,
                        help="rounds the teacher plays for imitation (default: 40; 0 skips)")
    parser.add_argument("--lr", type=float, default=3e-4,
                        help="Adam's learning rate (default: 0.0003); a long run carried on "
                        "from a trained network may want less")
    parser.add_argument("--self-play", type=float, default=0.5, metavar="SHARE",
                        help="the share of rounds whose other team is the current policy "
                        "(default: 0.5)")
    parser.add_argument("--league-share", type=float, default=0.3, metavar="SHARE",
                        help="the share whose other team is a past snapshot (default: 0.3); "
                        "the rest play the heuristic")
    parser.add_argument("--out-bonus", type=float, default=0.0, metavar="POINTS",
                        help="reward the team that goes out with this many points more, "
                        "the others with as many less (default: 0: the round margin alone); "
                        "the model's value then includes them")
    parser.add_argument("--hidden", default="128,128",
                        help="hidden layer widths (default: 128,128)")
    parser.add_argument("--workers", type=int, default=2,
                        help="rollout workers (processes, or Ray actors) (default: 2)")
    parser.add_argument("--backend", choices=["process", "ray"], default="process")
    parser.add_argument("--ray-address", default=None,
                        help="a Ray cluster's address (default: start a local one)")
    parser.add_argument("--eval-deals", type=int, default=16,
                        help="deals against the heuristic at each evaluation (default: 16)")
    parser.add_argument("--eval-every", type=int, default=5)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("torch") is None:
        raise UserError("handfoot train needs PyTorch: pip install torch 'handfoot[train]'")
    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        raise UserError("--backend ray needs Ray: pip install 'handfoot[ray]'")
    if not 1 <= args.workers <= 1024 or not 1 <= args.rounds <= 100_000 \
            or args.iterations < 0 or (args.bc_rounds or 0) < 0 or not args.minutes >= 0:
        raise UserError("--workers and --rounds must be at least 1, --iterations, "
                        "--bc-rounds and --minutes at least 0")
    if not (0 <= args.self_play <= 1 and 0 <= args.league_share <= 1
            and args.self_play + args.league_share <= 1):
        raise UserError(f"--self-play {args.self_play} and --league-share "
                        f"{args.league_share} must be shares from 0 to 1 adding up to at "
                        "most 1 (the rest of the rounds play the heuristic)")
    if not 0 <= args.out_bonus <= 10_000:
        raise UserError(f"--out-bonus: {args.out_bonus!r} points is not from 0 to 10000")
    if not 0 < args.lr <= 1:
        raise UserError(f"--lr: {args.lr!r} is not a learning rate between 0 and 1")
    try:
        hidden = [int(x) for x in args.hidden.split(",") if x.strip()]
    except ValueError:
        hidden = []
    if not hidden or not all(1 <= h <= 4096 for h in hidden):
        raise UserError(f"--hidden: {args.hidden!r} is not widths such as 128,128")
    if args.resume and args.init:
        raise UserError("--init starts a new run; --resume carries one on: give one of them")
    if args.resume and not Path(args.resume, "checkpoint.pt").is_file():
        raise UserError(f"--resume: no checkpoint.pt in {args.resume}")
    unknown = [n for n in args.rules.split(",") if n.strip() not in PRESET_NAMES]
    if unknown or not args.rules.strip():
        raise UserError(f"--rules: unknown preset {unknown[0].strip() if unknown else ''!r} "
                        f"(choose from {', '.join(PRESET_NAMES)})")
    if args.distill and not args.init:
        raise UserError("--distill refines a trained network: give it with --init")
    teacher = args.teacher or "search:worlds=4"
    if args.init:
        init = Path(args.init)
        if not (init / "checkpoint.pt").is_file() and not init.with_suffix(".npz").is_file() \
                and not (init.suffix == ".npz" and init.is_file()):
            raise UserError(f"--init: {args.init} is neither a run folder with checkpoint.pt "
                            "nor a model file (.npz with its .json)")
        if args.distill and args.teacher is None:
            model = init / "model.npz" if init.is_dir() else init.with_suffix(".npz")
            teacher = f"{DISTILL_TEACHER},path={model}"
    from handfoot.bots import BotError, make_bot

    try:
        make_bot(teacher)
    except BotError as err:
        raise UserError(f"--teacher: {err}") from None
    from handfoot.learn.model import InitError
    from handfoot.learn.rollout import family
    from handfoot.learn.train import Settings, Trainer

    try:
        family(args.rules, args.players)
    except ValueError as err:
        raise UserError(f"--rules: {err}") from None

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if args.init and not args.distill and (args.teacher or args.bc_rounds is not None):
        log("--teacher and --bc-rounds are not used: a run started from --init skips "
            "imitation (--distill imitates after the start)")

    given = {"iterations": args.iterations, "minutes": args.minutes,
             "workers": args.workers, "backend": args.backend,
             "ray_address": args.ray_address}
    if args.resume:
        trainer = Trainer.resume(args.resume, log, **given)
    else:
        name = ",".join(n.strip() for n in args.rules.split(",")).replace(",", "+")
        out = args.out or f"runs/{name}-{args.players}p-seed{args.seed}"
        settings = Settings(rules=name.replace("+", ","), players=args.players, out=out,
                            seed=args.seed, init=args.init, distill=args.distill,
                            hidden=hidden, teacher=teacher,
                            bc_rounds=40 if args.bc_rounds is None else args.bc_rounds,
                            rounds=args.rounds, lr=args.lr, self_play=args.self_play,
                            league_share=args.league_share, out_bonus=args.out_bonus,
                            eval_deals=args.eval_deals,
                            eval_every=args.eval_every, **given)
        trainer = Trainer(settings, log)
    try:
        path = trainer.train()
    except InitError as err:
        raise UserError(str(err)) from None
    print(f"wrote {path} (seat it as strong:path={path})")
    return 0
