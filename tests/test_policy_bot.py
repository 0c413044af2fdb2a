"""The ``policy`` bot: a trained MaskablePPO model seated like any bot (``policy:path=FILE``).

Without the training packages the bot still parses and refuses in one line; with them
(sb3-contrib and torch, the ``train`` extra) a small model is trained here, saved, loaded
lazily and played in the arena, every choice one of the engine's legal actions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from handfoot.bots import BotError, make_bot
from handfoot.cli.main import main

EXAMPLE = Path(__file__).parent.parent / "examples" / "policy-hand-and-foot.zip"


SHIPPED = Path(__file__).parent.parent / "src" / "handfoot" / "bots" / "models"


def first_decisions(rules: str = "hand-and-foot", players: int = 4, seed: int = 9,
                    count: int = 60) -> list[tuple[object, list[object]]]:
    """Views and legal lists of the first decisions of a game the heuristic bot plays."""
    from handfoot.bots.base import ask
    from handfoot.engine import Game
    from handfoot.presets import preset
    from handfoot.views import view

    game = Game.new(preset(rules, players), seed=seed)
    bot = make_bot("heuristic", seed=seed)
    out = []
    while len(out) < count and not game.over:
        out.append((view(game, game.actor), list(game.legal_actions())))
        game.apply(ask(bot, game))
    return out


def test_policy_without_a_path_plays_the_shipped_model_without_torch() -> None:
    """NumPy only: torch and sb3-contrib made unimportable in a fresh interpreter."""
    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['sb3_contrib'] = None\n"
        "from handfoot.bots import make_bot\nfrom handfoot.bots.base import ask\n"
        "from handfoot.engine import Game\nfrom handfoot.presets import preset\n"
        "g = Game.new(preset('hand-and-foot').replace(rounds=1), seed=4)\n"
        "bots = [make_bot('policy'), make_bot('random', seed=1)]\n"
        "while not g.over:\n"
        "    a = ask(bots[g.actor % 2], g)\n    assert a in g.legal_actions()\n"
        "    g.apply(a)\n"
        "print(len(g.results), 'torch' in sys.modules and sys.modules['torch'] is not None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out == "1 False\n"


@pytest.mark.parametrize(("rules", "players", "words"), [
    ("hand-and-foot-classic", 4, ["differs from hand-and-foot in 10 settings", "packets"]),
    ("hand-and-foot", 2, ["players", "team_size", "decks"]),
    ("hand-and-foot-13", 4, ["packets"]),
])
def test_a_model_refuses_a_table_it_was_not_made_for(rules: str, players: int,
                                                      words: list[str]) -> None:
    pytest.importorskip("numpy")
    from handfoot.bots.levels import shipped_tables

    view, legal = first_decisions(rules, players, count=1)[0]
    # The example model named by its path refuses a table it was not trained for, in a line.
    bot = make_bot(f"policy:path={SHIPPED / 'hand-and-foot-4p.npz'}")
    with pytest.raises(BotError) as caught:
        bot.choose(view, legal)  # type: ignore[arg-type]
    message = str(caught.value)
    assert "\n" not in message and "trained for hand-and-foot with 4 players" in message
    for word in words:
        assert word in message
    # Unnamed, the bot looks for a shipped model; where none fits it refuses the same way.
    if f"{rules}/{players}p" not in shipped_tables():
        with pytest.raises(BotError, match="trained for hand-and-foot with 4 players"):
            make_bot("policy").choose(view, legal)  # type: ignore[arg-type]


def test_a_model_plays_its_table_at_any_length() -> None:
    pytest.importorskip("numpy")
    from handfoot.engine import Game
    from handfoot.presets import preset
    from handfoot.views import view

    bot = make_bot("policy")
    for rules in (preset("hand-and-foot"), preset("hand-and-foot").replace(rounds=1),
                  preset("hand-and-foot").replace(turn_cap=200)):
        game = Game.new(rules, seed=2)
        assert bot.choose(view(game, game.actor), game.legal_actions()) in game.legal_actions()


def test_the_numpy_forward_equals_torchs_on_the_same_weights() -> None:
    """The shipped arrays evaluated with NumPy, against torch evaluating the example zip's own
    state dict (sb3's MlpPolicy: Linear-tanh layers, then the action and value heads): the
    same logits, values and masked choices."""
    torch = pytest.importorskip("torch")
    import io
    import zipfile

    import numpy as np

    from handfoot.bots import network
    from handfoot.bots.observation import encode
    from handfoot.env.indexed import index_of

    if not EXAMPLE.exists():
        pytest.skip("no example model committed")
    with zipfile.ZipFile(EXAMPLE) as archive:
        state = torch.load(io.BytesIO(archive.read("policy.pth")), map_location="cpu",
                           weights_only=True)
    net = network.load_npz(SHIPPED / "hand-and-foot-4p.npz")
    decisions = first_decisions(count=80) + first_decisions(seed=10, count=80)
    obs = np.stack([encode(v) for v, _ in decisions])  # type: ignore[arg-type]
    F = torch.nn.functional

    def tower(x: object, name: str) -> object:
        for i in (0, 2):  # Linear, Tanh, Linear, Tanh
            x = torch.tanh(F.linear(x, state[f"mlp_extractor.{name}.{i}.weight"],
                                    state[f"mlp_extractor.{name}.{i}.bias"]))
        return x

    with torch.no_grad():
        x = torch.as_tensor(obs)
        logits = F.linear(tower(x, "policy_net"), state["action_net.weight"],
                          state["action_net.bias"])
        values = F.linear(tower(x, "value_net"), state["value_net.weight"],
                          state["value_net.bias"])[:, 0]
    np.testing.assert_allclose(net.logits(obs), logits.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(net.values(obs), values.numpy(), rtol=1e-5, atol=1e-5)
    for (_view, legal), row, theirs in zip(decisions, obs, logits, strict=True):
        indices = [index_of(a) for a in legal]  # type: ignore[arg-type]
        mask = np.zeros(net.actions, dtype=bool)
        mask[indices] = True
        best = int(torch.where(torch.as_tensor(mask), theirs, -1e8).argmax())
        assert net.choose(row, indices) == best
        assert int(np.argmax(net.masked_logits(row, mask))) == best


def test_missing_numpy_names_the_extra_in_one_line() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from handfoot.bots import make_bot\n"
        "from handfoot.bots.policy import PolicyError\n"
        "from handfoot.engine import Game\nfrom handfoot.presets import preset\n"
        "from handfoot.views import view\n"
        "g = Game.new(preset('hand-and-foot'), seed=1)\n"
        "try:\n    make_bot('policy').choose(view(g, g.actor), g.legal_actions())\n"
        "except PolicyError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out == "bot 'policy' needs NumPy: install the rl extra: pip install 'handfoot[rl]'\n"


def test_policy_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="no model file at"):
        make_bot(f"policy:path={tmp_path / 'missing.zip'}")


def test_other_options_stay_numbers() -> None:
    with pytest.raises(BotError, match="is not a number"):
        make_bot("search:worlds=many")


def test_arena_reports_a_missing_model_in_one_line(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    code = main(["arena", "--bots", f"policy:path={tmp_path}/none.zip", "random", "--deals",
                 "1", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "no model file" in err


def test_missing_packages_give_one_line(tmp_path: Path) -> None:
    """With torch unavailable the bot says what to install, without a traceback."""
    model = tmp_path / "m.zip"
    model.write_bytes(b"not a model")
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from handfoot.bots import make_bot\n"
        "from handfoot.bots.policy import PolicyError\n"
        "from handfoot.engine import Game\nfrom handfoot.presets import preset\n"
        "from handfoot.views import view\n"
        "g = Game.new(preset('hand-and-foot'), seed=1)\n"
        "try:\n"
        f"    bot = make_bot('policy:path={model}')\n"
        "    bot.choose(view(g, g.actor), g.legal_actions())\n"
        "except PolicyError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.startswith("bot 'policy' needs NumPy, PyTorch and sb3-contrib for a .zip "
                          "model (torch is missing)") and 'pip install torch "handfoot[train]"' \
        in out
    assert out.count("\n") == 1


ZIP_EXTRA = '(numpy is missing): pip install torch "handfoot[train]"'
NPZ_EXTRA = "install the rl extra: pip install 'handfoot[rl]'"


@pytest.mark.parametrize(("argv", "extra"), [
    # play loads the terminal game's modules first: about two seconds, so in the full run only
    pytest.param(["play", "--bots", f"policy:path={EXAMPLE}"], ZIP_EXTRA,
                 marks=pytest.mark.slow),
    (["arena", "--bots", f"policy:path={EXAMPLE}", "random", "--deals", "1", "--jobs", "1"],
     ZIP_EXTRA),
    (["arena", "--bots", "policy", "random", "--deals", "1", "--jobs", "1"], NPZ_EXTRA),
])
def test_without_numpy_the_command_names_the_extra_in_one_line(argv: list[str],
                                                                extra: str) -> None:
    """No NumPy (nor what needs it): one line naming the extra to install, exit 2, before
    the game starts; it used to be "internal error: ModuleNotFoundError"."""
    code = (
        "import sys\n"
        "for name in ('numpy', 'torch', 'sb3_contrib'):\n    sys.modules[name] = None\n"
        "from handfoot.cli.main import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("handfoot: error: bot "
                                                                    "'policy' needs NumPy")
    assert extra in done.stderr


@pytest.fixture(scope="module")
def small_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    from handfoot.env import HandfootEnv

    env = HandfootEnv("hand-and-foot", players=2, rounds=1)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(128)
    path = tmp_path_factory.mktemp("policy") / "small.zip"
    model.save(path)
    return path


@pytest.mark.slow
def test_a_trained_model_plays_legal_actions_in_the_arena(
        small_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", f"policy:path={small_model}", "random", "--deals", "1",
                 "--rounds", "1", "--players", "2", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    pair = json.loads(out)["pairs"][0]
    assert pair["a"].startswith("policy") and pair["games"] == 2


@pytest.mark.slow
def test_the_bot_chooses_from_the_legal_list(small_model: Path) -> None:
    from handfoot.bots.base import ask
    from handfoot.engine import Game
    from handfoot.presets import preset

    bot = make_bot(f"policy:path={small_model}")
    game = Game.new(preset("hand-and-foot", 2).replace(rounds=1), seed=3)
    for _ in range(200):
        if game.over:
            break
        action = ask(bot, game)
        assert action in game.legal_actions()
        game.apply(action)


@pytest.mark.slow
@pytest.mark.skipif(not EXAMPLE.exists(), reason="no example model committed")
def test_the_example_model_loads_and_plays() -> None:
    pytest.importorskip("sb3_contrib")
    from handfoot.bots.base import ask
    from handfoot.engine import Game
    from handfoot.presets import preset

    bot = make_bot(f"policy:path={EXAMPLE}")
    game = Game.new(preset("hand-and-foot"), seed=9)
    for _ in range(100):
        game.apply(ask(bot, game))


@pytest.mark.slow
@pytest.mark.skipif(not EXAMPLE.exists(), reason="no example model committed")
def test_a_model_for_another_table_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib")
    code = main(["arena", "--bots", f"policy:path={EXAMPLE}", "random", "--deals", "1",
                 "--players", "2", "--rounds", "1", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "trained for hand-and-foot with 4 players" in err and "players" in err


@pytest.mark.skipif(not EXAMPLE.exists(), reason="no example model committed")
def test_a_zip_records_its_table_and_is_refused_before_torch_loads() -> None:
    """The example zip carries its metadata (``handfoot.json``): the table is checked first,
    so a table it was not made for is refused in one line even where torch is missing."""
    pytest.importorskip("numpy")
    from handfoot.bots import network

    meta = network.zip_metadata(str(EXAMPLE))
    assert meta is not None and meta["players"] == [4]
    assert meta["tables"][0]["name"] == "hand-and-foot" and meta["observation_size"] == 355
    shipped = json.loads((SHIPPED / "hand-and-foot-4p.json").read_text())
    assert meta["tables"] == shipped["tables"]
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from handfoot.bots import make_bot\nfrom handfoot.bots.policy import PolicyError\n"
        "from handfoot.engine import Game\nfrom handfoot.presets import preset\n"
        "from handfoot.views import view\n"
        f"bot = make_bot('policy:path={EXAMPLE}')\n"
        "g = Game.new(preset('hand-and-foot-classic'), seed=1)\n"
        "try:\n    bot.choose(view(g, g.actor), g.legal_actions())\n"
        "except PolicyError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.count("\n") == 1
    assert "trained for hand-and-foot with 4 players" in out and "hand-and-foot-classic" in out
