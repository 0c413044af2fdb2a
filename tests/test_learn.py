"""handfoot.learn and ``handfoot train``: a tiny run end to end, its model seated by the bots,
the NumPy forward equal to torch's on the trained weights, and a resumed run; the slow test
trains a few steps on a local Ray cluster."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from handfoot.bots import make_bot, network
from handfoot.bots.base import BotError, ask
from handfoot.cli.main import main
from handfoot.engine import Game
from handfoot.presets import preset

TINY = ["train", "--rules", "hand-and-foot", "--players", "2", "--iterations", "1",
        "--rounds", "1", "--teacher", "heuristic", "--bc-rounds", "1", "--workers", "1",
        "--eval-deals", "1", "--eval-every", "1", "--hidden", "16"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch")
    out = tmp_path_factory.mktemp("train") / "run"
    assert main([*TINY, "--out", str(out)]) == 0
    return out


@pytest.mark.slow  # a training run of ~10 s: the full run
def test_train_writes_a_model_the_bots_seat(tiny_run: Path) -> None:
    meta = json.loads((tiny_run / "model.json").read_text())
    assert meta["format"] == network.FORMAT and meta["players"] == [2]
    assert meta["value_scale"] > 0 and meta["layers"] == [16]
    rules = preset("hand-and-foot", 2).replace(rounds=1)
    path = str(tiny_run / "model.npz")
    for spec in (f"strong:path={path}", f"policy:path={path}",
                 f"expert:path={path},ms=0,worlds=1,width=2"):
        game = Game.new(rules, seed=3)
        bots = [make_bot(spec, seed=1), make_bot("casual", seed=2)]
        for _ in range(40):
            legal = game.legal_actions()
            action = ask(bots[game.actor], game)
            assert action in legal
            game.apply(action)
    # A model for two players refuses a four-player table in one line.
    game = Game.new(preset("hand-and-foot", 4).replace(rounds=1), seed=1)
    with pytest.raises(Exception, match="trained for hand-and-foot with 2 players"):
        ask(make_bot(f"strong:path={path}"), game)
    curve = (tiny_run / "curve.csv").read_text().splitlines()
    assert curve[0].startswith("iteration,phase") and len(curve) == 3


@pytest.mark.slow  # a training run of ~10 s: the full run
def test_numpy_forward_equals_torch_on_the_trained_weights(tiny_run: Path) -> None:
    import torch

    from handfoot.learn.train import Trainer

    trainer = Trainer.resume(tiny_run)
    model = network.load_npz(tiny_run / "model.npz")
    obs = np.random.default_rng(0).normal(size=(8, model.observation_size)).astype(np.float32)
    mask = np.ones((8, model.actions), dtype=bool)
    with torch.no_grad():
        logits = trainer.net.logits(torch.as_tensor(obs), torch.as_tensor(mask)).numpy()
        values = trainer.net.view_value(torch.as_tensor(obs)).numpy()
    assert np.allclose(model.logits(obs), logits, atol=1e-5)
    assert np.allclose(model.values(obs), values, atol=1e-5)


@pytest.mark.slow  # a training run of ~10 s: the full run
def test_a_run_resumes_from_its_checkpoint(tiny_run: Path) -> None:
    assert main(["train", "--resume", str(tiny_run), "--iterations", "2", "--workers", "1"]) == 0
    rows = (tiny_run / "curve.csv").read_text().splitlines()
    assert rows[-1].startswith("2,ppo")
    assert json.loads((tiny_run / "model.json").read_text())["iterations"] == 2


@pytest.mark.slow  # two tiny runs of ~5 s: the full run
def test_distill_imitates_the_search_with_the_start_network_and_keeps_each_job(
        tiny_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """--distill after --init: the expert with the start network plays, each job of its rounds
    is kept on disk, and a run that finds the jobs kept trains the very same network."""
    from handfoot.learn import train

    monkeypatch.setattr(train, "IMITATION_JOB_ROUNDS", 1)
    model = tiny_run / "model.npz"
    argv = [*TINY[:TINY.index("--teacher")], *TINY[TINY.index("--bc-rounds") + 2:]]
    argv += ["--init", str(model), "--distill", "--bc-rounds", "2", "--iterations", "0",
             "--teacher", f"expert:ms=0,worlds=1,width=2,path={model}"]
    first, second = tmp_path / "first", tmp_path / "second"
    assert main([*argv, "--out", str(first)]) == 0
    assert sorted(p.name for p in (first / "imitation").iterdir()) == \
        ["part-0000.npz", "part-0001.npz"]
    meta = json.loads((first / "model.json").read_text())
    assert f"started from {model}, then imitation of expert:" in meta["trained"]
    assert "imitation: 2 of 2 jobs" in capsys.readouterr().err
    (second / "imitation").mkdir(parents=True)
    for part in (first / "imitation").iterdir():
        (second / "imitation" / part.name).write_bytes(part.read_bytes())
    assert main([*argv, "--out", str(second)]) == 0
    assert "2 of 2 jobs of expert:ms=0,worlds=1,width=2" in capsys.readouterr().err
    with np.load(first / "model.npz") as a, np.load(second / "model.npz") as b:
        assert a.files == b.files and all(np.array_equal(a[k], b[k]) for k in a.files)


def test_numpy_forward_equals_torch_on_exported_weights(tmp_path: Path) -> None:
    """The play-time NumPy network computes what torch computes, on weights as exported (a
    fresh network: the trained run's own check is in the full run)."""
    torch = pytest.importorskip("torch")
    from handfoot.learn.model import Net, export

    torch.manual_seed(0)
    net = Net(obs=40, priv=8, actions=12, hidden=[16, 16])
    rules = preset("hand-and-foot", 2)
    model = network.load_npz(export(net, [rules], tmp_path / "m", "test", "test", 1000.0))
    obs = np.random.default_rng(0).normal(size=(8, 40)).astype(np.float32)
    mask = np.ones((8, 12), dtype=bool)
    with torch.no_grad():
        logits = net.logits(torch.as_tensor(obs), torch.as_tensor(mask)).numpy()
        values = net.view_value(torch.as_tensor(obs)).numpy()
    assert np.allclose(model.logits(obs), logits, atol=1e-5)
    assert np.allclose(model.values(obs), values, atol=1e-5)
    # Each file is moved into place whole: nothing half-written is left beside them.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "m.npz"]


def test_a_network_warm_started_at_a_table_with_one_more_field_plays_as_before(
        tmp_path: Path) -> None:
    """--init into hand-and-foot-13, whose view adds the passes of a stock that runs out: with
    that field at any value the new network's logits and values equal the old network's on the
    vector without it (the field's weights start at zero), and the critic, absent from an
    exported model, starts as the view value."""
    torch = pytest.importorskip("torch")
    from handfoot.bots.observation import layout_for
    from handfoot.learn.model import Net, actor_weights, exported_state, warm_start
    from handfoot.learn.rollout import privileged_size

    old_rules, new_rules = preset("hand-and-foot", 4), preset("hand-and-foot-13", 4)
    old_size, new_size = layout_for(old_rules).size, layout_for(new_rules).size
    torch.manual_seed(1)
    old = Net(old_size, privileged_size(old_rules), 133, [16, 16])
    new = Net(new_size, privileged_size(new_rules), 133, [16, 16])
    zero = warm_start(new, exported_state(actor_weights(old)), old_rules, new_rules)
    assert zero == ["passes"]
    passes = layout_for(new_rules).field("passes")
    vec = np.random.default_rng(2).normal(size=(5, new_size)).astype(np.float32)
    without = np.delete(vec, range(passes.start, passes.stop), axis=1)
    priv = torch.zeros(5, privileged_size(new_rules))
    mask = torch.ones(5, 133, dtype=torch.bool)
    with torch.no_grad():
        for a, b in ((new.logits(torch.as_tensor(vec), mask),
                      old.logits(torch.as_tensor(without), mask)),
                     (new.view_value(torch.as_tensor(vec)),
                      old.view_value(torch.as_tensor(without))),
                     (new.critic_value(torch.as_tensor(vec), priv),
                      old.view_value(torch.as_tensor(without)))):
            assert np.allclose(a.numpy(), b.numpy(), atol=1e-5)


def test_a_network_warm_started_for_more_players_keeps_the_seats_both_tables_have() -> None:
    """--init from four players into six: seat-relative fields share their names, so the six-
    player network reads a view as the four-player one read the same seats, the two added seats
    and the fields whose size follows the seat count (whose turn, the dealer) from zero."""
    torch = pytest.importorskip("torch")
    from handfoot.bots.observation import layout_for
    from handfoot.learn.model import Net, actor_weights, exported_state, warm_start
    from handfoot.learn.rollout import privileged_size

    old_rules, new_rules = preset("hand-knee-foot", 4), preset("hand-knee-foot", 6)
    old_layout, new_layout = layout_for(old_rules), layout_for(new_rules)
    torch.manual_seed(3)
    old = Net(old_layout.size, privileged_size(old_rules), 133, [16, 16])
    new = Net(new_layout.size, privileged_size(new_rules), 133, [16, 16])
    zero = warm_start(new, exported_state(actor_weights(old)), old_rules, new_rules)
    assert {"seat4.hand_size", "seat5.known", "turn_seat", "dealer"} <= set(zero)
    assert "seat2.hand_size" not in zero and "team1.melds" not in zero
    vec = np.random.default_rng(4).normal(size=(3, new_layout.size)).astype(np.float32)
    # The four-player view of the same seats: each field it shares, the others at zero.
    four = np.zeros((3, old_layout.size), dtype=np.float32)
    for f in old_layout.fields():
        if f.name not in zero:
            g = new_layout.field(f.name)
            four[:, f.start:f.stop] = vec[:, g.start:g.stop]
    mask = torch.ones(3, 133, dtype=torch.bool)
    with torch.no_grad():
        a = new.logits(torch.as_tensor(vec), mask)
        b = old.logits(torch.as_tensor(four), mask)
    assert np.allclose(a.numpy(), b.numpy(), atol=1e-5)


def test_a_network_warm_started_wider_computes_what_the_narrow_one_did() -> None:
    """--init with wider --hidden: the old units keep their weights and nothing leaves the added
    ones, so actor, view value and critic give the narrow network's outputs; yet the added
    units are not dead (they have their own weights in, and a gradient out)."""
    torch = pytest.importorskip("torch")
    from handfoot.bots.observation import layout_for
    from handfoot.learn.model import InitError, Net, warm_start
    from handfoot.learn.rollout import privileged_size

    rules = preset("hand-and-foot", 4)
    size, priv = layout_for(rules).size, privileged_size(rules)
    torch.manual_seed(5)
    old = Net(size, priv, 133, [16, 12])
    wide = Net(size, priv, 133, [24, 20])
    assert warm_start(wide, old.state_dict(), rules, rules) == []
    vec = torch.as_tensor(np.random.default_rng(6).normal(size=(4, size)).astype(np.float32))
    hidden = torch.as_tensor(np.random.default_rng(7).normal(size=(4, priv)).astype(np.float32))
    mask = torch.ones(4, 133, dtype=torch.bool)
    with torch.no_grad():
        for a, b in ((wide.logits(vec, mask), old.logits(vec, mask)),
                     (wide.view_value(vec), old.view_value(vec)),
                     (wide.critic_value(vec, hidden), old.critic_value(vec, hidden))):
            assert np.allclose(a.numpy(), b.numpy(), atol=1e-5)
    assert float(wide.pi[0].weight[16:].detach().abs().sum()) > 0  # the added units read the view
    wide.view_value(vec).sum().backward()
    assert wide.value.weight.grad is not None
    assert float(wide.value.weight.grad[0, 12:].abs().sum()) > 0  # and learn to be read
    with pytest.raises(InitError, match="as wide or wider"):
        warm_start(Net(size, priv, 133, [8, 12]), old.state_dict(), rules, rules)
    with pytest.raises(InitError, match="2 hidden layers, this one 3"):
        warm_start(Net(size, priv, 133, [16, 12, 12]), old.state_dict(), rules, rules)


def test_a_network_for_several_tables_needs_views_of_the_same_fields() -> None:
    from handfoot.learn.rollout import family

    assert [t.name for t in family("hand-and-foot, hand-and-foot-classic", 4)] == [
        "hand-and-foot", "hand-and-foot-classic"]
    with pytest.raises(ValueError, match="hand-and-foot-13 and hand-and-foot cannot share"):
        family("hand-and-foot,hand-and-foot-13", 4)
    with pytest.raises(ValueError, match="hand-knee-foot and hand-and-foot cannot share"):
        family("hand-and-foot,hand-knee-foot", 4)
    with pytest.raises(ValueError, match="name each preset once"):
        family("hand-and-foot,hand-and-foot", 4)


@pytest.mark.parametrize(("argv", "words"), [
    (["--rules", "hand-and-foot,nonesuch"], "unknown preset 'nonesuch'"),
    (["--rules", "hand-and-foot,hand-knee-foot"], "cannot share a network"),
    (["--init", "no/such/run"], "neither a run folder"),
    (["--init", "x", "--resume", "y"], "give one of them"),
    (["--out-bonus", "-5"], "--out-bonus: -5.0 points is not from 0 to 10000"),
    (["--out-bonus", "nan"], "--out-bonus: nan points"),
])
def test_train_refuses_tables_that_cannot_share_and_a_missing_start(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    assert main(["train", *argv]) == 2
    assert words in capsys.readouterr().err


def _casual_round(ended_by: str) -> Game:
    """The first single round of hand-and-foot that four casual bots end this way."""
    for seed in range(100):
        game = Game.new(preset("hand-and-foot", 4).replace(rounds=1), seed=seed)
        bots = [make_bot("casual", seed=seed + s) for s in range(4)]
        while not game.over:
            game.apply(ask(bots[game.actor], game))
        if str(game.results[-1].ended_by) == ended_by:
            return game
    raise AssertionError(f"no round of 100 ended by {ended_by}")


def test_the_going_out_bonus_pays_the_team_that_went_out_and_charges_the_others() -> None:
    """--out-bonus shapes the reward only: the side that went out gets the points, the other
    as many less; a round that ran out of stock keeps the plain margin."""
    from handfoot.learn.rollout import margin, shaped

    out, dry = _casual_round("went_out"), _casual_round("stock_out")
    team = out.results[-1].went_out % 2
    assert shaped(out, team, 500) == margin(out, team) + 500
    assert shaped(out, 1 - team, 500) == margin(out, 1 - team) - 500
    assert shaped(out, team, 0) == margin(out, team)
    assert shaped(dry, 0, 500) == margin(dry, 0) and shaped(dry, 1, 500) == margin(dry, 1)


def test_the_expert_scores_a_finished_round_with_the_going_out_reward_its_network_learned(
) -> None:
    """A network trained with --out-bonus values positions with that reward in; the expert
    adds it to a finished round's real margin too, so the two leaves are in one unit."""
    from handfoot.bots.evaluate import value as real_margin
    from handfoot.bots.levels import ExpertBot
    from handfoot.views import view

    game = _casual_round("went_out")
    out_team = game.results[-1].went_out % 2
    expert = ExpertBot(seed=1)
    expert._prepare(game.rules)
    seen = view(game, 0)
    assert expert._leaf(game, seen) == real_margin(game, 0, 1)
    expert._out_bonus = 400.0
    sign = 1 if out_team == 0 else -1
    assert expert._leaf(game, seen) == real_margin(game, 0, 1) + sign * 400


def test_train_says_so_when_the_network_to_start_from_is_damaged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    (tmp_path / "m.npz").write_bytes(b"not a model")
    assert main(["train", *TINY[1:], "--init", str(tmp_path / "m.npz"), "--out",
                 str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "--init: cannot read" in err and "m.json" in err and "Traceback" not in err


@pytest.mark.slow  # two tiny training runs of ~5 s: the full run
def test_one_network_trains_for_two_tables_and_seats_at_each(tmp_path: Path) -> None:
    """A run for hand-and-foot and hand-and-foot-classic writes one model that records both
    tables, seats at each and refuses a third; a run started from it (--init) for
    pennies-from-heaven, whose view adds a field, trains on from it."""
    pytest.importorskip("torch")
    both = tmp_path / "both"
    argv = [a for a in TINY if a not in ("--rules", "hand-and-foot")]
    assert main([*argv, "--rules", "hand-and-foot,hand-and-foot-classic", "--out-bonus", "300",
                 "--out", str(both)]) == 0
    meta = json.loads((both / "model.json").read_text())
    assert meta["out_bonus"] == 300 and "300 points of reward for going out" in meta["trained"]
    assert [t["name"] for t in meta["tables"]] == ["hand-and-foot", "hand-and-foot-classic"]
    for name in ("hand-and-foot", "hand-and-foot-classic"):
        game = Game.new(preset(name, 2).replace(rounds=1), seed=3)
        bot = make_bot(f"strong:path={both / 'model.npz'}", seed=1)
        for _ in range(30):
            game.apply(ask(bot, game))
    with pytest.raises(BotError, match="trained for hand-and-foot with 2 players; "
                       "hand-and-foot-classic with 2 players, but this table"):
        ask(make_bot(f"strong:path={both / 'model.npz'}", seed=1),
            Game.new(preset("hand-and-foot-13", 2), seed=3))
    pennies = tmp_path / "pennies"
    assert main([*argv, "--rules", "pennies-from-heaven", "--init", str(both), "--out",
                 str(pennies)]) == 0
    meta = json.loads((pennies / "model.json").read_text())
    assert "started from" in meta["trained"] and meta["tables"][0]["name"] == \
        "pennies-from-heaven"


def test_the_default_install_plays_every_level_without_torch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from handfoot.cli.main import build_parser; build_parser()\n"
        "from handfoot.bots import make_bot\nfrom handfoot.bots.base import ask\n"
        "from handfoot.engine import Game\nfrom handfoot.presets import preset\n"
        "g = Game.new(preset('hand-and-foot').replace(rounds=1), seed=4)\n"
        "bots = [make_bot(b, seed=1) for b in ('strong', 'beginner', 'expert:ms=2', 'casual')]\n"
        "for _ in range(60):\n    g.apply(ask(bots[g.actor], g))\n"
        "print([m for m in ('torch', 'handfoot.learn') if sys.modules.get(m)])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out == "[]\n"


@pytest.mark.slow
def test_training_on_a_local_ray_cluster(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        out = tmp_path / "ray"
        assert main([*TINY, "--iterations", "2", "--workers", "2", "--rounds", "2",
                     "--backend", "ray", "--out", str(out)]) == 0
        assert network.load_npz(out / "model.npz").actions > 0
    finally:
        ray.shutdown()


def test_bots_never_import_the_environment_or_training_at_module_level() -> None:
    import ast

    folder = Path(__file__).parent.parent / "src" / "handfoot" / "bots"
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:  # module level only: imports inside functions are lazy
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                assert not module.startswith(("..env", "..learn", "handfoot.env",
                                              "handfoot.learn")), (path.name, module)
