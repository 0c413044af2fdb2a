"""Export a MaskablePPO zip to the NumPy model the ``policy`` bot plays without torch, and
record in both files the table the model was trained for.

    python examples/export_policy.py examples/policy-hand-and-foot.zip \
        --rules hand-and-foot --players 4 --out src/handfoot/bots/models/hand-and-foot-4p

writes ``OUT.npz`` (the actor's and the critic's weights, plain arrays) and ``OUT.json`` (the
metadata: the full rules of every table it was trained for, sizes, layers), and adds the same
metadata to the zip as its member ``handfoot.json`` unless ``--no-stamp``.  Needs the ``train``
extra (torch, sb3-contrib).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sb3_contrib import MaskablePPO

from handfoot.bots import network
from handfoot.bots.observation import layout_for
from handfoot.env.indexed import make_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, help="a MaskablePPO zip")
    parser.add_argument("--rules", default="hand-and-foot", help="the preset it was trained on")
    parser.add_argument("--players", type=int, nargs="+", default=[4],
                        help="the player counts it was trained for")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--out", type=Path, required=True, help="OUT.npz and OUT.json")
    parser.add_argument("--trained", default="", help="a line on how it was trained")
    parser.add_argument("--no-stamp", action="store_true", help="leave the zip as it is")
    args = parser.parse_args()
    model = MaskablePPO.load(args.model, device="cpu")
    tables = [make_rules(args.rules, n, args.rounds) for n in args.players]
    sizes = {layout_for(r).size for r in tables}
    size = int(model.observation_space.shape[0])
    if sizes != {size}:
        parser.error(f"the model takes {size} numbers; these tables have {sorted(sizes)}")
    meta = network.sb3_metadata(model, tables, args.out.name, args.trained)
    out = network.export_sb3(model, meta, args.out)
    if not args.no_stamp:
        network.stamp_zip(args.model, meta)
    print(f"wrote {out} and {out.with_suffix('.json')} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
